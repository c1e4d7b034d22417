//===- PencilReduceRule.cpp - dp::reduce<Dim> -----------------------------===//

#include "PencilReduceRule.h"
#include "ValueCall.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

StatementMatcher PencilReduceRule::matcher() const {
  return valueCallMatcher(kind(), /*WithDim=*/true);
}

std::optional<StatementMatcher> PencilReduceRule::dependentMatcher() const {
  return std::nullopt; // ReduceRule reports both forms of dp::reduce
}

std::optional<AnalysedCall> PencilReduceRule::analyse(const CallExpr *Call, ASTContext &Ctx,
                                                      Reporter &Diags) const {
  return analyseValueCall(Call, kind(), Ctx, Diags);
}

} // namespace dpstub
