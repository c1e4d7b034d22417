//===- BodyScan.cpp - What a loop body touches ----------------------------===//

#include "migrate/BodyScan.h"

#include "migrate/Allocations.h"
#include "migrate/OffsetPointer.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "AstVisitor.h"

#include <algorithm>
#include <cctype>

using namespace clang;

namespace dpstub::migrate {

const Stmt *parentOf(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList P = Ctx.getParents(*S);
  return P.empty() ? nullptr : P[0].get<Stmt>();
}

const Stmt *meaningfulParent(const Stmt *S, ASTContext &Ctx, const Stmt *&Child) {
  Child = S;
  const Stmt *P = parentOf(S, Ctx);
  while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P))) {
    Child = P;
    P = parentOf(P, Ctx);
  }
  return P;
}

namespace {
void addBodies(const DeclContext *DC, std::vector<const Stmt *> &Out) {
  for (const Decl *D : DC->decls()) {
    const FunctionDecl *F = dyn_cast<FunctionDecl>(D);
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      F = T->getTemplatedDecl();
    if (F && F->doesThisDeclarationHaveABody())
      Out.push_back(F->getBody());
    if (isa<LinkageSpecDecl>(D) || isa<NamespaceDecl>(D) || isa<CXXRecordDecl>(D))
      addBodies(cast<DeclContext>(D), Out);
    else if (const auto *T = dyn_cast<ClassTemplateDecl>(D))
      addBodies(T->getTemplatedDecl(), Out);
  }
}
} // namespace

std::vector<const Stmt *> functionBodies(const ASTContext &Ctx) {
  std::vector<const Stmt *> Out;
  addBodies(Ctx.getTranslationUnitDecl(), Out);
  return Out;
}

const Expr *subscriptedElement(const Expr *E, ASTContext &Ctx, int *Subscripts) {
  int N = 0;
  while (true) {
    const Stmt *Child = nullptr;
    const auto *S = dyn_cast_or_null<ArraySubscriptExpr>(meaningfulParent(E, Ctx, Child));
    if (!S || S->getBase()->IgnoreParenImpCasts() != E)
      break;
    E = S;
    ++N;
  }
  if (Subscripts)
    *Subscripts = N;
  return E;
}

bool isArrayLike(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *P = T->getAs<PointerType>())
    return !P->getPointeeType()->isFunctionType() && !P->getPointeeType()->isVoidType();
  if (T->isArrayType())
    return true;
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD->getName() == "vector" && RD->isInStdNamespace();
  return false;
}

const Expr *elementPart(const Expr *E, ASTContext &Ctx, bool &Decays) {
  Decays = false;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*E);
    const Expr *P = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!P)
      return E;
    if (isa<ParenExpr>(P) || (isa<ImplicitCastExpr>(P) && cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp) ||
        (isa<MemberExpr>(P) && !cast<MemberExpr>(P)->isArrow())) {
      E = P; // a[k].m
      continue;
    }
    const auto *Cast = dyn_cast<ImplicitCastExpr>(P);
    if (!Cast || Cast->getCastKind() != CK_ArrayToPointerDecay || !isa<MemberExpr>(E->IgnoreParens()))
      return E;
    DynTypedNodeList Above = Ctx.getParents(*Cast);
    const auto *S = Above.empty() ? nullptr : Above[0].get<ArraySubscriptExpr>();
    if (!S || S->getBase() != Cast) {
      Decays = true; // a[k].keys as a pointer
      return Cast;
    }
    E = S; // a[k].keys[j]
  }
}

