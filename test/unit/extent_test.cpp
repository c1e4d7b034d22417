// How far a nest's accesses reach into an array (what a call-site borrows
// of a caller's pointer when no data clause says) against enumeration:
// random affine nests with symbolic counts, coefficients and offsets,
// symbols of every sign. Whenever an extent is given, every element any
// access may touch lies inside it, and it ends exactly after the
// furthest one an unconditional access touches: borrowing an element
// the original never touched could read past the caller's allocation.
// Then the forms real codes write, with their text.
#include "migrate/Extent.h"
#include "nest_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

using namespace dpstub::migrate;
using namespace dpstub::migrate::nest_model;

namespace {

const char *const Names[] = {"n", "m", "i"};
std::string name(int Id) { return Names[Id]; }
bool noneUnsigned(int) { return false; }

/// The extent's value for symbol values S: its length, or 0 when a guard
/// is below 1.
std::int64_t lengthAt(const Extent &E, const Values &S) {
  for (const Poly &G : E.Guards)
    if (eval(G, S) < 1)
      return 0;
  return eval(E.Length, S);
}

Access at(std::vector<Poly> Coef, Poly Const, std::vector<int> Loops = {}, bool Conditional = false) {
  Access A = access(0, false, {sub(std::move(Coef), std::move(Const))}, "a");
  A.Loops = std::move(Loops);
  A.Conditional = Conditional;
  return A;
}

std::string textOf(const Nest &N, const std::map<int, std::int64_t> &Known = {}) {
  std::optional<Extent> E = accessExtent(N, 0, Known);
  if (!E)
    return "none";
  std::optional<std::string> T = extentText(*E, name, noneUnsigned);
  return T ? *T : "no text";
}

/// A random affine nest over array 0: one or two parallel loops and up
/// to two inner ones, counts a constant, a symbol plus a constant or a
/// difference of symbols, first values a constant or a symbol, steps of
/// either sign, coefficients symbolic or constant of either sign; one
/// access in ConditionalOneIn under a condition. Known: what an
/// enclosing loop may tell (n at least some value).
Nest randomNest(std::mt19937 &Rng, std::map<int, std::int64_t> &Known, int ConditionalOneIn) {
  auto Pick = [&](int Lo, int Hi) { return std::uniform_int_distribution<int>(Lo, Hi)(Rng); };
  Nest N;
  const int Parallel = Pick(1, 2), Inner = Pick(0, 2);
  auto Count = [&]() {
    switch (Pick(0, 3)) {
    case 0:
      return C(Pick(0, 4));
    case 1:
      return Sym(0) - Sym(1) + C(Pick(-1, 1)); // from m up to n
    default:
      return Sym(Pick(0, 1)) + C(Pick(-2, 1));
    }
  };
  for (int V = 0; V < Parallel + Inner; ++V) {
    const int Steps[] = {-2, -1, 1, 1, 1, 2};
    std::int64_t Step = Steps[Pick(0, 5)];
    Poly Counted = Count();
    if (!Counted.isConstant() && (Step > 1 || Step < -1))
      Step = Step > 0 ? 1 : -1; // a symbolic count is known by ones only
    N.Vars.push_back(var("v", V < Parallel, Counted, Pick(0, 3) == 0 ? Sym(Pick(0, 1)) : C(Pick(-1, 3)), Step));
  }
  auto Coef = [&]() {
    switch (Pick(0, 5)) {
    case 0:
      return C(0);
    case 1:
      return Sym(Pick(0, 1));
    case 2:
      return -Sym(Pick(0, 1));
    default:
      return C(Pick(-2, 3));
    }
  };
  for (int K = Pick(1, 3); K > 0; --K) {
    std::vector<Poly> Coefs;
    std::vector<int> Loops;
    for (int V = 0; V < Parallel + Inner; ++V) {
      const bool Inside = V < Parallel || Pick(0, 2) > 0;
      Coefs.push_back(Inside ? Coef() : C(0));
      if (Inside && V >= Parallel)
        Loops.push_back(V);
    }
    Poly Const = C(Pick(-2, 2)) + (Pick(0, 3) == 0 ? Sym(Pick(0, 1)) : C(0));
    N.Accesses.push_back(at(Coefs, Const, Loops, Pick(0, ConditionalOneIn - 1) == 0));
  }
  Known.clear();
  if (Pick(0, 1) == 0)
    Known[0] = Pick(-1, 2);
  return N;
}

/// Every value of n and m from -2 to 4 (n from what Known says, if it does).
std::vector<Values> symbolValues(const std::map<int, std::int64_t> &Known) {
  std::vector<Values> All;
  for (std::int64_t X = Known.count(0) ? Known.at(0) : -2; X <= 4; ++X)
    for (std::int64_t Y = -2; Y <= 4; ++Y)
      All.push_back(Values{{0, X}, {1, Y}});
  return All;
}

/// P's value where W's extremes take theirs (each the greater or the
/// lesser of its two, in order).
std::int64_t evalIn(const Window &W, const Poly &P, Values S) {
  for (const Extreme &E : W.Extremes) {
    const std::int64_t A = eval(E.A, S), B = eval(E.B, S);
    S[E.Id] = E.Greatest ? std::max(A, B) : std::min(A, B);
  }
  return eval(P, S);
}

/// W against enumeration at symbol values S: its least candidate is the
/// first element any access touches where it happens, its greatest plus
/// one the end; nothing (First == End) when no access happens.
void expectWindowMatches(const Nest &N, const Window &W, const Values &S, const std::string &Where) {
  std::int64_t First = 0, End = 0;
  auto Hold = [&](const std::vector<Poly> &Guards) {
    return std::all_of(Guards.begin(), Guards.end(), [&](const Poly &G) { return evalIn(W, G, S) >= 1; });
  };
  if (Hold(W.Guards)) {
    First = std::numeric_limits<std::int64_t>::max();
    End = std::numeric_limits<std::int64_t>::min();
    auto Span = [&](const std::vector<Poly> &Firsts, const std::vector<Poly> &Lasts) {
      for (const Poly &P : Firsts)
        First = std::min(First, evalIn(W, P, S));
      for (const Poly &P : Lasts)
        End = std::max(End, evalIn(W, P, S) + 1);
    };
    Span(W.First, W.Last);
    for (const Window::Alternative &Alt : W.Alternatives)
      if (Hold(Alt.Guards))
        Span(Alt.First, Alt.Last);
    if (End < First)
      First = End = 0; // no alternative holds
  }
  std::int64_t Least = std::numeric_limits<std::int64_t>::max(), Most = std::numeric_limits<std::int64_t>::min();
  for (const Access &A : N.Accesses)
    forEachPoint(N, A, S, [&](const std::vector<std::int64_t> &Value) {
      const std::int64_t I = element(A, Value, S)[0];
      Least = std::min(Least, I);
      Most = std::max(Most, I);
    });
  if (Most < Least) {
    EXPECT_EQ(First, End) << Where << ": nothing touched";
    return;
  }
  EXPECT_EQ(First, Least) << Where;
  EXPECT_EQ(End, Most + 1) << Where;
}

} // namespace

