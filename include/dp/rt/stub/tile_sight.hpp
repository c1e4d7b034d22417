/// \file
/// Whether a tiled kernel can tell the tile it runs in: it takes a tile
/// token. One that cannot (no barrier, no tile memory, no tile index) runs
/// natively on the host as plain loops over the grid's rows, then once per
/// padding thread; on a GPU and emulated nothing changes. A stub names its
/// kernel's sight as a type (`sees_tile` or `blind_to_tile`), so the host
/// executor instantiates only the path the kernel takes: a blind kernel's
/// body is called with row_point positions (host/rows.hpp), which have no
/// tile.
#pragma once

#include <type_traits>

namespace dp::rt {

enum class tile_sight { sees, blind };
template <tile_sight S> using tile_sight_is = std::integral_constant<tile_sight, S>;
inline constexpr tile_sight_is<tile_sight::sees> sees_tile{};
inline constexpr tile_sight_is<tile_sight::blind> blind_to_tile{};

} // namespace dp::rt
