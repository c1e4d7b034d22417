//===- OffsetPointer.cpp - Pointers that name a place in an array ---------===//

#include "migrate/OffsetPointer.h"

#include "migrate/BodyScan.h"

#include "clang/Basic/SourceManager.h"
#include "clang/AST/ParentMapContext.h"
#include "AstVisitor.h"

using namespace clang;

namespace dpstub::migrate {
namespace {

/// A variable's one dimension of plain elements: a pointer to a value, or
/// a C array of values (not of rows).
bool oneDimension(QualType T) {
  if (const auto *P = T->getAs<PointerType>())
    return !P->getPointeeType()->isPointerType() && !P->getPointeeType()->isArrayType() &&
           !P->getPointeeType()->isFunctionType() && !P->getPointeeType()->isVoidType();
  if (const ArrayType *A = T->getAsArrayTypeUnsafe())
    return !A->getElementType()->isArrayType() && !A->getElementType()->isPointerType();
  return false;
}

QualType elementOf(QualType T) {
  if (const auto *P = T->getAs<PointerType>())
    return P->getPointeeType();
  return T->getAsArrayTypeUnsafe()->getElementType();
}

const VarDecl *variableOf(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// Value as a making (`&a[e]`, `a + e`, `e + a`), outside any macro.
/// (Parentheses around its parts would be left unbalanced by the edits.)
std::optional<OffsetMaking> making(const Expr *Value) {
  if (Value->getBeginLoc().isMacroID() || Value->getEndLoc().isMacroID())
    return std::nullopt;
  OffsetMaking M;
  M.Value = Value;
  const Expr *E = Value->IgnoreImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
    const auto *S = dyn_cast<ArraySubscriptExpr>(U->getSubExpr());
    if (!S || S->getBase() != S->getLHS())
      return std::nullopt;
    M.ArrayRef = S->getBase()->IgnoreImpCasts();
    M.Offset = S->getIdx();
  } else if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_Add) {
    const bool Left = B->getLHS()->getType()->isPointerType();
    M.How = Left ? OffsetMaking::Form::Plus : OffsetMaking::Form::PlusLeft;
    M.ArrayRef = (Left ? B->getLHS() : B->getRHS())->IgnoreImpCasts();
    M.Offset = Left ? B->getRHS() : B->getLHS();
  } else {
    return std::nullopt;
  }
  if (!isa<DeclRefExpr>(M.ArrayRef) || !M.Offset->getType()->isIntegerType())
    return std::nullopt;
  return M;
}

/// The uses of every local pointer variable of a body, in order.
class PointerUses : public AstVisitor {
public:
  bool VisitDeclRefExpr(DeclRefExpr *D) override {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()); V && V->hasLocalStorage() && V->getType()->isPointerType())
      Found[V].push_back(D);
    return true;
  }
  std::map<const VarDecl *, std::vector<const DeclRefExpr *>> Found;
};