TEST(Extent, RandomNestsAgreeWithEnumeration) {
  std::mt19937 Rng(20261128);
  int Given = 0, Refused = 0;
  for (int Case = 0; Case < 6000; ++Case) {
    std::map<int, std::int64_t> Known;
    const Nest N = randomNest(Rng, Known, 5);
    std::optional<Extent> E = accessExtent(N, 0, Known);
    if (!E) {
      ++Refused;
      continue;
    }
    ++Given;
    for (const Values &S : symbolValues(Known)) {
      const std::int64_t X = S.at(0), Y = S.at(1);
      const std::int64_t Length = lengthAt(*E, S);
      std::int64_t Furthest = -1;
      for (const Access &A : N.Accesses)
        forEachPoint(N, A, S, [&](const std::vector<std::int64_t> &Value) {
          const std::int64_t I = element(A, Value, S)[0];
          EXPECT_GE(I, 0) << "case " << Case << ": the extent starts at the first element";
          EXPECT_LT(I, Length) << "case " << Case << " n=" << X << " m=" << Y;
          if (!A.Conditional)
            Furthest = std::max(Furthest, I);
        });
      EXPECT_EQ(Length, Furthest + 1) << "case " << Case << " n=" << X << " m=" << Y
                                      << ": the extent ends after the furthest element touched";
    }
  }
  // Both verdicts are exercised.
  EXPECT_GT(Given, 300) << Given;
  EXPECT_GT(Refused, 300);
}

