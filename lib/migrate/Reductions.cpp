//===- Reductions.cpp - Updates that fold into one value ------------------===//

#include "migrate/Reductions.h"
#include "migrate/ArrayData.h"

#include "migrate/BodyScan.h"
#include "migrate/Canonical.h"
#include "migrate/Text.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "AstVisitor.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// What the updates update: a variable, or the mentions of one array
/// element (`x[i]`, found by its text).
struct Target {
  const VarDecl *Var = nullptr;
  std::set<const Expr *> Element;

  /// E is the target itself.
  bool is(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    return Var ? namedVar(E) == Var : Element.count(E) > 0;
  }
  /// E mentions the target (a variable's name, or an element's mention).
  bool in(const Stmt *E) const {
    struct Finder : AstVisitor {
      const Target *T;
      bool Found = false;
      bool VisitStmt(Stmt *S) override {
        if (const auto *X = dyn_cast<Expr>(S))
          Found |= T->Var ? isa<DeclRefExpr>(X) && cast<DeclRefExpr>(X)->getDecl() == T->Var
                          : T->Element.count(X) > 0;
        return !Found;
      }
    } F;
    F.T = this;
    F.TraverseStmt(const_cast<Stmt *>(E));
    return F.Found;
  }
};

/// max/min by name: `max`, `fmax`, `std::max`, `fmaxf`, ...
std::optional<ReductionOp> maxMinCall(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD || C->getNumArgs() != 2)
    return std::nullopt;
  const std::string N = FD->getName().str();
  if (N == "max" || N == "fmax" || N == "fmaxf" || N == "fmaxl")
    return ReductionOp::Max;
  if (N == "min" || N == "fmin" || N == "fminf" || N == "fminl")
    return ReductionOp::Min;
  return std::nullopt;
}

/// `s < e` and the like: Max when the comparison picks the larger for
/// `TrueArm`. Null when it compares other things.
std::optional<ReductionOp> comparisonPicks(const Expr *Cond, const Target &S, const Expr *TrueArm,
                                           const Expr *&Other) {
  const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!B || !B->isRelationalOp())
    return std::nullopt;
  const bool SLeft = S.is(B->getLHS()), SRight = S.is(B->getRHS());
  if (SLeft == SRight)
    return std::nullopt;
  Other = SLeft ? B->getRHS() : B->getLHS();
  if (S.in(Other))
    return std::nullopt;
  // Is the condition "Other is larger"?
  const BinaryOperatorKind Op = B->getOpcode();
  const bool OtherGreater = SLeft ? (Op == BO_LT || Op == BO_LE) : (Op == BO_GT || Op == BO_GE);
  // The true arm picks Other or s.
  const bool PicksOther = !S.is(TrueArm);
  return OtherGreater == PicksOther ? ReductionOp::Max : ReductionOp::Min;
}

/// Same text, ignoring spaces: the e of `s = s < e ? e : s`.
bool sameText(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  const std::string T = compactText(A, Ctx);
  return !T.empty() && T == compactText(B, Ctx);
}

/// The update one reference of S belongs to: its operator (and function),
/// and the references it covers.
struct Update {
  ReductionOp Op;
  std::string Function;
  std::vector<const Expr *> Covers;
  const Expr *Value = nullptr; ///< what it brings (`e` of `s += e`); null for `++`, `--`
  bool Negated = false;        ///< `--`, `-=`, `s = s - e`
  const IfStmt *Compares = nullptr; ///< the if of `if (e > s) s = e`
};

