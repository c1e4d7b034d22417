//===- Rules.cpp - The registry of call-site kinds ------------------------===//
//
// Every rule of lib/rules/, in the order they match (clang-tidy's module
// layout: one file pair per rule, this file the registry).
//
//===----------------------------------------------------------------------===//

#include "dpstub/Rule.h"
#include "ForallRule.h"
#include "SortRule.h"
#include "ValueRule.h"

#include "clang/AST/Decl.h"
#include "llvm/Support/ErrorHandling.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

namespace {
/// A launcher dpstub generated for a call-site of `Kind`: `KIND_LINE_COL`
/// in a namespace nested in ::dpstub. Checks the identifier first, so that
/// the qualified name of every other callee is never built.
AST_MATCHER_P(NamedDecl, isLauncherOf, std::string, Kind) {
  const IdentifierInfo *II = Node.getIdentifier();
  if (!II)
    return false;
  llvm::StringRef Name = II->getName();
  if (!Name.consume_front(Kind) || !Name.consume_front("_"))
    return false;
  auto [Line, Column] = Name.split('_');
  if (Line.empty() || Column.empty() ||
      Line.find_first_not_of("0123456789") != llvm::StringRef::npos ||
      Column.find_first_not_of("0123456789") != llvm::StringRef::npos)
    return false;
  for (const DeclContext *DC = Node.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "dpstub" && NS->getParent()->isTranslationUnit())
        return true;
  return false;
}
} // namespace

clang::ast_matchers::internal::Matcher<NamedDecl> callSiteCallee(llvm::StringRef Kind) {
  return anyOf(hasName(("::dp::" + Kind).str()), isLauncherOf(Kind.str()));
}

const std::vector<std::unique_ptr<Rule>> &allRules() {
  static const std::vector<std::unique_ptr<Rule>> Rules = [] {
    std::vector<std::unique_ptr<Rule>> R;
    R.push_back(std::make_unique<ForallRule>());
    R.push_back(std::make_unique<ValueRule>(CallKind::Reduce, /*WithDim=*/false, /*ReportsTemplates=*/true));
    R.push_back(std::make_unique<ValueRule>(CallKind::Reduce, /*WithDim=*/true, /*ReportsTemplates=*/false));
    R.push_back(std::make_unique<ValueRule>(CallKind::Scan, /*WithDim=*/true, /*ReportsTemplates=*/true));
    R.push_back(std::make_unique<SortRule>());
    return R;
  }();
  return Rules;
}

const Rule &ruleFor(const CallSite &C) {
  for (const auto &R : allRules())
    if (R->handles(C))
      return *R;
  llvm_unreachable("a call-site kind without a rule");
}

StubSpec stubSpecOf(const CallSite &C) { return ruleFor(C).stubSpec(C); }

} // namespace dpstub
