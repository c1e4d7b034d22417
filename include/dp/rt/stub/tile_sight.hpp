/// \file
/// Whether a tiled kernel can tell the tile it runs in: it takes a tile
/// token. One that takes only tile or local indices (no dp::_tile, so no
/// barrier and no tile memory) sees its place in the tile but needs
/// nothing of the tile's other threads: a device may run several of its
/// tiles side by side in one group. One that cannot (no barrier, no tile
/// memory, no tile index) runs
/// natively on the host as plain loops over the grid's rows, then once per
/// padding thread; its full reduce is the plain grid's on a device too (a
/// forall is still a tiled launch there). A stub names its kernel's sight
/// as a type (`sees_tile` or `blind_to_tile`), so the executors instantiate
/// only the path the kernel takes: a blind kernel's body is called with
/// row_point positions, which have no tile.
#pragma once

#include <type_traits>
#include <utility>

#include "../../config.hpp"

namespace dp::rt {

enum class tile_sight { sees, sees_place, blind };
template <tile_sight S> using tile_sight_is = std::integral_constant<tile_sight, S>;
inline constexpr tile_sight_is<tile_sight::sees> sees_tile{};
inline constexpr tile_sight_is<tile_sight::sees_place> sees_tile_place{};
inline constexpr tile_sight_is<tile_sight::blind> blind_to_tile{};

/// Whether a kernel of this sight can tell its tile (its tile_point).
constexpr bool sees_its_tile(tile_sight s) { return s != tile_sight::blind; }

/// An in-domain thread of a tiled grid whose kernel cannot tell its tile:
/// its position (on the host's rows a dp::detail::unit_row_index<N> when
/// every elemental projection steps by one element along the rows), and
/// nothing of the tile, so the body runs as the untiled one does.
template <class Position> struct row_point {
  Position pos;
  static constexpr bool in_domain = true;
};

/// f(p) as a function of positions: what the rows of a tile-blind kernel
/// fold and run, and a device's plain reduce folds. Holds f by value, so
/// each row segment's copy is local.
template <class F> struct at_row_point {
  F f;
  template <class Position, class... More>
  DP_HOST_DEVICE decltype(auto) operator()(const Position &pos, More &&...more) const {
    return f(row_point<Position>{pos}, std::forward<More>(more)...);
  }
};
template <class F> at_row_point(F) -> at_row_point<F>;

} // namespace dp::rt
