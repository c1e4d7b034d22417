//===- Canonical.cpp - Loops a grid can describe --------------------------===//

#include "migrate/Canonical.h"

#include "migrate/BodyScan.h"
#include "migrate/Text.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

using namespace clang;

namespace dpstub::migrate {

const Expr *bare(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXFunctionalCastExpr>(E); C && C->getType()->isIntegerType())
      E = C->getSubExpr();
    else if (const auto *C = dyn_cast<CStyleCastExpr>(E); C && C->getType()->isIntegerType())
      E = C->getSubExpr();
    else
      return E;
  }
  return E;
}

const VarDecl *namedVar(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

const ForStmt *perfectlyNested(const Stmt *Body) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(Body))
    return F;
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!CS)
    return nullptr;
  const ForStmt *Only = nullptr;
  for (const Stmt *S : CS->body()) {
    if (isa<NullStmt>(S))
      continue;
    if (Only || !isa<ForStmt>(S))
      return nullptr;
    Only = cast<ForStmt>(S);
  }
  return Only;
}

namespace {

/// The constant value of E, if it is one.
std::optional<std::int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  return std::nullopt;
}

/// A local integer that keeps its constant first value (`int tile = 32;`
/// that nothing in its function assigns, increments, or lets go by
/// address or non-const reference), as a step: its value and its name.
/// Tiled codes step by such a variable.
std::optional<LoopStep> keptConstant(const Expr *E, const ASTContext &Ctx) {
  const VarDecl *V = namedVar(bare(E));
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->getType().isVolatileQualified() ||
      !V->getType()->isIntegerType())
    return std::nullopt;
  const std::optional<std::int64_t> First = constantOf(V->getInit(), Ctx);
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  const Stmt *Body = F ? F->getBody() : nullptr;
  if (!First || !Body || ExprMutationAnalyzer(*Body, const_cast<ASTContext &>(Ctx)).isMutated(V))
    return std::nullopt;
  return LoopStep{*First, V->getName().str()};
}

/// E is an integer the loop F does not change: constants and local
/// variables (parameters too) that nothing in F writes and whose address
/// never leaves their function, with + - * / % between them.
bool invariantIn(const Expr *E, const ForStmt *F, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(E))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus) && invariantIn(U->getSubExpr(), F, Ctx);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return B->isMultiplicativeOp() || B->isAdditiveOp()
               ? invariantIn(B->getLHS(), F, Ctx) && invariantIn(B->getRHS(), F, Ctx)
               : false;
  const VarDecl *V = namedVar(E);
  if (!V || !V->hasLocalStorage() || V->getType().isVolatileQualified() || !V->getType()->isIntegerType())
    return false;
  const auto *Fn = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  const Stmt *Body = Fn ? Fn->getBody() : nullptr;
  if (!Body)
    return false;
  // Its address never leaves (so nothing changes it unseen), and the loop
  // does not change it.
  for (const DeclRefExpr *R : namesIn(Body))
    if (R->getDecl() == V && useMode(R, const_cast<ASTContext &>(Ctx)).Address)
      return false;
  return !ExprMutationAnalyzer(*const_cast<ForStmt *>(F), const_cast<ASTContext &>(Ctx)).isMutated(V);
}

/// The value of a step's operand, and its text when the value comes from
/// a kept constant (the grid then names it as the user did), or the
/// operand itself when only the run gives its value.
std::optional<LoopStep> stepOperand(const Expr *E, bool Negate, const ForStmt *F, const ASTContext &Ctx) {
  std::optional<LoopStep> S;
  if (std::optional<std::int64_t> C = constantOf(E, Ctx))
    S = LoopStep{*C, {}};
  else if (!(S = keptConstant(E, Ctx)) && invariantIn(E, F, Ctx))
    S = LoopStep{1, textOf(E, Ctx), E};
  if (S && Negate) {
    S->Value = -S->Value;
    if (!S->Text.empty())
      S->Text = "-" + (S->RunTime && !namedVar(E) && !isa<IntegerLiteral>(E->IgnoreParenImpCasts())
                           ? "(" + S->Text + ")"
                           : S->Text);
  }
  return S;
}

