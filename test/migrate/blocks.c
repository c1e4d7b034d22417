// Blocks of a header's arrays handed to helpers (NPB BT's
// `binvcrhs(lhs[i][j][k][BB], lhs[i][j][k][CC], rhs[i][j][k])`, LU's
// `exact(i, j, k, &u[i][j][k][0])`): the call-site borrows the array
// whole, and the kernel hands on a pointer into its field, of the type
// the call takes; the helper's parameters stay pointers. The dependence
// test knows a block's first subscripts only.
#include "blocks_state.h"

static void binv(double a[5][5], double r[5]) {
  int m, n;
  for (m = 0; m < 5; m++) {
    r[m] = r[m] / a[m][m];
    for (n = 0; n < 5; n++)
      a[m][n] = a[m][n] * 0.5;
  }
}
// REWRITE: static void binv(double a[5][5], double r[5]) {

static void exact(int i, int j, double out[5]) {
  int m;
  for (m = 0; m < 5; m++)
    out[m] = i + j * m;
}

static double trace(const double a[5][5]) { return a[0][0] + a[4][4]; }

void solve(void) {
  int i, j;
#pragma omp parallel for private(i)
  for (j = 0; j < NB; j++)
    for (i = 1; i < NB; i++)
      binv(lhs[i][j][1], rhs[i][j]);
// DIAG: blocks.c:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<5, double> dp_lhs = dp::borrow(&lhs[0][0][0][0][0], dp::grid<5>(6, 6, 3, 5, 5));
// REWRITE-NEXT: dp::field<3, double> dp_rhs = dp::borrow(&rhs[0][0][0], dp::grid<3>(6, 6, 5));
// REWRITE:      binv(reinterpret_cast<double (*)[5]>(&lhs(i, j, 1, 0, 0)), &rhs(i, j, 0));
}

// An element's address, where the helper writes the element and those
// after it (LU's exact).
void init(void) {
  int i, j;
#pragma omp parallel for private(i)
  for (j = 0; j < NB; j++)
    for (i = 0; i < NB; i++)
      exact(i, j, &u[i][j][0]);
// DIAG: blocks.c:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<3, double> dp_u = dp::borrow(&u[0][0][0], dp::grid<3>(6, 6, 5));
// REWRITE:      exact(i, j, &u(i, j, 0));
}

// A helper that takes const elements: the block is read only.
double traces(double *out) {
  int i;
#pragma omp parallel for
  for (i = 0; i < NB; i++)
    out[i] = trace(lhs[i][i][2]);
// DIAG: blocks.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<5, const double> dp_lhs = dp::borrow_read(&lhs[0][0][0][0][0], dp::grid<5>(6, 6, 3, 5, 5), dp_out);
// REWRITE:      out(i) = trace(reinterpret_cast<const double (*)[5]>(&lhs(i, i, 2, 0, 0)));
  return out[0];
}

// The header's temporaries, which every iteration sets before it reads
// them (BT's `tmp1 = 1.0 / u[i][j][k][0]; tmp2 = tmp1 * tmp1;`): the
// original's threads share them and race; each iteration holds its own.
void scale(void) {
  int i, j, m;
#pragma omp parallel for private(i, m)
  for (j = 0; j < NB; j++)
    for (i = 0; i < NB; i++) {
      tmp1 = 1.0 / (1.0 + u[i][j][0]);
      tmp2 = tmp1 * tmp1;
      for (m = 0; m < 5; m++)
        rhs[i][j][m] = rhs[i][j][m] * tmp2;
    }
// DIAG: blocks.c:[[@LINE-7]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// DIAG: blocks.c:[[@LINE-6]]:7: note: 'tmp1' is shared and has no private clause: the original's threads race on it; each iteration of the call-site holds its own, as private(tmp1) would, and the program reads it nowhere else [dp-migrate]
// DIAG: blocks.c:[[@LINE-6]]:7: note: 'tmp2' is shared and has no private clause: the original's threads race on it; each iteration of the call-site holds its own, as private(tmp2) would, and the program reads it nowhere else [dp-migrate]
// REWRITE:      double tmp1;
// REWRITE-NEXT: double tmp2;
}

// Read outside such loops: its value outlives the loop, and the loop
// stays.
double last(void) {
  int i;
#pragma omp parallel for
  for (i = 0; i < NB; i++)
    last_value = u[i][i][1];
// DIAG: blocks.c:[[@LINE-1]]:5: warning: not converted: 'last_value' is a namespace-scope variable every iteration writes; declare it in the loop [dp-migrate]
  return last_value;
}
// SUMMARY: migrated 4 of 5 loops (1 refused)
