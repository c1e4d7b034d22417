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
  std::vector<Poly> Relations; ///< each at least 0

  /// What a quotient's dividend, where it is at least 0 (or 1), says of
  /// it: s = a / k is at least 0 and at most a / k, and below a when a
  /// is at least 1 and k at least 2.
  void learn(const std::vector<Quotient> &Quotients) {
    for (const Quotient &Q : Quotients) {
      std::optional<std::int64_t> A = lowerBound(Q.Dividend, Low);
      if (!A || *A < 0 || Q.Divisor < 1)
        continue;
      auto [It, New] = Low.try_emplace(Q.Id, *A / Q.Divisor);
      It->second = std::max(It->second, *A / Q.Divisor);
      const Poly S = Poly::symbol(Q.Id);
      Relations.push_back(Q.Dividend - S.times(Q.Divisor));
      if (*A >= 1 && Q.Divisor >= 2)
        Relations.push_back(Q.Dividend - S - Poly::constant(1));
    }
  }

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
    for (const Poly &R : Relations)
      if (AtLeast(P - R, 0))
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
  F.Relations = N.Relations;
  F.learn(N.Quotients);
  return F;
}

/// V's first and last values, least first.
std::pair<Poly, Poly> rangeOf(const LoopVar &L) {
  const Poly Last = L.Lower + (*L.Count - Poly::constant(1)).times(L.Step);
  return L.Step > 0 ? std::make_pair(L.Lower, Last) : std::make_pair(Last, L.Lower);
}

/// One term of a subscript: Coef times a value that takes every integer
/// from Least to Most (the values of a loop variable, by its step).
struct Term {
  Poly Coef, Least, Most;
};

/// The terms of subscript S over the loop variables not Skipped; none
/// when a coefficient's loop does not enclose the access.
std::optional<std::vector<Term>> loopTerms(const Nest &N, const Subscript &S, const std::vector<bool> &Encloses,
                                           const std::vector<bool> &Skipped = {}) {
  std::vector<Term> Terms;
  for (size_t V = 0; V < S.Coef.size(); ++V) {
    if (S.Coef[V].isZero() || (V < Skipped.size() && Skipped[V]))
      continue;
    if (V >= N.Vars.size() || !Encloses[V])
      return std::nullopt;
    auto [Least, Most] = rangeOf(N.Vars[V]);
    Terms.push_back({S.Coef[V], Least, Most});
  }
  return Terms;
}

