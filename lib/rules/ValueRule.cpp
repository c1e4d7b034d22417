//===- ValueRule.cpp - dp::reduce, dp::reduce<Dim>, dp::scan<Dim> ---------===//

#include "ValueRule.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

std::optional<StatementMatcher> ValueRule::dependentMatcher() const {
  if (!ReportsTemplates)
    return std::nullopt;
  return callExpr(callee(unresolvedLookupExpr(
                      hasAnyDeclaration(functionTemplateDecl(callSiteCallee(name()))))))
      .bind("call");
}

} // namespace dpstub