/// P as an offset pointer, its uses in its function (Found) given.
std::optional<OffsetPointer> decide(const VarDecl *P, const std::vector<const DeclRefExpr *> &Found,
                                    ASTContext &Ctx) {
  const auto *Pointer = P->getType()->getAs<PointerType>();
  if (!Pointer || isa<ParmVarDecl>(P) || !P->hasLocalStorage() || P->getLocation().isMacroID())
    return std::nullopt;
  const DynTypedNodeList Parents = Ctx.getParents(*P);
  const auto *Statement = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!Statement || !Statement->isSingleDecl())
    return std::nullopt;
  OffsetPointer O;
  if (const Expr *Init = P->getInit()) {
    std::optional<OffsetMaking> M = making(Init);
    if (!M)
      return std::nullopt;
    O.Makings.push_back(*M);
  }
  // Its uses: assignments of makings, and subscripts, each element used
  // in place.
  // Written in the file, or in a macro's argument (`DOT(rA[i], rB[j])`),
  // where its text is the file's too; not in a macro's definition.
  const SourceManager &SM = Ctx.getSourceManager();
  auto Written = [&](SourceLocation L) { return !L.isMacroID() || SM.isMacroArgExpansion(L); };
  for (const DeclRefExpr *D : Found) {
    if (!Written(D->getLocation()))
      return std::nullopt;
    const Stmt *Child;
    const Stmt *Up = meaningfulParent(D, Ctx, Child);
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Up); B && B->getOpcode() == BO_Assign && B->getLHS() == Child) {
      std::optional<OffsetMaking> M = making(B->getRHS());
      // A statement of its own: its value, the pointer, goes nowhere
      // (`q = p = &a[k]` would hand it on).
      if (!M || isa_and_nonnull<Expr>(parentOf(B, Ctx)))
        return std::nullopt;
      O.Makings.push_back(*M);
      continue;
    }
    const auto *S = dyn_cast_or_null<ArraySubscriptExpr>(Up);
    if (!S || S->getBase() != Child || S->getBase() != S->getLHS() || !Written(S->getRBracketLoc()))
      return std::nullopt;
    bool Decays = false;
    elementPart(S, Ctx, Decays);
    if (Decays || useMode(S, Ctx).Address)
      return std::nullopt;
    O.Uses.push_back(S);
  }
  if (O.Makings.empty())
    return std::nullopt;
  O.Array = variableOf(O.Makings.front().ArrayRef);
  for (const OffsetMaking &M : O.Makings)
    if (variableOf(M.ArrayRef) != O.Array)
      return std::nullopt;
  if (!O.Array || O.Array == P || !oneDimension(O.Array->getType()) ||
      !Ctx.hasSameUnqualifiedType(elementOf(O.Array->getType()), Pointer->getPointeeType()))
    return std::nullopt;
  return O;
}

} // namespace

const OffsetPointers::UseMap &OffsetPointers::usesIn(const FunctionDecl *F) const {
  auto [It, New] = Uses.try_emplace(F);
  if (New) {
    PointerUses Walk;
    Walk.TraverseStmt(F->getBody());
    It->second = std::move(Walk.Found);
  }
  return It->second;
}

const OffsetPointer *OffsetPointers::of(const VarDecl *P) const {
  auto [It, New] = Known.try_emplace(P);
  if (New) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(P->getParentFunctionOrMethod());
    if (F && F->getBody() && P->getType()->isPointerType()) {
      const UseMap &All = usesIn(F);
      const auto Found = All.find(P);
      It->second = decide(P, Found == All.end() ? std::vector<const DeclRefExpr *>() : Found->second, Ctx);
    }
  }
  return It->second ? &*It->second : nullptr;
}

const VarDecl *OffsetPointers::namedBy(const DeclRefExpr *D) const {
  // Up through casts and parentheses, a subscript and `&`, or a `+`, to
  // the declaration it initialises or the assignment it is the value of.
  const Stmt *Child;
  const Stmt *Up = meaningfulParent(D, Ctx, Child);
  if (const auto *S = dyn_cast_or_null<ArraySubscriptExpr>(Up); S && S->getBase() == Child) {
    Up = meaningfulParent(S, Ctx, Child);
    const auto *U = dyn_cast_or_null<UnaryOperator>(Up);
    if (!U || U->getOpcode() != UO_AddrOf)
      return nullptr;
    Up = meaningfulParent(U, Ctx, Child);
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(Up); B && B->getOpcode() == BO_Add) {
    Up = meaningfulParent(B, Ctx, Child);
  } else {
    return nullptr;
  }
  const VarDecl *P = nullptr;
  if (const auto *Set = dyn_cast_or_null<BinaryOperator>(Up)) {
    if (Set->getOpcode() != BO_Assign || Set->getRHS() != Child)
      return nullptr;
    P = variableOf(Set->getLHS());
  } else if (!Up) {
    for (const DynTypedNode &N : Ctx.getParents(*Child))
      if (const auto *V = N.get<VarDecl>(); V && V->getInit() == Child)
        P = V;
  }
  if (!P)
    return nullptr;
  if (const OffsetPointer *O = of(P))
    for (const OffsetMaking &M : O->Makings)
      if (M.ArrayRef == D)
        return P;
  return nullptr;
}

} // namespace dpstub::migrate
