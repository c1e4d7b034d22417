//===- Affine.cpp - Subscripts and bounds as polynomials ------------------===//

#include "migrate/Affine.h"

#include "migrate/Text.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace dpstub::migrate {

int SymbolTable::of(const VarDecl *V) {
  auto [It, New] = ByVar.try_emplace(V, static_cast<int>(Names.size()));
  if (New)
    Names.push_back(V->getName().str());
  return It->second;
}

const VarDecl *SymbolTable::var(int Id) const {
  for (const auto &[V, I] : ByVar)
    if (I == Id)
      return V;
  return nullptr;
}

std::optional<int> SymbolTable::find(const VarDecl *V) const {
  auto It = ByVar.find(V);
  return It == ByVar.end() ? std::nullopt : std::optional<int>(It->second);
}

int SymbolTable::of(const std::string &Text) {
  auto [It, New] = ByText.try_emplace(Text, static_cast<int>(Names.size()));
  if (New)
    Names.push_back(Text);
  return It->second;
}

int SymbolTable::of(const std::string &Key, const std::string &Text, std::vector<const VarDecl *> Used,
                    bool Unsigned) {
  auto [It, New] = ByText.try_emplace(Key, static_cast<int>(Names.size()));
  const int Id = It->second;
  if (!New)
    return Id;
  Names.push_back(Text);
  Uses[Id] = std::move(Used);
  if (Unsigned)
    UnsignedText.insert(Id);
  return Id;
}

const std::vector<const VarDecl *> &SymbolTable::uses(int Id) const {
  static const std::vector<const VarDecl *> None;
  auto It = Uses.find(Id);
  return It == Uses.end() ? None : It->second;
}

Linear add(const Linear &A, const Linear &B, std::int64_t Sign) {
  Linear R;
  R.Coef.resize(std::max(A.Coef.size(), B.Coef.size()));
  for (size_t V = 0; V < R.Coef.size(); ++V) {
    const Poly CA = V < A.Coef.size() ? A.Coef[V] : Poly();
    const Poly CB = V < B.Coef.size() ? B.Coef[V] : Poly();
    R.Coef[V] = CA + CB.times(Sign);
  }
  R.Const = A.Const + B.Const.times(Sign);
  return R;
}

namespace {

bool hasVariable(const Linear &L) {
  for (const Poly &P : L.Coef)
    if (!P.isZero())
      return true;
  return false;
}

bool valid(const Linear &L) {
  for (const Poly &P : L.Coef)
    if (!P.valid())
      return false;
  return L.Const.valid();
}

Linear scale(const Linear &L, const Poly &K) {
  Linear R;
  for (const Poly &P : L.Coef)
    R.Coef.push_back(P * K);
  R.Const = L.Const * K;
  return R;
}

/// The single returned expression of a small helper: `return e;` alone.
const Expr *returnedExpression(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def->getReturnType()->isIntegerType())
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *R = dyn_cast<ReturnStmt>(Body->body_front());
  return R ? R->getRetValue() : nullptr;
}

} // namespace

Linear AffineBuilder::constant(Poly P) const {
  Linear L;
  L.Const = std::move(P);
  return L;
}

std::optional<Linear> AffineBuilder::build(const Expr *E) { return build(E, {}, 0); }

std::optional<Poly> AffineBuilder::invariant(const Expr *E) {
  std::optional<Linear> L = build(E);
  if (!L || hasVariable(*L))
    return std::nullopt;
  return L->Const;
}