std::optional<Update> updateAt(const Expr *Ref, const Target &S, ASTContext &Ctx) {
  const Stmt *Child;
  const Stmt *P = meaningfulParent(Ref, Ctx, Child);
  if (!P)
    return std::nullopt;
  // ++s, s--: a sum.
  if (const auto *U = dyn_cast<UnaryOperator>(P); U && U->isIncrementDecrementOp())
    return Update{ReductionOp::Sum, "", {Ref}, nullptr, U->isDecrementOp()};
  const auto *B = dyn_cast<BinaryOperator>(P);
  // The s of `s = max(s, e)` and `s = s + e`: the assignment decides.
  if (!B || !B->isAssignmentOp() || B->getLHS()->IgnoreParenImpCasts() != Ref) {
    const Stmt *Up = P, *UpChild = Child;
    // Walk to the assignment (or if) this reference is inside.
    for (int Depth = 0; Up && Depth < 6; ++Depth) {
      if (const auto *A = dyn_cast<BinaryOperator>(Up); A && A->getOpcode() == BO_Assign && S.is(A->getLHS()))
        return updateAt(A->getLHS()->IgnoreParenImpCasts(), S, Ctx);
      if (const auto *If = dyn_cast<IfStmt>(Up); If && If->getCond() == UpChild)
        if (const auto *A = dyn_cast_or_null<BinaryOperator>(
                If->getThen() ? (isa<CompoundStmt>(If->getThen()) && cast<CompoundStmt>(If->getThen())->size() == 1
                                     ? cast<CompoundStmt>(If->getThen())->body_front()
                                     : If->getThen())
                              : nullptr);
            A && A->getOpcode() == BO_Assign && S.is(A->getLHS()))
          return updateAt(A->getLHS()->IgnoreParenImpCasts(), S, Ctx);
      UpChild = Up;
      Up = parentOf(Up, Ctx);
    }
    return std::nullopt;
  }
  const Expr *R = B->getRHS();
  switch (B->getOpcode()) {
  case BO_AddAssign:
  case BO_SubAssign:
    if (S.in(R))
      return std::nullopt;
    return Update{ReductionOp::Sum, "", {Ref}, R, B->getOpcode() == BO_SubAssign};
  case BO_MulAssign:
    return S.in(R) ? std::nullopt : std::optional<Update>(Update{ReductionOp::Product, "", {Ref}, R});
  case BO_AndAssign:
    return S.in(R) ? std::nullopt : std::optional<Update>(Update{ReductionOp::BitAnd, "", {Ref}, R});
  case BO_OrAssign:
    return S.in(R) ? std::nullopt : std::optional<Update>(Update{ReductionOp::BitOr, "", {Ref}, R});
  case BO_XorAssign:
    return S.in(R) ? std::nullopt : std::optional<Update>(Update{ReductionOp::BitXor, "", {Ref}, R});
  case BO_Assign:
    break;
  default:
    return std::nullopt;
  }
  const Expr *RB = R->IgnoreParenImpCasts();
  Update U{ReductionOp::Sum, "", {Ref}};
  if (!S.in(R)) {
    // if (e > s) s = e; (the right side does not mention s)
    const Stmt *Up = parentOf(B, Ctx);
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Up); CS && CS->size() == 1)
      Up = parentOf(CS, Ctx);
    if (const auto *If = dyn_cast_or_null<IfStmt>(Up); If && !If->getElse() && !If->getInit()) {
      const Expr *Other = nullptr;
      std::optional<ReductionOp> M = comparisonPicks(If->getCond(), S, R, Other);
      if (!M || !sameText(R, Other, Ctx) || S.in(R))
        return std::nullopt;
      U.Op = *M;
      U.Value = R;
      U.Compares = If;
      const auto *Cmp = cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
      U.Covers.push_back((S.is(Cmp->getLHS()) ? Cmp->getLHS() : Cmp->getRHS())->IgnoreParenImpCasts());
      return U;
    }
    return std::nullopt;
  }
  // s = <something with s>: s op e, e op s, f(s, e), s < e ? e : s.
  if (const auto *Op = dyn_cast<BinaryOperator>(RB)) {
    const Expr *L = Op->getLHS(), *Rt = Op->getRHS();
    const bool SL = S.is(L), SR = S.is(Rt);
    const bool Commutes = Op->getOpcode() != BO_Sub;
    if (!(SL && !S.in(Rt)) && !(Commutes && SR && !S.in(L)))
      return std::nullopt;
    switch (Op->getOpcode()) {
    case BO_Add: case BO_Sub: U.Op = ReductionOp::Sum; break;
    case BO_Mul: U.Op = ReductionOp::Product; break;
    case BO_And: U.Op = ReductionOp::BitAnd; break;
    case BO_Or: U.Op = ReductionOp::BitOr; break;
    case BO_Xor: U.Op = ReductionOp::BitXor; break;
    case BO_LAnd: U.Op = ReductionOp::LogicalAnd; break;
    case BO_LOr: U.Op = ReductionOp::LogicalOr; break;
    default: return std::nullopt;
    }
    U.Covers.push_back((SL ? L : Rt)->IgnoreParenImpCasts());
    U.Value = SL ? Rt : L;
    U.Negated = Op->getOpcode() == BO_Sub;
    return U;
  }
  if (const auto *C = dyn_cast<CallExpr>(RB)) {
    std::optional<ReductionOp> M = maxMinCall(C);
    if (!M)
      return std::nullopt;
    const Expr *A0 = C->getArg(0), *A1 = C->getArg(1);
    const bool S0 = S.is(A0), S1 = S.is(A1);
    if (S0 == S1 || S.in(S0 ? A1 : A0))
      return std::nullopt;
    U.Op = *M;
    U.Function = textOf(C->getCallee(), Ctx);
    U.Covers.push_back((S0 ? A0 : A1)->IgnoreParenImpCasts());
    U.Value = S0 ? A1 : A0;
    return U;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(RB)) {
    const Expr *Other = nullptr;
    std::optional<ReductionOp> M = comparisonPicks(C->getCond(), S, C->getTrueExpr(), Other);
    const Expr *T = C->getTrueExpr(), *F = C->getFalseExpr();
    // One arm is s, the other the compared e.
    if (!M || S.is(T) == S.is(F) || !sameText(S.is(T) ? F : T, Other, Ctx))
      return std::nullopt;
    U.Op = *M;
    const auto *Cmp = cast<BinaryOperator>(C->getCond()->IgnoreParenImpCasts());
    U.Covers.push_back((S.is(Cmp->getLHS()) ? Cmp->getLHS() : Cmp->getRHS())->IgnoreParenImpCasts());
    U.Covers.push_back((S.is(T) ? T : F)->IgnoreParenImpCasts());
    U.Value = S.is(T) ? F : T;
    return U;
  }
  return std::nullopt;
}

} // namespace