// Windows (Gaussian elimination's rows from t on, t of any sign): the
// candidates' least is the first element any access touches and their
// greatest plus one the end, for every value of the symbols; nothing
// when the nest touches nothing.
TEST(Extent, RandomWindowsAgreeWithEnumeration) {
  std::mt19937 Rng(20261129);
  int Given = 0, Refused = 0, Signless = 0, Alternatives = 0;
  for (int Case = 0; Case < 6000; ++Case) {
    std::map<int, std::int64_t> Known;
    const Nest N = randomNest(Rng, Known, 12);
    std::optional<Window> W = accessWindow(N, 0, Known);
    if (!W) {
      ++Refused;
      continue;
    }
    ++Given;
    Signless += !accessExtent(N, 0, Known);
    Alternatives += !W->Alternatives.empty();
    for (const Values &S : symbolValues(Known))
      expectWindowMatches(N, *W, S,
                          "case " + std::to_string(Case) + " n=" + std::to_string(S.at(0)) + " m=" +
                              std::to_string(S.at(1)));
  }
  EXPECT_GT(Given, 300) << Given;
  EXPECT_GT(Refused, 300) << Refused;
  EXPECT_GT(Signless, 100) << "windows where the extent from the first element has no proof: " << Signless;
  EXPECT_GT(Alternatives, 100) << "windows over inner loops that run apart: " << Alternatives;
}

// NPB MG's comm3, its columns: over planes i3 in 1 .. n3 - 2, one inner
// loop over rows 1 .. n2 - 2 touches columns n1 - 1, 1, 0 and n1 - 2;
// another, over columns 0 .. n1 - 1, touches them all. Either loop may
// run while the other does not, and n1 - 2 may be below 0 (a program
// that reads column -1 where n1 is 1): the window is each loop's where
// it runs.
TEST(Extent, WindowOfLoopsThatRunApart) {
  const Poly N1 = Sym(0), N2 = Sym(1), N3 = Sym(2);
  auto Named = [](int Id) { return std::string(Id == 0 ? "n1" : Id == 1 ? "n2" : "n3"); };
  Nest N;
  N.Vars = {var("i3", true, N3 - C(2), C(1)), var("i2", false, N2 - C(2), C(1)), var("i1", false, N1)};
  N.Accesses = {at({C(0), C(0), C(0)}, N1 - C(1), {1}), at({C(0), C(0), C(0)}, C(1), {1}),
                at({C(0), C(0), C(0)}, C(0), {1}), at({C(0), C(0), C(0)}, N1 - C(2), {1}),
                at({C(0), C(0), C(1)}, C(0), {2})};
  std::optional<Window> W = accessWindow(N, 0);
  ASSERT_TRUE(W);
  ASSERT_EQ(W->Alternatives.size(), 2u);
  std::optional<WindowText> T = windowText(*W, Named, noneUnsigned);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Guard, "n3 > 2 && (n2 > 2 || n1 > 0)");
  EXPECT_EQ(T->First, "std::min<std::int64_t>({n2 > 2 ? std::min<std::int64_t>({0, n1 - 2}) : "
                      "INT64_MAX, n1 > 0 ? 0 : INT64_MAX})");
  EXPECT_EQ(T->End, "std::max<std::int64_t>({n2 > 2 ? std::max<std::int64_t>({n1, 2}) : "
                    "INT64_MIN, n1 > 0 ? n1 : INT64_MIN})");
  for (std::int64_t A = -1; A <= 4; ++A)
    for (std::int64_t B = -1; B <= 4; ++B)
      for (std::int64_t C3 = 1; C3 <= 4; ++C3)
        expectWindowMatches(N, *W, Values{{0, A}, {1, B}, {2, C3}},
                            "n1=" + std::to_string(A) + " n2=" + std::to_string(B) + " n3=" + std::to_string(C3));
  // Its planes: the same in both loops, so one range under either guard.
  N.Accesses = {at({C(1), C(0), C(0)}, C(0), {1}), at({C(1), C(0), C(0)}, C(0), {2})};
  W = accessWindow(N, 0);
  ASSERT_TRUE(W);
  T = windowText(*W, Named, noneUnsigned);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Guard, "n3 > 2 && (n2 > 2 || n1 > 0)");
  EXPECT_EQ(T->First, "1");
  EXPECT_EQ(T->End, "n3 - 1");
}