std::optional<std::vector<Linear>> AffineBuilder::bounds(const Expr *Cond) {
  const auto *B = Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
  if (!B)
    return std::nullopt;
  if (B->getOpcode() == BO_LAnd) {
    std::optional<std::vector<Linear>> L = bounds(B->getLHS()), R = L ? bounds(B->getRHS()) : std::nullopt;
    if (!R)
      return std::nullopt;
    L->insert(L->end(), R->begin(), R->end());
    return L;
  }
  if (!B->isRelationalOp() || !B->getLHS()->getType()->isSignedIntegerType() ||
      !B->getRHS()->getType()->isSignedIntegerType())
    return std::nullopt;
  std::optional<Linear> L = build(B->getLHS()), R = L ? build(B->getRHS()) : std::nullopt;
  if (!R)
    return std::nullopt;
  // a < b: b - a - 1 >= 0; a <= b: b - a >= 0; a > b, a >= b alike.
  const BinaryOperatorKind Op = B->getOpcode();
  const bool Less = Op == BO_LT || Op == BO_LE;
  Linear Form = Less ? add(*R, *L, -1) : add(*L, *R, -1);
  if (Op == BO_LT || Op == BO_GT)
    Form.Const = Form.Const - Poly::constant(1);
  if (!valid(Form))
    return std::nullopt;
  return std::vector<Linear>{Form};
}

std::optional<Linear> AffineBuilder::build(const Expr *E,
                                           const std::map<const ParmVarDecl *, Linear> &Params,
                                           int Depth) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens();
  // In a template's text a member read through `this` is value-dependent
  // (its object's type is), though of a known integer type.
  if (!E->getType()->isIntegerType() || E->isTypeDependent())
    return std::nullopt;
  // Anything that folds to a constant (literals, enumerators, sizeof,
  // `const int` with a constant initialiser).
  {
    Expr::EvalResult R;
    if (!E->isValueDependent() && !E->HasSideEffects(Ctx) && E->EvaluateAsInt(R, Ctx) &&
        R.Val.getInt().getSignificantBits() < 62)
      return constant(Poly::constant(R.Val.getInt().getExtValue()));
  }
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    if (C->getSubExpr()->getType()->isIntegerType())
      return build(C->getSubExpr(), Params, Depth);
    return std::nullopt;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    std::optional<Linear> S = build(U->getSubExpr(), Params, Depth);
    if (!S)
      return std::nullopt;
    if (U->getOpcode() == UO_Plus)
      return S;
    if (U->getOpcode() == UO_Minus)
      return scale(*S, Poly::constant(-1));
    return std::nullopt;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    const BinaryOperatorKind Op = B->getOpcode();
    if (Op == BO_Div || Op == BO_Rem)
      return quotient(B, Params, Depth);
    if (Op != BO_Add && Op != BO_Sub && Op != BO_Mul && Op != BO_Shl)
      return std::nullopt;
    std::optional<Linear> L = build(B->getLHS(), Params, Depth);
    std::optional<Linear> R = L ? build(B->getRHS(), Params, Depth) : std::nullopt;
    if (!L || !R)
      return std::nullopt;
    std::optional<Linear> Out;
    if (Op == BO_Add || Op == BO_Sub) {
      Out = add(*L, *R, Op == BO_Add ? 1 : -1);
    } else if (Op == BO_Shl) { // i << 2: i * 4
      std::optional<std::int64_t> K = R->Const.asConstant();
      if (hasVariable(*R) || !K || *K < 0 || *K > 40)
        return std::nullopt;
      Out = scale(*L, Poly::constant(std::int64_t(1) << *K));
    } else if (!hasVariable(*L)) {
      Out = scale(*R, L->Const);
    } else if (!hasVariable(*R)) {
      Out = scale(*L, R->Const);
    } else {
      return std::nullopt; // i * j
    }
    return valid(*Out) ? Out : std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()); P && Params.count(P))
      return Params.at(P);
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return std::nullopt;
    if (auto It = LoopVars.find(V); It != LoopVars.end()) {
      Linear L;
      L.Coef.resize(It->second + 1);
      L.Coef[It->second] = Poly::constant(1);
      return L;
    }
    if (auto It = Inline.find(V); It != Inline.end())
      return Depth < 8 ? build(It->second, Params, Depth + 1) : std::nullopt;
    if (Written.count(V) || V->getType().isVolatileQualified())
      return std::nullopt;
    return constant(Poly::symbol(Symbols.of(V)));
  }
  // An argument bound to `const int &` (std::max's), and the full
  // expression holding it.
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return build(M->getSubExpr(), Params, Depth);
  if (const auto *W = dyn_cast<ExprWithCleanups>(E))
    return build(W->getSubExpr(), Params, Depth);
  if (isa<ConditionalOperator>(E))
    return choice(E, Params, Depth);
  if (const auto *C = dyn_cast<CallExpr>(E))
    return call(C, Params, Depth);
  // A data member by its name, as its variable.
  if (const VarDecl *V = Members ? Members->of(E) : nullptr) {
    if (Written.count(V) || V->getType().isVolatileQualified() || !V->getType()->isIntegerType())
      return std::nullopt;
    return constant(Poly::symbol(Symbols.of(V)));
  }
  // `p.nx`, `v.size()` on a variable the loop does not change.
  if (isa<MemberExpr>(E) || isa<CXXMemberCallExpr>(E)) {
    const Expr *Base = isa<MemberExpr>(E) ? cast<MemberExpr>(E)->getBase()
                                          : cast<CXXMemberCallExpr>(E)->getImplicitObjectArgument();
    const VarDecl *V = nullptr;
    if (const auto *D = dyn_cast_or_null<DeclRefExpr>(Base ? Base->IgnoreParenImpCasts() : nullptr))
      V = dyn_cast<VarDecl>(D->getDecl());
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    if (!V || Written.count(V) || LoopVars.count(V) ||
        (MC && (MC->getNumArgs() != 0 || !MC->getMethodDecl() || !MC->getMethodDecl()->isConst())))
      return std::nullopt;
    const std::string Text = textOf(E, Ctx);
    if (Text.empty())
      return std::nullopt;
    return constant(Poly::symbol(Symbols.of(Text)));
  }
  return std::nullopt;
}

