//===- Dependence.h - Can two iterations touch one element? -----*- C++ -*-===//
//
// The dependence test of migration, a pure function of a small model: the
// loop variables of a nest (those it would run in parallel, and those of
// sequential loops inside its body), and every access to an array with its
// subscripts as polynomials in those variables. For each pair of accesses
// to one array, one of them a write, it asks whether two different
// iterations of the parallel variables can touch the same element.
//
// Subscripts are split into independent equations first: by symbolic
// monomial when a linearised index `i*n + j` keeps each level below the
// next (j in [0, n) never reaches n), then by integer level (`64*i + j`
// with j < 64), then each single-variable equation gives a distance
// (x' - x = d) or a value (x = a). The answer is one of: independent
// (proven), dependent (a witness: the distances of two iterations that
// touch one element), or unknown. "Independent" is never said without a
// proof; test/unit/dependence_test.cpp checks it against brute force.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Poly.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// One subscript: sum of Coef[v] * value(v) + Const, or not affine.
struct Subscript {
  bool Affine = false;
  std::vector<Poly> Coef; ///< by LoopVar index; missing entries are 0
  Poly Const;
};

/// A loop variable: Lower, Lower + Step, ... for Count iterations.
struct LoopVar {
  std::string Name;
  bool Parallel = false;       ///< a dimension of the call-site's grid
  Poly Lower;                  ///< the first value
  std::int64_t Step = 1;       ///< non-zero; with RunTimeStep, its sign
  /// A step known only when the loop runs (`it += tile`): its value, a
  /// polynomial of the symbols, times Step. Count is then unknown.
  std::optional<Poly> RunTimeStep;
  std::optional<Poly> Count;   ///< iterations; unknown when absent
  /// An inner loop whose bounds use other loop variables (`for (j = 0; j
  /// < i; ++j)`): its values are [From, To) by one, both affine in the
  /// variables before it (Lower, Step and Count then say nothing). The
  /// proof treats its range as unknown; the search for a witness
  /// enumerates it.
  std::optional<Subscript> From, To;
};


/// One access of an array element in the loop's body.
struct Access {
  int Array = 0;                ///< which array
  bool Write = false;           ///< a compound assignment is two accesses
  bool Conditional = false;     ///< under a condition: it may never happen
  /// For a conditional access, when known exactly: it happens at a point
  /// of its loops exactly when every one of these is at least 0 (`if (x
  /// >= 0 && x < w)` around it, x affine: `x`, `w - 1 - x`).
  std::optional<std::vector<Subscript>> When;
  /// Into a member array of the element (`a[k].keys[j]`): two such
  /// accesses to one element may touch different members.
  bool Part = false;
  std::vector<Subscript> Dims;  ///< one per dimension of the array
  /// The inner (sequential) loop variables whose loops enclose it; its
  /// subscripts use no other inner variable.
  std::vector<int> Loops;
  std::string Text;             ///< "a[i * n + j]", for messages
  unsigned Id = 0;              ///< the caller's (where it is)
};

/// What the test says of a pair of accesses, or of a whole nest.
enum class Verdict { Independent, Dependent, Unknown };

/// The answer for a nest: its first dependent or unknown pair, if any.
struct DependenceResult {
  Verdict V = Verdict::Independent;
  /// The pair (indices into the nest's accesses); the first is the one at
  /// the earlier iteration when the distance says which.
  std::size_t First = 0, Second = 0;
  /// Per parallel variable, in order: Second's iteration minus First's;
  /// none where any distance will do ("*").
  std::vector<std::optional<std::int64_t>> Distance;
  /// For Unknown: what stopped the proof.
  std::string Why;
};

/// A symbol that stands for Dividend / Divisor (`r / 2`, C's division,
/// Divisor > 0): what bounds the dividend says of it.
struct Quotient {
  int Id = 0;
  Poly Dividend;
  std::int64_t Divisor = 1;
};

/// Symbols are named by the caller: Names[id].
struct Nest {
  std::vector<LoopVar> Vars;
  std::vector<Access> Accesses;
  std::vector<std::string> SymbolNames;
  std::vector<Quotient> Quotients;
  /// What holds of the symbols wherever the nest runs, each at least 0
  /// (`2 - d3` for a local that only ever holds 1 or 2): for the reach of
  /// its accesses (Extent.h), not for the dependence test.
  std::vector<Poly> Relations;
};

/// The verdict for one pair of accesses (same array, one a write).
DependenceResult testPair(const Nest &N, std::size_t A, std::size_t B);

/// Independent when no pair depends; else the first dependent pair, or
/// failing that the first unknown one.
DependenceResult testNest(const Nest &N);

/// For an access Fixed whose subscripts use no loop variable (one element
/// for the whole nest: `x[i]` in a loop over j): true when a proof shows
/// that access Other touches that element in no iteration, the same
/// iteration included (`x[j]`, j in [0, i)). False when it may.
bool provablyApart(const Nest &N, std::size_t Fixed, std::size_t Other);

/// "(1, 0)", "(*, 0)".
std::string distanceText(const std::vector<std::optional<std::int64_t>> &D);

} // namespace dpstub::migrate
