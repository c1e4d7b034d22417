/// \file
/// Walking a compute domain as pencils along one dimension (reduce<Dim>,
/// scan<Dim>, sort<Dim>), and the grid a pencil reduction's result is
/// indexed by.
#pragma once

#include <algorithm>
#include <cstdint>

#include "../detail/host_threads.hpp"
#include "../extent.hpp"
#include "../grid.hpp"

namespace dp::detail {

/// Pencils that share a tile are walked together so the innermost loop stays
/// on the domain's last (contiguous) dimension: a tile is this many
/// neighbouring pencils, a 4 KiB page of floats per row (with half a page,
/// the hardware prefetcher restarted at every row: reduce<0> and scan<0>
/// ran at 0.87 and 0.60 of plain loops over 1024-column blocks).
inline constexpr std::int64_t pencil_tile_width = 1024;

/// Calls tile(pos, j0, j1) in parallel for tiles that together cover every
/// pencil along `dim` once. pos holds the positions of the other dimensions
/// (pos[dim] is 0). When dim is the last dimension a tile is one pencil and
/// j0..j1 spans it; otherwise a tile is the pencils at last-dimension
/// positions j0..j1-1, at most `most` of them.
template <int N, class Tile>
void parallel_pencil_tiles(const extent<N> &e, int dim, Tile &&tile,
                           std::int64_t most = pencil_tile_width) {
  if (e.size() == 0)
    return;
  const std::int64_t inner = e[N - 1];
  const bool along_last = dim == N - 1;
  const std::int64_t width = along_last ? inner : std::min(inner, most);
  const std::int64_t tiles_per_row = along_last ? 1 : (inner + width - 1) / width;
  std::int64_t others = 1; // positions of the dimensions other than dim and N-1
  for (int d = 0; d < N - 1; ++d)
    if (d != dim)
      others *= e[d];
  host_for_each(others * tiles_per_row, [&](std::int64_t t) {
    std::int64_t o = t / tiles_per_row;
    const std::int64_t jt = t % tiles_per_row;
    std::int64_t pos[N] = {};
    for (int d = N - 2; d >= 0; --d) {
      if (d == dim)
        continue;
      pos[d] = o % e[d];
      o /= e[d];
    }
    const std::int64_t j0 = along_last ? 0 : jt * width;
    tile(pos, j0, std::min(inner, j0 + width));
  });
}

/// The domain less dimension `dim`: what a reduce<Dim> result is indexed by.
template <int N> grid<N - 1> without_dimension(const grid<N> &g, int dim) {
  std::array<arithmetic_sequence, N - 1> s;
  for (int d = 0, k = 0; d < N; ++d)
    if (d != dim)
      s[k++] = g.dimension(d);
  return grid<N - 1>(s);
}

/// Positions with dimension `dim` removed (pos[dim] dropped).
template <int N>
void drop_dimension(const std::int64_t (&pos)[N], int dim, std::int64_t (&out)[N - 1]) {
  for (int d = 0, k = 0; d < N; ++d)
    if (d != dim)
      out[k++] = pos[d];
}

} // namespace dp::detail
