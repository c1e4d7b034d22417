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
  int Given = 0, Refused = 0, Signless = 0;
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
    for (const Values &S : symbolValues(Known)) {
      const std::int64_t X = S.at(0), Y = S.at(1);
      std::int64_t First = 0, End = 0;
      if (std::all_of(W->Guards.begin(), W->Guards.end(), [&](const Poly &G) { return eval(G, S) >= 1; })) {
        First = End = std::numeric_limits<std::int64_t>::max();
        for (const Poly &P : W->First)
          First = std::min(First, eval(P, S));
        End = std::numeric_limits<std::int64_t>::min();
        for (const Poly &P : W->Last)
          End = std::max(End, eval(P, S) + 1);
      }
      std::int64_t Least = std::numeric_limits<std::int64_t>::max(), Most = std::numeric_limits<std::int64_t>::min();
      for (const Access &A : N.Accesses)
        forEachPoint(N, A, S, [&](const std::vector<std::int64_t> &Value) {
          const std::int64_t I = element(A, Value, S)[0];
          Least = std::min(Least, I);
          Most = std::max(Most, I);
        });
      if (Most < Least) {
        EXPECT_EQ(First, End) << "case " << Case << " n=" << X << " m=" << Y << ": nothing touched";
        continue;
      }
      EXPECT_EQ(First, Least) << "case " << Case << " n=" << X << " m=" << Y;
      EXPECT_EQ(End, Most + 1) << "case " << Case << " n=" << X << " m=" << Y;
    }
  }
  EXPECT_GT(Given, 300) << Given;
  EXPECT_GT(Refused, 300) << Refused;
  EXPECT_GT(Signless, 100) << "windows where the extent from the first element has no proof: " << Signless;
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
  std::optional<std::pair<std::string, std::string>> Text = windowText(*W, name, noneUnsigned);
  ASSERT_TRUE(Text);
  // Row t + 1 and the last row of column t, and the pivot: with n
  // (Size) of unknown sign, any of them may be the least.
  EXPECT_EQ(Text->first, "n > i + 1 ? std::min<std::int64_t>({n * i + n + i, n * n + i - n, n * i + i}) : 0");
  EXPECT_EQ(Text->second,
            "n > i + 1 ? std::max<std::int64_t>({n * i + n + i + 1, n * n + i - n + 1, n * i + i + 1}) : 0");
  EXPECT_EQ(windowText(*W, name, [](int) { return true; }), std::nullopt); // unsigned symbols subtract
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