// Gaussian elimination's Fan1: rows t + 1 .. Size - 1 of column t, and the
// pivot a[Size * t + t]; Size and t of unknown sign (parameters).
TEST(Extent, WindowOfAPivotColumn) {
  Nest N;
  const Poly Size = Sym(0), T = Sym(2);
  N.Vars = {var("i", true, Size - T - C(1))};
  N.Accesses = {at({Size}, Size * (T + C(1)) + T), at({C(0)}, Size * T + T)};
  EXPECT_EQ(textOf(N), "none");
  std::optional<Window> W = accessWindow(N, 0);
  ASSERT_TRUE(W);
  std::optional<WindowText> Text = windowText(*W, name, noneUnsigned);
  ASSERT_TRUE(Text);
  // Row t + 1 and the last row of column t, and the pivot: with n
  // (Size) of unknown sign, any of them may be the least.
  EXPECT_EQ(Text->Guard, "n > i + 1");
  EXPECT_EQ(Text->First, "std::min<std::int64_t>({n * i + n + i, n * n + i - n, n * i + i})");
  EXPECT_EQ(Text->End, "std::max<std::int64_t>({n * i + n + i + 1, n * n + i - n + 1, n * i + i + 1})");
  EXPECT_FALSE(windowText(*W, name, [](int) { return true; })); // unsigned symbols subtract
  // A conditional access may not happen: no window.
  N.Accesses.back().Conditional = true;
  EXPECT_EQ(accessWindow(N, 0), std::nullopt);
}

// a[i], i in [0, n): n elements when the loop runs.
TEST(Extent, OneLevel) {
  Nest N;
  N.Vars = {var("i", true, Sym(0))};
  N.Accesses = {at({C(1)}, C(0))};
  EXPECT_EQ(textOf(N), "n > 0 ? n : 0");
}

// matvec: a[i * n + j] with j in [0, n) inside, b[j], over i in [0, n).
TEST(Extent, LinearisedRows) {
  Nest N;
  N.Vars = {var("i", true, Sym(0)), var("j", false, Sym(1))};
  N.Accesses = {at({Sym(1), C(1)}, C(0), {1})};
  EXPECT_EQ(textOf(N), "n > 0 && m > 0 ? n * m : 0");
}

// A stencil over the interior: i in [1, n - 1) reads a[i - 1] .. a[i + 1].
TEST(Extent, Interior) {
  Nest N;
  N.Vars = {var("i", true, Sym(0) - C(2), C(1))};
  N.Accesses = {at({C(1)}, C(-1)), at({C(1)}, C(0)), at({C(1)}, C(1))};
  EXPECT_EQ(textOf(N), "n > 2 ? n : 0");
}

// Counting down from n - 1 to 0.
TEST(Extent, Downwards) {
  Nest N;
  N.Vars = {var("i", true, Sym(0), Sym(0) - C(1), -1)};
  N.Accesses = {at({C(1)}, C(0))};
  EXPECT_EQ(textOf(N), "n > 0 ? n : 0");
}

