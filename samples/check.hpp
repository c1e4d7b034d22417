// A tiny result check shared by the samples.
#pragma once

#include <cmath>
#include <cstdio>

/// Prints the outcome and returns the process exit status.
inline int report(const char *name, double max_error, double tolerance) {
  const bool ok = max_error <= tolerance;
  std::printf("%s: %s (max error %.3g)\n", name, ok ? "OK" : "MISMATCH", max_error);
  return ok ? 0 : 1;
}
