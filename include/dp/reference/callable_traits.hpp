/// \file
/// Formal parameter types of a kernel: free function, function object or
/// non-generic lambda. Generic kernels are "unknown" and classified from the
/// actual arguments alone.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>

namespace dp::detail {

template <class... P> struct param_list {
  static constexpr std::size_t size = sizeof...(P);
  template <std::size_t I> using at = std::tuple_element_t<I, std::tuple<P...>>;
};

/// callable_traits<F>::known is true when F's parameter list is fixed.
template <class F, class = void> struct callable_traits {
  static constexpr bool known = false;
};

#define DP_FUNCTION_TRAITS(QUAL)                                               \
  template <class R, class... P> struct callable_traits<R(P...) QUAL> {        \
    static constexpr bool known = true;                                        \
    using params = param_list<P...>;                                           \
  };                                                                           \
  template <class R, class C, class... P>                                      \
  struct callable_traits<R (C::*)(P...) QUAL> : callable_traits<R(P...)> {};   \
  template <class R, class C, class... P>                                      \
  struct callable_traits<R (C::*)(P...) const QUAL>                            \
      : callable_traits<R(P...)> {};
DP_FUNCTION_TRAITS()
DP_FUNCTION_TRAITS(noexcept)
#undef DP_FUNCTION_TRAITS

template <class R, class... P>
struct callable_traits<R (*)(P...)> : callable_traits<R(P...)> {};
template <class R, class... P>
struct callable_traits<R (*)(P...) noexcept> : callable_traits<R(P...)> {};

template <class F>
struct callable_traits<F, std::void_t<decltype(&F::operator())>>
    : callable_traits<decltype(&F::operator())> {};

/// Stand-in formal type for kernels whose parameters are not fixed.
struct unknown_formal {};

/// The I-th formal of kernel K (unknown_formal when not introspectable).
template <class K, std::size_t I, class = void> struct formal_at {
  using type = unknown_formal;
};
template <class K, std::size_t I>
struct formal_at<K, I, std::enable_if_t<callable_traits<std::decay_t<K>>::known>> {
  using params = typename callable_traits<std::decay_t<K>>::params;
  using type = std::conditional_t<(I < params::size),
                                  typename params::template at<(I < params::size ? I : 0)>,
                                  unknown_formal>;
};

/// Number of formals, or -1 when not introspectable.
template <class K, class = void> struct arity : std::integral_constant<int, -1> {};
template <class K>
struct arity<K, std::enable_if_t<callable_traits<std::decay_t<K>>::known>>
    : std::integral_constant<int, static_cast<int>(
                                      callable_traits<std::decay_t<K>>::params::size)> {};

} // namespace dp::detail