// An expression's symbol (a quotient, a choice) is told apart by its
// parts' symbol ids (two variables may share a name) and written with
// their names.
std::string AffineBuilder::keyOf(const Poly &P) {
  return "(" + P.str([](int Id) { return "#" + std::to_string(Id); }) + ")";
}

std::string AffineBuilder::operandText(const Poly &P) const {
  const std::vector<std::string> &Names = Symbols.names();
  std::string T = P.str([&](int Id) { return Names[Id]; }, true);
  return T.find(' ') == std::string::npos ? T : "(" + T + ")";
}

std::vector<const VarDecl *> AffineBuilder::variablesOf(const std::vector<Poly> &Parts) const {
  std::vector<const VarDecl *> Used;
  for (const Poly &P : Parts)
    for (const auto &[M, K] : P.terms())
      for (int Id : M) {
        const VarDecl *V = Symbols.var(Id);
        if (!V)
          return {}; // not written before the loop
        if (std::find(Used.begin(), Used.end(), V) == Used.end())
          Used.push_back(V);
      }
  return Used;
}

std::optional<Linear> AffineBuilder::quotient(const BinaryOperator *B,
                                              const std::map<const ParmVarDecl *, Linear> &Params, int Depth) {
  // `r / 2` of an invariant r: a symbol of its own, which the host can
  // evaluate before the loop when its symbols are variables (a divisor
  // of 0 would fault where the loop does not).
  std::optional<Linear> L = build(B->getLHS(), Params, Depth);
  std::optional<Linear> R = L ? build(B->getRHS(), Params, Depth) : std::nullopt;
  std::optional<std::int64_t> K = R && !hasVariable(*R) ? R->Const.asConstant() : std::nullopt;
  if (!K || *K == 0 || hasVariable(*L))
    return std::nullopt;
  const std::string Op = (B->getOpcode() == BO_Div ? " / " : " % ") + std::to_string(*K);
  const int Id = Symbols.of(keyOf(L->Const) + Op, operandText(L->Const) + Op, variablesOf({L->Const}),
                            B->getType()->isUnsignedIntegerType());
  if (B->getOpcode() == BO_Div && *K > 0 && B->getType()->isSignedIntegerType() &&
      std::none_of(Symbols.Quotients.begin(), Symbols.Quotients.end(), [&](const Quotient &Q) { return Q.Id == Id; }))
    Symbols.Quotients.push_back({Id, L->Const, *K});
  return constant(Poly::symbol(Id));
}