namespace {

/// The reduction whose every mention Refs are, if they all are updates
/// with one operator.
std::optional<Reduction> recognise(const Target &S, QualType T, const std::vector<const Expr *> &Refs,
                                   ASTContext &Ctx, bool TemplateArithmetic = false) {
  if ((!T->isArithmeticType() && !TemplateArithmetic) || T.isVolatileQualified())
    return std::nullopt;
  std::optional<Reduction> R;
  std::set<const Expr *> Covered;
  for (const Expr *Ref : Refs) {
    if (Covered.count(Ref))
      continue;
    std::optional<Update> U = updateAt(Ref, S, Ctx);
    if (!U)
      return std::nullopt;
    if (!R) {
      R = Reduction();
      R->Op = U->Op;
      R->Function = U->Function;
    } else if (R->Op != U->Op) {
      return std::nullopt;
    } else if (R->Function != U->Function) {
      R->Function.clear(); // fmax here, a comparison there: the operator's own
    }
    for (const Expr *E : U->Covers)
      Covered.insert(E);
  }
  for (const Expr *Ref : Refs)
    if (!Covered.count(Ref))
      return std::nullopt;
  // Bits of a floating type, or of a template's type some instance may
  // make floating, have no reduction.
  if (R && (T->isFloatingType() || TemplateArithmetic) &&
      (R->Op == ReductionOp::BitAnd || R->Op == ReductionOp::BitOr || R->Op == ReductionOp::BitXor))
    return std::nullopt;
  return R;
}

} // namespace

std::optional<Reduction> recogniseReduction(const VarDecl *S, const std::vector<const DeclRefExpr *> &Refs,
                                            ASTContext &Ctx) {
  Target T;
  T.Var = S;
  const QualType Value = S->getType().getNonReferenceType(); // a reference's too
  // A `T sum` of a template all of whose instances make it arithmetic.
  const bool TemplateArithmetic =
      !Value->isArithmeticType() &&
      templateParameterAlways(Value, S->getDeclContext(), [](QualType Q) { return Q->isArithmeticType(); });
  std::optional<Reduction> R = recognise(T, Value, {Refs.begin(), Refs.end()}, Ctx, TemplateArithmetic);
  if (!R)
    return std::nullopt;
  return Reduction::of(S, R->Op, R->Function);
}