UseMode useMode(const Expr *E, ASTContext &Ctx) {
  UseMode M;
  bool Decays = false;
  const Expr *Child = elementPart(E, Ctx, Decays); // a[i].x = ... writes a[i]
  if (Decays) {
    // A pointer into it handed on (a[k].keys): written unless it becomes
    // a pointer to const.
    while (const auto *Up = dyn_cast_or_null<ImplicitCastExpr>(parentOf(Child, Ctx)))
      Child = Up;
    const auto *Pointer = Child->getType()->getAs<PointerType>();
    M.Read = true;
    M.Write = !Pointer || !Pointer->getPointeeType().isConstQualified();
    return M;
  }
  DynTypedNodeList Parents = Ctx.getParents(*Child);
  const Expr *P = Parents.empty() ? nullptr : Parents[0].get<Expr>();
  if (!P) {
    M.Read = true;
    return M;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(P)) {
    if (B->isAssignmentOp() && B->getLHS()->IgnoreParens() == Child->IgnoreParens()) {
      M.Write = true;
      M.Read = B->isCompoundAssignmentOp();
      return M;
    }
    M.Read = true;
    return M;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(P)) {
    if (U->isIncrementDecrementOp()) {
      M.Read = M.Write = true;
      return M;
    }
    if (U->getOpcode() == UO_AddrOf) {
      M.Read = M.Write = M.Address = true;
      return M;
    }
    M.Read = true;
    return M;
  }
  if (const auto *C = dyn_cast<CallExpr>(P)) {
    // An argument bound to a non-const reference may be written.
    const FunctionDecl *FD = C->getDirectCallee();
    const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
    if (MC && MC->getImplicitObjectArgument() &&
        MC->getImplicitObjectArgument()->IgnoreParenImpCasts() == Child->IgnoreParenImpCasts()) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      M.Read = true;
      M.Write = M.Address = !MD || !MD->isConst();
      return M;
    }
    // The left side of a class type's operator (`a[i] = b[i]` of structs
    // in C++, `a[i] += x`): assigned; read too unless by a defaulted `=`
    // (or an `=` not yet resolved, in a template). Of another member
    // operator that is not const: written, maybe through its address
    // (an operator not yet resolved, `a[i] + x` in a template, reads).
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
    if (Op && Op->getNumArgs() > 0 && Op->getArg(0)->IgnoreParenImpCasts() == Child->IgnoreParenImpCasts()) {
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      if (Op->isAssignmentOp()) {
        M.Write = true;
        M.Read = Op->getOperator() != OO_Equal || (FD && !FD->isDefaulted());
        return M;
      }
      if (MD) {
        M.Read = true;
        M.Write = M.Address = !MD->isConst();
        return M;
      }
    }
    const unsigned Shift = Op && FD && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      if (C->getArg(I)->IgnoreParens() == Child->IgnoreParens() && FD && I >= Shift &&
          I - Shift < FD->getNumParams()) {
        const QualType PT = FD->getParamDecl(I - Shift)->getType();
        if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified()) {
          M.Read = M.Write = M.Address = true;
          return M;
        }
      }
    M.Read = true;
    return M;
  }
  M.Read = true;
  return M;
}

std::vector<const DeclRefExpr *> namesIn(const Stmt *S) {
  struct V : AstVisitor {
    std::vector<const DeclRefExpr *> Out;
    bool VisitDeclRefExpr(DeclRefExpr *D) override {
      Out.push_back(D);
      return true;
    }
  } Visit;
  Visit.TraverseStmt(const_cast<Stmt *>(S));
  return Visit.Out;
}

std::vector<const CallExpr *> callsIn(const Stmt *S) {
  struct V : AstVisitor {
    std::vector<const CallExpr *> Out;
    bool VisitCallExpr(CallExpr *C) override {
      Out.push_back(C);
      return true;
    }
  } Visit;
  Visit.TraverseStmt(const_cast<Stmt *>(S));
  return Visit.Out;
}

bool names(const Stmt *S, const std::vector<const VarDecl *> &Vars) {
  const std::vector<const DeclRefExpr *> Refs = namesIn(S);
  return std::any_of(Refs.begin(), Refs.end(), [&](const DeclRefExpr *R) {
    return std::find(Vars.begin(), Vars.end(), R->getDecl()) != Vars.end();
  });
}

namespace {

class Scanner : public AstVisitor {
public:
  Scanner(ASTContext &Ctx, BodyFacts &Out, const OffsetPointers &Offsets, const MemberVars *Members)
      : Ctx(Ctx), Out(Out), Offsets(Offsets), Members(Members) {}

  // A data member by its name: a use of its variable, `this` not used.
  bool TraverseMemberExpr(MemberExpr *E) override {
    if (const VarDecl *V = member(E)) {
      Out.Refs.push_back({E, V, useMode(E, Ctx), Conditional > 0 || !IfConds.empty()});
      return true;
    }
    return AstVisitor::TraverseMemberExpr(E);
  }

