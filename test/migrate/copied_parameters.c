// A small array parameter declared with its extent (NPB FT's `int d[3]`,
// passed `dims[0]`, a row of a 2-D array) that a loop reads only at
// constant subscripts inside that extent: whatever the caller passes, the
// loop reads those elements alone, so the call-site copies them into a
// local array of the parameter's name, which the kernel's lambda copies.
#include <stdio.h>

static int dims[3][3];
static double u[4][5][6];

static void evolve(double v[4][5][6], int t, int d[3]) {
  int i, j, k;
#pragma omp parallel for private(i, j, k)
  for (k = 0; k < d[2]; k++)
    for (j = 0; j < d[1]; j++)
      for (i = 0; i < d[0]; i++)
        v[k][j][i] = v[k][j][i] * t + d[0];
// DIAG: copied_parameters.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      // the array parameters it reads: the kernel's copies, taken now
// REWRITE-NEXT: const auto dp_d = d;
// REWRITE-NEXT: int d[3]; std::memcpy(d, dp_d, sizeof d);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, d[2])), [=](dp::index<1> idx, dp::field<3, double> &v) {
// REWRITE:      for (j = 0; j < d[1]; j++)
// REWRITE-NEXT: for (i = 0; i < d[0]; i++)
// REWRITE-NEXT: v(k, j, i) = v(k, j, i) * t + d[0];
}

// Read at a subscript the loop computes, it may be read past its extent:
// refused as before.
static void scale(double *x, int n, int w[2]) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    x[i] *= w[i % 2];
// DIAG: copied_parameters.c:[[@LINE-1]]:13: warning: not converted: 'w' cannot become a dp::field: 'scale' is passed 'dims[1]' for it (line {{[0-9]+}}) [dp-migrate]
// DIAG: copied_parameters.c:[[@LINE-2]]:13: note: the call-site could borrow 'w', but the loop's accesses do not show how far it reaches{{.*}}
}

// Written, it is the caller's memory: refused as before.
static void mark(double *x, int n, int w[2]) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    x[i] += w[0];
    if (i == n - 1)
      w[1] = n;
  }
// DIAG: copied_parameters.c:[[@LINE-4]]:13: warning: not converted: 'w' cannot become a dp::field: 'mark' is passed 'dims[2]' for it (line {{[0-9]+}}) [dp-migrate]
// DIAG: copied_parameters.c:[[@LINE-5]]:13: note: the call-site could borrow 'w', but the loop's accesses do not show how far it reaches{{.*}}
}

int main(void) {
  double x[8];
  for (int i = 0; i < 3; i++) {
    dims[i][0] = 6;
    dims[i][1] = 5;
    dims[i][2] = 4;
  }
  for (int i = 0; i < 8; i++)
    x[i] = i;
  evolve(u, 2, dims[0]);
  scale(x, 8, dims[1]);
  mark(x, 8, dims[2]);
  printf("%g %g %d\n", u[3][4][5], x[7], dims[2][1]);
  return 0;
}
// SUMMARY: migrated 1 of 3 loops (2 refused)
