// OpenMP 4.5 codes order their asynchronous target tasks by depend() on a
// token (miniWeather's `depend(inout: asyncid) nowait`). dp orders the
// transfers of fields by what touches them, so an update of fields alone
// goes as any other (kept, it named a dp::field, which a build with
// -fopenmp rejects); one naming a pointer that stays one stays, with why
// (said after the loops' lines: DIAG-DAG).
#include <cstdio>
#include <cstdlib>

// Called from other files: `buf` stays a pointer, borrowed by the loop.
void halo(int n, double *buf) {
  int asyncid = 0;
#pragma omp target teams distribute parallel for map(tofrom: buf[0:n]) depend(inout: asyncid) nowait
  for (int i = 0; i < n; i++)
    buf[i] = 2 * i;
// DIAG-DAG: depend_fields.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp target update from(buf[0:n]) depend(inout: asyncid) nowait
// DIAG-DAG: depend_fields.cpp:[[@LINE-1]]:1: warning: 'omp target update' is not carried over: dp orders transfers by the fields they touch; its depend()/wait() has no counterpart [dp-migrate]
// REWRITE: {{^}}#pragma omp target update from(buf[0:n]) depend(inout: asyncid) nowait
#pragma omp taskwait
}

int main() {
  const int n = 64;
  int asyncid = 0;
  double *state = (double *)malloc(n * sizeof(double));
#pragma omp target enter data map(alloc: state[0:n])
#pragma omp target teams distribute parallel for depend(inout: asyncid) nowait
  for (int i = 0; i < n; i++)
    state[i] = i;
// DIAG-DAG: depend_fields.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp target update from(state[0:n]) depend(inout: asyncid) nowait
// REWRITE-NOT: {{^}}#pragma omp target update from(state
// REWRITE: dp::update_host(state);
#pragma omp taskwait
  double s = 0;
  for (int i = 0; i < n; i++)
    s += state[i];
  printf("%g\n", s);
#pragma omp target exit data map(delete: state[0:n])
  free(state);
  return 0;
}
// SUMMARY: migrated 2 of 2 loops (0 refused)