/// The step of Inc on V: ++i, i--, i += c, i -= c, i = i + c, i = c + i,
/// i = i - c.
std::optional<LoopStep> stepOf(const ForStmt *F, const VarDecl *V, const ASTContext &Ctx) {
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (namedVar(U->getSubExpr()) != V)
      return std::nullopt;
    if (U->isIncrementOp())
      return LoopStep{1, {}};
    if (U->isDecrementOp())
      return LoopStep{-1, {}};
    return std::nullopt;
  }
  const auto *B = dyn_cast_or_null<BinaryOperator>(Inc);
  if (!B || namedVar(B->getLHS()) != V)
    return std::nullopt;
  if (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign)
    return stepOperand(B->getRHS(), B->getOpcode() == BO_SubAssign, F, Ctx);
  if (B->getOpcode() != BO_Assign)
    return std::nullopt;
  const auto *R = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
  if (!R || (R->getOpcode() != BO_Add && R->getOpcode() != BO_Sub))
    return std::nullopt;
  if (namedVar(R->getLHS()) == V)
    return stepOperand(R->getRHS(), R->getOpcode() == BO_Sub, F, Ctx);
  if (R->getOpcode() == BO_Add && namedVar(R->getRHS()) == V)
    return stepOperand(R->getLHS(), false, F, Ctx);
  return std::nullopt;
}

} // namespace

std::variant<LoopLevel, std::string> canonicalLevel(const ForStmt *F, const ASTContext &Ctx) {
  LoopLevel L;
  L.For = F;
  // The initialisation: `T i = first` or `i = first`.
  const Expr *First = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    if (!DS->isSingleDecl())
      return std::string("the loop declares several variables in its initialisation");
    const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!V || !V->hasInit())
      return std::string("the loop's initialisation does not give its variable a first value");
    L.Var = V;
    First = V->getInit();
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit());
             B && B->getOpcode() == BO_Assign && namedVar(B->getLHS())) {
    L.Var = namedVar(B->getLHS());
    L.DeclaredInLoop = false;
    First = B->getRHS();
  } else {
    return std::string("the loop's initialisation is not 'i = first value'");
  }
  if (!L.Var->getType()->isIntegerType() || L.Var->getType()->isBooleanType())
    return "the loop variable '" + L.Var->getName().str() + "' is not an integer";
  L.Name = L.Var->getName().str();
  L.Type = printType(L.Var->getType().getUnqualifiedType(), Ctx);
  L.Lower = textOf(First, Ctx);
  L.LowerExpr = First;

  // The condition: i < bound (or <=, >, >=, !=), either way round.
  const auto *C = dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParenImpCasts()
                                                                 : nullptr);
  if (!C || !C->isComparisonOp() || C->getOpcode() == BO_EQ || C->getOpcode() == BO_Cmp)
    return "the loop's condition does not compare '" + L.Name + "' with a bound";
  BinaryOperatorKind Op = C->getOpcode();
  const Expr *Bound = nullptr;
  if (namedVar(C->getLHS()) == L.Var) {
    Bound = C->getRHS();
  } else if (namedVar(C->getRHS()) == L.Var) {
    Bound = C->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  } else {
    return "the loop's condition does not compare '" + L.Name + "' with a bound";
  }
  switch (Op) {
  case BO_LT: L.Cmp = Comparison::Less; break;
  case BO_LE: L.Cmp = Comparison::LessEqual; break;
  case BO_GT: L.Cmp = Comparison::Greater; break;
  case BO_GE: L.Cmp = Comparison::GreaterEqual; break;
  default: L.Cmp = Comparison::NotEqual; break;
  }
  L.Upper = textOf(Bound, Ctx);
  L.UpperExpr = Bound;
  L.LowerIsZero = constantOf(First, Ctx) == std::optional<std::int64_t>(0);
  const std::optional<std::int64_t> B = constantOf(Bound, Ctx);
  L.UpperNonNegative = (B && *B >= 0) || bare(Bound)->getType()->isUnsignedIntegerType();

  // The step: a constant that runs towards the bound.
  std::optional<LoopStep> Step = stepOf(F, L.Var, Ctx);
  if (!Step || Step->Value == 0)
    return "the loop's step is not a value the loop keeps, added to '" + L.Name + "'";
  L.Step = Step->Value;
  L.StepText = Step->Text;
  L.RunTimeStep = Step->RunTime;
  const bool Up = L.Cmp == Comparison::Less || L.Cmp == Comparison::LessEqual;
  const bool Down = L.Cmp == Comparison::Greater || L.Cmp == Comparison::GreaterEqual;
  if (L.Cmp == Comparison::NotEqual && L.RunTimeStep)
    return "the loop compares '" + L.Name + "' with '!=' and steps by '" + L.StepText +
           "', which may step over its bound";
  if ((Up && L.Step < 0) || (Down && L.Step > 0) ||
      (L.Cmp == Comparison::NotEqual && L.Step != 1 && L.Step != -1))
    return "the loop's step runs away from its bound";
  return L;
}

} // namespace dpstub::migrate
