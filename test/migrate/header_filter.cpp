// --header-filter: the loop directives of the included headers are
// reported only where the header's path matches (clang-tidy's option), so
// a vendored library reached through a plain include stays quiet.
// ARGS: --header-filter=_own\.h$
#include "header_filter_own.h"
#include "header_filter_vendor.h"
// DIAG: header_filter_own.h:5:3: warning: not converted: the loop is in 'header_filter_own.h', which this file includes; --migrate converts the loops of the file it is given, so run it on 'header_filter_own.h' [dp-migrate]
#include <cstdio>

int main() {
  double a[8];
#pragma omp parallel for
  for (int i = 0; i < 8; ++i)
    a[i] = 2 * i;
// DIAG: header_filter.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::forall(dp::grid<1>(8), [=](dp::index<1> idx, dp::field<1, double> &a) {
  printf("%f\n", a[7]);
  return 0;
}
// The vendor's loop is not counted.
// SUMMARY: migrated 1 of 2 loops (1 refused)
