/// \file
/// Atomic updates of one element that other iterations of the same
/// call-site may update too (a histogram's bins: `bins(key(i))`):
/// dp::atomic_add, dp::atomic_mul, dp::atomic_min, dp::atomic_max, and for
/// integers dp::atomic_and, dp::atomic_or, dp::atomic_xor. Iterations of a
/// call-site are unordered and may run at once; their updates of one
/// element all land, in some order. One operator per element in a
/// call-site: updates of one operator commute, of two they do not.
#pragma once

#include <type_traits>

#include "config.hpp"

#if defined(DP_COMPILER_HIP)
#include <hip/hip_runtime.h> // atomicAdd, atomicCAS, ...
#endif

namespace dp {

namespace detail {

/// The values a dp atomic update takes: 32- and 64-bit integers and
/// floating-point values, what every GPU updates atomically; no smaller.
template <class T>
inline constexpr bool atomic_value =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
/// The values a bitwise atomic update takes: those integers.
template <class T> inline constexpr bool atomic_bits = atomic_value<T> && std::is_integral_v<T>;

/// The unsigned integer of T's size, as the device's compare-and-swap and
/// bitwise atomics take it.
template <class T>
using atomic_word = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;

#if DP_DEVICE_COMPILE
template <class T> __device__ DP_INLINE atomic_word<T> to_word(T v) {
  if constexpr (std::is_same_v<T, float>)
    return __float_as_uint(v);
  else if constexpr (std::is_same_v<T, double>)
    return static_cast<unsigned long long>(__double_as_longlong(v));
  else
    return static_cast<atomic_word<T>>(v);
}
template <class T> __device__ DP_INLINE T from_word(atomic_word<T> w) {
  if constexpr (std::is_same_v<T, float>)
    return __uint_as_float(w);
  else if constexpr (std::is_same_v<T, double>)
    return __longlong_as_double(static_cast<long long>(w));
  else
    return static_cast<T>(w);
}
#endif

/// place = next(place), atomically: a compare-and-swap loop, for the
/// updates with no instruction of their own (a product; a floating-point
/// or signed 64-bit minimum or maximum). Stops without a write when the
/// value would not change (a maximum already above).
template <class T, class Next> DP_HOST_DEVICE DP_INLINE void atomic_update(T &place, const Next &next) {
#if DP_DEVICE_COMPILE
  using word = atomic_word<T>;
  word *at = reinterpret_cast<word *>(&place);
  word seen = to_word<T>(*static_cast<volatile T *>(&place));
  for (;;) {
    const word want = to_word<T>(next(from_word<T>(seen)));
    if (want == seen)
      return;
    const word was = atomicCAS(at, seen, want);
    if (was == seen)
      return;
    seen = was;
  }
#else
  T seen;
  __atomic_load(&place, &seen, __ATOMIC_RELAXED);
  for (;;) {
    T want = next(seen);
    if (__builtin_memcmp(&want, &seen, sizeof(T)) == 0)
      return;
    if (__atomic_compare_exchange(&place, &seen, &want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
#endif
}

/// The larger of a and b as a reduction's `max` takes it (`a < b ? b : a`).
template <class T> DP_HOST_DEVICE DP_INLINE T larger(T a, T b) { return a < b ? b : a; }
template <class T> DP_HOST_DEVICE DP_INLINE T smaller(T a, T b) { return b < a ? b : a; }

} // namespace detail

/// Adds `value` (converted to T) to `place`, atomically with respect to
/// the other updates of it: `dp::atomic_add(bins(key(i)), 1)`. A
/// subtraction is the addition of the negated value (unsigned values
/// wrap, as `-=` does).
template <class T, class V> DP_HOST_DEVICE DP_INLINE void atomic_add(T &place, V value) {
  static_assert(detail::atomic_value<T>, "dp::atomic_add updates 32- and 64-bit integers and floating-point values only");
  const T v = static_cast<T>(value);
#if DP_DEVICE_COMPILE
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, int> || std::is_same_v<T, unsigned>)
    atomicAdd(&place, v);
  else // two's complement: the same bits as the unsigned word's
    atomicAdd(reinterpret_cast<detail::atomic_word<T> *>(&place), static_cast<detail::atomic_word<T>>(v));
#else
  if constexpr (std::is_integral_v<T>)
    __atomic_fetch_add(&place, v, __ATOMIC_RELAXED);
  else
    detail::atomic_update(place, [v](T old) { return old + v; });
#endif
}

/// Multiplies `place` by `value` (converted to T), atomically (a
/// compare-and-swap loop: no GPU multiplies in memory).
template <class T, class V> DP_HOST_DEVICE DP_INLINE void atomic_mul(T &place, V value) {
  static_assert(detail::atomic_value<T>, "dp::atomic_mul updates 32- and 64-bit integers and floating-point values only");
  const T v = static_cast<T>(value);
  detail::atomic_update(place, [v](T old) { return static_cast<T>(old * v); });
}

/// Sets `place` to the larger of it and `value` (converted to T),
/// atomically: `dp::atomic_max(peak(bin), v)`.
template <class T, class V> DP_HOST_DEVICE DP_INLINE void atomic_max(T &place, V value) {
  static_assert(detail::atomic_value<T>, "dp::atomic_max updates 32- and 64-bit integers and floating-point values only");
  const T v = static_cast<T>(value);
#if DP_DEVICE_COMPILE
  if constexpr (std::is_same_v<T, int> || std::is_same_v<T, unsigned>)
    atomicMax(&place, v);
  else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
    atomicMax(reinterpret_cast<detail::atomic_word<T> *>(&place), static_cast<detail::atomic_word<T>>(v));
  else
    detail::atomic_update(place, [v](T old) { return detail::larger(old, v); });
#else
  detail::atomic_update(place, [v](T old) { return detail::larger(old, v); });
#endif
}

/// Sets `place` to the smaller of it and `value` (converted to T),
/// atomically.
template <class T, class V> DP_HOST_DEVICE DP_INLINE void atomic_min(T &place, V value) {
  static_assert(detail::atomic_value<T>, "dp::atomic_min updates 32- and 64-bit integers and floating-point values only");
  const T v = static_cast<T>(value);
#if DP_DEVICE_COMPILE
  if constexpr (std::is_same_v<T, int> || std::is_same_v<T, unsigned>)
    atomicMin(&place, v);
  else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
    atomicMin(reinterpret_cast<detail::atomic_word<T> *>(&place), static_cast<detail::atomic_word<T>>(v));
  else
    detail::atomic_update(place, [v](T old) { return detail::smaller(old, v); });
#else
  detail::atomic_update(place, [v](T old) { return detail::smaller(old, v); });
#endif
}

// The bitwise updates: the same bits whether T is signed or not.
#if DP_DEVICE_COMPILE
#define DP_ATOMIC_BITS(name, device_call, host_call)                                                              \
  template <class T, class V> DP_HOST_DEVICE DP_INLINE void name(T &place, V value) {                             \
    static_assert(detail::atomic_bits<T>, "dp::" #name " updates 32- and 64-bit integers only");                  \
    device_call(reinterpret_cast<detail::atomic_word<T> *>(&place),                                               \
                static_cast<detail::atomic_word<T>>(static_cast<T>(value)));                                      \
  }
#else
#define DP_ATOMIC_BITS(name, device_call, host_call)                                                              \
  template <class T, class V> DP_HOST_DEVICE DP_INLINE void name(T &place, V value) {                             \
    static_assert(detail::atomic_bits<T>, "dp::" #name " updates 32- and 64-bit integers only");                  \
    host_call(&place, static_cast<T>(value), __ATOMIC_RELAXED);                                                    \
  }
#endif
/// `place &= value`, atomically (integers).
DP_ATOMIC_BITS(atomic_and, atomicAnd, __atomic_fetch_and)
/// `place |= value`, atomically (integers): `dp::atomic_or(seen(k), 1u << bit)`.
DP_ATOMIC_BITS(atomic_or, atomicOr, __atomic_fetch_or)
/// `place ^= value`, atomically (integers).
DP_ATOMIC_BITS(atomic_xor, atomicXor, __atomic_fetch_xor)
#undef DP_ATOMIC_BITS

} // namespace dp