// NeoRodinia's lud, one step i of an outer host loop over [0, n): row i
// from column i on, j in [i, n), each less the products of k in [0, i).
// What the outer loop says (i >= 0, n >= 1) bounds the rows; the
// furthest access is row i's last element.
TEST(Extent, StepOfAnOuterLoop) {
  Nest N;
  const Poly I = Sym(2), Rows = Sym(0);
  N.Vars = {var("j", true, Rows - I, I), var("k", false, I)};
  N.Accesses = {at({C(1), C(0)}, I * Rows), at({C(0), C(1)}, I * Rows, {1}), at({C(1), Rows}, C(0), {1})};
  EXPECT_EQ(textOf(N), "none"); // i may be negative
  EXPECT_EQ(textOf(N, {{2, 0}, {0, 1}}), "n > i ? n * i + n : 0");
  // The column below the diagonal, j in [i + 1, n): row j's element i,
  // the furthest n * n - n + i, the diagonal's i * n + i before it (n *
  // (n - i - 1) further, a guard's multiple).
  N.Vars = {var("j", true, Rows - I - C(1), I + C(1)), var("k", false, I)};
  N.Accesses = {at({Rows, C(0)}, I), at({Rows, C(1)}, C(0), {1}), at({C(0), Rows}, I, {1}),
                at({C(0), C(0)}, I * Rows + I)};
  EXPECT_EQ(textOf(N, {{2, 0}, {0, 1}}), "n > i + 1 ? n * n + i - n + 1 : 0");
}

// Constant bounds need no guard.
TEST(Extent, Constant) {
  Nest N;
  N.Vars = {var("i", true, C(8)), var("j", false, C(4))};
  N.Accesses = {at({C(4), C(1)}, C(0), {1})};
  EXPECT_EQ(textOf(N), "32");
}

TEST(Extent, Refusals) {
  Nest N;
  N.Vars = {var("i", true, Sym(0)), var("j", false, Sym(1))};
  // A row length that is no loop's count: its sign is unknown.
  N.Accesses = {at({Sym(2), C(1)}, C(0), {1})};
  EXPECT_EQ(textOf(N), "none");
  // Below the first element.
  N.Accesses = {at({C(1), C(0)}, C(-1))};
  EXPECT_EQ(textOf(N), "none");
  // The furthest access is conditional: it may never happen.
  N.Accesses = {at({C(1), C(0)}, C(0)), at({C(1), C(0)}, C(1), {}, true)};
  EXPECT_EQ(textOf(N), "none");
  // Neither reaches further than the other for every n and m.
  N.Accesses = {at({C(1), C(0)}, C(0)), at({C(0), C(1)}, C(0), {1})};
  EXPECT_EQ(textOf(N), "none");
  // The furthest one needs an inner loop the other does not: when it
  // does not run, the other still touches elements.
  N.Accesses = {at({C(1), C(0)}, C(0)), at({C(1), C(0)}, C(1), {1})};
  EXPECT_EQ(textOf(N), "none");
  // A triangular inner loop: it may not run at the last i.
  N.Vars[1].Count.reset();
  N.Vars[1].From = sub({}, C(0));
  N.Vars[1].To = sub({C(1)}, C(0));
  N.Accesses = {at({C(1), C(0)}, C(0), {1})};
  EXPECT_EQ(textOf(N), "none");
}

// Guards compare sums of positive terms: no subtraction an unsigned
// symbol could wrap, and no comparison of mixed signs.
TEST(Extent, UnsignedText) {
  Extent E{Sym(0) * Sym(1), {Sym(0), Sym(0) - Sym(1)}};
  auto Unsigned = [](int) { return true; };
  EXPECT_EQ(extentText(E, name, Unsigned), "n > 0 && n > m ? n * m : 0");
  EXPECT_EQ(extentText(E, name, [](int Id) { return Id == 0; }), std::nullopt);
  E.Guards = {Sym(0) + C(1), Sym(1)};
  EXPECT_EQ(extentText(E, name, Unsigned), "m > 0 ? n * m : 0");
  EXPECT_EQ(extentText(E, name, noneUnsigned), "n >= 0 && m > 0 ? n * m : 0");
}

