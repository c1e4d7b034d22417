// A header of the program: its loop directive is reported.
#pragma once
inline void own_fill(double *p, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    p[i] = i;
}
