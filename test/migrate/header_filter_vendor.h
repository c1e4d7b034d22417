// A vendored library's header, reached through a plain include: with
// --header-filter it is not the program's to migrate.
#pragma once
inline void vendor_fill(double *p, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    p[i] = -i;
}
