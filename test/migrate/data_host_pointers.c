/* A data region naming an array that stays a pointer, around no loop
 * OpenACC still runs: its directive goes. PolyBench/ACC's cholesky in
 * this shape kept `acc data copy(A) copyin(p)` for p, which only the
 * dependent loop on i (now run in order on the host around the
 * call-sites inside it) writes, and so named A, a dp::field by then,
 * which no OpenACC build takes (GCC: "'A' does not have a mappable
 * type"). The field gets dp's region; the pointer is the host's. */
#include <math.h>
#include <stdio.h>

#define N 6

static void factor(int n, double d[N], double L[N][N]) {
  int i, j, k;
  double s;
#pragma acc data copy(L) copyin(d)
  {
#pragma acc parallel
    {
#pragma acc loop
      for (i = 0; i < n; ++i) {
        s = L[i][i];
#pragma acc loop
        for (j = 0; j <= i - 1; ++j)
          s = s - L[i][j] * L[i][j];
        d[i] = 1.0 / sqrt(s);
        for (j = i + 1; j < n; ++j) {
          s = L[i][j];
#pragma acc loop
          for (k = 0; k <= i - 1; ++k)
            s = s - L[j][k] * L[i][k];
          L[j][i] = s * d[i];
        }
      }
    }
  }
}
// DIAG: data_host_pointers.c:32:11: warning: not converted: 'L[j][i]' and 'L[i][j]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: data_host_pointers.c:25:19: note: the other access
// DIAG: data_host_pointers.c:21:7: note: its directive goes: the loop runs in order on the host, around the call-sites of the loops inside it [dp-migrate]
// DIAG: data_host_pointers.c:24:9: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// DIAG: data_host_pointers.c:25:11: note: 's' has no reduction clause: 'acc parallel' makes it firstprivate, so each gang updates a copy of its own, which GCC's build drops (NVHPC reduces it on its own); the call-site reduces it as reduction(+: s) would [dp-migrate]
// DIAG: data_host_pointers.c:30:11: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// DIAG: data_host_pointers.c:31:13: note: 's' has no reduction clause: 'acc parallel' makes it firstprivate, so each gang updates a copy of its own, which GCC's build drops (NVHPC reduces it on its own); the call-site reduces it as reduction(+: s) would [dp-migrate]
// DIAG-NOT: is not carried over
// REWRITE-NOT: #pragma acc data
// REWRITE: static void factor(int n, double d[N], dp::field<2, double> L) {
// REWRITE: dp::data_region dp_region(dp::copy(L));
// REWRITE: d[i] = 1.0 / sqrt(s);

/* A region around a call of a function whose loop keeps its directive
 * (a proven dependence): OpenMP still offloads that loop, which leans on
 * the region's mapping, so the region stays, said so. */
static void shift(int n, double *v) {
#pragma omp target teams distribute parallel for
  for (int i = 1; i < n; i++)
    v[i] = v[i - 1] + 1.0;
}
static void shift_all(int n, double *v) {
#pragma omp target data map(tofrom: v[0:n])
  shift(n, v);
}
// DIAG: data_host_pointers.c:57:5: warning: not converted: 'v[i]' and 'v[i - 1]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: data_host_pointers.c:57:12: note: the other access
// DIAG: data_host_pointers.c:60:1: warning: 'omp target data' is not carried over: 'v' stays a pointer, not a dp::field [dp-migrate]
// REWRITE: #pragma omp target data map(tofrom: v[0:n])

int main(void) {
  double d[N], L[N][N];
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      L[i][j] = i == j ? N + 1.0 : 1.0 / (1 + i + j);
  factor(N, d, L);
  shift_all(N, d);
  double t = 0;
  for (i = 0; i < N; i++)
    t += d[i] + L[i][0];
  printf("%.6f\n", t);
  return 0;
}
// SUMMARY: migrated 2 of 4 loops (2 refused)