namespace {

/// A random guarded nest over array 0 (a bounds-checked stencil's shape):
/// two parallel loops and up to two inner ones, counts a constant or a
/// symbol plus a constant, first values a constant or a symbol, steps of
/// one either way (now and then two); one or two accesses, each under
/// bounds of sums of the variables (`x = j + n - q` within [0, m)),
/// coefficients ±1 (now and then 2, a shape the tool refuses), and a
/// subscript that scales each sum's used part alike (now and then not).
/// Symbol 2 is n / 2 (C's division) where Quotient says.
Nest randomGuardedNest(std::mt19937 &Rng, bool Quotient) {
  auto Pick = [&](int Lo, int Hi) { return std::uniform_int_distribution<int>(Lo, Hi)(Rng); };
  auto Symbolic = [&]() { return Pick(0, 2) == 0 ? C(Pick(-1, 2)) : Sym(Pick(0, 2)) + C(Pick(-1, 1)); };
  Nest N;
  if (Quotient)
    N.Quotients = {{2, Sym(0), 2}};
  const int Parallel = 2, Inner = Pick(0, 2);
  for (int V = 0; V < Parallel + Inner; ++V) {
    Poly Count = Pick(0, 2) == 0 ? C(Pick(0, 3)) : Sym(Pick(0, 1)) + C(Pick(-1, 1));
    std::int64_t Step = Pick(0, 1) ? 1 : -1;
    if (Count.isConstant() && Pick(0, 5) == 0)
      Step = 2;
    N.Vars.push_back(var("v", V < Parallel, Count, Pick(0, 3) == 0 ? Sym(Pick(0, 1)) : C(Pick(-1, 1)), Step));
  }
  for (int K = Pick(1, 2); K > 0; --K) {
    Access A = at(std::vector<Poly>(N.Vars.size(), C(0)), Symbolic());
    for (int V = Parallel; V < Parallel + Inner; ++V)
      if (Pick(0, 3) > 0)
        A.Loops.push_back(V);
    A.Conditional = true;
    A.When.emplace();
    std::vector<int> Free;
    for (int V = 0; V < Parallel + Inner; ++V)
      if (V < Parallel || std::count(A.Loops.begin(), A.Loops.end(), V))
        Free.push_back(V);
    std::shuffle(Free.begin(), Free.end(), Rng);
    // Sums of one or two variables, each bounded below, above or both.
    for (int G = Pick(1, 2); G > 0 && !Free.empty(); --G) {
      std::vector<std::pair<int, std::int64_t>> Sum;
      for (int T = Pick(1, 2); T > 0 && !Free.empty(); --T) {
        Sum.emplace_back(Free.back(), Pick(0, 2) ? 1 : -1);
        if (Pick(0, 9) > 0)
          Free.pop_back(); // else shared with the next sum: refused
      }
      if (Pick(0, 9) == 0)
        Sum.front().second *= 2; // not by ones: refused
      auto Form = [&](std::int64_t Sign, Poly Const) {
        Subscript S = sub(std::vector<Poly>(N.Vars.size(), C(0)), std::move(Const));
        for (auto [V, Coef] : Sum)
          S.Coef[V] = C(Sign * Coef);
        return S;
      };
      const int Which = Pick(0, 2);
      if (Which != 1) // sum - low >= 0
        A.When->push_back(Form(1, -Symbolic()));
      if (Which != 0) // high - sum >= 0
        A.When->push_back(Form(-1, Symbolic()));
      // The subscript scales the part it uses (all, or the first variable).
      const Poly Scale = Pick(0, 3) == 0 ? C(Pick(-2, 2)) : Sym(Pick(0, 1));
      const size_t Used = Pick(0, 1) ? Sum.size() : 1;
      for (size_t T = 0; T < Used; ++T)
        A.Dims[0].Coef[Sum[T].first] = A.Dims[0].Coef[Sum[T].first] + Scale.times(Sum[T].second);
      if (Pick(0, 9) == 0)
        A.Dims[0].Coef[Sum.front().first] = A.Dims[0].Coef[Sum.front().first] + C(1); // not alike: refused
    }
    for (int V : Free)
      if (Pick(0, 1))
        A.Dims[0].Coef[V] = C(Pick(-2, 2));
    if (Pick(0, 7) == 0)
      A.When->push_back(sub({}, Sym(1) - C(1))); // m >= 1, no loop variable
    N.Accesses.push_back(std::move(A));
  }
  return N;
}

} // namespace

