/// \file
/// The host's threads as every header sees them: parallel loops over index
/// ranges whose body is passed by a plain function pointer to the runtime
/// library (runtime/host_threads.cpp), which alone includes oneTBB. The
/// reductions and the sort built on them are templates here.
///
/// Why not oneTBB in the headers: every translation unit of a dp program
/// parsed its headers and instantiated its task classes for each loop
/// (dp/dp.hpp alone: 1.34 s of g++ -fsyntax-only on the project's 2-core
/// machine with them, 0.76-0.82 s without; a translated test program,
/// forall_cases, 14.3 s of -O0 compile, 9.6 s without; 2026-12-02), in
/// users' builds and in every compile of the tests, nvcc's and hipcc's
/// host passes included. The loops' pieces are as coarse as before (a row segment, a
/// tile, a block of 16,384 values), so one indirect call a piece costs
/// nothing measurable.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace dp::detail {

/// A borrowed callable body(begin, end): it must outlive the call it is
/// handed to (a lambda written in the call's arguments does).
class range_body {
public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, range_body>>>
  range_body(const F &f) : object_(&f), call_(&invoke<F>) {}
  void operator()(std::int64_t begin, std::int64_t end) const { call_(object_, begin, end); }

private:
  template <class F> static void invoke(const void *f, std::int64_t begin, std::int64_t end) {
    (*static_cast<const F *>(f))(begin, end);
  }
  const void *object_;
  void (*call_)(const void *, std::int64_t, std::int64_t);
};

/// How host_parallel splits [0, n): `simple` halves a range until it holds
/// at most `grain` indices (oneTBB's simple_partitioner: the pieces are
/// known before the loop runs); `adaptive` splits as the threads steal
/// (oneTBB's auto_partitioner, pieces of at least `grain`).
enum class host_split_kind { simple, adaptive };

/// The number of threads the host's loops run on (oneTBB's arena).
int host_concurrency();

/// body(begin, end) over pieces that cover [0, n) once, on the host's
/// threads; an exception a piece throws reaches the caller.
void host_parallel(std::int64_t n, std::int64_t grain, host_split_kind how, range_body body);

/// f(i) for every i in [0, n), in parallel (tbb::parallel_for(0, n, f)).
template <class F> void host_for_each(std::int64_t n, const F &f) {
  if (n <= 0)
    return;
  host_parallel(n, 1, host_split_kind::adaptive, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i)
      f(i);
  });
}

/// Calls piece(begin, end) for the pieces a `simple` split of [begin,
/// end) with `grain` makes, in order: a range is halved (the middle
/// rounded down) while it holds more than grain indices.
template <class Piece>
void for_each_piece(std::int64_t begin, std::int64_t end, std::int64_t grain, Piece &&piece) {
  if (end - begin <= grain)
    return piece(begin, end);
  const std::int64_t middle = begin + (end - begin) / 2;
  for_each_piece(begin, middle, grain, piece);
  for_each_piece(middle, end, grain, piece);
}

/// Joins the values of the pieces of [begin, end), one per piece in the
/// order of for_each_piece, in the order of their splits: join(left
/// half's value, right half's value).
template <class T, class Join>
T join_pieces(std::int64_t begin, std::int64_t end, std::int64_t grain, std::vector<T> &values,
              std::size_t &next, const Join &join) {
  if (end - begin <= grain)
    return std::move(values[next++]);
  const std::int64_t middle = begin + (end - begin) / 2;
  T left = join_pieces(begin, middle, grain, values, next, join);
  T right = join_pieces(middle, end, grain, values, next, join);
  return join(std::move(left), right);
}

/// The fold of [0, n) as oneTBB's parallel_deterministic_reduce computes
/// it with a simple split of `grain`: each piece's value is
/// leaf(begin, end, T()), and the pieces' values are joined in the order
/// of their splits, so the result depends on n and grain alone, never on
/// the threads. T() for n <= 0.
template <class T, class Leaf, class Join>
T deterministic_reduce(std::int64_t n, std::int64_t grain, const Leaf &leaf, const Join &join) {
  if (n <= 0)
    return T();
  grain = std::max<std::int64_t>(1, grain);
  if (n <= grain) // one piece, on the calling thread, with no allocation
    return leaf(std::int64_t(0), n, T());
  std::vector<std::int64_t> starts;
  starts.reserve(static_cast<std::size_t>(2 * (n / grain + 1))); // pieces hold more than grain / 2
  for_each_piece(std::int64_t(0), n, grain, [&](std::int64_t begin, std::int64_t) { starts.push_back(begin); });
  const std::int64_t pieces = static_cast<std::int64_t>(starts.size());
  starts.push_back(n);
  std::vector<T> values(static_cast<std::size_t>(pieces));
  host_for_each(pieces, [&](std::int64_t k) {
    const auto i = static_cast<std::size_t>(k);
    values[i] = leaf(starts[i], starts[i + 1], T());
  });
  std::size_t next = 0;
  return join_pieces(0, n, grain, values, next, join);
}

