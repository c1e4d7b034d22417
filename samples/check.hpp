// A tiny result check shared by the samples.
#pragma once

#include <cmath>
#include <cstdio>

/// Prints the outcome and returns the process exit status. A passing run
/// prints only the tolerance, not the error itself: rounding differs
/// between a CPU and a GPU (an FMA here, an order of summation there), and
/// the output of every right run must be the same, so that runs on
/// different backends compare byte for byte. A failing run prints both.
inline int report(const char *name, double max_error, double tolerance) {
  if (max_error <= tolerance) {
    std::printf("%s: OK (max error within %.3g)\n", name, tolerance);
    return 0;
  }
  std::printf("%s: MISMATCH (max error %.3g, tolerance %.3g)\n", name, max_error, tolerance);
  return 1;
}