/// The least and greatest values of Const plus the Terms where F holds,
/// as candidates: one each where every coefficient's sign is known, both
/// ends of a term where one is not, at most Max of each. None past Max.
std::optional<std::pair<std::vector<Poly>, std::vector<Poly>>>
cornersOf(const std::vector<Term> &Terms, const Poly &Const, const Facts &F, size_t Max) {
  std::vector<Poly> Low{Const}, High{Const};
  for (const Term &T : Terms) {
    const Poly &C = T.Coef;
    const bool Up = F.nonNegative(C), Down = !Up && F.nonNegative(-C);
    auto Add = [&](std::vector<Poly> &Set, bool Lowest) {
      std::vector<Poly> Next;
      for (const Poly &P : Set) {
        if (Up || Down)
          Next.push_back(P + C * ((Up == Lowest) ? T.Least : T.Most));
        else // of unknown sign: either end may be the extreme
          for (const Poly *End : {&T.Least, &T.Most})
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

/// The greater (Greatest) or the lesser of A and B: one of them where F
/// proves which, else a symbol of W's standing for it.
Poly extremeOf(Window &W, const Facts &F, bool Greatest, const Poly &A, const Poly &B) {
  if (A == B || F.nonNegative(Greatest ? A - B : B - A))
    return A;
  if (F.nonNegative(Greatest ? B - A : A - B))
    return B;
  for (const Extreme &E : W.Extremes)
    if (E.Greatest == Greatest && ((E.A == A && E.B == B) || (E.A == B && E.B == A)))
      return Poly::symbol(E.Id);
  W.Extremes.push_back({ExtremeBase + static_cast<int>(W.Extremes.size()), Greatest, A, B});
  return Poly::symbol(W.Extremes.back().Id);
}

/// The terms of a guarded access's subscript (A.When): each bounded sum
/// of loop variables (`j + n`, by ones, so that it takes every value of
/// its range) gives one term, the part of it the subscript uses (`n` of a
/// filter's `filter[m * r + n]`, all of it in `src[y * w + x]`) over the
/// values some iteration within the bounds gives it, scaled as the
/// subscript scales it; the other variables are terms of their own. The
/// sums' loops are apart from one another's and from the others', so
/// every combination of their values happens: the corners are reached
/// and the window is exact. Guards gets, for each sum, its clipped
/// range's size (at least 1, or the access never happens) and the bounds
/// without a loop variable. None for any other When.
std::optional<std::vector<Term>> guardedTerms(const Nest &N, const Access &A, const Facts &F,
                                              const std::vector<bool> &Encloses, Window &W,
                                              std::vector<Poly> &Guards) {
  struct Bounded {
    std::vector<std::pair<size_t, std::int64_t>> Vars; // each with its sign, the first +1
    std::vector<Poly> Low, High;
  };
  std::vector<Bounded> Sums;
  for (const Subscript &G : *A.When) {
    if (!G.Affine)
      return std::nullopt;
    std::vector<std::pair<size_t, std::int64_t>> Vars;
    for (size_t V = 0; V < G.Coef.size(); ++V) {
      if (G.Coef[V].isZero())
        continue;
      std::optional<std::int64_t> K = G.Coef[V].asConstant();
      if (!K || (*K != 1 && *K != -1))
        return std::nullopt;
      Vars.emplace_back(V, *K);
    }
    if (Vars.empty()) { // c >= 0: c + 1 >= 1
      Guards.push_back(G.Const + Poly::constant(1));
      continue;
    }
    // g + c >= 0 is g >= -c; -g + c >= 0 is g <= c.
    const std::int64_t Sign = Vars.front().second;
    for (auto &VK : Vars)
      VK.second *= Sign;
    auto It = std::find_if(Sums.begin(), Sums.end(), [&](const Bounded &B) { return B.Vars == Vars; });
    if (It == Sums.end())
      It = Sums.insert(Sums.end(), Bounded{Vars, {}, {}});
    (Sign > 0 ? It->Low : It->High).push_back(Sign > 0 ? -G.Const : G.Const);
  }
  const Subscript &S = A.Dims[0];
  auto CoefAt = [&](size_t V) { return V < S.Coef.size() ? S.Coef[V] : Poly(); };
  std::vector<bool> Summed(N.Vars.size(), false);
  std::vector<Term> Terms;
  for (const Bounded &B : Sums) {
    // The sum g = h + r: h over the variables the subscript uses, each
    // scaled as the sum scales it (Scale), r over the others. The values
    // of h where some r keeps g within its bounds are every value from
    // the greatest of its least and Low - r's most to the least of its
    // most and High - r's least.
    Poly Scale;
    for (auto [V, K] : B.Vars)
      if (!CoefAt(V).isZero()) {
        Scale = CoefAt(V).times(K);
        break;
      }
    Poly GLeast, GMost, HLeast, HMost, RLeast, RMost;
    for (auto [V, K] : B.Vars) {
      if (V >= N.Vars.size() || !Encloses[V] || Summed[V] || (N.Vars[V].Step != 1 && N.Vars[V].Step != -1) ||
          N.Vars[V].RunTimeStep)
        return std::nullopt;
      Summed[V] = true;
      auto [Lo, Hi] = rangeOf(N.Vars[V]);
      const Poly Least = K > 0 ? Lo : -Hi, Most = K > 0 ? Hi : -Lo;
      const bool InH = !CoefAt(V).isZero();
      if (InH && !(CoefAt(V) == Scale.times(K)))
        return std::nullopt; // the subscript weighs the sum's variables otherwise
      (InH ? HLeast : RLeast) = (InH ? HLeast : RLeast) + Least;
      (InH ? HMost : RMost) = (InH ? HMost : RMost) + Most;
      GLeast = GLeast + Least;
      GMost = GMost + Most;
    }
    for (const Poly &Low : B.Low) {
      GLeast = extremeOf(W, F, true, GLeast, Low);
      HLeast = extremeOf(W, F, true, HLeast, Low - RMost);
    }
    for (const Poly &High : B.High) {
      GMost = extremeOf(W, F, false, GMost, High);
      HMost = extremeOf(W, F, false, HMost, High - RLeast);
    }
    Guards.push_back(GMost - GLeast + Poly::constant(1));
    if (!Scale.isZero())
      Terms.push_back({Scale, HLeast, HMost});
  }
  std::optional<std::vector<Term>> Others = loopTerms(N, S, Encloses, Summed);
  if (!Others)
    return std::nullopt;
  Terms.insert(Terms.end(), Others->begin(), Others->end());
  return Terms;
}

std::optional<Reach> reachOf(const Nest &N, const Access &A, const Bounds &Known) {
  if (A.Dims.size() != 1 || !A.Dims[0].Affine)
    return std::nullopt;
  std::vector<bool> Encloses;
  std::optional<Facts> Around = factsAround(N, A, Known, Encloses);
  if (!Around)
    return std::nullopt;
  // Every coefficient of known sign: one candidate each.
  const std::optional<std::vector<Term>> Terms = loopTerms(N, A.Dims[0], Encloses);
  const auto Corners = Terms ? cornersOf(*Terms, A.Dims[0].Const, *Around, 1) : std::nullopt;
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
  // The furthest: happens whenever any other does (each of its loops'
  // counts is among the other's, or at least 1 where the other's hold:
  // `for (i = 0; i < n; i++)` runs wherever a loop beside it over 1 to
  // n - 1 does), and reaches at least as far.
  for (const Reach &F : Reaches) {
    if (F.Conditional)
      continue;
    const bool Furthest = std::all_of(Reaches.begin(), Reaches.end(), [&](const Reach &O) {
      const std::vector<Poly> &Needs = F.Holds.Guards;
      return std::all_of(Needs.begin(), Needs.end(),
                         [&](const Poly &G) {
                           return contains(O.Holds.Guards, G) || O.Holds.nonNegative(G - Poly::constant(1));
                         }) &&
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
  // The accesses by the guards around them: those of one set all happen,
  // or none does.
  struct Together {
    Facts Holds;
    std::vector<Poly> First, Last;
  };
  std::vector<Together> Sets;
  auto SameGuards = [](const std::vector<Poly> &A, const std::vector<Poly> &B) {
    return std::all_of(A.begin(), A.end(), [&](const Poly &G) { return contains(B, G); }) &&
           std::all_of(B.begin(), B.end(), [&](const Poly &G) { return contains(A, G); });
  };
  for (const Access &A : N.Accesses) {
    if (A.Array != Array)
      continue;
    if ((A.Conditional && !A.When) || A.Dims.size() != 1 || !A.Dims[0].Affine)
      return std::nullopt;
    std::vector<bool> Encloses;
    std::optional<Facts> F = factsAround(N, A, Known, Encloses);
    if (!F)
      return std::nullopt;
    std::optional<std::vector<Term>> Terms;
    if (A.Conditional) {
      std::vector<Poly> Bounds;
      Terms = guardedTerms(N, A, *F, Encloses, W, Bounds);
      for (const Poly &G : Bounds)
        if (!contains(F->Guards, G))
          F->Guards.push_back(G);
    } else {
      Terms = loopTerms(N, A.Dims[0], Encloses);
    }
    if (!Terms)
      return std::nullopt;
    const auto Corners = cornersOf(*Terms, A.Dims[0].Const, *F, MaxCorners);
    if (!Corners)
      return std::nullopt;
    // (An inner loop of the outer one's count needs nothing more.)
    std::vector<Poly> Needs;
    for (const Poly &G : F->Guards)
      if (!contains(Needs, G))
        Needs.push_back(G);
    F->Guards = std::move(Needs);
    auto Set = std::find_if(Sets.begin(), Sets.end(),
                            [&](const Together &T) { return SameGuards(T.Holds.Guards, F->Guards); });
    if (Set == Sets.end())
      Set = Sets.insert(Sets.end(), Together{std::move(*F), {}, {}});
    for (auto [From, To] : {std::make_pair(&Corners->first, &Set->First), std::make_pair(&Corners->second, &Set->Last)})
      for (const Poly &P : *From)
        if (!contains(*To, P))
          To->push_back(P);
  }
  if (Sets.empty())
    return std::nullopt;
  // A candidate another of its set is provably at least as extreme as is
  // not needed (where that set's guards hold).
  auto Prune = [](std::vector<Poly> &Set, bool Least, const Facts &Holds) {
    for (size_t K = 0; K < Set.size();) {
      const bool Needless = std::any_of(Set.begin(), Set.end(), [&](const Poly &O) {
        return &O != &Set[K] && Holds.nonNegative(Least ? Set[K] - O : O - Set[K]);
      });
      if (Needless && Set.size() > 1)
        Set.erase(Set.begin() + static_cast<std::ptrdiff_t>(K));
      else
        ++K;
    }
  };
  size_t Candidates = 0;
  for (Together &T : Sets) {
    Prune(T.First, true, T.Holds);
    Prune(T.Last, false, T.Holds);
    Candidates += std::max(T.First.size(), T.Last.size());
  }
  if (Candidates > MaxCorners)
    return std::nullopt;
  if (Sets.size() == 1) {
    W.Guards = Sets.front().Holds.Guards;
    W.First = std::move(Sets.front().First);
    W.Last = std::move(Sets.front().Last);
    return W;
  }
  // The guards every set needs hold wherever anything happens; each set
  // keeps the rest.
  for (const Poly &G : Sets.front().Holds.Guards)
    if (std::all_of(Sets.begin(), Sets.end(), [&](const Together &T) { return contains(T.Holds.Guards, G); }))
      W.Guards.push_back(G);
  for (Together &T : Sets) {
    Window::Alternative Alt;
    for (const Poly &G : T.Holds.Guards)
      if (!contains(W.Guards, G))
        Alt.Guards.push_back(G);
    Alt.First = std::move(T.First);
    Alt.Last = std::move(T.Last);
    W.Alternatives.push_back(std::move(Alt));
  }
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

std::vector<int> windowSymbols(const Window &W) {
  std::vector<int> Ids;
  auto Note = [&](const Poly &P) {
    for (const auto &[M, C] : P.terms())
      for (int Id : M)
        if (Id < ExtremeBase && std::find(Ids.begin(), Ids.end(), Id) == Ids.end())
          Ids.push_back(Id);
  };
  for (const std::vector<Poly> *Set : {&W.First, &W.Last, &W.Guards})
    for (const Poly &P : *Set)
      Note(P);
  for (const Window::Alternative &Alt : W.Alternatives)
    for (const std::vector<Poly> *Set : {&Alt.First, &Alt.Last, &Alt.Guards})
      for (const Poly &P : *Set)
        Note(P);
  for (const Extreme &E : W.Extremes)
    Note(E.A), Note(E.B);
  return Ids;
}

std::optional<WindowText> windowText(const Window &W, const std::function<std::string(int)> &Name,
                                     const std::function<bool(int)> &Unsigned) {
  const std::vector<int> Ids = windowSymbols(W);
  if (std::any_of(Ids.begin(), Ids.end(), Unsigned))
    return std::nullopt;
  // An extreme's symbol reads as the std::max or std::min it stands for.
  std::function<std::string(int)> Named = [&](int Id) -> std::string {
    if (Id < ExtremeBase)
      return Name(Id);
    const Extreme &E = W.Extremes.at(static_cast<size_t>(Id - ExtremeBase));
    return std::string(E.Greatest ? "std::max" : "std::min") + "<std::int64_t>(" + E.A.str(Named, true) + ", " +
           E.B.str(Named, true) + ")";
  };
  auto NoneUnsigned = [](int) { return false; };
  std::optional<std::string> Guard = guardText(W.Guards, Named, NoneUnsigned);
  if (!Guard)
    return std::nullopt;
  auto Ends = [](const std::vector<Poly> &Last) {
    std::vector<Poly> E;
    for (const Poly &P : Last)
      E.push_back(P + Poly::constant(1));
    return E;
  };
  if (W.Alternatives.empty())
    return WindowText{*Guard, extremeText(W.First, true, Named), extremeText(Ends(W.Last), false, Named)};
  // Alternatives: the least first and the greatest end of those whose
  // guards hold (`n2 > 2 ? ... : INT64_MAX`), where one does at all.
  std::vector<std::string> Holds;
  bool Always = false;
  for (const Window::Alternative &Alt : W.Alternatives) {
    std::optional<std::string> G = guardText(Alt.Guards, Named, NoneUnsigned);
    if (!G)
      return std::nullopt;
    Always |= G->empty();
    Holds.push_back(G->find(" && ") == std::string::npos ? *G : "(" + *G + ")");
  }
  if (!Always) {
    std::string Any;
    for (const std::string &H : Holds)
      Any += (Any.empty() ? "" : " || ") + H;
    *Guard += (Guard->empty() ? "" : " && ") + ("(" + Any + ")");
  }
  auto Span = [&](bool Least) {
    // (<cstdint>'s macros: a program's own `max(a, b)` macro, as NPB's
    // npb-C.h defines, would take `numeric_limits<...>::max()`.)
    const std::string Otherwise = Least ? "INT64_MAX" : "INT64_MIN";
    std::vector<std::string> Items;
    bool Alike = true;
    for (size_t K = 0; K < W.Alternatives.size(); ++K) {
      const Window::Alternative &Alt = W.Alternatives[K];
      const std::vector<Poly> &Set = Least ? Alt.First : Alt.Last;
      const std::vector<Poly> &Front = Least ? W.Alternatives.front().First : W.Alternatives.front().Last;
      Alike &= Set.size() == Front.size() && std::all_of(Set.begin(), Set.end(), [&](const Poly &P) {
                 return std::find(Front.begin(), Front.end(), P) != Front.end();
               });
      const std::string Text = extremeText(Least ? Set : Ends(Set), Least, Named);
      Items.push_back(Holds[K].empty() ? Text : Holds[K] + " ? " + Text + " : " + Otherwise);
    }
    // Every alternative's candidates the same (the loop variable's range
    // around both inner loops): they need no guard of their own.
    const Window::Alternative &Front = W.Alternatives.front();
    if (Alike)
      return extremeText(Least ? Front.First : Ends(Front.Last), Least, Named);
    std::string List;
    for (const std::string &I : Items)
      List += (List.empty() ? "" : ", ") + I;
    return std::string(Least ? "std::min" : "std::max") + "<std::int64_t>({" + List + "})";
  };
  return WindowText{*Guard, Span(true), Span(false)};
}

} // namespace dpstub::migrate
