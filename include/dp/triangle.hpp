/// \file
/// dp::lower_triangle(n) and dp::upper_triangle(n): the triangles of an
/// n x n grid as compute domains, launched without wasted threads.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "config.hpp"
#include "error.hpp"
#include "grid.hpp"
#include "index.hpp"

namespace dp {

/// Which triangle of the square.
enum class triangle_part { lower, upper };

/// The largest order a triangle may have: its points are numbered in 64 bits
/// and every step of raising a number to a point fits in them.
inline constexpr std::int64_t max_triangle_order = std::int64_t(1) << 31;

namespace detail {
/// The row of the k-th point of a row-major lower triangle: the largest i
/// with i(i+1)/2 <= k. The double square root may be off by one for large
/// k; the integer steps after it make the result exact for every k below
/// n(n+1)/2 with n <= 2^31 (tested at every boundary up to there).
DP_HOST_DEVICE inline std::int64_t triangle_row(std::int64_t k) {
  std::int64_t i = static_cast<std::int64_t>((::sqrt(8.0 * static_cast<double>(k) + 1.0) - 1.0) / 2.0);
  while (i > 0 && i * (i + 1) / 2 > k)
    --i;
  while ((i + 1) * (i + 2) / 2 <= k)
    ++i;
  return i;
}

/// Point k of the triangle of order n, row-major (triangle_domain::point).
template <triangle_part Part>
DP_HOST_DEVICE inline index<2> triangle_point(std::int64_t n, std::int64_t k) {
  if (Part == triangle_part::lower) {
    const std::int64_t i = triangle_row(k);
    return index<2>(i, k - i * (i + 1) / 2);
  }
  // Counted from the end, the upper triangle's rows are a lower
  // triangle's, each reversed.
  const std::int64_t r = n * (n + 1) / 2 - 1 - k;
  const std::int64_t i = triangle_row(r);
  return index<2>(n - 1 - i, n - 1 - (r - i * (i + 1) / 2));
}
} // namespace detail

/// The points (i, j) of an n x n grid with j <= i (lower) or j >= i
/// (upper), numbered row by row: n(n+1)/2 points, each launched exactly
/// once. Index values are 0-based, as those of grid<2>(n, n), which is also
/// what arguments are projected on.
///
///     dp::forall(dp::lower_triangle(n), [](dp::index<2> ij, float &d) {...}, dp::_index, D);
template <triangle_part Part> class triangle_domain {
public:
  static constexpr int rank = 2;
  static constexpr triangle_part part = Part;

  triangle_domain() = default;
  /// The triangle of an n x n grid; a dp::error for n < 0 or n > 2^31.
  explicit triangle_domain(std::int64_t n) : n_(n) {
    if (n < 0 || n > max_triangle_order)
      throw dp::error("dp::" + std::string(Part == triangle_part::lower ? "lower" : "upper") +
                      "_triangle(" + std::to_string(n) + "): the order must be between 0 and 2^31");
  }

  /// n.
  DP_HOST_DEVICE std::int64_t order() const { return n_; }
  /// Number of points: n(n+1)/2.
  DP_HOST_DEVICE std::int64_t size() const { return n_ * (n_ + 1) / 2; }
  bool empty() const { return n_ == 0; }
  /// The n x n grid the triangle lies in.
  dp::grid<2> domain() const { return dp::grid<2>(n_, n_); }

  /// First and one past the last column of row i.
  DP_HOST_DEVICE std::int64_t row_begin(std::int64_t i) const {
    return Part == triangle_part::lower ? 0 : i;
  }
  DP_HOST_DEVICE std::int64_t row_end(std::int64_t i) const {
    return Part == triangle_part::lower ? i + 1 : n_;
  }
  /// The number of the first point of row i.
  DP_HOST_DEVICE std::int64_t row_offset(std::int64_t i) const {
    return Part == triangle_part::lower ? i * (i + 1) / 2 : size() - (n_ - i) * (n_ - i + 1) / 2;
  }

  /// The k-th point, 0 <= k < size(): the exact inverse of offset().
  DP_HOST_DEVICE index<2> point(std::int64_t k) const {
    return detail::triangle_point<Part>(n_, k);
  }
  /// The number of point (i, j).
  DP_HOST_DEVICE std::int64_t offset(const index<2> &p) const {
    return row_offset(p[0]) + (p[1] - row_begin(p[0]));
  }
  bool contains(const index<2> &p) const {
    return p[0] >= 0 && p[0] < n_ && p[1] >= row_begin(p[0]) && p[1] < row_end(p[0]);
  }

private:
  std::int64_t n_ = 0;
};

/// The (i, j) with j <= i of an n x n grid, diagonal included.
inline triangle_domain<triangle_part::lower> lower_triangle(std::int64_t n) {
  return triangle_domain<triangle_part::lower>(n);
}
/// The (i, j) with j >= i of an n x n grid, diagonal included.
inline triangle_domain<triangle_part::upper> upper_triangle(std::int64_t n) {
  return triangle_domain<triangle_part::upper>(n);
}

} // namespace dp