/// How many of the first k values of the merge of a[0..na) and b[0..nb)
/// come from a, std::merge's rule (b's value first only when it is less):
/// the split of a merge into pieces that run at once (the "merge path").
template <class It, class Less>
std::int64_t merge_split(It a, std::int64_t na, It b, std::int64_t nb, std::int64_t k,
                         const Less &less) {
  std::int64_t lo = std::max<std::int64_t>(0, k - nb), hi = std::min(k, na);
  while (lo < hi) {
    const std::int64_t i = lo + (hi - lo) / 2, j = k - i;
    if (j > 0 && !less(b[j - 1], a[i]))
      lo = i + 1; // a[i] goes before b[j - 1]: more of a
    else
      hi = i;
  }
  return lo;
}

/// Moves the merge of the sorted a[0..na) and b[0..nb) to out, in `parts`
/// pieces of equal output on the host's threads. The splits are found
/// first: a piece's search must not read values another piece moved.
template <class In, class Out, class Less>
void parallel_merge(In a, std::int64_t na, In b, std::int64_t nb, Out out, std::int64_t parts,
                    const Less &less) {
  const std::int64_t n = na + nb;
  std::vector<std::int64_t> from_a(static_cast<std::size_t>(parts + 1));
  for (std::int64_t p = 0; p <= parts; ++p)
    from_a[static_cast<std::size_t>(p)] = merge_split(a, na, b, nb, p * n / parts, less);
  host_for_each(parts, [&](std::int64_t p) {
    const std::int64_t k0 = p * n / parts, k1 = (p + 1) * n / parts;
    const std::int64_t i0 = from_a[static_cast<std::size_t>(p)];
    const std::int64_t i1 = from_a[static_cast<std::size_t>(p + 1)];
    std::merge(std::make_move_iterator(a + i0), std::make_move_iterator(a + i1),
               std::make_move_iterator(b + (k0 - i0)), std::make_move_iterator(b + (k1 - i1)),
               out + k0, less);
  });
}

/// Sorts [first, last) with `less` on the host's threads: pieces sorted
/// in parallel, then merged pairwise, round after round, each merge split
/// so that every round keeps every thread busy (through a buffer of the
/// values; values that cannot be default-constructed merge in place, a
/// round's merges at once). Not stable, like the std::sort it stands for.
template <class It, class Less> void parallel_sort(It first, It last, const Less &less) {
  using T = typename std::iterator_traits<It>::value_type;
  constexpr std::int64_t smallest_piece = std::int64_t(1) << 14;
  const std::int64_t n = static_cast<std::int64_t>(last - first);
  const std::int64_t units = 4 * std::int64_t(host_concurrency());
  std::int64_t pieces = 1;
  while (pieces < units && n / (2 * pieces) >= smallest_piece)
    pieces *= 2;
  if (pieces == 1) {
    std::sort(first, last, less);
    return;
  }
  const auto cut = [&](std::int64_t k) { return k * n / pieces; };
  host_for_each(pieces, [&](std::int64_t k) {
    std::sort(first + static_cast<std::ptrdiff_t>(cut(k)),
              first + static_cast<std::ptrdiff_t>(cut(k + 1)), less);
  });
  // Merge m of a round of this width: the runs [a, b) and [b, e).
  const auto runs = [&](std::int64_t m, std::int64_t width) {
    return std::array<std::int64_t, 3>{cut(2 * m * width), cut((2 * m + 1) * width),
                                       cut((2 * m + 2) * width)};
  };
  if constexpr (std::is_default_constructible_v<T> && std::is_move_assignable_v<T>) {
    std::unique_ptr<T[]> spare(new T[static_cast<std::size_t>(n)]);
    bool in_spare = false; // where the sorted runs are now
    for (std::int64_t width = 1; width < pieces; width *= 2, in_spare = !in_spare) {
      const std::int64_t merges = pieces / (2 * width);
      const std::int64_t parts = std::max<std::int64_t>(1, units / merges);
      host_for_each(merges, [&](std::int64_t m) {
        const auto [a, b, e] = runs(m, width);
        if (in_spare)
          parallel_merge(spare.get() + a, b - a, spare.get() + b, e - b, first + a, parts, less);
        else
          parallel_merge(first + a, b - a, first + b, e - b, spare.get() + a, parts, less);
      });
    }
    if (in_spare)
      host_parallel(n, smallest_piece, host_split_kind::adaptive,
                    [&](std::int64_t begin, std::int64_t end) {
                      std::move(spare.get() + begin, spare.get() + end, first + begin);
                    });
  } else {
    for (std::int64_t width = 1; width < pieces; width *= 2)
      host_for_each(pieces / (2 * width), [&](std::int64_t m) {
        const auto [a, b, e] = runs(m, width);
        std::inplace_merge(first + a, first + b, first + e, less);
      });
  }
}

} // namespace dp::detail
