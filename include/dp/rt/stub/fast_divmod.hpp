/// \file
/// Division by a run-time invariant divisor as a multiply-high and a shift
/// (Granlund and Montgomery, "Division by Invariant Integers using
/// Multiplication", 1994, figure 4.1; the method of CUTLASS's FastDivmod).
/// The host computes the magic number once per launch; each GPU thread then
/// raises its linear position to an index without a hardware divide, which
/// GPUs do not have (a 64-bit `/` and `%` is a subroutine of dozens of
/// instructions).
#pragma once

#include <cstdint>

#include "../../config.hpp"

namespace dp::rt {

/// q = n / d and r = n % d for every 32-bit n, for a divisor 1 <= d < 2^32
/// fixed in advance.
class fast_divmod {
public:
  fast_divmod() = default;
  /// d = 0 (an empty extent, never divided by) is kept as 1.
  explicit fast_divmod(std::uint32_t d) : divisor_(d == 0 ? 1 : d) {
    // shift = ceil(log2 d); multiplier = floor(2^32 (2^shift - d) / d) + 1,
    // which fits 32 bits; q = (mulhi(n, multiplier) + n) >> shift.
    while ((std::uint64_t(1) << shift_) < divisor_)
      ++shift_;
    multiplier_ = std::uint32_t(((std::uint64_t(1) << 32) *
                                 ((std::uint64_t(1) << shift_) - divisor_)) /
                                    divisor_ +
                                1);
  }
  DP_HOST_DEVICE std::uint32_t divisor() const { return divisor_; }
  DP_HOST_DEVICE std::uint32_t quotient(std::uint32_t n) const {
    return std::uint32_t((std::uint64_t(mulhi(n, multiplier_)) + n) >> shift_);
  }
  DP_HOST_DEVICE void divmod(std::uint32_t n, std::uint32_t &q, std::uint32_t &r) const {
    q = quotient(n);
    r = n - q * divisor_;
  }

private:
  DP_HOST_DEVICE static std::uint32_t mulhi(std::uint32_t a, std::uint32_t b) {
#if DP_DEVICE_COMPILE
    return __umulhi(a, b);
#else
    return std::uint32_t((std::uint64_t(a) * b) >> 32);
#endif
  }
  std::uint32_t divisor_ = 1;
  std::uint32_t multiplier_ = 0;
  std::uint32_t shift_ = 0;
};

} // namespace dp::rt
