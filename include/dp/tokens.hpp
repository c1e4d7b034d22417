/// \file
/// Special index tokens passed as call-site arguments.
#pragma once

#include <type_traits>

namespace dp {

/// Which special index a token asks for.
enum class index_kind { global, tile, local };

/// Type of the special index tokens.
template <index_kind K> struct index_token {
  static constexpr index_kind kind = K;
};

/// The kernel's matching `dp::index<Rc>` parameter receives the logical index.
///
///     dp::forall(g, [](dp::index<2> i, float &c) { c = i[0] + i[1]; }, dp::_index, C);
inline constexpr index_token<index_kind::global> _index{};
/// On a tiled domain (dp::tile): the position of the current point's tile
/// among the tiles, 0-based (tile_group::tile()).
inline constexpr index_token<index_kind::tile> _tile_index{};
/// On a tiled domain: the current point's position within its tile,
/// 0-based (tile_group::local()).
inline constexpr index_token<index_kind::local> _local_index{};

/// Type of dp::_tile.
struct tile_token {};
/// On a tiled domain: the kernel's matching `dp::tile_group<N>` parameter
/// (by value or const&) receives the current thread's tile: its positions,
/// whether it is padding, its barrier and its tile memory.
///
///     dp::forall(dp::tile<16, 16>(g), [](dp::tile_group<2> t, float &c) { ... }, dp::_tile, C);
inline constexpr tile_token _tile{};

template <class T> struct is_index_token : std::false_type {};
template <index_kind K> struct is_index_token<index_token<K>> : std::true_type {};
template <> struct is_index_token<tile_token> : std::true_type {};
/// The tokens only a tiled domain gives meaning to.
template <class T> struct is_tile_token : std::false_type {};
template <> struct is_tile_token<index_token<index_kind::tile>> : std::true_type {};
template <> struct is_tile_token<index_token<index_kind::local>> : std::true_type {};
template <> struct is_tile_token<tile_token> : std::true_type {};

} // namespace dp
