/// \file
/// Compile-time checks of a call-site's shape, shared by forall, reduce,
/// scan and sort: the host reference rejects at compile time, with a
/// readable message, what dpstub rejects with a located diagnostic.
#pragma once

#include <type_traits>

#include "../field.hpp"
#include "../grid.hpp"
#include "../indexable.hpp"
#include "../scalar.hpp"
#include "../tiled_grid.hpp"
#include "../tokens.hpp"
#include "domain_walk.hpp"

namespace dp::detail {

template <class D> struct grid_rank : std::integral_constant<int, 0> {};
template <int N> struct grid_rank<grid<N>> : std::integral_constant<int, N> {};
/// N for a dp::grid<N>, 0 for anything else.
template <class D> inline constexpr int grid_rank_v = grid_rank<std::decay_t<D>>::value;

template <class D> struct tiled_rank : std::integral_constant<int, 0> {};
template <int N, int... T> struct tiled_rank<tiled_grid<N, T...>> : std::integral_constant<int, N> {};
/// N for a dp::tiled_grid<N, ...>, 0 for anything else.
template <class D> inline constexpr int tiled_rank_v = tiled_rank<std::decay_t<D>>::value;

/// The compute rank of any domain (a grid, a tiled grid, dp::where, a
/// triangle); 0 for anything else.
template <class D>
inline constexpr int domain_rank_v = walk_rank_v<D> > 0 ? walk_rank_v<D> : tiled_rank_v<D>;

/// True when an argument is dp::_tile, dp::_tile_index or dp::_local_index.
template <class A> inline constexpr bool is_tile_token_v = is_tile_token<std::decay_t<A>>::value;
/// Tile tokens need a tiled domain.
template <class Domain, class... Args>
inline constexpr bool tokens_fit_domain_v = tiled_rank_v<Domain> > 0 || !(is_tile_token_v<Args> || ...);
/// Whether a kernel can tell the tile it runs in: it takes a tile token.
template <class... Args> inline constexpr bool sees_tile_v = (is_tile_token_v<Args> || ...);

template <class S> struct is_scalar : std::false_type {};
template <class T> struct is_scalar<scalar<T>> : std::true_type {};
template <class S> inline constexpr bool is_scalar_v = is_scalar<std::decay_t<S>>::value;

template <class F> struct field_element { using type = void; };
template <int N, class T> struct field_element<field<N, T>> { using type = T; };
/// The element type of a dp::field (const for a read-only view).
template <class F> using field_element_t = typename field_element<std::decay_t<F>>::type;

/// True when Dim names a dimension of a rank-N grid. (Compilers print both
/// numbers when a static_assert on it fails.)
template <int Dim, int N> inline constexpr bool dimension_in_range_v = Dim >= 0 && Dim < N;
/// True when a result is a field of the rank the call-site needs.
template <class Result, int Expected>
inline constexpr bool result_rank_fits_v = is_field_v<Result> && rank_of_v<Result> == Expected;
/// r combines two values of the result's type T into one convertible to T.
template <class R, class T>
inline constexpr bool is_reduction_v = std::is_invocable_r_v<T, const R &, const T &, const T &>;

} // namespace dp::detail
