/// \file
/// dp::atomic_add: an update of one element that other iterations of the
/// same call-site may update too (a histogram's bins: `bins(key(i))`).
/// Iterations of a call-site are unordered and may run at once; their
/// additions to one element all land, in some order.
#pragma once

#include <type_traits>

#include "config.hpp"

#if defined(DP_COMPILER_HIP)
#include <hip/hip_runtime.h> // atomicAdd
#endif

namespace dp {

namespace detail {

/// The values dp::atomic_add updates: every GPU adds 32- and 64-bit
/// integers and floating-point values atomically, and no smaller ones.
template <class T>
inline constexpr bool atomic_addable =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);

} // namespace detail

/// Adds `value` (converted to T) to `place`, atomically with respect to
/// the other updates of it: `dp::atomic_add(bins(key(i)), 1)`. A
/// subtraction is the addition of the negated value (unsigned values
/// wrap, as `-=` does).
template <class T, class V>
DP_HOST_DEVICE DP_INLINE void atomic_add(T &place, V value) {
  static_assert(detail::atomic_addable<T>,
                "dp::atomic_add updates 32- and 64-bit integers and floating-point values only");
  const T v = static_cast<T>(value);
#if DP_DEVICE_COMPILE
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, int> || std::is_same_v<T, unsigned>)
    atomicAdd(&place, v);
  else if constexpr (sizeof(T) == 8) // two's complement: the same bits as unsigned
    atomicAdd(reinterpret_cast<unsigned long long *>(&place), static_cast<unsigned long long>(v));
  else // a 32-bit long or unsigned long
    atomicAdd(reinterpret_cast<unsigned *>(&place), static_cast<unsigned>(v));
#else
  if constexpr (std::is_integral_v<T>) {
    __atomic_fetch_add(&place, v, __ATOMIC_RELAXED);
  } else {
    T old;
    __atomic_load(&place, &old, __ATOMIC_RELAXED);
    T sum = old + v;
    while (!__atomic_compare_exchange(&place, &old, &sum, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      sum = old + v;
  }
#endif
}

} // namespace dp
