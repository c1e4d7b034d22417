/// \file
/// dp::tiled_grid<N, T0, ...>: a compute grid cut into tiles whose threads
/// share tile memory (dp::tile_static) and meet at barriers.
#pragma once

#include <cstdint>
#include <string>

#include "extent.hpp"
#include "grid.hpp"

namespace dp {

/// The most threads a tile may have: what every GPU dpstub targets allows
/// in one group. A larger tile is a dp::error at launch.
inline constexpr std::int64_t max_tile_threads = 1024;

/// A grid cut into tiles of T0 x ... x TN-1 index positions. One tile's
/// threads run together: they may share dp::tile_static memory and meet at
/// barriers (dp::tile_group::barrier()). An extent that is not a multiple
/// of its tile extent is padded: the last tiles have padding threads that
/// run the kernel with `in_domain() == false`, so every thread of a tile
/// reaches every barrier; their elemental reads see a value-initialised
/// element and their elemental writes are dropped.
///
///     dp::grid<2> g(1000, 1000);
///     dp::forall(dp::tile<16, 16>(g), kernel, dp::_tile, C, A, B);  // 63 x 63 tiles
template <int N, int... T> class tiled_grid {
  static_assert(N >= 1, "dp::tiled_grid<N, ...> needs N >= 1");
  static_assert(sizeof...(T) == static_cast<std::size_t>(N),
                "dp::tile<T0, ..., TN-1>(grid): give one tile extent per dimension of the grid");
  static_assert(((T > 0) && ...), "dp::tile<...>: tile extents must be positive");

public:
  static constexpr int rank = N;
  /// Threads per tile.
  static constexpr std::int64_t tile_volume = (std::int64_t(1) * ... * std::int64_t(T));

  tiled_grid() = default;
  explicit tiled_grid(const dp::grid<N> &g) : grid_(g) {}

  /// The grid that was tiled (its index values are what projection and
  /// `_index` use).
  const dp::grid<N> &domain() const { return grid_; }
  /// The tile extents T0, ..., TN-1.
  static dp::extent<N> tile_extents() { return dp::extent<N>(T...); }
  /// Tiles per dimension: the grid's extents divided by the tile's,
  /// rounded up.
  dp::extent<N> tiles() const {
    dp::extent<N> t;
    const dp::extent<N> te = tile_extents();
    for (int d = 0; d < N; ++d)
      t[d] = (grid_.extent(d) + te[d] - 1) / te[d];
    return t;
  }
  /// True when no extent needs padding.
  bool exact() const {
    const dp::extent<N> te = tile_extents();
    for (int d = 0; d < N; ++d)
      if (grid_.extent(d) % te[d] != 0)
        return false;
    return true;
  }
  bool empty() const { return grid_.empty(); }

  /// "[0 .. 99] x [0 .. 99] in tiles of 16 x 16", for messages.
  std::string to_string() const {
    std::string s = grid_.to_string() + " in tiles of ";
    const dp::extent<N> te = tile_extents();
    for (int d = 0; d < N; ++d)
      s += (d ? " x " : "") + std::to_string(te[d]);
    return s;
  }

private:
  dp::grid<N> grid_;
};

/// The grid g cut into tiles of T0 x ... x TN-1 index positions.
///
///     auto tiled = dp::tile<16, 16>(dp::grid<2>(n, n));
template <int... T, int N> tiled_grid<N, T...> tile(const grid<N> &g) {
  static_assert(sizeof...(T) == static_cast<std::size_t>(N),
                "dp::tile<T0, ..., TN-1>(grid): give one tile extent per dimension of the grid");
  return tiled_grid<N, T...>(g);
}

} // namespace dp
