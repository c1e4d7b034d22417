//===- Extent.cpp - How far a nest's accesses reach into an array ---------===//

#include "Extent.h"

#include <algorithm>
#include <map>

namespace dpstub::migrate {

namespace {

/// Lower bounds of symbols: a loop that runs, its count `s + c`, has s at
/// least 1 - c.
using Bounds = std::map<int, std::int64_t>;

/// A lower bound of P where every symbol is at least its bound; none when
/// a term may be as negative as it likes (a negative coefficient, or a
/// symbol of no known bound, or a negative one, in a product).
std::optional<std::int64_t> lowerBound(const Poly &P, const Bounds &B) {
  if (!P.valid())
    return std::nullopt;
  constexpr std::int64_t Cap = std::int64_t(1) << 40; // keeps products exact
  std::int64_t Low = 0;
  for (const auto &[M, C] : P.terms()) {
    std::int64_t Term = C;
    if (!M.empty()) {
      if (C < 0)
        return std::nullopt;
      Term = std::min(Term, Cap);
      for (int Id : M) {
        auto It = B.find(Id);
        if (It == B.end() || It->second < 0)
          return std::nullopt;
        // Term and the bound are at most Cap: the product fits 2^80 only
        // in 128 bits; saturate at Cap.
        const __int128 Product = static_cast<__int128>(Term) * std::min(It->second, Cap);
        Term = Product > Cap ? Cap : static_cast<std::int64_t>(Product);
      }
    }
    if (absOf(Term) >= Cap)
      return std::nullopt;
    Low += Term;
  }
  return Low;
}

/// What holds where an access happens: bounds of symbols, and counts of
/// the loops around it, each at least 1.
struct Facts {
  Bounds Low;
  std::vector<Poly> Guards;

