/// \file
/// The indexable-type concept: any type with `static constexpr int rank` and
/// `operator[](const dp::index<rank>&)`. Fields and their views are
/// indexable, and so are user types that follow the same shape.
#pragma once

#include <type_traits>
#include <utility>

#include "field.hpp"
#include "index.hpp"

namespace dp {

namespace detail {
template <class T, class = void> struct indexable_rank : std::integral_constant<int, 0> {};
template <class T>
struct indexable_rank<
    T, std::void_t<decltype(T::rank),
                   decltype(std::declval<const T &>()[std::declval<const index<T::rank> &>()])>>
    : std::integral_constant<int, T::rank> {};

template <class T> struct is_field : std::false_type {};
template <int N, class T> struct is_field<field<N, T>> : std::true_type {};
} // namespace detail

/// True for types with a rank and an index operator.
template <class T>
inline constexpr bool is_indexable_v = detail::indexable_rank<std::decay_t<T>>::value > 0;

/// The DP rank of a type: its `rank` when indexable, else 0.
template <class T>
inline constexpr int rank_of_v = detail::indexable_rank<std::decay_t<T>>::value;

/// True for dp::field and its views.
template <class T> inline constexpr bool is_field_v = detail::is_field<std::decay_t<T>>::value;

} // namespace dp
