//===- ForallRule.cpp - dp::forall: matcher and analysis ------------------===//

#include "ForallRule.h"
#include "KernelAnalysis.h"
#include "DomainAnalysis.h"
#include "dpstub/DpTypes.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

StatementMatcher ForallRule::matcher() const {
  // By declaration: using-declarations, namespace aliases and ADL all lead
  // to this function template.
  return callExpr(callee(functionDecl(callSiteCallee("forall")))).bind("call");
}

std::optional<StatementMatcher> ForallRule::dependentMatcher() const {
  return callExpr(callee(unresolvedLookupExpr(
                      hasAnyDeclaration(functionTemplateDecl(callSiteCallee("forall"))))))
      .bind("call");
}

std::optional<AnalysedCall> ForallRule::analyse(const CallExpr *Call, ASTContext &Ctx,
                                                Reporter &Diags) const {
  Domain D;
  const std::optional<int> Rc = checkCallShape(Call, name(), 2, Ctx, Diags, AnyDomain, &D);
  if (!Rc)
    return std::nullopt;
  std::optional<AnalysedCall> A = analyseKernelCall(Call, kind(), KernelBinding(), *Rc, Ctx, Diags);
  if (!A || !analyseDomain(*A, D, /*FirstArg=*/2, Ctx, Diags))
    return std::nullopt;
  if (!stubsCanPass(*A, name(), /*FirstArg=*/2, Diags))
    return std::nullopt;
  return A;
}

} // namespace dpstub
