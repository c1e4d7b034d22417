// A header refusals.cpp includes: --migrate edits only the file it is
// given, so its loop is refused, naming this header.
#pragma once

inline void scale_in_header(int n, double *a) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
