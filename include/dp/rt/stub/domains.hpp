/// \file
/// Domains beyond grids in generated stubs (approaches 5 and 6 of
/// docs/runtime.md): a dp::where filter tested after the index mapping, a
/// triangle's exact raise from a point number, and a tiled grid's threads
/// (tile, position in the tile, padding, tile memory). Host+device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../../config.hpp"
#include "../../reference/host_tiles.hpp"
#include "../../reference/tile_point.hpp"
#include "../../index.hpp"
#include "../../tile_group.hpp"
#include "../../triangle.hpp"
#include "positions.hpp"

namespace dp::rt {

/// dp::where in a stub: the mapped position is kept when the predicate holds
/// at its index value.
template <int N, class Pred> struct where_filter {
  index_values<N> values;
  Pred pred;
  DP_HOST_DEVICE bool keep(const dp::index<N> &pos) const {
    return static_cast<bool>(pred(values[pos]));
  }
};

/// A triangle in a stub: launched as n(n+1)/2 points of a rank-1 domain;
/// point number -> (i, j), exactly (dp::triangle_domain::point).
template <dp::triangle_part Part> struct triangle_points {
  std::int64_t n;
  DP_HOST_DEVICE dp::index<2> operator()(std::int64_t k) const {
    return dp::detail::triangle_point<Part>(n, k);
  }
};

/// A tile's thread, as a stub sees it.
template <int N> using tile_point = dp::detail::tile_point<N>;

/// A padding thread's element (or a user indexable type's value): value-
/// initialised, so it reads no memory past the grid; its writes are dropped.
template <class P, class I>
DP_HOST_DEVICE auto masked(const P &p, const I &i, bool in_domain)
    -> std::remove_cv_t<std::remove_reference_t<decltype(p[i])>> {
  using T = std::remove_cv_t<std::remove_reference_t<decltype(p[i])>>;
  return in_domain ? T(p[i]) : T();
}

/// A padding thread's partial projection: an empty view.
template <class P, int N>
DP_HOST_DEVICE auto masked_view(const P &p, const dp::index<N> &pos, bool in_domain)
    -> decltype(p.view(pos)) {
  return in_domain ? p.view(pos) : decltype(p.view(pos))();
}

/// A tiled grid in a stub: its extents and (as template arguments, so the
/// index arithmetic folds) its tile extents.
template <int N, int... T> struct tiling {
  static constexpr std::int64_t volume = (std::int64_t(1) * ... * T); ///< threads per tile
  std::int64_t extent[N];

  /// A position in the tile as the thread's row-major number in it.
  DP_HOST_DEVICE static std::int64_t offset(const dp::index<N> &local) {
    const std::int64_t tile[N] = {T...};
    std::int64_t k = 0;
    for (int d = 0; d < N; ++d)
      k = k * tile[d] + local[d];
    return k;
  }

  /// The thread's position in its tile from its id in the group (x fastest;
  /// a tile of rank above 3 is flattened onto x), then its position in the
  /// grid and whether it is padding.
  DP_HOST_DEVICE void place(const std::int64_t (&local)[3], tile_point<N> &at) const {
    locate(local, at);
    position(at);
  }
  /// The thread's position in its tile alone (as place).
  DP_HOST_DEVICE static void locate(const std::int64_t (&local)[3], tile_point<N> &at) {
    const std::int64_t tile[N] = {T...};
    if constexpr (N <= 3) {
      for (int k = 0; k < N; ++k)
        at.local[N - 1 - k] = local[k];
    } else {
      dp::detail::raise_into(local[0], tile, at.local);
    }
  }
  /// The thread's position in its tile from its row-major number there.
  DP_HOST_DEVICE static void locate(std::int64_t offset, tile_point<N> &at) {
    const std::int64_t tile[N] = {T...};
    dp::detail::raise_into(offset, tile, at.local);
  }
  /// Its position in the grid, and whether it is padding, from at.tile and
  /// at.local.
  DP_HOST_DEVICE void position(tile_point<N> &at) const {
    const std::int64_t tile[N] = {T...};
    at.place(tile, extent);
  }
};

/// The threads per group of a tile: its shape on (x, y, z), the last
/// dimension on x; flattened onto x above rank 3.
template <int N> triple tile_group_shape(const dp::extent<N> &tile) {
  if constexpr (N <= 3) {
    triple shape{1, 1, 1};
    for (int k = 0; k < N; ++k)
      shape[k] = tile[N - 1 - k];
    return shape;
  } else {
    return {tile.size(), 1, 1};
  }
}

/// Bytes of tile memory that dp::tile_static objects of types T... need
/// together, whatever order they are constructed in.
template <class... T> constexpr std::size_t tile_bytes() {
  return (std::size_t(0) + ... + (sizeof(T) + alignof(T) - 1));
}

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
/// The tile memory of the calling group: static shared memory, sized at
/// compile time.
template <std::size_t Bytes> __device__ unsigned char *tile_shared() {
  __shared__ __attribute__((aligned(dp::detail::tile_memory_alignment)))
  unsigned char memory[Bytes > 0 ? Bytes : 1];
  return memory;
}
#else
/// The tile memory of the tile the emulator is running.
template <std::size_t Bytes> unsigned char *tile_shared() { return dp::detail::host_tile_arena(); }
#endif

} // namespace dp::rt