std::optional<Reduction> recogniseLocated(const VarDecl *S, const std::vector<const DeclRefExpr *> &Refs,
                                          ASTContext &Ctx) {
  const QualType T = S->getType().getNonReferenceType();
  if (!T->isArithmeticType() || T.isVolatileQualified() || Refs.size() != 2)
    return std::nullopt;
  // The if whose condition holds the first reference.
  const IfStmt *If = nullptr;
  const Stmt *Child = Refs[0];
  for (const Stmt *Up = parentOf(Refs[0], Ctx); Up && !If; Child = Up, Up = parentOf(Up, Ctx))
    if (const auto *I = dyn_cast<IfStmt>(Up))
      If = I->getCond() == Child ? I : nullptr;
    else if (!isa<Expr>(Up))
      return std::nullopt;
  const auto *Then = If ? dyn_cast_or_null<CompoundStmt>(If->getThen()) : nullptr;
  if (!Then || If->getElse() || If->getInit() || If->getConditionVariable() || Then->size() < 2)
    return std::nullopt;
  Target Value;
  Value.Var = S;
  const Expr *SetTo = nullptr;
  std::vector<const VarDecl *> Companions;
  std::vector<const Expr *> CompanionValues;
  for (const Stmt *St : Then->body()) {
    const auto *A = dyn_cast<BinaryOperator>(St);
    const auto *Ref = A && A->getOpcode() == BO_Assign ? dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParens())
                                                       : nullptr;
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V)
      return std::nullopt;
    if (V == S) {
      if (SetTo || Ref != Refs[1])
        return std::nullopt;
      SetTo = A->getRHS();
    } else if (std::find(Companions.begin(), Companions.end(), V) != Companions.end()) {
      return std::nullopt;
    } else {
      Companions.push_back(V);
      CompanionValues.push_back(A->getRHS());
    }
  }
  const Expr *Other = nullptr;
  std::optional<ReductionOp> Op = SetTo ? comparisonPicks(If->getCond(), Value, SetTo, Other) : std::nullopt;
  if (!Op || !sameText(SetTo, Other, Ctx) || Value.in(SetTo))
    return std::nullopt;
  // Each companion's value is the iteration's, not another's.
  for (const Expr *E : CompanionValues) {
    if (Value.in(E))
      return std::nullopt;
    for (const VarDecl *C : Companions) {
      Target Companion;
      Companion.Var = C;
      if (Companion.in(E))
        return std::nullopt;
    }
  }
  const BinaryOperatorKind Cmp = cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts())->getOpcode();
  Reduction R = Reduction::of(S, *Op);
  R.Companions = std::move(Companions);
  R.LastWins = Cmp == BO_LE || Cmp == BO_GE;
  R.Sets = Then;
  return R;
}

std::optional<Reduction> recogniseElementReduction(const std::vector<const Expr *> &Mentions,
                                                   ASTContext &Ctx) {
  if (Mentions.empty())
    return std::nullopt;
  Target T;
  for (const Expr *E : Mentions)
    T.Element.insert(E->IgnoreParenImpCasts());
  const QualType Type = Mentions.front()->getType().getNonReferenceType();
  std::optional<Reduction> R = recognise(T, Type, Mentions, Ctx);
  if (!R)
    return std::nullopt;
  R->Type = Type;
  R->Element = Mentions;
  return R;
}

std::optional<ElementUpdate> recogniseElementUpdate(const Stmt *Update, const Expr *Place, ASTContext &Ctx) {
  // The element's mentions: the expressions of the update spelt as Place is.
  struct Mentions : AstVisitor {
    std::string Text;
    const ASTContext *Ctx;
    Target T;
    bool VisitExpr(Expr *E) override {
      if (E == E->IgnoreParenImpCasts() && compactText(E, *Ctx) == Text)
        T.Element.insert(E);
      return true;
    }
  } Find;
  Find.Text = compactText(Place, Ctx);
  Find.Ctx = &Ctx;
  if (Find.Text.empty())
    return std::nullopt;
  Find.TraverseStmt(const_cast<Stmt *>(Update));
  const Expr *Assigned = Place->IgnoreParenImpCasts();
  if (!Find.T.Element.count(Assigned))
    return std::nullopt;
  std::optional<struct Update> U = updateAt(Assigned, Find.T, Ctx);
  if (!U)
    return std::nullopt;
  for (const Expr *E : Find.T.Element)
    if (std::find(U->Covers.begin(), U->Covers.end(), E) == U->Covers.end())
      return std::nullopt; // read or written otherwise too
  ElementUpdate Out;
  Out.Op = U->Op;
  Out.Value = U->Value;
  Out.Negated = U->Negated;
  Out.Compares = U->Compares;
  Out.Mentions.assign(Find.T.Element.begin(), Find.T.Element.end());
  return Out;
}

