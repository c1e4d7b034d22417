/// \file
/// dp::index<N>: a point of an N-dimensional domain.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "config.hpp"

namespace dp {

/// N signed 64-bit coordinates; `idx[0]` is the most significant.
///
///     dp::index<2> i(1, 3);
///     i[0] == 1; (i + dp::index<2>(1, 1)) == dp::index<2>(2, 4);
template <int N> class index {
  static_assert(N >= 1, "dp::index<N> needs N >= 1");

public:
  static constexpr int rank = N;

  /// The origin (all coordinates zero).
  DP_HOST_DEVICE constexpr index() : v_{} {}

  /// From exactly N integers.
  template <class... I,
            std::enable_if_t<sizeof...(I) == N &&
                                 (std::is_integral<I>::value && ...),
                             int> = 0>
  DP_HOST_DEVICE constexpr explicit index(I... coords)
      : v_{static_cast<std::int64_t>(coords)...} {}

  /// From an array of N coordinates.
  DP_HOST_DEVICE constexpr explicit index(const std::array<std::int64_t, N> &a)
      : v_{} {
    for (int d = 0; d < N; ++d)
      v_[d] = a[d];
  }

  DP_HOST_DEVICE constexpr std::int64_t &operator[](int d) { return v_[d]; }
  DP_HOST_DEVICE constexpr const std::int64_t &operator[](int d) const {
    return v_[d];
  }

  DP_HOST_DEVICE constexpr friend bool operator==(const index &a,
                                                  const index &b) {
    for (int d = 0; d < N; ++d)
      if (a.v_[d] != b.v_[d])
        return false;
    return true;
  }
  DP_HOST_DEVICE constexpr friend bool operator!=(const index &a,
                                                  const index &b) {
    return !(a == b);
  }

#define DP_INDEX_POINTWISE(op)                                                 \
  DP_HOST_DEVICE constexpr friend index operator op(const index &a,            \
                                                    const index &b) {          \
    index r;                                                                   \
    for (int d = 0; d < N; ++d)                                                \
      r.v_[d] = a.v_[d] op b.v_[d];                                            \
    return r;                                                                  \
  }
  DP_INDEX_POINTWISE(+)
  DP_INDEX_POINTWISE(-)
  DP_INDEX_POINTWISE(*)
#undef DP_INDEX_POINTWISE

  /// Sum of the pointwise products.
  DP_HOST_DEVICE constexpr friend std::int64_t dot(const index &a,
                                                   const index &b) {
    std::int64_t s = 0;
    for (int d = 0; d < N; ++d)
      s += a.v_[d] * b.v_[d];
    return s;
  }

private:
  std::int64_t v_[N];
};

template <class... I> index(I...) -> index<static_cast<int>(sizeof...(I))>;

} // namespace dp
