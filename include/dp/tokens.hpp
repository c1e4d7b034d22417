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
/// The index of the tile holding the current point. A plain grid is one
/// tile: this is all zeros.
inline constexpr index_token<index_kind::tile> _tile_index{};
/// The index of the current point within its tile. A plain grid is one
/// tile: this is the logical index.
inline constexpr index_token<index_kind::local> _local_index{};

template <class T> struct is_index_token : std::false_type {};
template <index_kind K> struct is_index_token<index_token<K>> : std::true_type {};

} // namespace dp
