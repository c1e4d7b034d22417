//===- Rules.cpp - The registry of call-site kinds ------------------------===//

#include "dpstub/Rule.h"
#include "ForallRule.h"

namespace dpstub {

const std::vector<std::unique_ptr<Rule>> &allRules() {
  static const std::vector<std::unique_ptr<Rule>> Rules = [] {
    std::vector<std::unique_ptr<Rule>> R;
    R.push_back(std::make_unique<ForallRule>());
    return R;
  }();
  return Rules;
}

} // namespace dpstub
