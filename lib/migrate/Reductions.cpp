//===- Reductions.cpp - Updates that fold into one value ------------------===//

#include "migrate/Reductions.h"

#include "migrate/BodyScan.h"
#include "migrate/Canonical.h"
#include "migrate/Text.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// True when E mentions S.
bool mentions(const Stmt *E, const VarDecl *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *S;
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      Found |= D->getDecl() == S;
      return !Found;
    }
  } F;
  F.S = S;
  F.TraverseStmt(const_cast<Stmt *>(E));
  return F.Found;
}

bool isS(const Expr *E, const VarDecl *S) { return namedVar(E) == S; }

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
std::optional<ReductionOp> comparisonPicks(const Expr *Cond, const VarDecl *S, const Expr *TrueArm,
                                           const Expr *&Other) {
  const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!B || !B->isRelationalOp())
    return std::nullopt;
  const bool SLeft = isS(B->getLHS(), S), SRight = isS(B->getRHS(), S);
  if (SLeft == SRight)
    return std::nullopt;
  Other = SLeft ? B->getRHS() : B->getLHS();
  if (mentions(Other, S))
    return std::nullopt;
  // Is the condition "Other is larger"?
  const BinaryOperatorKind Op = B->getOpcode();
  const bool OtherGreater = SLeft ? (Op == BO_LT || Op == BO_LE) : (Op == BO_GT || Op == BO_GE);
  // The true arm picks Other or s.
  const bool PicksOther = !isS(TrueArm, S);
  return OtherGreater == PicksOther ? ReductionOp::Max : ReductionOp::Min;
}

/// Same text, ignoring spaces: the e of `s = s < e ? e : s`.
bool sameText(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  auto Squeeze = [&](const Expr *E) {
    std::string T = textOf(E, Ctx), R;
    for (char C : T)
      if (!isspace(static_cast<unsigned char>(C)))
        R += C;
    return R;
  };
  return !Squeeze(A).empty() && Squeeze(A) == Squeeze(B);
}

/// The update one reference of S belongs to: its operator (and function),
/// and the references it covers.
struct Update {
  ReductionOp Op;
  std::string Function;
  std::vector<const Expr *> Covers;
};

