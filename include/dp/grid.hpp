/// \file
/// dp::grid<N>: a compute domain, the cross product of N arithmetic sequences.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>

#include "arithmetic_sequence.hpp"
#include "config.hpp"
#include "error.hpp"
#include "extent.hpp"
#include "index.hpp"

namespace dp {

/// The shape of a data-parallel computation or of a field's data. It holds
/// no data. Indices of a grid are its *values*: `lb + i*stride` per
/// dimension.
///
///     dp::grid<2> g(3, 4);                      // 0..2 x 0..3
///     g.map_index(7) == dp::index<2>(1, 3);     // row-major
///     dp::grid<1> interior(dp::arithmetic_sequence(1, n - 1));
template <int N> class grid {
  static_assert(N >= 1, "dp::grid<N> needs N >= 1");

public:
  static constexpr int rank = N;

  grid() = default;

  /// From N sizes and/or arithmetic sequences (a size n means 0..n-1).
  template <class... S,
            std::enable_if_t<sizeof...(S) == N &&
                                 (std::is_convertible<S, arithmetic_sequence>::value &&
                                  ...),
                             int> = 0>
  grid(const S &...dims) : dims_{arithmetic_sequence(dims)...} {}

  /// From an extent: 0-based, unit stride.
  explicit grid(const dp::extent<N> &e) {
    for (int d = 0; d < N; ++d)
      dims_[d] = arithmetic_sequence(e[d]);
  }

  /// From an array of sequences.
  explicit grid(const std::array<arithmetic_sequence, N> &dims) : dims_(dims) {}

  /// Number of values in dimension d.
  std::int64_t extent(int d) const { return dims_[d].extent; }
  /// All extents.
  dp::extent<N> extents() const {
    dp::extent<N> e;
    for (int d = 0; d < N; ++d)
      e[d] = dims_[d].extent;
    return e;
  }
  /// Number of points.
  std::int64_t size() const { return extents().size(); }
  bool empty() const { return size() == 0; }
  /// The sequence of dimension d.
  const arithmetic_sequence &dimension(int d) const { return dims_[d]; }

  /// The index (of values) at a row-major offset; the last dimension varies
  /// fastest.
  index<N> map_index(std::int64_t offset) const {
    index<N> idx;
    for (int d = N - 1; d >= 0; --d) {
      const std::int64_t e = dims_[d].extent;
      idx[d] = dims_[d].value(e ? offset % e : 0);
      offset = e ? offset / e : 0;
    }
    return idx;
  }

  /// The row-major offset of an index of values; inverse of map_index.
  std::int64_t flatten(const index<N> &idx) const {
    std::int64_t off = 0;
    for (int d = 0; d < N; ++d)
      off = off * dims_[d].extent + (idx[d] - dims_[d].lb) / dims_[d].stride;
    return off;
  }

  /// True when every coordinate is one of its dimension's values.
  bool contains(const index<N> &idx) const {
    for (int d = 0; d < N; ++d)
      if (!dims_[d].contains(idx[d]))
        return false;
    return true;
  }

  friend bool operator==(const grid &a, const grid &b) {
    return a.dims_ == b.dims_;
  }
  friend bool operator!=(const grid &a, const grid &b) { return !(a == b); }

  /// "[0 .. 2] x [1, 3 .. 9]", for messages.
  std::string to_string() const {
    std::string s;
    for (int d = 0; d < N; ++d)
      s += (d ? " x " : "") + dims_[d].to_string();
    return s;
  }

private:
  std::array<arithmetic_sequence, N> dims_{};
};

template <class... S> grid(const S &...) -> grid<static_cast<int>(sizeof...(S))>;
template <int N> grid(const dp::extent<N> &) -> grid<N>;

} // namespace dp
