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

/// What holds where A happens, and which variables' loops enclose it;
/// none when one of them has an unknown or varying count, or never runs.
std::optional<Facts> factsAround(const Nest &N, const Access &A, const Bounds &Known, std::vector<bool> &Encloses) {
  Facts F;
  F.Low = Known;
  Encloses.assign(N.Vars.size(), false);
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
  return F;
}

/// V's first and last values, least first.
std::pair<Poly, Poly> rangeOf(const LoopVar &L) {
  const Poly Last = L.Lower + (*L.Count - Poly::constant(1)).times(L.Step);
  return L.Step > 0 ? std::make_pair(L.Lower, Last) : std::make_pair(Last, L.Lower);
}

/// The least and greatest values of A's subscript (rank 1, affine) where
/// F holds, as candidates: one each where every coefficient's sign is
/// known, both ends of a loop where one is not, at most Max of each. None
/// when a coefficient's loop does not enclose A, or past Max.
std::optional<std::pair<std::vector<Poly>, std::vector<Poly>>>
cornersOf(const Nest &N, const Subscript &S, const Facts &F, const std::vector<bool> &Encloses, size_t Max) {
  std::vector<Poly> Low{S.Const}, High{S.Const};
  for (size_t V = 0; V < S.Coef.size(); ++V) {
    const Poly &C = S.Coef[V];
    if (C.isZero())
      continue;
    if (V >= N.Vars.size() || !Encloses[V])
      return std::nullopt;
    const std::pair<Poly, Poly> Range = rangeOf(N.Vars[V]);
    const Poly &Least = Range.first, &Most = Range.second;
    const bool Up = F.nonNegative(C), Down = !Up && F.nonNegative(-C);
    auto Add = [&](std::vector<Poly> &Set, bool Lowest) {
      std::vector<Poly> Next;
      for (const Poly &P : Set) {
        if (Up || Down)
          Next.push_back(P + C * ((Up == Lowest) ? Least : Most));
        else // of unknown sign: either end may be the extreme
          for (const Poly *End : {&Least, &Most})
            Next.push_back(P + C * *End);
      }
      Set = std::move(Next);
    };
    Add(Low, true);
    Add(High, false);
    if (Low.size() > Max)
      return std::nullopt;
  }
  for (const std::vector<Poly> *Set : {&Low, &High})
    for (const Poly &P : *Set)
      if (!P.valid())
        return std::nullopt;
  return std::make_pair(std::move(Low), std::move(High));
}