std::optional<Update> updateAt(const DeclRefExpr *Ref, const VarDecl *S, ASTContext &Ctx) {
  const Stmt *Child;
  const Stmt *P = meaningfulParent(Ref, Ctx, Child);
  if (!P)
    return std::nullopt;
  // ++s, s--: a sum.
  if (const auto *U = dyn_cast<UnaryOperator>(P); U && U->isIncrementDecrementOp())
    return Update{ReductionOp::Sum, "", {Ref}};
  const auto *B = dyn_cast<BinaryOperator>(P);
  // The s of `s = max(s, e)` and `s = s + e`: the assignment decides.
  if (!B || !B->isAssignmentOp() || B->getLHS()->IgnoreParenImpCasts() != Ref) {
    const Stmt *Up = P, *UpChild = Child;
    // Walk to the assignment (or if) this reference is inside.
    for (int Depth = 0; Up && Depth < 6; ++Depth) {
      if (const auto *A = dyn_cast<BinaryOperator>(Up); A && A->getOpcode() == BO_Assign && isS(A->getLHS(), S))
        return updateAt(cast<DeclRefExpr>(A->getLHS()->IgnoreParenImpCasts()), S, Ctx);
      if (const auto *If = dyn_cast<IfStmt>(Up); If && If->getCond() == UpChild)
        if (const auto *A = dyn_cast_or_null<BinaryOperator>(
                If->getThen() ? (isa<CompoundStmt>(If->getThen()) && cast<CompoundStmt>(If->getThen())->size() == 1
                                     ? cast<CompoundStmt>(If->getThen())->body_front()
                                     : If->getThen())
                              : nullptr);
            A && A->getOpcode() == BO_Assign && isS(A->getLHS(), S))
          return updateAt(cast<DeclRefExpr>(A->getLHS()->IgnoreParenImpCasts()), S, Ctx);
      UpChild = Up;
      Up = parentOf(Up, Ctx);
    }
    return std::nullopt;
  }
  const Expr *R = B->getRHS();
  switch (B->getOpcode()) {
  case BO_AddAssign:
  case BO_SubAssign:
    if (mentions(R, S))
      return std::nullopt;
    return Update{ReductionOp::Sum, "", {Ref}};
  case BO_MulAssign:
    return mentions(R, S) ? std::nullopt : std::optional<Update>(Update{ReductionOp::Product, "", {Ref}});
  case BO_AndAssign:
    return mentions(R, S) ? std::nullopt : std::optional<Update>(Update{ReductionOp::BitAnd, "", {Ref}});
  case BO_OrAssign:
    return mentions(R, S) ? std::nullopt : std::optional<Update>(Update{ReductionOp::BitOr, "", {Ref}});
  case BO_XorAssign:
    return mentions(R, S) ? std::nullopt : std::optional<Update>(Update{ReductionOp::BitXor, "", {Ref}});
  case BO_Assign:
    break;
  default:
    return std::nullopt;
  }
  const Expr *RB = R->IgnoreParenImpCasts();
  Update U{ReductionOp::Sum, "", {Ref}};
  if (!mentions(R, S)) {
    // if (e > s) s = e; (the right side does not mention s)
    const Stmt *Up = parentOf(B, Ctx);
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Up); CS && CS->size() == 1)
      Up = parentOf(CS, Ctx);
    if (const auto *If = dyn_cast_or_null<IfStmt>(Up); If && !If->getElse() && !If->getInit()) {
      const Expr *Other = nullptr;
      std::optional<ReductionOp> M = comparisonPicks(If->getCond(), S, R, Other);
      if (!M || !sameText(R, Other, Ctx) || mentions(R, S))
        return std::nullopt;
      U.Op = *M;
      const auto *Cmp = cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
      U.Covers.push_back((isS(Cmp->getLHS(), S) ? Cmp->getLHS() : Cmp->getRHS())->IgnoreParenImpCasts());
      return U;
    }
    return std::nullopt;
  }
  // s = <something with s>: s op e, e op s, f(s, e), s < e ? e : s.
  if (const auto *Op = dyn_cast<BinaryOperator>(RB)) {
    const Expr *L = Op->getLHS(), *Rt = Op->getRHS();
    const bool SL = isS(L, S), SR = isS(Rt, S);
    const bool Commutes = Op->getOpcode() != BO_Sub;
    if (!(SL && !mentions(Rt, S)) && !(Commutes && SR && !mentions(L, S)))
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
    return U;
  }
  if (const auto *C = dyn_cast<CallExpr>(RB)) {
    std::optional<ReductionOp> M = maxMinCall(C);
    if (!M)
      return std::nullopt;
    const Expr *A0 = C->getArg(0), *A1 = C->getArg(1);
    const bool S0 = isS(A0, S), S1 = isS(A1, S);
    if (S0 == S1 || mentions(S0 ? A1 : A0, S))
      return std::nullopt;
    U.Op = *M;
    U.Function = textOf(C->getCallee(), Ctx);
    U.Covers.push_back((S0 ? A0 : A1)->IgnoreParenImpCasts());
    return U;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(RB)) {
    const Expr *Other = nullptr;
    std::optional<ReductionOp> M = comparisonPicks(C->getCond(), S, C->getTrueExpr(), Other);
    const Expr *T = C->getTrueExpr(), *F = C->getFalseExpr();
    // One arm is s, the other the compared e.
    if (!M || isS(T, S) == isS(F, S) || !sameText(isS(T, S) ? F : T, Other, Ctx))
      return std::nullopt;
    U.Op = *M;
    const auto *Cmp = cast<BinaryOperator>(C->getCond()->IgnoreParenImpCasts());
    U.Covers.push_back((isS(Cmp->getLHS(), S) ? Cmp->getLHS() : Cmp->getRHS())->IgnoreParenImpCasts());
    U.Covers.push_back((isS(T, S) ? T : F)->IgnoreParenImpCasts());
    return U;
  }
  return std::nullopt;
}

} // namespace

std::optional<Reduction> recogniseReduction(const VarDecl *S, const std::vector<const DeclRefExpr *> &Refs,
                                            ASTContext &Ctx) {
  const QualType T = S->getType();
  if (!T->isArithmeticType() || T.isVolatileQualified())
    return std::nullopt;
  std::optional<Reduction> R;
  std::set<const Expr *> Covered;
  for (const DeclRefExpr *Ref : Refs) {
    if (Covered.count(Ref))
      continue;
    std::optional<Update> U = updateAt(Ref, S, Ctx);
    if (!U)
      return std::nullopt;
    if (!R) {
      R = Reduction{S, U->Op, U->Function};
    } else if (R->Op != U->Op) {
      return std::nullopt;
    } else if (R->Function != U->Function) {
      R->Function.clear(); // fmax here, a comparison there: the operator's own
    }
    for (const Expr *E : U->Covers)
      Covered.insert(E);
  }
  for (const DeclRefExpr *Ref : Refs)
    if (!Covered.count(Ref))
      return std::nullopt;
  if (R && T->isFloatingType() &&
      (R->Op == ReductionOp::BitAnd || R->Op == ReductionOp::BitOr || R->Op == ReductionOp::BitXor))
    return std::nullopt;
  return R;
}

std::optional<Reduction> recogniseFlag(const VarDecl *S, const std::vector<const DeclRefExpr *> &Refs,
                                       ASTContext &Ctx) {
  const QualType T = S->getType();
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
  return Reduction{S, *Value ? ReductionOp::LogicalOr : ReductionOp::LogicalAnd, ""};
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
