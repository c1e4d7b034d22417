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

/// Runs segment(...) over the whole grid in parallel.
template <int N, class Segment> void parallel_segments(const grid<N> &g, Segment &&segment) {
  const std::int64_t n = g.size();
  if (n == 0)
    return;
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n),
                    [&](const tbb::blocked_range<std::int64_t> &r) {
                      for_each_segment(g, r.begin(), r.end(), segment);
                    });
}

} // namespace dp::detail
