/// \file
/// Registers for values of a type that need not be default-constructible,
/// also seen as 32-bit words (what a warp shuffle moves).
#pragma once

#include <cstdint>

#include "../../config.hpp"

namespace dp::rt {

/// Uninitialised storage for K values of T.
template <class T, std::int64_t K = 1> union raw_values {
  T v[K];
  unsigned word[(K * sizeof(T) + 3) / 4];
  DP_HOST_DEVICE raw_values() {}
};

} // namespace dp::rt
