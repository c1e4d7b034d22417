//===- ForallRule.cpp - dp::forall: matcher and analysis ------------------===//

#include "ForallRule.h"
#include "dpstub/Analysis.h"
#include "dpstub/DpTypes.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

StatementMatcher ForallRule::matcher() const {
  // By declaration: using-declarations, namespace aliases and ADL all lead
  // to this function template.
  return callExpr(callee(functionDecl(hasName("::dp::forall")))).bind("call");
}

StatementMatcher ForallRule::dependentMatcher() const {
  return callExpr(callee(unresolvedLookupExpr(
                      hasAnyDeclaration(functionTemplateDecl(hasName("::dp::forall"))))))
      .bind("call");
}

std::optional<AnalysedCall> ForallRule::analyse(const CallExpr *Call, ASTContext &Ctx,
                                                Reporter &Diags) const {
  if (Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID()) {
    Diags.untouched(Call->getBeginLoc()) << kind() << "it is spelled inside a macro expansion";
    return std::nullopt;
  }
  if (Call->getNumArgs() < 2)
    return std::nullopt;
  const Expr *Domain = Call->getArg(0);
  const std::optional<int> Rc = gridRank(Domain->getType());
  if (!Rc) {
    Diags.badDomain(Domain->getExprLoc()) << printType(Domain->getType(), Ctx);
    return std::nullopt;
  }
  std::optional<AnalysedCall> A =
      analyseKernelCall(Call, kind(), /*KernelArg=*/1, /*FirstArg=*/2, *Rc, Ctx, Diags);
  if (!A)
    return A;
  // User indexable types travel to the device by value and are only read
  // there; fields are what a stub can project and write.
  for (const Argument &Arg : A->Model.Args) {
    const bool UserType = Arg.ActualRank > 0 && !Arg.ActualIsField;
    if (UserType && (Arg.Conv == Conversion::PartialProjection || Arg.Writable)) {
      Diags.untouched(Call->getArg(2 + Arg.Position)->getExprLoc())
          << kind()
          << (Arg.Conv == Conversion::PartialProjection
                  ? "partial projection of a user indexable type is not supported in stubs"
                  : "a user indexable type bound to a writable parameter is not supported in "
                    "stubs");
      return std::nullopt;
    }
  }
  return A;
}

} // namespace dpstub
