/// \file
/// The host backend's iteration: a oneTBB loop over the positions of a
/// compute grid, handed out as row segments so the innermost loop is a plain
/// counted loop over the last dimension.
#pragma once

#include <algorithm>
#include <cstdint>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "../grid.hpp"

namespace dp::detail {

/// Raises a row-major position offset into per-dimension positions.
template <int N>
void raise_position(std::int64_t offset, const grid<N> &g, std::int64_t (&pos)[N]) {
  for (int d = N - 1; d >= 0; --d) {
    const std::int64_t e = g.extent(d);
    pos[d] = offset % e;
    offset /= e;
  }
}

/// Advances pos to the start of the next row.
template <int N> void next_row(const grid<N> &g, std::int64_t (&pos)[N]) {
  pos[N - 1] = 0;
  for (int d = N - 2; d >= 0; --d) {
    if (++pos[d] < g.extent(d))
      return;
    pos[d] = 0;
  }
}

/// Calls segment(pos, j0, j1) for row segments covering [begin, end) of the
/// row-major positions of g: pos holds the row's leading positions and the
/// segment covers last-dimension positions j0..j1-1.
template <int N, class Segment>
void for_each_segment(const grid<N> &g, std::int64_t begin, std::int64_t end,
                      Segment &&segment) {
  const std::int64_t inner = g.extent(N - 1);
  std::int64_t pos[N];
  raise_position(begin, g, pos);
  for (std::int64_t k = begin; k < end;) {
    const std::int64_t j0 = pos[N - 1];
    const std::int64_t j1 = std::min(inner, j0 + (end - k));
    segment(pos, j0, j1);
    k += j1 - j0;
    if (j1 == inner)
      next_row(g, pos);
    else
      pos[N - 1] = j1;
  }
}

/// body(range) over [0, n), one contiguous piece per thread, as OpenMP's
/// default schedule(static) and Kokkos's RangePolicy split a loop. On the
/// project's 2-core machine (2026-11-28, builds alternated), TBB's
/// adaptive splitting cost a forall 2-2.6 us a call more than this: the
/// migrated lib_axpy (bench/migrate_library.cpp) over 1,024, 16,384 and
/// 262,144 doubles took 2.6, 5.1 and 38.9 us with it, 0.8, 3.3 and 36.7
/// without, OpenMP's 0.65, 2.6 and 35.8; a 16-point forall (host_bench's
/// BM_TinyForall) 0.9-2.8 us with it, 0.24-0.66 without; the triad over
/// 2^26 floats ran at 0.79-1.00 of a hand-written tbb::parallel_for with
/// it, 0.95-0.97 without. Splitting adaptively above 2^20 points only was
/// worse than either in scripts/bench.sh migrate (borrowed_axpy 0.56,
/// after the program's large adaptive loops; why is not analysed).
template <class Body> void host_split(std::int64_t n, const Body &body) {
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n), body, tbb::static_partitioner());
}

} // namespace dp::detail
