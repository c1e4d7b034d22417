/// \file
/// What the e2e programs share: a field's checksum (what they print, so
/// that every run prints the same lines when it is right), and a value
/// that takes a while to compute (heavy producers make a missing
/// dependency show as a wrong result rather than by chance). `slow` runs
/// in kernels: dpstub marks it for the device in the header's copy.
#pragma once

#include <dp/dp.hpp>

#include <cstdint>

namespace e2e {

/// Every element of f, in row-major order, folded into one number.
template <int N, class T> long checksum(const dp::field<N, T> &f) {
  long s = 0;
  const dp::grid<N> g = f.get_grid();
  for (std::int64_t k = 0; k < g.size(); ++k)
    s = s * 31 + static_cast<long>(f[g.map_index(k)]);
  return s;
}

/// A value in [0, 1000) of x after `rounds` steps of a linear congruential
/// generator.
inline long slow(long x, int rounds) {
  long v = x;
  for (int k = 0; k < rounds; ++k)
    v = (v * 1103515245 + 12345) % 2147483647;
  return v % 1000;
}

} // namespace e2e