  /// P >= 0, proven: from the symbols' bounds, or beside a guard (P - G
  /// >= -1 with G >= 1), or beside a guard's multiple (P - s*G >= 0 with
  /// s >= 0). Sound, not complete.
  bool nonNegative(const Poly &P) const {
    auto AtLeast = [&](const Poly &Q, std::int64_t K) {
      std::optional<std::int64_t> B = lowerBound(Q, Low);
      return B && *B >= K;
    };
    if (AtLeast(P, 0))
      return true;
    for (const Poly &G : Guards) {
      if (AtLeast(P - G, -1))
        return true;
      for (const auto &[Id, B] : Low)
        if (B >= 0 && AtLeast(P - Poly::symbol(Id) * G, 0))
          return true;
    }
    return false;
  }
};

/// One access's reach: the furthest element plus one, and what holds
/// where it happens.
struct Reach {
  Poly Length;
  Facts Holds;
  bool Conditional = false;
};

std::optional<Reach> reachOf(const Nest &N, const Access &A, const Bounds &Known) {
  if (A.Dims.size() != 1 || !A.Dims[0].Affine)
    return std::nullopt;
  const Subscript &S = A.Dims[0];
  Reach R;
  R.Conditional = A.Conditional;
  Facts &F = R.Holds;
  F.Low = Known;
  std::vector<bool> Encloses(N.Vars.size(), false);
  for (size_t V = 0; V < N.Vars.size(); ++V)
    Encloses[V] = N.Vars[V].Parallel || std::count(A.Loops.begin(), A.Loops.end(), static_cast<int>(V)) > 0;
  // Every loop around the access runs a known number of times (a loop of
  // varying count may skip the furthest iteration).
  for (size_t V = 0; V < N.Vars.size(); ++V) {
    if (!Encloses[V])
      continue;
    const LoopVar &L = N.Vars[V];
    if (L.From || !L.Count || !L.Count->valid())
      return std::nullopt;
    if (std::optional<std::int64_t> K = L.Count->asConstant()) {
      if (*K < 1)
        return std::nullopt; // it never happens: nothing to say
      continue;
    }
    F.Guards.push_back(*L.Count);
    // A count `s + c` of one symbol: running, s >= 1 - c.
    const auto &Terms = L.Count->terms();
    const std::int64_t Constant = L.Count->constantTerm();
    if (Terms.size() == (Constant != 0 ? 2u : 1u)) {
      const auto &[M, C] = *std::find_if(Terms.begin(), Terms.end(), [](const auto &T) { return !T.first.empty(); });
      if (M.size() == 1 && C == 1) {
        auto [It, New] = F.Low.try_emplace(M[0], 1 - Constant);
        It->second = std::max(It->second, 1 - Constant);
      }
    }
  }
  Poly Low = S.Const, High = S.Const;
  for (size_t V = 0; V < S.Coef.size(); ++V) {
    const Poly &C = S.Coef[V];
    if (C.isZero())
      continue;
    if (V >= N.Vars.size() || !Encloses[V])
      return std::nullopt;
    const LoopVar &L = N.Vars[V];
    // Its first and last values.
    const Poly Last = L.Lower + (*L.Count - Poly::constant(1)).times(L.Step);
    const Poly &Least = L.Step > 0 ? L.Lower : Last, &Most = L.Step > 0 ? Last : L.Lower;
    if (F.nonNegative(C)) {
      Low = Low + C * Least;
      High = High + C * Most;
    } else if (F.nonNegative(-C)) {
      Low = Low + C * Most;
      High = High + C * Least;
    } else {
      return std::nullopt; // of unknown sign
    }
  }
  if (!Low.valid() || !High.valid() || !F.nonNegative(Low))
    return std::nullopt;
  R.Length = High + Poly::constant(1);
  return R;
}

bool contains(const std::vector<Poly> &Set, const Poly &P) {
  return std::find(Set.begin(), Set.end(), P) != Set.end();
}

} // namespace

std::optional<Extent> accessExtent(const Nest &N, int Array, const std::map<int, std::int64_t> &Known) {
  std::vector<Reach> Reaches;
  for (const Access &A : N.Accesses) {
    if (A.Array != Array)
      continue;
    std::optional<Reach> R = reachOf(N, A, Known);
    if (!R)
      return std::nullopt;
    Reaches.push_back(std::move(*R));
  }
  // The furthest: happens whenever any other does (its loops' counts
  // are among the other's), and reaches at least as far.
  for (const Reach &F : Reaches) {
    if (F.Conditional)
      continue;
    const bool Furthest = std::all_of(Reaches.begin(), Reaches.end(), [&](const Reach &O) {
      const std::vector<Poly> &Needs = F.Holds.Guards;
      return std::all_of(Needs.begin(), Needs.end(), [&](const Poly &G) { return contains(O.Holds.Guards, G); }) &&
             O.Holds.nonNegative(F.Length - O.Length);
    });
    if (Furthest) {
      Extent E{F.Length, {}};
      for (const Poly &G : F.Holds.Guards)
        if (!contains(E.Guards, G))
          E.Guards.push_back(G);
      return E;
    }
  }
  return std::nullopt;
}

std::optional<std::string> extentText(const Extent &E, const std::function<std::string(int)> &Name,
                                      const std::function<bool(int)> &Unsigned) {
  const std::string Length = E.Length.str(Name, true);
  std::string Guard;
  for (const Poly &G : E.Guards) {
    // G >= 1 as `more > less`, each side a sum of positive terms: no
    // subtraction, so none that an unsigned symbol could wrap.
    Poly More, Less = Poly::constant(0);
    bool AnySigned = false, AnyUnsigned = false;
    for (const auto &[M, C] : G.terms()) {
      Poly Term = Poly::constant(C < 0 ? -C : C);
      for (int Id : M) {
        Term = Term * Poly::symbol(Id);
        (Unsigned(Id) ? AnyUnsigned : AnySigned) = true;
      }
      (C > 0 ? More : Less) = (C > 0 ? More : Less) + Term;
    }
    if (AnySigned && AnyUnsigned)
      return std::nullopt; // a comparison of mixed signs converts the signed side
    std::string Test;
    const std::int64_t Constant = G.constantTerm();
    const Poly Symbolic = G - Poly::constant(Constant);
    if (Constant > 0 && Symbolic.terms().size() == 1 && Symbolic.terms().begin()->first.size() == 1 &&
        Symbolic.terms().begin()->second == 1) {
      // `s + c`, c > 0: s >= 1 - c, which holds of any unsigned s.
      const int Id = Symbolic.terms().begin()->first[0];
      if (Unsigned(Id))
        continue;
      Test = Name(Id) + " >= " + std::to_string(1 - Constant);
    } else {
      Test = More.str(Name, true) + " > " + Less.str(Name, true);
    }
    Guard += (Guard.empty() ? "" : " && ") + Test;
  }
  return Guard.empty() ? Length : Guard + " ? " + Length + " : 0";
}

} // namespace dpstub::migrate