  /// E's member variable (MemberVars), unless E is a path from a local of
  /// the body (private to the kernel, as its variable is).
  const VarDecl *member(const Expr *E) const {
    const VarDecl *V = Members ? Members->of(E) : nullptr;
    const VarDecl *Root = V ? Members->rootOf(V) : nullptr;
    return Root && Locals.count(Root) ? nullptr : V;
  }


  bool TraverseDeclStmt(DeclStmt *S) override {
    for (Decl *D : S->decls())
      if (auto *V = dyn_cast<VarDecl>(D)) {
        Locals.insert(V);
        if (V->isStaticLocal())
          Out.StaticLocals.push_back(V);
        if (Offsets.of(V))
          Out.OffsetPointers.insert(V);
      }
    return AstVisitor::TraverseDeclStmt(S);
  }

  bool TraverseLambdaExpr(LambdaExpr *L) override {
    ++InLambda;
    for (const ParmVarDecl *P : L->getCallOperator()->parameters())
      Locals.insert(P);
    const bool R = AstVisitor::TraverseLambdaExpr(L);
    --InLambda;
    return R;
  }

  // Conditions: what follows them may not happen.
  bool TraverseIfStmt(IfStmt *S) override {
    if (S->getInit())
      TraverseStmt(S->getInit());
    if (S->getConditionVariableDeclStmt())
      TraverseStmt(S->getConditionVariableDeclStmt());
    TraverseStmt(S->getCond());
    // The then-branch happens exactly when the condition holds (with no
    // initialiser or variable of its own to evaluate first).
    const bool Plain = !S->getInit() && !S->getConditionVariableDeclStmt() && !S->isConsteval();
    if (Plain)
      IfConds.push_back(S->getCond());
    else
      ++Conditional;
    TraverseStmt(S->getThen());
    if (Plain)
      IfConds.pop_back(), ++Conditional;
    TraverseStmt(S->getElse());
    --Conditional;
    return true;
  }
  bool TraverseConditionalOperator(ConditionalOperator *C) override {
    TraverseStmt(C->getCond());
    ++Conditional;
    TraverseStmt(C->getTrueExpr());
    TraverseStmt(C->getFalseExpr());
    --Conditional;
    return true;
  }
  bool TraverseBinaryOperator(BinaryOperator *B) override {
    if (!B->isLogicalOp())
      return AstVisitor::TraverseBinaryOperator(B);
    TraverseStmt(B->getLHS());
    ++Conditional;
    TraverseStmt(B->getRHS());
    --Conditional;
    return true;
  }
  bool TraverseSwitchStmt(SwitchStmt *S) override {
    TraverseStmt(S->getCond());
    ++Conditional, ++Breakable;
    TraverseStmt(S->getBody());
    --Conditional, --Breakable;
    return true;
  }
  bool TraverseWhileStmt(WhileStmt *S) override {
    TraverseStmt(S->getCond());
    ++Conditional, ++Breakable, ++Loops;
    TraverseStmt(S->getBody());
    --Conditional, --Breakable, --Loops;
    return true;
  }
  bool TraverseDoStmt(DoStmt *S) override {
    ++Breakable, ++Loops;
    TraverseStmt(S->getBody());
    TraverseStmt(S->getCond());
    --Breakable, --Loops;
    return true;
  }
  bool TraverseForStmt(ForStmt *S) override {
    TraverseStmt(S->getInit());
    Out.InnerLoops.push_back(S);
    Enclosing.push_back(S);
    ++Breakable, ++Loops;
    TraverseStmt(S->getCond());
    TraverseStmt(S->getInc());
    TraverseStmt(S->getBody());
    --Breakable, --Loops;
    Enclosing.pop_back();
    return true;
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) override {
    ++Breakable, ++Loops, ++Conditional;
    const bool R = AstVisitor::TraverseCXXForRangeStmt(S);
    --Breakable, --Loops, --Conditional;
    return R;
  }

