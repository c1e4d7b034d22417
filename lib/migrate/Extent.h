//===- Extent.h - How far a nest's accesses reach into an array -*- C++ -*-===//
//
// A loop over a pointer from callers dpstub cannot see borrows the memory
// (dp::borrow(p, n)); when no data clause gives n, the accesses do: the
// elements from the first up to the furthest one the loop touches. A pure
// function of the dependence test's model (Dependence.h), exact rather
// than generous: borrowing an element the original never touched may read
// past the caller's allocation when the data crosses to a device.
// test/unit/extent_test.cpp checks it against enumeration.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Dependence.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// The elements of one array a nest touches, counted from the first:
/// Length when every Guard is at least 1, none otherwise. The guards are
/// the iteration counts of the loops the furthest access needs running;
/// when one is below 1 the nest touches no element of the array.
struct Extent {
  Poly Length;
  std::vector<Poly> Guards;
};

/// The extent of Array's accesses in N (rank 1). Known: lower bounds of
/// symbols wherever the nest runs (an enclosing loop's variable, `i`
/// from 0, is at least 0). None when the proof fails: a subscript that
/// is not affine, a loop of unknown or varying count around an access, a
/// coefficient of unknown sign, an access that may reach below the first
/// element, or no access that both happens unconditionally and reaches
/// at least as far as every other.
std::optional<Extent> accessExtent(const Nest &N, int Array, const std::map<int, std::int64_t> &Known = {});

/// The elements of one array a nest touches where they need not start at
/// the first, or where a coefficient's sign is unknown (Gaussian
/// elimination's `a[Size * (i + t + 1) + t]`, t a parameter): from the
/// least of First to the greatest of Last, when every Guard is at least
/// 1, none otherwise. Each candidate is one access's subscript at a corner
/// of its loops, which every run of the nest reaches: the window is exact.
///
/// An access under bounds of its own (a stencil's `if (x >= 0 && x < w)`,
/// x = j + n - r) reaches from its bounds clipped to its loops' range:
/// such values are the greater or the lesser of two (Extremes), each
/// named by a symbol of its own (Id at least ExtremeBase, in order: one
/// may use those before it).
struct Extreme {
  int Id = 0;
  bool Greatest = false;
  Poly A, B;
};
constexpr int ExtremeBase = 1 << 20;

struct Window {
  std::vector<Poly> First, Last;
  std::vector<Poly> Guards;
  std::vector<Extreme> Extremes;
  /// Accesses in loops whose counts differ (NPB MG's `comm3`: one inner
  /// loop over rows 1 .. n2 - 2, another over columns 0 .. n1 - 1; either
  /// may run while the other does not): each set of accesses that happen
  /// together, with the guards only it needs and its own candidates.
  /// Where Guards hold, the window spans the alternatives whose guards
  /// hold, and is empty where none does; First and Last are then empty.
  struct Alternative {
    std::vector<Poly> Guards, First, Last;
  };
  std::vector<Alternative> Alternatives;
};

/// The window of Array's accesses in N (rank 1). None when an access is
/// conditional (unless its When is bounds of sums of whole loop variables,
/// each by ones, over loops apart from the other bounds' and scaled alike
/// in the subscript), not affine, in a loop of unknown or varying count,
/// or when the corners are too many. Accesses in loops whose counts
/// differ are alternatives of the window (Window::Alternatives).
std::optional<Window> accessWindow(const Nest &N, int Array, const std::map<int, std::int64_t> &Known = {});

/// The symbols W is written with, through its extremes.
std::vector<int> windowSymbols(const Window &W);

/// A window as C++ expressions: its first element and its end (one past
/// its last), `std::min<std::int64_t>({...})` of several candidates, an
/// extreme as `std::max<std::int64_t>(a, b)`; both hold only where Guard
/// does (empty: always), and the window is empty elsewhere. Alternatives
/// make Guard `... && (g1 || g2)` and a candidate of each `g1 ? c :
/// INT64_MAX` (INT64_MIN for an end).
struct WindowText {
  std::string Guard, First, End;
};

/// W as text. None when a symbol is unsigned: the candidates subtract.
std::optional<WindowText> windowText(const Window &W, const std::function<std::string(int)> &Name,
                                     const std::function<bool(int)> &Unsigned);

/// E as a C++ expression of its symbols (named by Name): `n * m`, or
/// `n > 2 ? n : 0` under guards. Unsigned tells which symbols are of an
/// unsigned type, whose arithmetic wraps: a guard over several symbols
/// then has no faithful text (none).
std::optional<std::string> extentText(const Extent &E, const std::function<std::string(int)> &Name,
                                      const std::function<bool(int)> &Unsigned);

} // namespace dpstub::migrate
