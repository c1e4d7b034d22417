/// \file
/// dp::extent<N>: the sizes of an N-dimensional box anchored at the origin.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "config.hpp"
#include "error.hpp"
#include "index.hpp"

namespace dp {

/// N non-negative sizes.
///
///     dp::extent<2> e(3, 4);   // e.size() == 12, e.contains(index<2>(2, 3))
template <int N> class extent {
  static_assert(N >= 1, "dp::extent<N> needs N >= 1");

public:
  static constexpr int rank = N;

  DP_HOST_DEVICE constexpr extent() : e_{} {}

  /// From exactly N sizes; a negative size is a dp::error.
  template <class... I,
            std::enable_if_t<sizeof...(I) == N &&
                                 (std::is_integral<I>::value && ...),
                             int> = 0>
  explicit extent(I... sizes) : e_{static_cast<std::int64_t>(sizes)...} {
    validate();
  }

  DP_HOST_DEVICE constexpr std::int64_t &operator[](int d) { return e_[d]; }
  DP_HOST_DEVICE constexpr const std::int64_t &operator[](int d) const {
    return e_[d];
  }

  /// Number of points: the product of the sizes.
  DP_HOST_DEVICE constexpr std::int64_t size() const {
    std::int64_t s = 1;
    for (int d = 0; d < N; ++d)
      s *= e_[d];
    return s;
  }

  /// True when 0 <= idx[d] < size d in every dimension.
  DP_HOST_DEVICE constexpr bool contains(const index<N> &idx) const {
    for (int d = 0; d < N; ++d)
      if (idx[d] < 0 || idx[d] >= e_[d])
        return false;
    return true;
  }

  DP_HOST_DEVICE constexpr friend bool operator==(const extent &a,
                                                  const extent &b) {
    for (int d = 0; d < N; ++d)
      if (a.e_[d] != b.e_[d])
        return false;
    return true;
  }
  DP_HOST_DEVICE constexpr friend bool operator!=(const extent &a,
                                                  const extent &b) {
    return !(a == b);
  }

  /// "(3, 4)": for messages.
  std::string to_string() const {
    std::string s = "(";
    for (int d = 0; d < N; ++d)
      s += (d ? ", " : "") + std::to_string(e_[d]);
    return s + ")";
  }

private:
  void validate() const {
    for (int d = 0; d < N; ++d)
      if (e_[d] < 0)
        detail::fail("dp::extent: size " + std::to_string(e_[d]) +
                     " of dimension " + std::to_string(d) + " is negative");
  }
  std::int64_t e_[N];
};

template <class... I> extent(I...) -> extent<static_cast<int>(sizeof...(I))>;

} // namespace dp
