/// \file
/// dp::arithmetic_sequence: the index values of one grid dimension.
#pragma once

#include <cstdint>
#include <string>

#include "config.hpp"
#include "detail/call_info.hpp"
#include "error.hpp"

namespace dp {

/// The values `lb + i*stride` for `0 <= i < extent`.
///
///     dp::arithmetic_sequence(4);          // 0 1 2 3
///     dp::arithmetic_sequence(1, 5);       // 1 2 3 4
///     dp::arithmetic_sequence(10, 0, -3);  // 10 7 4 1
struct arithmetic_sequence {
  std::int64_t lb = 0;     ///< first value
  std::int64_t extent = 0; ///< number of values
  std::int64_t stride = 1; ///< distance between consecutive values (never 0)

  arithmetic_sequence() = default;

  /// 0 .. n-1. Implicit, so a grid can be built from plain sizes.
  arithmetic_sequence(std::int64_t n) : lb(0), extent(n), stride(1) {
    if (n < 0)
      detail::fail("dp::arithmetic_sequence: extent " + std::to_string(n) +
                   " is negative");
  }

  /// lo .. hi-1 (empty when hi <= lo).
  arithmetic_sequence(std::int64_t lo, std::int64_t hi)
      : arithmetic_sequence(lo, hi, 1) {}

  /// lo, lo+stride, ... up to but excluding hi; a negative stride counts down.
  /// A stride of 0 is a dp::error naming the line that builds the sequence
  /// (`at`, the caller's): a migrated loop's run-time step is checked there,
  /// on its call-site's line.
  arithmetic_sequence(std::int64_t lo, std::int64_t hi, std::int64_t step,
                      detail::source_site at = detail::source_site::here())
      : lb(lo), extent(0), stride(step) {
    if (step == 0)
      detail::fail(detail::call_info{"dp::arithmetic_sequence", nullptr, at}.name() + ": stride is 0 (from " +
                   std::to_string(lo) + " to " + std::to_string(hi) + "): the values must step by a nonzero amount");
    if (step > 0 && hi > lo)
      extent = (hi - lo + step - 1) / step;
    else if (step < 0 && hi < lo)
      extent = (lo - hi + (-step) - 1) / (-step);
  }

  /// The sequence with these members exactly.
  static arithmetic_sequence from_extent(std::int64_t lb, std::int64_t n,
                                         std::int64_t stride = 1) {
    if (n < 0)
      detail::fail("dp::arithmetic_sequence: extent " + std::to_string(n) +
                   " is negative");
    if (stride == 0)
      detail::fail("dp::arithmetic_sequence: stride is 0");
    arithmetic_sequence s;
    s.lb = lb;
    s.extent = n;
    s.stride = stride;
    return s;
  }

  /// The i-th value.
  DP_HOST_DEVICE constexpr std::int64_t value(std::int64_t i) const {
    return lb + i * stride;
  }

  /// True when v is one of the values.
  DP_HOST_DEVICE constexpr bool contains(std::int64_t v) const {
    const std::int64_t off = v - lb;
    if (off % stride != 0)
      return false;
    const std::int64_t i = off / stride;
    return i >= 0 && i < extent;
  }

  friend bool operator==(const arithmetic_sequence &a,
                         const arithmetic_sequence &b) {
    return a.lb == b.lb && a.extent == b.extent && a.stride == b.stride;
  }
  friend bool operator!=(const arithmetic_sequence &a,
                         const arithmetic_sequence &b) {
    return !(a == b);
  }

  /// "[1, 3, 5 .. 9]" style, for messages.
  std::string to_string() const {
    if (extent == 0)
      return "[]";
    std::string s = "[" + std::to_string(lb);
    if (extent > 1)
      s += (extent > 2 ? ", " + std::to_string(value(1)) + " .. " : ", ") +
           std::to_string(value(extent - 1));
    return s + "]";
  }
};

} // namespace dp
