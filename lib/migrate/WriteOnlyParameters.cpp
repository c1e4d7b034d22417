//===- WriteOnlyParameters.cpp - Helpers that only fill an array ----------===//

#include "migrate/WriteOnlyParameters.h"

#include "migrate/BodyScan.h"

#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace dpstub::migrate {

namespace {

/// Whether every use of P in Body is a subscript down to a value that a
/// plain `=` assigns.
bool onlyAssigned(const ParmVarDecl *P, const Stmt *Body, ASTContext &Ctx) {
  bool Used = false;
  for (const DeclRefExpr *R : namesIn(Body)) {
    if (R->getDecl() != P)
      continue;
    int Subscripts = 0;
    const Expr *Cur = subscriptedElement(R, Ctx, &Subscripts);
    if (!Subscripts || Cur->getType()->isArrayType() || Cur->getType()->isPointerType())
      return false;
    const UseMode Mode = useMode(Cur, Ctx);
    if (!Mode.Write || Mode.Read || Mode.Address)
      return false;
    Used = true;
  }
  return Used;
}

} // namespace

const ParmVarDecl *writeOnlyParameterOf(const Expr *E, ASTContext &Ctx) {
  const Stmt *Child = nullptr;
  const Stmt *P = meaningfulParent(E, Ctx, Child);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P); U && U->getOpcode() == UO_AddrOf) {
    if (E->getType()->isArrayType())
      return nullptr; // `&t`: a pointer to the whole array, another type
    P = meaningfulParent(U, Ctx, Child);
  } else if (!E->getType()->isArrayType()) {
    return nullptr; // a value, or a pointer the loop holds
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || !Def || isa<CXXMethodDecl>(Def))
    return nullptr;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams(); ++I) {
    if (Call->getArg(I) != Child)
      continue;
    const ParmVarDecl *Param = Def->getParamDecl(I);
    const auto *Pointer = Param->getType()->getAs<PointerType>();
    if (!Pointer || Pointer->getPointeeType().isConstQualified())
      return nullptr;
    return onlyAssigned(Param, Def->getBody(), Ctx) ? Param : nullptr;
  }
  return nullptr;
}

} // namespace dpstub::migrate
