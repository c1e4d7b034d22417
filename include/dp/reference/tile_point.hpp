/// \file
/// One thread of a tiled domain: its tile, its position in the tile, its
/// position in the grid and whether it is padding. Host+device: generated
/// stubs compute one from the physical thread ids, the host loops from a
/// tile number and a thread number.
#pragma once

#include <cstdint>

#include "../config.hpp"
#include "../extent.hpp"
#include "../index.hpp"
#include "../tile_group.hpp"

namespace dp::detail {

template <int N> struct tile_point {
  index<N> pos;   ///< 0-based position in the grid (past its extents for padding)
  index<N> tile;  ///< the tile's position among the tiles
  index<N> local; ///< the position within the tile
  bool in_domain = false;
  tile_memory *memory = nullptr; ///< this thread's view of the tile memory

  /// pos = tile * tile_extent + local; in_domain when pos is inside extent.
  DP_HOST_DEVICE void place(const std::int64_t (&tile_extent)[N],
                            const std::int64_t (&extent)[N]) {
    in_domain = true;
    for (int d = 0; d < N; ++d) {
      pos[d] = tile[d] * tile_extent[d] + local[d];
      in_domain = in_domain && pos[d] < extent[d];
    }
  }

  /// The thread's dp::tile_group, given the grid's index values
  /// (lb + position * stride per dimension).
  DP_HOST_DEVICE tile_group<N> group(const std::int64_t (&lb)[N],
                                     const std::int64_t (&stride)[N]) const {
    index<N> global, origin;
    for (int d = 0; d < N; ++d) {
      global[d] = lb[d] + pos[d] * stride[d];
      origin[d] = lb[d] + (pos[d] - local[d]) * stride[d];
    }
    return tile_access::make(global, local, tile, origin, in_domain, memory);
  }
};

/// Raises a row-major offset into a position of an N-dimensional box.
template <int N>
DP_HOST_DEVICE inline void raise_into(std::int64_t offset, const std::int64_t (&box)[N],
                                      index<N> &out) {
  for (int d = N - 1; d >= 0; --d) {
    out[d] = offset % box[d];
    offset /= box[d];
  }
}

} // namespace dp::detail
