//===- Dependence.cpp - Can two iterations touch one element? -------------===//
//
// For a pair of accesses, each dimension gives the equation
//   S_A(x) - S_B(x') = 0
// over the normalised variables (value = Lower + Step * x, x in [0,
// Count)): x are the first access's iteration, x' the second's. The
// equation is split into levels (by monomial, then by integer factor) and
// each level solved alone. A split is exact when the lower levels can
// never add up to one unit of the next; an inexact split only narrows the
// solutions, so it can show a dependence but never prove independence.
//
//===----------------------------------------------------------------------===//

#include "Dependence.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <numeric>
#include <set>

namespace dpstub::migrate {

namespace {

/// c * x_Var (x'_Var when Primed), c a polynomial.
struct Term {
  int Var;
  bool Primed;
  Poly Coef;
};
struct Equation {
  std::vector<Term> Terms;
  Poly Gamma;
};

/// c * x_Var with an integer c.
struct ITerm {
  int Var;
  bool Primed;
  std::int64_t Coef;
};
/// sum(Terms) + Gamma = 0; Exact when its solutions are exactly those of
/// the equation it was split from (else a subset of them).
struct IEquation {
  std::vector<ITerm> Terms;
  Poly Gamma;
  bool Exact = true;
};

/// What splitting an equation gives.
struct Split {
  bool Unknown = false;    ///< coefficients it cannot split into integers
  bool NoSolution = false; ///< proven: no solution
  bool InexactNoSolution = false; ///< none in the narrowed equations only
  std::vector<IEquation> Parts;
};

Poly monomialPoly(const Monomial &M) {
  Poly P = Poly::constant(1);
  for (int Id : M)
    P = P * Poly::symbol(Id);
  return P;
}

/// Count - 1 of a variable, or none when unknown.
std::optional<Poly> span(const Nest &N, int Var) {
  const std::optional<Poly> &C = N.Vars[Var].Count;
  if (!C || !C->valid())
    return std::nullopt;
  return *C - Poly::constant(1);
}

/// Splits by symbolic monomial: E = sum over levels m_k * E_k, the levels
/// a chain m_0 | m_1 | ... Each E_k has integer coefficients.
Split splitByMonomial(const Equation &E, const Nest &N) {
  Split S;
  std::set<Monomial> Levels;
  for (const Term &T : E.Terms) {
    if (!T.Coef.valid())
      return Split{true, false, false, {}};
    for (const auto &[M, C] : T.Coef.terms())
      Levels.insert(M);
  }
  if (!E.Gamma.valid())
    return Split{true, false, false, {}};
  for (const auto &[M, C] : E.Gamma.terms())
    Levels.insert(M);
  if (Levels.empty())
    Levels.insert(Monomial{});
  std::vector<Monomial> Chain(Levels.begin(), Levels.end());
  std::stable_sort(Chain.begin(), Chain.end(),
                   [](const Monomial &A, const Monomial &B) { return A.size() < B.size(); });
  for (size_t K = 1; K < Chain.size(); ++K)
    if (!std::includes(Chain[K].begin(), Chain[K].end(), Chain[K - 1].begin(), Chain[K - 1].end()) ||
        Chain[K].size() == Chain[K - 1].size())
      return Split{true, false, false, {}};

  // The lower levels' sum lies in [Lo, Hi]; it must stay within one unit
  // of the next level, (-m_K, m_K), for the levels to be independent.
  // The lowest level is 1, or a product of symbols that may be 0 (`2 * t
  // = 0` holds at t = 0), which makes the split only narrow.
  bool Exact = Chain.front().empty();
  Poly Lo = Poly::constant(0), Hi = Poly::constant(0);
  for (size_t K = 0; K < Chain.size(); ++K) {
    if (K > 0 && Exact)
      Exact = provablyPositive(monomialPoly(Chain[K]) - Hi) &&
              provablyPositive(monomialPoly(Chain[K]) + Lo);
    IEquation Part;
    const std::int64_t G = E.Gamma.coefficient(Chain[K]);
    Part.Gamma = Poly::constant(G);
    Poly LevelLo = Poly::constant(G), LevelHi = Poly::constant(G);
    for (const Term &T : E.Terms)
      if (std::int64_t C = T.Coef.coefficient(Chain[K])) {
        Part.Terms.push_back({T.Var, T.Primed, C});
        if (std::optional<Poly> Sp = span(N, T.Var))
          (C < 0 ? LevelLo : LevelHi) = (C < 0 ? LevelLo : LevelHi) + Sp->times(C);
        else
          Exact = false;
      }
    Lo = Lo + monomialPoly(Chain[K]) * LevelLo;
    Hi = Hi + monomialPoly(Chain[K]) * LevelHi;
    S.Parts.push_back(std::move(Part));
  }
  for (IEquation &P : S.Parts)
    P.Exact = Exact;
  return S;
}

/// The range [Lo, Hi] of sum(Terms) when every variable count is a
/// constant; none otherwise.
std::optional<std::pair<std::int64_t, std::int64_t>> rangeOf(const std::vector<ITerm> &Terms,
                                                              const Nest &N) {
  std::int64_t Lo = 0, Hi = 0;
  for (const ITerm &T : Terms) {
    std::optional<Poly> Sp = span(N, T.Var);
    std::optional<std::int64_t> S = Sp ? Sp->asConstant() : std::nullopt;
    if (!S)
      return std::nullopt;
    if (*S < 0) // an empty loop: no iteration at all
      return std::make_pair(std::int64_t(1), std::int64_t(0));
    std::int64_t P;
    if (__builtin_mul_overflow(T.Coef, *S, &P))
      return std::nullopt;
    (P < 0 ? Lo : Hi) += P;
  }
  return std::make_pair(Lo, Hi);
}

std::int64_t floorDiv(std::int64_t A, std::int64_t B) {
  std::int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}

/// Splits an integer equation by factor: the terms whose coefficients
/// share a factor g, and the rest when the rest stays below g.
void splitByInteger(IEquation E, const Nest &N, Split &Out) {
  std::optional<std::int64_t> Gamma = E.Gamma.asConstant();
  std::set<std::int64_t> Magnitudes;
  for (const ITerm &T : E.Terms)
    Magnitudes.insert(absOf(T.Coef));
  if (!Gamma || Magnitudes.size() < 2) {
    Out.Parts.push_back(std::move(E));
    return;
  }
  std::optional<std::pair<IEquation, IEquation>> Inexact;
  for (auto It = std::next(Magnitudes.begin()); It != Magnitudes.end(); ++It) {
    std::vector<ITerm> High, Low;
    std::int64_t G = 0;
    for (const ITerm &T : E.Terms)
      if (absOf(T.Coef) >= *It) {
        High.push_back(T);
        G = std::gcd(G, absOf(T.Coef));
      } else {
        Low.push_back(T);
      }
    if (G <= 1)
      continue;
    std::optional<std::pair<std::int64_t, std::int64_t>> R = rangeOf(Low, N);
    if (!R)
      continue;
    if (R->first > R->second) { // an empty loop: nothing to solve
      (E.Exact ? Out.NoSolution : Out.InexactNoSolution) = true;
      return;
    }
    // Low + r must be a multiple k*G of G: k in [(Lo + r)/G, (Hi + r)/G].
    const std::int64_t Rem = ((*Gamma % G) + G) % G;
    const std::int64_t KLo = -floorDiv(-(R->first + Rem), G), KHi = floorDiv(R->second + Rem, G);
    if (KLo > KHi) {
      (E.Exact ? Out.NoSolution : Out.InexactNoSolution) = true;
      return;
    }
    auto Parts = [&](std::int64_t K) {
      IEquation L{Low, Poly::constant(Rem - K * G), E.Exact};
      IEquation H{{}, Poly::constant((*Gamma - Rem + K * G) / G), E.Exact};
      for (ITerm T : High) {
        T.Coef /= G;
        H.Terms.push_back(T);
      }
      return std::make_pair(std::move(L), std::move(H));
    };
    if (KLo == KHi) {
      auto [L, H] = Parts(KLo);
      splitByInteger(std::move(L), N, Out);
      splitByInteger(std::move(H), N, Out);
      return;
    }
    if (!Inexact) {
      const std::int64_t K = std::clamp<std::int64_t>(0, KLo, KHi);
      Inexact = Parts(K);
    }
  }
  if (Inexact) {
    Inexact->first.Exact = Inexact->second.Exact = false;
    splitByInteger(std::move(Inexact->first), N, Out);
    splitByInteger(std::move(Inexact->second), N, Out);
    return;
  }
  Out.Parts.push_back(std::move(E));
}

/// What the solved equations say of one variable.
struct VarState {
  std::optional<Poly> Distance;     ///< x' - x
  std::optional<Poly> ValueA, ValueB;
  bool Unknown = false;
};

/// NoSolution: the equation alone has none; Contradiction: its facts
/// contradict earlier ones (exact only when every fact was).
enum class Outcome { Ok, NoSolution, Contradiction, Unknown };

/// P / D when D divides every coefficient of P.
std::optional<Poly> divide(const Poly &P, std::int64_t D) {
  if (!P.valid() || D == 0)
    return std::nullopt;
  Poly Q;
  for (const auto &[M, C] : P.terms()) {
    if (C % D != 0)
      return std::nullopt;
    Q = Q + monomialPoly(M).times(C / D);
  }
  return Q;
}

/// Merges a fact into a slot: equal facts agree, facts that differ by a
/// non-zero constant contradict, others are unknown.
Outcome merge(std::optional<Poly> &Slot, const Poly &Fact) {
  if (!Slot) {
    Slot = Fact;
    return Outcome::Ok;
  }
  const Poly Diff = *Slot - Fact;
  if (Diff.isZero())
    return Outcome::Ok;
  return Diff.isConstant() ? Outcome::Contradiction : Outcome::Unknown;
}

/// True when V lies outside [0, Count - 1] for every value of the symbols.
bool provablyOutside(const Poly &V, const Nest &N, int Var) {
  if (provablyPositive(-V)) // V <= -1
    return true;
  const std::optional<Poly> &C = N.Vars[Var].Count;
  return C && provablyPositive(V - *C + Poly::constant(1)); // V >= Count
}

/// A distance no two iterations can have: |D| >= Count.
bool provablyTooFar(const Poly &D, const Nest &N, int Var) {
  const std::optional<Poly> &C = N.Vars[Var].Count;
  return C && (provablyPositive(D - *C + Poly::constant(1)) ||
               provablyPositive(-D - *C + Poly::constant(1)));
}

/// Banerjee's bounds and the GCD test for an equation of several
/// variables: NoSolution when either excludes it.
Outcome boundsTest(const IEquation &E, const Nest &N) {
  std::int64_t G = 0;
  for (const ITerm &T : E.Terms)
    G = std::gcd(G, absOf(T.Coef));
  if (std::optional<std::int64_t> Gamma = E.Gamma.asConstant(); Gamma && G > 0 && *Gamma % G != 0)
    return Outcome::NoSolution;
  Poly Min = E.Gamma, Max = E.Gamma;
  for (const ITerm &T : E.Terms) {
    std::optional<Poly> Sp = span(N, T.Var);
    if (!Sp)
      return Outcome::Unknown;
    (T.Coef < 0 ? Min : Max) = (T.Coef < 0 ? Min : Max) + Sp->times(T.Coef);
  }
  if (provablyPositive(Min) || provablyPositive(-Max))
    return Outcome::NoSolution;
  return Outcome::Unknown;
}

/// Solves one integer equation into the variables' states.
Outcome solve(const IEquation &E, const Nest &N, std::vector<VarState> &States) {
  std::set<int> Vars;
  for (const ITerm &T : E.Terms)
    Vars.insert(T.Var);
  if (Vars.empty()) {
    if (E.Gamma.isZero())
      return Outcome::Ok;
    return E.Gamma.isConstant() ? Outcome::NoSolution : Outcome::Unknown;
  }
  if (Vars.size() == 1) {
    const int V = *Vars.begin();
    std::int64_t Alpha = 0, Beta = 0; // Alpha x + Beta x' + Gamma = 0
    for (const ITerm &T : E.Terms)
      (T.Primed ? Beta : Alpha) += T.Coef;
    VarState &S = States[V];
    if (Alpha == 0 && Beta == 0)
      return solve(IEquation{{}, E.Gamma, E.Exact}, N, States);
    if (Alpha != 0 && Beta == -Alpha) { // x' - x = Gamma / Alpha
      std::optional<Poly> D = divide(E.Gamma, Alpha);
      if (!D)
        return E.Gamma.isConstant() ? Outcome::NoSolution : Outcome::Unknown;
      if (provablyTooFar(*D, N, V))
        return Outcome::NoSolution;
      return merge(S.Distance, *D);
    }
    if (Beta == 0 || Alpha == 0) { // x = -Gamma / Alpha, or x' likewise
      std::optional<Poly> X = divide(-E.Gamma, Alpha ? Alpha : Beta);
      if (!X)
        return E.Gamma.isConstant() ? Outcome::NoSolution : Outcome::Unknown;
      if (provablyOutside(*X, N, V))
        return Outcome::NoSolution;
      return merge(Alpha ? S.ValueA : S.ValueB, *X);
    }
  }
  const Outcome O = boundsTest(E, N);
  if (O == Outcome::Unknown)
    for (int V : Vars)
      States[V].Unknown = true;
  return O;
}

/// Value and distance facts of one variable agree; none contradicts.
Outcome settle(VarState &S, const Nest &N, int Var) {
  if (S.ValueA && S.ValueB)
    if (Outcome O = merge(S.Distance, *S.ValueB - *S.ValueA); O != Outcome::Ok)
      return O;
  if (S.Distance && provablyTooFar(*S.Distance, N, Var))
    return Outcome::NoSolution;
  // A value on one side and a distance put the other side out of range.
  if (S.Distance && S.ValueA && provablyOutside(*S.ValueA + *S.Distance, N, Var))
    return Outcome::NoSolution;
  if (S.Distance && S.ValueB && provablyOutside(*S.ValueB - *S.Distance, N, Var))
    return Outcome::NoSolution;
  return Outcome::Ok;
}

/// Whether two iterations may differ in Var, given what is known of it:
/// 1 yes (with Witness, none for "any"), 0 no, -1 unknown.
int mayDiffer(const VarState &S, const Nest &N, int Var, std::optional<std::int64_t> &Witness) {
  if (S.Unknown)
    return -1;
  if (S.Distance) {
    std::optional<std::int64_t> D = S.Distance->asConstant();
    if (!D)
      return -1;
    Witness = *D;
    return *D != 0 ? 1 : 0;
  }
  // Free on at least one side: any two iterations, if there are two.
  const std::optional<Poly> &C = N.Vars[Var].Count;
  std::optional<std::int64_t> Count = C ? C->asConstant() : std::nullopt;
  if (Count && *Count < 2)
    return 0;
  Witness.reset();
  return 1;
}

} // namespace

static DependenceResult solvePair(const Nest &N, std::size_t IA, std::size_t IB) {
  const Access &A = N.Accesses[IA], &B = N.Accesses[IB];
  DependenceResult R;
  R.First = IA, R.Second = IB;
  const size_t NV = N.Vars.size();
  auto Unknown = [&](std::string Why) {
    R.V = Verdict::Unknown;
    R.Why = std::move(Why);
    return R;
  };
  // A loop that never runs: the accesses inside it never happen.
  auto Empty = [&](int V) {
    std::optional<std::int64_t> C = N.Vars[V].Count ? N.Vars[V].Count->asConstant() : std::nullopt;
    return C && *C <= 0;
  };
  for (size_t V = 0; V < NV; ++V)
    if (N.Vars[V].Parallel && Empty(int(V)))
      return R;
  for (const Access *X : {&A, &B})
    for (int V : X->Loops)
      if (Empty(V))
        return R;
  if (A.Dims.size() != B.Dims.size())
    return Unknown("'" + A.Text + "' and '" + B.Text + "' index the array with different ranks");

  // The equations, normalised (value = Lower + Step * x), split and solved.
  std::vector<VarState> States(NV);
  bool ExactNoSolution = false, InexactNoSolution = false, AllExact = true, Contradiction = false;
  for (size_t D = 0; D < A.Dims.size(); ++D) {
    const Subscript &SA = A.Dims[D], &SB = B.Dims[D];
    if (!SA.Affine || !SB.Affine)
      return Unknown("'" + (SA.Affine ? B.Text : A.Text) +
                     "' is not an affine function of the loop variables");
    Equation E;
    E.Gamma = SA.Const - SB.Const;
    for (size_t V = 0; V < NV; ++V) {
      const Poly CA = V < SA.Coef.size() ? SA.Coef[V] : Poly();
      const Poly CB = V < SB.Coef.size() ? SB.Coef[V] : Poly();
      const Poly Step = N.Vars[V].RunTimeStep ? N.Vars[V].RunTimeStep->times(N.Vars[V].Step)
                                              : Poly::constant(N.Vars[V].Step);
      if (!CA.isZero())
        E.Terms.push_back({int(V), false, CA * Step});
      if (!CB.isZero())
        E.Terms.push_back({int(V), true, -(CB * Step)});
      E.Gamma = E.Gamma + (CA - CB) * N.Vars[V].Lower;
    }
    Split S = splitByMonomial(E, N);
    if (S.Unknown)
      return Unknown("'" + A.Text + "' and '" + B.Text +
                     "' have coefficients dpstub cannot compare (no chain of row lengths)");
    Split Parts;
    for (IEquation &P : S.Parts)
      splitByInteger(std::move(P), N, Parts);
    if (Parts.NoSolution) {
      ExactNoSolution = true;
      break;
    }
    InexactNoSolution |= Parts.InexactNoSolution;
    for (const IEquation &P : Parts.Parts) {
      AllExact &= P.Exact;
      const Outcome O = solve(P, N, States);
      if (O == Outcome::NoSolution)
        (P.Exact ? ExactNoSolution : InexactNoSolution) = true;
      Contradiction |= O == Outcome::Contradiction;
    }
    if (ExactNoSolution)
      break;
  }
  if (!ExactNoSolution)
    for (size_t V = 0; V < NV; ++V) {
      const Outcome O = settle(States[V], N, int(V));
      Contradiction |= O == Outcome::NoSolution || O == Outcome::Contradiction;
      if (O == Outcome::Unknown)
        States[V].Unknown = true;
    }
  // Facts that contradict one another prove nothing when some came from
  // a narrowed equation.
  if (Contradiction)
    (AllExact ? ExactNoSolution : InexactNoSolution) = true;
  if (ExactNoSolution) {
    R.V = Verdict::Independent;
    return R;
  }
  if (InexactNoSolution)
    return Unknown("dpstub cannot bound '" + A.Text + "' against '" + B.Text + "'");

  // Some parallel variable may differ between the two iterations: a
  // dependence. Inner variables need only agree with their facts.
  bool Differ = false, Unsure = false, UnsureInner = false;
  for (size_t V = 0; V < NV; ++V) {
    std::optional<std::int64_t> W;
    if (!N.Vars[V].Parallel) {
      UnsureInner |= States[V].Unknown;
      continue;
    }
    const int M = mayDiffer(States[V], N, int(V), W);
    R.Distance.push_back(W);
    Differ |= M == 1;
    Unsure |= M == -1;
  }
  if (Unsure || (Differ && UnsureInner))
    return Unknown("dpstub cannot solve '" + A.Text + "' = '" + B.Text + "' across iterations");
  if (!Differ) {
    if (AllExact) {
      R.V = Verdict::Independent;
      R.Distance.clear();
      return R;
    }
    return Unknown("dpstub cannot bound '" + A.Text + "' against '" + B.Text + "'");
  }
  if (A.Conditional || B.Conditional)
    return Unknown("'" + A.Text + "' and '" + B.Text +
                   "' may touch one element from two iterations (under a condition)");
  // The earlier iteration's access first: the distance lexicographically
  // positive ("*" counts as positive).
  for (const std::optional<std::int64_t> &D : R.Distance) {
    if (!D || *D > 0)
      break;
    if (*D < 0) {
      std::swap(R.First, R.Second);
      for (std::optional<std::int64_t> &E : R.Distance)
        if (E)
          *E = -*E;
      break;
    }
  }
  R.V = Verdict::Dependent;
  return R;
}

namespace {

/// A value for every symbol: all alike, or each its own; the symbols in
/// Large far above the others (a row length beyond every loop's stretch).
struct SymbolValues {
  bool Distinct = false;
  std::set<int> Large;
  std::int64_t valueOf(int Id) const {
    if (Large.count(Id))
      return 1000 + 3 * Id;
    return Distinct ? 10 + 3 * Id : 10;
  }
  std::int64_t eval(const Poly &P) const {
    std::int64_t V = 0;
    for (const auto &[M, C] : P.terms()) {
      std::int64_t T = C;
      for (int Id : M)
        T *= valueOf(Id);
      V += T;
    }
    return V;
  }
  std::int64_t eval(const Subscript &S, const std::vector<std::int64_t> &Values) const {
    std::int64_t V = eval(S.Const);
    for (size_t K = 0; K < S.Coef.size() && K < Values.size(); ++K)
      V += eval(S.Coef[K]) * Values[K];
    return V;
  }
};

/// Every point at which X happens (the parallel variables and the inner
/// ones enclosing it), in order; false past Limit points or where a range
/// is unknown.
bool enumerate(const Nest &N, const Access &X, const SymbolValues &S, size_t Limit,
               const std::function<void(const std::vector<std::int64_t> &)> &F) {
  std::vector<std::int64_t> Values(N.Vars.size(), 0);
  size_t Seen = 0;
  bool Ok = true;
  std::function<void(size_t)> Walk = [&](size_t V) {
    if (!Ok)
      return;
    if (V == N.Vars.size()) {
      if (++Seen > Limit)
        Ok = false;
      else
        F(Values);
      return;
    }
    const LoopVar &L = N.Vars[V];
    if (!L.Parallel && std::find(X.Loops.begin(), X.Loops.end(), int(V)) == X.Loops.end())
      return Walk(V + 1);
    if (L.From && L.To) {
      const std::int64_t From = S.eval(*L.From, Values), To = S.eval(*L.To, Values);
      for (std::int64_t Value = From; Value < To && Ok; ++Value)
        Values[V] = Value, Walk(V + 1);
      return;
    }
    if (!L.Count) {
      Ok = false;
      return;
    }
    const std::int64_t Count = S.eval(*L.Count), Lower = S.eval(L.Lower);
    for (std::int64_t K = 0; K < Count && Ok; ++K)
      Values[V] = Lower + L.Step * K, Walk(V + 1);
  };
  Walk(0);
  return Ok;
}

/// Two different iterations at which A and B touch one element, with
/// the symbols set as S says: their distance (Second's minus First's).
std::optional<std::vector<std::optional<std::int64_t>>> witness(const Nest &N, const Access &A, const Access &B,
                                                                const SymbolValues &S) {
  for (const Access *X : {&A, &B})
    for (const Subscript &D : X->Dims)
      if (!D.Affine)
        return std::nullopt;
  auto Parallel = [&](const std::vector<std::int64_t> &Values) {
    std::vector<std::int64_t> P;
    for (size_t V = 0; V < N.Vars.size(); ++V)
      if (N.Vars[V].Parallel)
        P.push_back(Values[V]);
    return P;
  };
  auto Element = [&](const Access &X, const std::vector<std::int64_t> &Values) {
    std::vector<std::int64_t> E;
    for (const Subscript &D : X.Dims)
      E.push_back(S.eval(D, Values));
    return E;
  };
  std::map<std::vector<std::int64_t>, std::vector<std::vector<std::int64_t>>> ByElement;
  if (!enumerate(N, A, S, 20000, [&](const std::vector<std::int64_t> &Values) {
        ByElement[Element(A, Values)].push_back(Parallel(Values));
      }))
    return std::nullopt;
  std::optional<std::vector<std::optional<std::int64_t>>> Found;
  const bool Complete = enumerate(N, B, S, 20000, [&](const std::vector<std::int64_t> &Values) {
    if (Found)
      return;
    auto It = ByElement.find(Element(B, Values));
    if (It == ByElement.end())
      return;
    const std::vector<std::int64_t> P = Parallel(Values);
    for (const std::vector<std::int64_t> &Q : It->second)
      if (Q != P) {
        std::vector<std::optional<std::int64_t>> D;
        for (size_t K = 0; K < P.size(); ++K)
          D.push_back(P[K] - Q[K]);
        Found = D;
        return;
      }
  });
  return Complete || Found ? Found : std::nullopt;
}

/// The symbols of P, added to Out.
void symbolsOf(const Poly &P, std::set<int> &Out) {
  for (const auto &[M, C] : P.terms())
    Out.insert(M.begin(), M.end());
}

/// The symbols A's and B's subscripts use that no loop's bounds do: the
/// strides of linearised indices (`a[i * n + j]` with j bounded
/// otherwise), whose values nothing in the nest ties to the loops'.
std::set<int> strideSymbols(const Nest &N, const Access &A, const Access &B) {
  std::set<int> Bounds, Used, Out;
  for (const LoopVar &L : N.Vars) {
    symbolsOf(L.Lower, Bounds);
    if (L.Count)
      symbolsOf(*L.Count, Bounds);
    for (const std::optional<Subscript> *S : {&L.From, &L.To})
      if (*S) {
        symbolsOf((*S)->Const, Bounds);
        for (const Poly &C : (*S)->Coef)
          symbolsOf(C, Bounds);
      }
  }
  for (const Access *X : {&A, &B})
    for (const Subscript &D : X->Dims) {
      symbolsOf(D.Const, Used);
      for (const Poly &C : D.Coef)
        symbolsOf(C, Used);
    }
  std::set_difference(Used.begin(), Used.end(), Bounds.begin(), Bounds.end(),
                      std::inserter(Out, Out.end()));
  return Out;
}

} // namespace

namespace {
DependenceResult testElements(const Nest &N, std::size_t IA, std::size_t IB);
} // namespace

DependenceResult testPair(const Nest &N, std::size_t IA, std::size_t IB) {
  DependenceResult R = testElements(N, IA, IB);
  const Access &A = N.Accesses[IA], &B = N.Accesses[IB];
  // Accesses into members of one element (`a[k].keys[j]`) may touch
  // different members: meeting at one element proves nothing.
  if (R.V == Verdict::Dependent && (A.Part || B.Part)) {
    R.V = Verdict::Unknown;
    R.Why = "'" + A.Text + "' and '" + B.Text + "' reach into one element, which dpstub does not follow member by member";
  }
  return R;
}

namespace {
DependenceResult testElements(const Nest &N, std::size_t IA, std::size_t IB) {
  DependenceResult R = solvePair(N, IA, IB);
  const Access &A = N.Accesses[IA], &B = N.Accesses[IB];
  // Inside a triangular loop an access may never happen (the loop may be
  // empty at some iterations): only a witness shows a dependence there.
  bool Triangular = false;
  for (const Access *X : {&A, &B})
    for (int V : X->Loops)
      Triangular |= N.Vars[V].From.has_value();
  if (R.V == Verdict::Dependent && Triangular) {
    R.V = Verdict::Unknown;
    R.Why = "'" + A.Text + "' and '" + B.Text + "' are in a loop whose bounds use another loop's variable";
  }
  if (R.V != Verdict::Unknown || A.Conditional || B.Conditional)
    return R;
  // The equations could not decide: look for two iterations that touch
  // one element at small sizes (a triangular inner loop, a coupled
  // subscript). Found, it is a witness of a dependence, unless it needs a
  // stride the nest does not bound to be small: with `a[n * (b + i) + j]`,
  // j below some m, two rows overlap only where n < m, which the program
  // may never allow (a wavefront's blocks on one diagonal).
  for (bool Distinct : {false, true}) {
    std::optional<std::vector<std::optional<std::int64_t>>> W = witness(N, A, B, SymbolValues{Distinct, {}});
    if (!W)
      continue;
    const std::set<int> Strides = strideSymbols(N, A, B);
    if (!Strides.empty() && !witness(N, A, B, SymbolValues{Distinct, Strides})) {
      std::string Names;
      for (int Id : Strides)
        Names += (Names.empty() ? "'" : ", '") +
                 (Id < int(N.SymbolNames.size()) ? N.SymbolNames[Id] : std::string("?")) + "'";
      R.V = Verdict::Unknown;
      R.Why = "'" + A.Text + "' and '" + B.Text + "' touch the same element only where " + Names +
              " is small next to the loops' ranges, which dpstub cannot bound";
      return R;
    }
    DependenceResult D;
    D.V = Verdict::Dependent;
    D.First = IA, D.Second = IB;
    D.Distance = *W;
    for (const std::optional<std::int64_t> &X : D.Distance) { // the earlier iteration first
      if (*X > 0)
        break;
      if (*X < 0) {
        std::swap(D.First, D.Second);
        for (std::optional<std::int64_t> &Y : D.Distance)
          *Y = -*Y;
        break;
      }
    }
    return D;
  }
  return R;
}
} // namespace

bool provablyApart(const Nest &N, std::size_t IF, std::size_t IO) {
  const Access &F = N.Accesses[IF], &O = N.Accesses[IO];
  if (F.Dims.size() != O.Dims.size())
    return false;
  for (const Subscript &D : F.Dims)
    for (const Poly &C : D.Coef)
      if (!D.Affine || !C.isZero())
        return false; // not one element
  auto UsesLoops = [](const Subscript &S) {
    std::vector<int> Vars;
    for (size_t V = 0; V < S.Coef.size(); ++V)
      if (!S.Coef[V].isZero())
        Vars.push_back(int(V));
    return Vars;
  };
  // A dimension whose subscripts use no loop variable holds at contact
  // only where its constants agree: a nonzero constant gap never does,
  // and `i - j` says j = i there, which the other dimensions then use
  // (B[i][j] against B[j][k]: k = j = i, out of k's range [0, i)).
  std::map<int, int> Same; // symbol -> the symbol it equals at contact
  for (size_t D = 0; D < F.Dims.size(); ++D) {
    const Subscript &SO = O.Dims[D];
    if (!SO.Affine || !UsesLoops(SO).empty())
      continue;
    const Poly Gap = F.Dims[D].Const - SO.Const;
    if (std::optional<std::int64_t> G = Gap.asConstant(); G && *G != 0)
      return true;
    if (Gap.terms().size() == 2) {
      auto A = Gap.terms().begin(), B = std::next(A);
      if (A->first.size() == 1 && B->first.size() == 1 && A->second == -B->second &&
          (A->second == 1 || A->second == -1))
        Same[B->first.front()] = A->first.front();
    }
  }
  auto AtContact = [&](const Poly &P) {
    if (Same.empty() || !P.valid())
      return P;
    Poly R;
    for (const auto &[M, C] : P.terms()) {
      Poly T = Poly::constant(C);
      for (int Id : M)
        T = T * Poly::symbol(Same.count(Id) ? Same.at(Id) : Id);
      R = R + T;
    }
    return R;
  };
  for (size_t D = 0; D < F.Dims.size(); ++D) {
    const Subscript &SO = O.Dims[D];
    if (!SO.Affine)
      continue;
    // The contact c * (Lower + Step * x) + O's constant = F's constant,
    // for the one loop variable O's subscript uses.
    const std::vector<int> Vars = UsesLoops(SO);
    if (Vars.size() != 1)
      continue;
    const Poly Gap = AtContact(F.Dims[D].Const - SO.Const);
    const LoopVar &L = N.Vars[Vars.front()];
    const std::optional<std::int64_t> Coef = SO.Coef[Vars.front()].asConstant();
    if (!Coef || !L.Count || L.From)
      continue;
    const std::int64_t Scale = *Coef * L.Step; // x = (Gap - c * Lower) / Scale
    const Poly Rest = Gap - AtContact(L.Lower).times(*Coef);
    std::optional<Poly> X;
    if (Scale == 1 || Scale == -1)
      X = Rest.times(Scale);
    else if (std::optional<std::int64_t> G = Rest.asConstant()) {
      if (*G % Scale != 0)
        return true;
      X = Poly::constant(*G / Scale);
    }
    // Outside [0, Count): below 0, or at Count or above.
    if (X && (provablyPositive(-*X) || provablyPositive(*X - AtContact(*L.Count) + Poly::constant(1))))
      return true;
  }
  // Otherwise the pair test, with one more parallel variable of two values
  // that no subscript uses: the same iteration of the nest is then two.
  Nest Twice;
  Twice.Vars = N.Vars;
  Twice.SymbolNames = N.SymbolNames;
  LoopVar Extra;
  Extra.Name = "(the same iteration)";
  Extra.Parallel = true;
  Extra.Lower = Poly::constant(0);
  Extra.Count = Poly::constant(2);
  Twice.Vars.push_back(Extra);
  Twice.Accesses = {F, O};
  Twice.Accesses[0].Write = true;
  return testPair(Twice, 0, 1).V == Verdict::Independent;
}

DependenceResult testNest(const Nest &N) {
  std::optional<DependenceResult> FirstUnknown;
  for (size_t A = 0; A < N.Accesses.size(); ++A)
    for (size_t B = A; B < N.Accesses.size(); ++B) {
      const Access &X = N.Accesses[A], &Y = N.Accesses[B];
      if (X.Array != Y.Array || (!X.Write && !Y.Write))
        continue;
      DependenceResult R = testPair(N, A, B);
      if (R.V == Verdict::Dependent)
        return R;
      if (R.V == Verdict::Unknown && !FirstUnknown)
        FirstUnknown = std::move(R);
    }
  if (FirstUnknown)
    return *FirstUnknown;
  return DependenceResult{};
}

std::string distanceText(const std::vector<std::optional<std::int64_t>> &D) {
  std::string S = "(";
  for (size_t I = 0; I < D.size(); ++I)
    S += (I ? ", " : "") + (D[I] ? std::to_string(*D[I]) : std::string("*"));
  return S + ")";
}

} // namespace dpstub::migrate