std::optional<Linear> AffineBuilder::choice(const Expr *E, const std::map<const ParmVarDecl *, Linear> &Params,
                                            int Depth) {
  // The least or greatest of values the loop does not change
  // (`std::max(2, i - n + 2)`, a MIN macro's `a < b ? a : b`): a symbol
  // of its own, which the host can evaluate before the loop from its
  // variables. Written as a choice, `(a < b ? b : a)`, whatever the
  // operands' types.
  const Expr *L = nullptr, *R = nullptr, *Then = nullptr, *Else = nullptr;
  std::string Op;
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    const auto *Cmp = dyn_cast<BinaryOperator>(CO->getCond()->IgnoreParenImpCasts());
    if (!Cmp || !Cmp->isRelationalOp())
      return std::nullopt;
    L = Cmp->getLHS(), R = Cmp->getRHS(), Then = CO->getTrueExpr(), Else = CO->getFalseExpr();
    Op = Cmp->getOpcodeStr().str();
  } else if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = C->getDirectCallee();
    const IdentifierInfo *Id = FD ? FD->getIdentifier() : nullptr;
    if (!Id || !FD->isInStdNamespace() || C->getNumArgs() != 2 || (Id->getName() != "min" && Id->getName() != "max"))
      return std::nullopt;
    // min(a, b): b < a ? b : a; max(a, b): a < b ? b : a.
    const bool Min = Id->getName() == "min";
    L = C->getArg(Min ? 1 : 0), R = C->getArg(Min ? 0 : 1), Then = C->getArg(1), Else = C->getArg(0);
    Op = "<";
  } else {
    return std::nullopt;
  }
  std::vector<Poly> Parts;
  for (const Expr *Part : {L, R, Then, Else}) {
    std::optional<Linear> F = build(Part, Params, Depth);
    if (!F || hasVariable(*F))
      return std::nullopt;
    Parts.push_back(F->Const);
  }
  const int Id = Symbols.of(keyOf(Parts[0]) + Op + keyOf(Parts[1]) + "?" + keyOf(Parts[2]) + ":" + keyOf(Parts[3]),
                            operandText(Parts[0]) + " " + Op + " " + operandText(Parts[1]) + " ? " +
                                operandText(Parts[2]) + " : " + operandText(Parts[3]),
                            variablesOf(Parts), E->getType()->isUnsignedIntegerType());
  return constant(Poly::symbol(Id));
}

std::optional<Linear> AffineBuilder::call(const CallExpr *C,
                                          const std::map<const ParmVarDecl *, Linear> &Params,
                                          int Depth) {
  if (std::optional<Linear> Chosen = choice(C, Params, Depth))
    return Chosen;
  const FunctionDecl *FD = C->getDirectCallee();
  const Expr *Returned = returnedExpression(FD);
  if (!Returned || Depth > 4 || C->getNumArgs() != FD->getNumParams())
    return std::nullopt;
  // The helper's own parameters, bound to the arguments' forms.
  const FunctionDecl *Def = nullptr;
  FD->hasBody(Def);
  std::map<const ParmVarDecl *, Linear> Inner;
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    if (!Def->getParamDecl(I)->getType()->isIntegerType())
      return std::nullopt;
    std::optional<Linear> A = build(C->getArg(I), Params, Depth);
    if (!A)
      return std::nullopt;
    Inner[Def->getParamDecl(I)] = *A;
  }
  return build(Returned, Inner, Depth + 1);
}

} // namespace dpstub::migrate
