//===- ReduceRule.cpp - dp::reduce into a scalar --------------------------===//

#include "ReduceRule.h"
#include "ValueCall.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

StatementMatcher ReduceRule::matcher() const { return valueCallMatcher(kind(), /*WithDim=*/false); }

std::optional<StatementMatcher> ReduceRule::dependentMatcher() const {
  // Reports reduce<Dim> too: in a pattern the two forms look alike.
  return callExpr(callee(unresolvedLookupExpr(
                      hasAnyDeclaration(functionTemplateDecl(callSiteCallee(kind()))))))
      .bind("call");
}

std::optional<AnalysedCall> ReduceRule::analyse(const CallExpr *Call, ASTContext &Ctx,
                                                Reporter &Diags) const {
  return analyseValueCall(Call, kind(), Ctx, Diags);
}

} // namespace dpstub