std::optional<Reduction> recogniseFlag(const VarDecl *S, const std::vector<const DeclRefExpr *> &Refs,
                                       ASTContext &Ctx) {
  const QualType T = S->getType().getNonReferenceType();
  if (!T->isBooleanType() || T.isVolatileQualified() || Refs.empty())
    return std::nullopt;
  std::optional<bool> Value;
  for (const DeclRefExpr *Ref : Refs) {
    const Stmt *Child;
    const auto *B = dyn_cast_or_null<BinaryOperator>(meaningfulParent(Ref, Ctx, Child));
    bool V = false;
    if (!B || B->getOpcode() != BO_Assign || B->getLHS()->IgnoreParenImpCasts() != Ref ||
        B->getRHS()->isValueDependent() || !B->getRHS()->EvaluateAsBooleanCondition(V, Ctx) ||
        (Value && *Value != V))
      return std::nullopt;
    Value = V;
  }
  return Reduction::of(S, *Value ? ReductionOp::LogicalOr : ReductionOp::LogicalAnd);
}

const char *clauseSpelling(ReductionOp Op) {
  switch (Op) {
  case ReductionOp::Sum: return "+";
  case ReductionOp::Product: return "*";
  case ReductionOp::Max: return "max";
  case ReductionOp::Min: return "min";
  case ReductionOp::BitAnd: return "&";
  case ReductionOp::BitOr: return "|";
  case ReductionOp::BitXor: return "^";
  case ReductionOp::LogicalAnd: return "&&";
  case ReductionOp::LogicalOr: return "||";
  }
  return "+";
}

std::optional<ReductionOp> clauseOperator(const std::string &Op) {
  if (Op == "+" || Op == "-")
    return ReductionOp::Sum;
  if (Op == "*")
    return ReductionOp::Product;
  if (Op == "max")
    return ReductionOp::Max;
  if (Op == "min")
    return ReductionOp::Min;
  if (Op == "&")
    return ReductionOp::BitAnd;
  if (Op == "|")
    return ReductionOp::BitOr;
  if (Op == "^")
    return ReductionOp::BitXor;
  if (Op == "&&")
    return ReductionOp::LogicalAnd;
  if (Op == "||")
    return ReductionOp::LogicalOr;
  return std::nullopt;
}

std::string identityText(ReductionOp Op, QualType T, const ASTContext &Ctx) {
  const std::string Name = printType(T.getUnqualifiedType(), Ctx);
  const bool Float = T->isFloatingType();
  if (T->isBooleanType() && (Op == ReductionOp::LogicalOr || Op == ReductionOp::LogicalAnd))
    return Op == ReductionOp::LogicalOr ? "false" : "true";
  switch (Op) {
  case ReductionOp::Sum:
  case ReductionOp::BitOr:
  case ReductionOp::BitXor:
  case ReductionOp::LogicalOr:
    return "0";
  case ReductionOp::Product:
  case ReductionOp::LogicalAnd:
    return "1";
  case ReductionOp::BitAnd:
    return "~" + Name + "(0)";
  case ReductionOp::Max:
    return Float ? "-std::numeric_limits<" + Name + ">::infinity()"
                 : "std::numeric_limits<" + Name + ">::lowest()";
  case ReductionOp::Min:
    return Float ? "std::numeric_limits<" + Name + ">::infinity()"
                 : "std::numeric_limits<" + Name + ">::max()";
  }
  return "0";
}

std::string combineText(const Reduction &R, const std::string &A, const std::string &B) {
  if (!R.Function.empty())
    return R.Function + "(" + A + ", " + B + ")";
  switch (R.Op) {
  case ReductionOp::Sum: return A + " + " + B;
  case ReductionOp::Product: return A + " * " + B;
  case ReductionOp::BitAnd: return A + " & " + B;
  case ReductionOp::BitOr: return A + " | " + B;
  case ReductionOp::BitXor: return A + " ^ " + B;
  case ReductionOp::LogicalAnd: return A + " && " + B;
  case ReductionOp::LogicalOr: return A + " || " + B;
  case ReductionOp::Max: return A + " < " + B + " ? " + B + " : " + A;
  case ReductionOp::Min: return B + " < " + A + " ? " + B + " : " + A;
  }
  return A;
}

std::string operatorText(const Reduction &R, const std::string &T) {
  if (R.Function.empty())
    switch (R.Op) {
    case ReductionOp::Sum: return "std::plus<>()";
    case ReductionOp::Product: return "std::multiplies<>()";
    case ReductionOp::BitAnd: return "std::bit_and<>()";
    case ReductionOp::BitOr: return "std::bit_or<>()";
    case ReductionOp::BitXor: return "std::bit_xor<>()";
    default: break;
    }
  return "[](" + T + " a, " + T + " b) { return " + combineText(R, "a", "b") + "; }";
}

} // namespace dpstub::migrate
