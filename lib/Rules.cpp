//===- Rules.cpp - The registry of call-site kinds ------------------------===//

#include "dpstub/Rule.h"
#include "ForallRule.h"

#include "llvm/Support/ErrorHandling.h"

namespace dpstub {

const std::vector<std::unique_ptr<Rule>> &allRules() {
  static const std::vector<std::unique_ptr<Rule>> Rules = [] {
    std::vector<std::unique_ptr<Rule>> R;
    R.push_back(std::make_unique<ForallRule>());
    return R;
  }();
  return Rules;
}

const Rule &ruleFor(llvm::StringRef Kind) {
  for (const auto &R : allRules())
    if (R->kind() == Kind)
      return *R;
  llvm_unreachable("a call-site kind without a rule");
}

} // namespace dpstub
