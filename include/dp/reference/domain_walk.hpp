/// \file
/// The host's walk over a compute domain's points as row segments, shared
/// by the host reference and by the native host path of generated stubs.
/// A walk has
///
///     static constexpr int rank;
///     const grid<rank> &bounds() const;  // the grid arguments are projected on
///     std::int64_t size() const;         // points to walk, numbered 0..size()-1
///     template <class Segment>            // segment(pos, j0, j1): the points
///     void segments(std::int64_t begin, std::int64_t end, Segment &&) const;
///                                         // (pos[0..N-2], j) for j0 <= j < j1,
///                                         // in bounds() positions
///
/// A grid walks its rows; dp::where walks the grid's rows in runs of kept
/// points; a triangle walks its rows, each as long as the triangle is wide.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "../grid.hpp"
#include "../triangle.hpp"
#include "../where.hpp"
#include "host_loop.hpp"

namespace dp::detail {

template <int N> struct grid_walk {
  static constexpr int rank = N;
  grid<N> g;
  grid<N> positions; ///< 0-based, the grid's extents

  explicit grid_walk(const grid<N> &domain) : g(domain), positions(domain.extents()) {}
  const grid<N> &bounds() const { return g; }
  std::int64_t size() const { return g.size(); }
  template <class Segment>
  void segments(std::int64_t begin, std::int64_t end, Segment &&segment) const {
    for_each_segment(positions, begin, end, segment);
  }
};

template <int N, class Pred> struct where_walk {
  static constexpr int rank = N;
  const where_domain<N, Pred> &w;
  grid<N> positions;

  explicit where_walk(const where_domain<N, Pred> &domain)
      : w(domain), positions(domain.domain().extents()) {}
  const grid<N> &bounds() const { return w.domain(); }
  std::int64_t size() const { return w.domain().size(); }
  template <class Segment>
  void segments(std::int64_t begin, std::int64_t end, Segment &&segment) const {
    const grid<N> &g = w.domain();
    for_each_segment(positions, begin, end,
                     [&](const std::int64_t(&pos)[N], std::int64_t j0, std::int64_t j1) {
                       index<N> value;
                       for (int d = 0; d < N - 1; ++d)
                         value[d] = g.dimension(d).value(pos[d]);
                       // Runs of kept points, so the kernel loop stays a plain loop.
                       std::int64_t run = -1;
                       for (std::int64_t j = j0; j < j1; ++j) {
                         value[N - 1] = g.dimension(N - 1).value(j);
                         const bool keep = w.keep(value);
                         if (keep && run < 0)
                           run = j;
                         else if (!keep && run >= 0) {
                           segment(pos, run, j);
                           run = -1;
                         }
                       }
                       if (run >= 0)
                         segment(pos, run, j1);
                     });
  }
};

template <triangle_part Part> struct triangle_walk {
  static constexpr int rank = 2;
  triangle_domain<Part> t;
  grid<2> square;

  explicit triangle_walk(const triangle_domain<Part> &domain) : t(domain), square(domain.domain()) {}
  const grid<2> &bounds() const { return square; }
  std::int64_t size() const { return t.size(); }
  template <class Segment>
  void segments(std::int64_t begin, std::int64_t end, Segment &&segment) const {
    if (begin >= end)
      return;
    const index<2> first = t.point(begin);
    std::int64_t pos[2] = {first[0], 0};
    std::int64_t j = first[1];
    for (std::int64_t k = begin; k < end;) {
      const std::int64_t j1 = std::min(t.row_end(pos[0]), j + (end - k));
      segment(pos, j, j1);
      k += j1 - j;
      ++pos[0];
      j = t.row_begin(pos[0]);
    }
  }
};

template <int N> grid_walk<N> walk_of(const grid<N> &g) { return grid_walk<N>(g); }
template <int N, class Pred> where_walk<N, Pred> walk_of(const where_domain<N, Pred> &w) {
  return where_walk<N, Pred>(w);
}
template <triangle_part Part> triangle_walk<Part> walk_of(const triangle_domain<Part> &t) {
  return triangle_walk<Part>(t);
}

/// The domains a walk exists for (grids, dp::where, triangles): their rank,
/// else 0.
template <class D> struct walk_rank : std::integral_constant<int, 0> {};
template <int N> struct walk_rank<grid<N>> : std::integral_constant<int, N> {};
template <int N, class P> struct walk_rank<where_domain<N, P>> : std::integral_constant<int, N> {};
template <triangle_part P> struct walk_rank<triangle_domain<P>> : std::integral_constant<int, 2> {};
template <class D> inline constexpr int walk_rank_v = walk_rank<std::decay_t<D>>::value;

/// Runs segment(...) over every point of the walk in parallel.
template <class Walk, class Segment> void parallel_walk(const Walk &walk, Segment &&segment) {
  const std::int64_t n = walk.size();
  if (n == 0)
    return;
  host_split(n, [&](std::int64_t begin, std::int64_t end) { walk.segments(begin, end, segment); });
}

} // namespace dp::detail