// Windows of accesses under bounds (stencils' edge checks): wherever a
// window is given, its least is the first element any access touches at
// a point where its bounds hold, and its end one past the last, for every
// value of the symbols (n / 2 where the nest says so); empty when
// nothing is touched.
TEST(Extent, RandomGuardedWindowsAgreeWithEnumeration) {
  std::mt19937 Rng(20261129);
  int Given = 0, Refused = 0, Clipped = 0;
  for (int Case = 0; Case < 8000; ++Case) {
    const bool Quotient = Case % 2 == 0;
    const Nest N = randomGuardedNest(Rng, Quotient);
    std::optional<Window> W = accessWindow(N, 0);
    if (!W) {
      ++Refused;
      continue;
    }
    ++Given;
    Clipped += !W->Extremes.empty();
    for (std::int64_t X = -2; X <= 5; ++X)
      for (std::int64_t Y = -2; Y <= 5; ++Y) {
        const Values S{{0, X}, {1, Y}, {2, Quotient ? X / 2 : Y - 1}};
        expectWindowMatches(N, *W, S,
                            "case " + std::to_string(Case) + " n=" + std::to_string(X) + " m=" + std::to_string(Y));
      }
  }
  EXPECT_GT(Given, 500) << Given;
  EXPECT_GT(Refused, 500) << Refused;
  EXPECT_GT(Clipped, 300) << "windows with a bound clipped at run time: " << Clipped;
}

// NeoRodinia's stencil: x = j + n - r / 2 within [0, w), y = i + m - s / 2
// within [0, h), src[y * w + x] and filter[m * r + n]: the image from its
// first element to its last, the filter's rows and columns some pixel
// uses.
TEST(Extent, WindowOfABoundsCheckedStencil) {
  // Symbols: w 0, h 1, r 2, s 3, r / 2 4, s / 2 5.
  const char *const Stencil[] = {"w", "h", "r", "s", "r / 2", "s / 2"};
  auto StencilName = [&](int Id) { return std::string(Stencil[Id]); };
  Nest N;
  N.Quotients = {{4, Sym(2), 2}, {5, Sym(3), 2}};
  N.Vars = {var("i", true, Sym(1)), var("j", false, Sym(0)), var("n", false, Sym(2)), var("m", false, Sym(3))};
  auto Bounds = [&](int Var, int Extra, Poly Offset, Poly Size) {
    std::vector<Poly> Coef(4, C(0));
    Coef[Var] = C(1), Coef[Extra] = C(1);
    std::vector<Poly> Neg(4, C(0));
    Neg[Var] = C(-1), Neg[Extra] = C(-1);
    return std::vector<Subscript>{sub(Coef, -Offset), sub(Neg, Size - C(1) + Offset)};
  };
  std::vector<Subscript> When = Bounds(1, 2, Sym(4), Sym(0));
  for (Subscript &S : Bounds(0, 3, Sym(5), Sym(1)))
    When.push_back(S);
  Access Image = at({Sym(0), C(1), C(1), Sym(0)}, -Sym(5) * Sym(0) - Sym(4), {1, 2, 3}, true);
  Image.When = When;
  Access Filter = at({C(0), C(0), C(1), Sym(2)}, C(0), {1, 2, 3}, true);
  Filter.When = When;
  N.Accesses = {Image};
  std::optional<Window> W = accessWindow(N, 0);
  ASSERT_TRUE(W);
  std::optional<WindowText> T = windowText(*W, StencilName, noneUnsigned);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Guard, "h > 0 && w > 0 && r > 0 && s > 0");
  EXPECT_EQ(T->First, "0");
  EXPECT_EQ(T->End, "w * h");
  N.Accesses = {Filter};
  W = accessWindow(N, 0);
  ASSERT_TRUE(W);
  T = windowText(*W, StencilName, noneUnsigned);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->First, "r * std::max<std::int64_t>(0, s / 2 - h + 1) + std::max<std::int64_t>(0, r / 2 - w + 1)");
  // Without r / 2's bounds, the edges' clipping stays at run time.
  N.Quotients.clear();
  N.Accesses = {Image};
  W = accessWindow(N, 0);
  ASSERT_TRUE(W);
  EXPECT_FALSE(W->Extremes.empty());
  // An else-branch, or a condition that is not bounds: no window.
  N.Accesses.back().When.reset();
  EXPECT_FALSE(accessWindow(N, 0));
}
