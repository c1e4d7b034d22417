/// \file
/// The identity of a reduction operator, where the standard library's
/// function objects give one: a fold can then start from it rather than
/// from a value still being computed (device/reduce.hpp).
#pragma once

#include <functional>
#include <type_traits>

namespace dp::rt {

/// has_identity<Op, T>::value: Op over arithmetic T has an identity,
/// value_of() (0 for +, |, ^; 1 for *; all bits for &). Other operators
/// (a user's lambda, say) have none the runtime can know.
template <class Op, class T, class = void> struct has_identity : std::false_type {};

template <class T>
struct has_identity<std::plus<>, T, std::enable_if_t<std::is_arithmetic_v<T>>> {
  static constexpr bool value = true;
  static constexpr T value_of() { return T(0); }
};
template <class T> struct has_identity<std::plus<T>, T, std::enable_if_t<std::is_arithmetic_v<T>>>
    : has_identity<std::plus<>, T> {};
template <class T>
struct has_identity<std::multiplies<>, T, std::enable_if_t<std::is_arithmetic_v<T>>> {
  static constexpr bool value = true;
  static constexpr T value_of() { return T(1); }
};
template <class T>
struct has_identity<std::multiplies<T>, T, std::enable_if_t<std::is_arithmetic_v<T>>>
    : has_identity<std::multiplies<>, T> {};
template <class T>
struct has_identity<std::bit_or<>, T, std::enable_if_t<std::is_integral_v<T>>>
    : has_identity<std::plus<>, T> {};
template <class T>
struct has_identity<std::bit_xor<>, T, std::enable_if_t<std::is_integral_v<T>>>
    : has_identity<std::plus<>, T> {};
template <class T> struct has_identity<std::bit_and<>, T, std::enable_if_t<std::is_integral_v<T>>> {
  static constexpr bool value = true;
  static constexpr T value_of() { return static_cast<T>(~T(0)); }
};

} // namespace dp::rt