  bool VisitBreakStmt(BreakStmt *S) override {
    Out.Jumps |= !InLambda;
    if (!Breakable && !InLambda)
      Out.Exits.push_back(S);
    return true;
  }
  bool VisitContinueStmt(ContinueStmt *S) override {
    Out.Jumps |= !InLambda;
    if (!Loops && !InLambda)
      Out.ContinuesLoop = true;
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *S) override {
    if (!InLambda)
      Out.Exits.push_back(S);
    return true;
  }
  bool VisitGotoStmt(GotoStmt *S) override {
    Out.Exits.push_back(S);
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *E) override {
    Out.Exits.push_back(E);
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *S) override {
    Out.Exits.push_back(S);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *E) override {
    if (!Out.ThisUse)
      Out.ThisUse = E;
    return true;
  }
  bool VisitCallExpr(CallExpr *C) override {
    if (!isa<CXXOperatorCallExpr>(C) || !subscriptBase(cast<CXXOperatorCallExpr>(C)))
      Out.Calls.push_back(C);
    return true;
  }

  // An element access: the whole chain of subscripts at once.
  bool TraverseArraySubscriptExpr(ArraySubscriptExpr *E) override { return access(E); }
  bool TraverseCXXMemberCallExpr(CXXMemberCallExpr *E) override {
    if (accessorCall(E))
      return access(E);
    return AstVisitor::TraverseCXXMemberCallExpr(E);
  }
  bool TraverseCXXOperatorCallExpr(CXXOperatorCallExpr *E) override {
    if (subscriptBase(E))
      return access(E);
    return AstVisitor::TraverseCXXOperatorCallExpr(E);
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (!V || Locals.count(V))
      return true;
    if (const VarDecl *P = Offsets.namedBy(E)) {
      Out.OffsetPointers.insert(P);
      return true; // `a + e` making an offset pointer: not a use of the pointer a
    }
    Out.Refs.push_back({E, V, useMode(E, Ctx), Conditional > 0 || !IfConds.empty()});
    return true;
  }

private:
  /// The vector `v` of `v[e]`: a variable, or a member (MemberVars:
  /// `m.v`, or `v` of the object); null for others.
  const Expr *subscriptBase(const CXXOperatorCallExpr *E) const {
    if (E->getOperator() != OO_Subscript || E->getNumArgs() != 2)
      return nullptr;
    const Expr *B = E->getArg(0)->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(B))
      return isArrayLike(D->getType()) ? D : nullptr;
    const VarDecl *V = member(B);
    return V && isArrayLike(V->getType()) ? B : nullptr;
  }

  /// The accessor's member variable of `obj.acc(k)` (MemberVars), unless
  /// obj is a local of the body.
  const VarDecl *accessorCall(const CXXMemberCallExpr *C) const {
    const VarDecl *V = Members ? Members->accessorOf(C) : nullptr;
    const VarDecl *Root = V ? Members->rootOf(V) : nullptr;
    return Root && Locals.count(Root) ? nullptr : V;
  }

  /// The element `a[k]` whose member array B is (`a[k].keys`, through
  /// `.` members only: an array inside the element), when it is a
  /// subscript of a variable; else null.
  static const Expr *elementOfMemberArray(const Expr *B) {
    const auto *M = dyn_cast<MemberExpr>(B->IgnoreParenImpCasts());
    if (!M || M->isArrow() || !M->getType()->isConstantArrayType())
      return nullptr;
    const Expr *E = M->getBase()->IgnoreParenImpCasts();
    while (const auto *Inner = dyn_cast<MemberExpr>(E)) {
      if (Inner->isArrow())
        return nullptr;
      E = Inner->getBase()->IgnoreParenImpCasts();
    }
    return isa<ArraySubscriptExpr>(E) ? E : nullptr;
  }

