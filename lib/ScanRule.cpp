//===- ScanRule.cpp - dp::scan<Dim> ---------------------------------------===//

#include "ScanRule.h"
#include "ValueCall.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

StatementMatcher ScanRule::matcher() const { return valueCallMatcher(kind(), /*WithDim=*/true); }

std::optional<StatementMatcher> ScanRule::dependentMatcher() const {
  return callExpr(callee(unresolvedLookupExpr(
                      hasAnyDeclaration(functionTemplateDecl(callSiteCallee(kind()))))))
      .bind("call");
}

std::optional<AnalysedCall> ScanRule::analyse(const CallExpr *Call, ASTContext &Ctx,
                                              Reporter &Diags) const {
  return analyseValueCall(Call, kind(), Ctx, Diags);
}

} // namespace dpstub