std::optional<Reach> reachOf(const Nest &N, const Access &A, const Bounds &Known) {
  if (A.Dims.size() != 1 || !A.Dims[0].Affine)
    return std::nullopt;
  std::vector<bool> Encloses;
  std::optional<Facts> Around = factsAround(N, A, Known, Encloses);
  if (!Around)
    return std::nullopt;
  // Every coefficient of known sign: one candidate each.
  const auto Corners = cornersOf(N, A.Dims[0], *Around, Encloses, 1);
  if (!Corners || !Around->nonNegative(Corners->first.front()))
    return std::nullopt;
  Reach R;
  R.Conditional = A.Conditional;
  R.Holds = std::move(*Around);
  R.Length = Corners->second.front() + Poly::constant(1);
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

std::optional<Window> accessWindow(const Nest &N, int Array, const std::map<int, std::int64_t> &Known) {
  constexpr size_t MaxCorners = 8;
  Window W;
  std::optional<Facts> Common;
  for (const Access &A : N.Accesses) {
    if (A.Array != Array)
      continue;
    if (A.Conditional || A.Dims.size() != 1 || !A.Dims[0].Affine)
      return std::nullopt;
    std::vector<bool> Encloses;
    std::optional<Facts> F = factsAround(N, A, Known, Encloses);
    if (!F)
      return std::nullopt;
    // The same counts around every access: all of them run, or none.
    if (!Common)
      Common = F;
    else if (!std::all_of(F->Guards.begin(), F->Guards.end(), [&](const Poly &G) { return contains(Common->Guards, G); }) ||
             !std::all_of(Common->Guards.begin(), Common->Guards.end(), [&](const Poly &G) { return contains(F->Guards, G); }))
      return std::nullopt;
    const auto Corners = cornersOf(N, A.Dims[0], *F, Encloses, MaxCorners);
    if (!Corners)
      return std::nullopt;
    for (auto [From, To] : {std::make_pair(&Corners->first, &W.First), std::make_pair(&Corners->second, &W.Last)})
      for (const Poly &P : *From)
        if (!contains(*To, P))
          To->push_back(P);
  }
  if (!Common)
    return std::nullopt;
  W.Guards = Common->Guards;
  // A candidate another is provably at least as extreme as is not needed.
  auto Prune = [&](std::vector<Poly> &Set, bool Least) {
    for (size_t K = 0; K < Set.size();) {
      const bool Needless = std::any_of(Set.begin(), Set.end(), [&](const Poly &O) {
        return &O != &Set[K] && Common->nonNegative(Least ? Set[K] - O : O - Set[K]);
      });
      if (Needless && Set.size() > 1)
        Set.erase(Set.begin() + static_cast<std::ptrdiff_t>(K));
      else
        ++K;
    }
  };
  Prune(W.First, true);
  Prune(W.Last, false);
  if (W.First.size() > MaxCorners || W.Last.size() > MaxCorners)
    return std::nullopt;
  return W;
}

namespace {

/// Every guard at least 1, as `more > less` each (sums of positive
/// terms: no subtraction an unsigned symbol could wrap); empty when there
/// is none to test. None for a comparison of mixed signs.
std::optional<std::string> guardText(const std::vector<Poly> &Guards, const std::function<std::string(int)> &Name,
                                     const std::function<bool(int)> &Unsigned) {
  std::string Guard;
  for (const Poly &G : Guards) {
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
  return Guard;
}

/// The least (or greatest) of Set, as one expression.
std::string extremeText(const std::vector<Poly> &Set, bool Least, const std::function<std::string(int)> &Name) {
  if (Set.size() == 1)
    return Set.front().str(Name, true);
  std::string Items;
  for (const Poly &P : Set)
    Items += (Items.empty() ? "" : ", ") + P.str(Name, true);
  return std::string(Least ? "std::min" : "std::max") + "<std::int64_t>({" + Items + "})";
}

} // namespace

std::optional<std::string> extentText(const Extent &E, const std::function<std::string(int)> &Name,
                                      const std::function<bool(int)> &Unsigned) {
  const std::string Length = E.Length.str(Name, true);
  std::optional<std::string> Guard = guardText(E.Guards, Name, Unsigned);
  if (!Guard)
    return std::nullopt;
  return Guard->empty() ? Length : *Guard + " ? " + Length + " : 0";
}

std::optional<std::pair<std::string, std::string>> windowText(const Window &W,
                                                              const std::function<std::string(int)> &Name,
                                                              const std::function<bool(int)> &Unsigned) {
  for (const std::vector<Poly> *Set : {&W.First, &W.Last, &W.Guards})
    for (const Poly &P : *Set)
      for (const auto &[M, C] : P.terms())
        for (int Id : M)
          if (Unsigned(Id))
            return std::nullopt;
  std::optional<std::string> Guard = guardText(W.Guards, Name, Unsigned);
  if (!Guard)
    return std::nullopt;
  std::vector<Poly> Ends;
  for (const Poly &P : W.Last)
    Ends.push_back(P + Poly::constant(1));
  std::string First = extremeText(W.First, true, Name), End = extremeText(Ends, false, Name);
  if (Guard->empty())
    return std::make_pair(First, End);
  return std::make_pair(*Guard + " ? " + First + " : 0", *Guard + " ? " + End + " : 0");
}

} // namespace dpstub::migrate