  /// Records the access Whole (the outermost subscript of an array
  /// variable); Use, the expression whose use says how it is used (Whole,
  /// or the member array's element it holds).
  bool access(Expr *Whole, const Expr *Use = nullptr) {
    ElementAccess A;
    A.Whole = Whole;
    Expr *Base = Whole;
    std::vector<Expr *> Indices;
    while (true) {
      if (auto *S = dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts())) {
        Indices.insert(Indices.begin(), S->getIdx());
        Base = S->getBase();
      } else if (auto *O = dyn_cast<CXXOperatorCallExpr>(Base->IgnoreParenImpCasts());
                 O && subscriptBase(O)) {
        Indices.insert(Indices.begin(), O->getArg(1));
        Base = O->getArg(0);
      } else if (auto *C = dyn_cast<CXXMemberCallExpr>(Base->IgnoreParenImpCasts()); C && accessorCall(C)) {
        Indices.insert(Indices.begin(), C->getArg(0));
        Base = C->getCallee(); // `domain.x`, the accessor's member variable
        break;
      } else {
        break;
      }
    }
    for (Expr *I : Indices)
      TraverseStmt(I);
    // An element's member array (`knodes[k].keys[j]`, b+tree's): the
    // access is of the element, `knodes[k]`; the member's subscripts are
    // expressions like any other.
    if (const Expr *Element = elementOfMemberArray(Base))
      return access(const_cast<Expr *>(Element), Whole);
    auto *D = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!V)
      V = member(Base);
    if (!V) {
      if (!Out.OpaqueAccess)
        Out.OpaqueAccess = Whole;
      return TraverseStmt(Base);
    }
    if (const VarDecl *P = D ? Offsets.namedBy(D) : nullptr) {
      Out.OffsetPointers.insert(P);
      return true; // `&a[e]` making an offset pointer: its index, read above
    }
    // `row[j]` of `double *row = &a[e]`: an element of a.
    if (const OffsetPointer *O = D ? Offsets.of(V) : nullptr) {
      Out.OffsetPointers.insert(V);
      A.Through = V;
      A.Offset = O->onlyOffset(V);
      V = O->Array;
    }
    if (Locals.count(V))
      return true; // a local array of the kernel: private to it
    A.Array = V;
    for (Expr *I : Indices)
      A.Indices.push_back(I);
    A.Mode = useMode(Use ? Use : Whole, Ctx);
    A.Part = Use;
    A.Conditional = Conditional > 0 || !IfConds.empty();
    if (!Conditional)
      A.Guards = IfConds;
    A.InnerLoops = Enclosing;
    Out.Accesses.push_back(std::move(A));
    return true;
  }

  ASTContext &Ctx;
  BodyFacts &Out;
  const OffsetPointers &Offsets;
  const MemberVars *Members;
  std::set<const VarDecl *> Locals;
  std::vector<const ForStmt *> Enclosing;
  std::vector<const Expr *> IfConds; ///< of the then-branches around, where nothing else conditions
  int Conditional = 0, Breakable = 0, Loops = 0, InLambda = 0;
};

} // namespace

const VarDecl *MemberVars::of(const Expr *E) const {
  const auto *M = E ? dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()) : nullptr;
  if (!M)
    return nullptr;
  if (isa<CXXMethodDecl>(M->getMemberDecl()))
    return accessor(M);
  const auto *This = dyn_cast<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts());
  if (!This) {
    // Each expression's path once: every scan of a loop, the file's
    // arrays and the subscripts ask again.
    auto [It, New] = Seen.try_emplace(M, nullptr);
    if (New)
      It->second = path(M);
    return It->second;
  }
  const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
  if (!This->isImplicit() || !F || !F->getIdentifier() || F->isBitField() || F->isMutable())
    return nullptr;
  auto [It, New] = Vars.try_emplace(F, nullptr);
  if (New)
    It->second = make(F, F->getName());
  return It->second;
}

/// A member a path may end in or pass through: named, not a bit-field,
/// not mutable, of a class that is not a union.
static bool followable(const FieldDecl *F) {
  return F && F->getIdentifier() && !F->isBitField() && !F->isMutable() && !F->getParent()->isUnion();
}

const VarDecl *MemberVars::path(const MemberExpr *M) const {
  const auto *Last = dyn_cast<FieldDecl>(M->getMemberDecl());
  if (!followable(Last))
    return nullptr;
  // It ends in an array (a pointer to data, a std::vector) or a value.
  const QualType T = Last->getType();
  // (A std::vector member's elements borrow through its data(), as a
  // pointer member's do.)
  const bool Array = isArrayLike(T) && !T->isArrayType();
  if (!Array && !T->isArithmeticType() && !T->isEnumeralType())
    return nullptr;
  // From a variable, through members only.
  // (Or from a data member read by its name: `mesh->x` for this->mesh->x.)
  std::vector<const MemberExpr *> Chain{M};
  const Expr *Base = M->getBase()->IgnoreParenImpCasts();
  const VarDecl *Root = nullptr;
  while (const auto *Inner = dyn_cast<MemberExpr>(Base)) {
    if (!followable(dyn_cast<FieldDecl>(Inner->getMemberDecl())))
      return nullptr;
    if (const auto *This = dyn_cast<CXXThisExpr>(Inner->getBase()->IgnoreParenImpCasts());
        This && This->isImplicit()) {
      Root = of(Inner);
      break;
    }
    Chain.push_back(Inner);
    Base = Inner->getBase()->IgnoreParenImpCasts();
  }
  const auto *D = Root ? nullptr : dyn_cast<DeclRefExpr>(Base);
  if (D)
    Root = dyn_cast<VarDecl>(D->getDecl());
  if (!Root || !Root->getIdentifier() || Root->getType().isVolatileQualified())
    return nullptr;
  std::string Text = Root->getName().str();
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It)
    Text += ((*It)->isArrow() ? "->" : ".") + (*It)->getMemberDecl()->getName().str();
  auto [It, New] = Paths.try_emplace({Root, Text}, nullptr);
  if (New) {
    // A std::vector reached through a const object (`old.v` of `const
    // Mesh &old`) has const elements: its type as the path names it.
    It->second = make(Last, Text, T->isRecordType() && M->getType().isConstQualified() ? M->getType() : T);
    Roots[It->second] = Root;
  }
  return It->second;
}

const FieldDecl *accessedMember(const CXXMethodDecl *M) {
  const FunctionDecl *Def = nullptr;
  if (!M || M->isStatic() || M->isVirtual() || M->getNumParams() != 1 || !M->getIdentifier() ||
      !M->getParamDecl(0)->getType()->isIntegerType() || !M->getReturnType()->isLValueReferenceType() ||
      !M->hasBody(Def))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *R = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
  if (!R || !R->getRetValue())
    return nullptr;
  const Expr *Base = nullptr, *Index = nullptr;
  const Expr *E = R->getRetValue()->IgnoreParenImpCasts();
  if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
    Base = S->getBase();
    Index = S->getIdx();
  } else if (const auto *O = dyn_cast<CXXOperatorCallExpr>(E); O && O->getOperator() == OO_Subscript &&
                                                                 O->getNumArgs() == 2) {
    Base = O->getArg(0);
    Index = O->getArg(1);
  }
  const auto *P = Index ? dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts()) : nullptr;
  const auto *Member = Base ? dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts()) : nullptr;
  const auto *This = Member ? dyn_cast<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()) : nullptr;
  const auto *F = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  if (!P || P->getDecl() != Def->getParamDecl(0) || !This || !This->isImplicit() || !F || F->isMutable())
    return nullptr;
  // A pointer member, or a std::vector: elements one after another (as
  // MemberVars::path's arrays).
  const QualType T = F->getType();
  if (!isArrayLike(T) || T->isArrayType() || T->isReferenceType())
    return nullptr;
  const QualType Element = M->getReturnType()->getPointeeType();
  const QualType Held = T->isPointerType() ? T->getPointeeType() : E->getType();
  return sameElement(Element, Held) ? F : nullptr;
}

bool isAccessorVar(const VarDecl *V) {
  const auto *A = V ? V->getAttr<AnnotateAttr>() : nullptr;
  return A && A->getAnnotation() == "dp-accessor";
}

const VarDecl *MemberVars::accessor(const MemberExpr *M) const {
  const auto *Method = dyn_cast<CXXMethodDecl>(M->getMemberDecl());
  const FieldDecl *F = accessedMember(Method);
  const auto *D = F ? dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts()) : nullptr;
  const auto *Root = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!Root || !Root->getIdentifier() || Root->getType().isVolatileQualified())
    return nullptr;
  const QualType Pointer = Ctx.getPointerType(Method->getReturnType()->getPointeeType());
  auto [It, New] = Accessors.try_emplace({Root, F}, nullptr);
  if (New) {
    auto *V = const_cast<VarDecl *>(
        make(F, Root->getName().str() + (M->isArrow() ? "->" : ".") + Method->getName().str(), Pointer));
    V->addAttr(AnnotateAttr::CreateImplicit(Ctx, "dp-accessor", nullptr, 0));
    Roots[V] = Root;
    It->second = V;
  }
  // Another accessor of the member that gives its elements otherwise
  // (const where the first was not): not one array dpstub can name.
  return It->second->getType() == Pointer ? It->second : nullptr;
}

const VarDecl *MemberVars::accessorOf(const CXXMemberCallExpr *C) const {
  const auto *M = C && C->getNumArgs() == 1 ? dyn_cast<MemberExpr>(C->getCallee()->IgnoreParenImpCasts()) : nullptr;
  return M ? accessor(M) : nullptr;
}

const VarDecl *MemberVars::make(const FieldDecl *F, StringRef Name, QualType Type) const {
  auto *Parent = const_cast<RecordDecl *>(F->getParent());
  VarDecl *V = VarDecl::Create(Ctx, Parent, F->getBeginLoc(), F->getLocation(), &Ctx.Idents.get(Name),
                               Type.isNull() ? F->getType() : Type,
                               F->getTypeSourceInfo(), SC_None);
  V->setImplicit();
  Fields.insert(V);
  return V;
}

std::vector<std::pair<const MemberExpr *, const VarDecl *>> pathsIn(const Stmt *S, const MemberVars &Members) {
  struct V : AstVisitor {
    const MemberVars &Members;
    std::vector<std::pair<const MemberExpr *, const VarDecl *>> Out;
    explicit V(const MemberVars &Members) : Members(Members) {}
    bool TraverseMemberExpr(MemberExpr *E) override {
      if (const VarDecl *P = Members.of(E); P && Members.rootOf(P)) {
        Out.push_back({E, P});
        return true;
      }
      return AstVisitor::TraverseMemberExpr(E);
    }
  } Visit(Members);
  Visit.TraverseStmt(const_cast<Stmt *>(S));
  return Visit.Out;
}

std::string pathIdentifier(StringRef Path) {
  std::string K;
  for (char C : Path)
    if (std::isalnum(static_cast<unsigned char>(C)) || C == '_')
      K += C;
    else if (!K.empty() && K.back() != '_')
      K += '_'; // `.`, `->`: one `_`
  return K;
}

std::string borrowedMemory(const VarDecl *V) {
  if (isAccessorVar(V))
    return "&" + V->getName().str() + "(0)";
  // A C array of rank 2 and more: its first element's address.
  if (const QualType T = V->getType(); T->isArrayType() && T->getAsArrayTypeUnsafe()->getElementType()->isArrayType()) {
    std::string First = "&" + V->getName().str();
    for (QualType E = T; E->isArrayType(); E = E->getAsArrayTypeUnsafe()->getElementType())
      First += "[0]";
    return First;
  }
  return V->getName().str() + (V->getType().getNonReferenceType()->isRecordType() ? ".data()" : "");
}

std::string kernelName(const VarDecl *V) {
  const StringRef Name = V->getName();
  if (Name.find_first_of(".-") == StringRef::npos)
    return Name.str();
  std::string K = pathIdentifier(Name);
  // Not `dp_` before it: the call-site's own names are made so.
  const IdentifierTable &Idents = V->getASTContext().Idents;
  while (Idents.find(K) != Idents.end())
    K += "_member";
  return K;
}

BodyFacts scanBody(const Stmt *Body, const std::vector<const Stmt *> &Headers, ASTContext &Ctx,
                   const OffsetPointers &Offsets, const MemberVars *Members) {
  BodyFacts Out;
  Scanner S(Ctx, Out, Offsets, Members);
  for (const Stmt *H : Headers)
    if (H)
      S.TraverseStmt(const_cast<Stmt *>(H));
  S.TraverseStmt(const_cast<Stmt *>(Body));
  return Out;
}

} // namespace dpstub::migrate
