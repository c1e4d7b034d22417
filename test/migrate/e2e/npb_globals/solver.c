/* A solver in the NAS Parallel Benchmarks' OpenMP C style: parallel
   regions whose `omp for` loops are in the functions they call, over the
   header's static arrays; a 4-dimensional state with the variables
   innermost, private inner loop variables declared at the function's
   top, a norm reduced over the whole grid. */
#include <math.h>
#include <stdio.h>
#include "globals.h"

static void set_constants(void) {
  int m;
  for (m = 0; m < 5; m++) {
    ce[m][0] = 1.0 + 0.1 * m;
    ce[m][1] = 0.01;
    ce[m][2] = 0.002 * (m + 1);
  }
}

/* The exact solution at a point, from the header's coefficients (NPB's
   exact_solution reads ce so). */
static double exact(int m, double x, double y) {
  return ce[m][0] + ce[m][1] * x * x + ce[m][2] * x * y;
}

/* The five values at a point, into the caller's array (NPB's
   exact_solution(xi, eta, zeta, dtemp), which only writes it). */
static void exact_solution(double x, double y, double dtemp[5]) {
  int m;
  for (m = 0; m < 5; m++)
    dtemp[m] = ce[m][0] + ce[m][1] * x * x + ce[m][2] * x * y;
}

/* The forcing term from the exact solution, as NPB BT's exact_rhs: a
   region whose `omp for` loops fill a scratch array declared in the
   region (each thread's own) and the header's threadprivate rows, for a
   whole line of i before they read them; and rows of a 2-D scratch array
   handed to the helper by address (BT's `&Pface[ix][0][0]`). Each
   iteration of a kernel holds its own copies. */
static void exact_rhs(void) {
#pragma omp parallel
  {
    double dtemp[5], face[2][5];
    int i, j, k, m, ix;
#pragma omp for
    for (j = 1; j < grid_points[1] - 1; j++) {
      for (k = 1; k < grid_points[2] - 1; k++) {
        for (i = 0; i < grid_points[0]; i++) {
          exact_solution(i, j + 0.5 * k, dtemp);
          for (m = 0; m < 5; m++) {
            ue[i][m] = dtemp[m];
            buf[i][m] = dtemp[m] / dtemp[0];
          }
        }
        for (i = 1; i < grid_points[0] - 1; i++)
          for (m = 0; m < 5; m++)
            forcing[i][j][k][m] = ue[i + 1][m] - 2.0 * ue[i][m] + ue[i - 1][m] +
                                  0.5 * (buf[i + 1][m] - buf[i - 1][m]);
      }
    }
#pragma omp for
    for (i = 0; i < grid_points[0]; i++) {
      for (ix = 0; ix < 2; ix++)
        exact_solution(ix, i, &face[ix][0]);
      for (m = 0; m < 5; m++)
        forcing[i][0][0][m] = face[1][m] - face[0][m];
    }
  }
}

static void initialize(void) {
  int i, j, k, m;
#pragma omp parallel for private(j, k, m)
  for (i = 0; i < grid_points[0]; i++)
    for (j = 0; j < grid_points[1]; j++)
      for (k = 0; k < grid_points[2]; k++)
        for (m = 0; m < 5; m++)
          u[i][j][k][m] = exact(m, i, 2 * j + 3 * k * j);
}

/* The loops' region is in the caller (adi), as NPB writes it: each
   function's `omp for` loops bind to the team of the region that calls
   it (orphaned constructs), and a region may both hold loops and call
   such a function. */
static void density(void) {
  int i, j, k;
#pragma omp for private(j, k)
  for (i = 0; i < grid_points[0]; i++)
    for (j = 0; j < grid_points[1]; j++)
      for (k = 0; k < grid_points[2]; k++)
        rho_i[i][j][k] = 1.0 / u[i][j][k][0];
}

static void compute_rhs(void) {
  int i, j, k, m;
  density();
#pragma omp for private(j, k, m) nowait
  for (i = 1; i < grid_points[0] - 1; i++)
    for (j = 1; j < grid_points[1] - 1; j++)
      for (k = 1; k < grid_points[2] - 1; k++)
        for (m = 0; m < 5; m++)
          rhs[i][j][k][m] = dt * (u[i + 1][j][k][m] - 2.0 * u[i][j][k][m] + u[i - 1][j][k][m]) *
                            rho_i[i][j][k];
#pragma omp barrier
}

/* The left-hand side along i, as NPB SP's lhsx builds it: `omp for`
   loops inside serial loops over j and k, sharing 1-D temporaries (each
   thread of the team runs the serial loops; the iterations of i are
   shared). Migrated, the arrays are borrowed once around the serial
   loops, not at each call-site. */
static void lhsx(void) {
  int i, j, k;
  for (j = 1; j < grid_points[1] - 1; j++) {
    for (k = 1; k < grid_points[2] - 1; k++) {
#pragma omp for
      for (i = 0; i < grid_points[0]; i++) {
        cv[i] = u[i][j][k][1] * rho_i[i][j][k];
        rhon[i] = dt + 0.5 * rho_i[i][j][k];
      }
#pragma omp for
      for (i = 1; i < grid_points[0] - 1; i++) {
        lhs[0][i][j][k] = -dt * cv[i - 1] - rhon[i - 1];
        lhs[1][i][j][k] = 1.0 + 2.0 * rhon[i];
        lhs[2][i][j][k] = dt * cv[i + 1] - rhon[i + 1];
      }
    }
  }
}

/* Block helpers (NPB BT's matvec_sub and binvrhs): they take 5x5 blocks
   and rows of the caller's arrays, and write through them. */
static void matvec_sub(double ablock[5][5], double avec[5], double bvec[5]) {
  int m, n;
  for (m = 0; m < 5; m++)
    for (n = 0; n < 5; n++)
      bvec[m] = bvec[m] - ablock[m][n] * avec[n];
}

static void binvrhs(double lhs[5][5], double r[5]) {
  int m;
  for (m = 0; m < 5; m++)
    r[m] = r[m] / lhs[m][m];
}

/* The block system along i, as BT's x_solve: every line j filled from u
   (with the shared temporaries), then solved in order over i, its blocks
   and rows handed to the helpers. Migrated, the kernel hands on pointers
   into the borrowed arrays. */
static void block_solve(void) {
#pragma omp parallel
  {
    int i, j, m, n;
#pragma omp for
    for (j = 1; j < grid_points[1] - 1; j++) {
      for (i = 0; i < grid_points[0]; i++) {
        tmp1 = 1.0 / u[i][j][1][0];
        tmp2 = tmp1 * tmp1;
        for (m = 0; m < 5; m++) {
          for (n = 0; n < 5; n++) {
            blk[i][j][AA][m][n] = -0.01 * tmp2 * (m + n);
            blk[i][j][BB][m][n] = m == n ? 2.0 + tmp1 : 0.001 * tmp2;
          }
          brhs[i][j][m] = rhs[i][j][1][m] + tmp1;
        }
      }
      for (i = 1; i < grid_points[0]; i++) {
        matvec_sub(blk[i][j][AA], brhs[i - 1][j], brhs[i][j]);
        binvrhs(blk[i][j][BB], brhs[i][j]);
      }
    }
  }
}

/* Back-substitution along i, as BT's x_backsubstitute: an `omp for`
   over j inside a serial loop whose header reads grid_points, which the
   call-site borrows but never writes. Migrated, the arrays are borrowed
   once around the serial loop, not at each of its 11 calls. */
static void back_substitute(void) {
  int i, j, m;
  for (i = grid_points[0] - 2; i >= 0; i--) {
#pragma omp for private(m)
    for (j = 1; j < grid_points[1] - 1; j++)
      for (m = 0; m < 5; m++)
        brhs[i][j][m] = brhs[i][j][m] - 0.01 * blk[i][j][BB][m][m] * brhs[i + 1][j][m];
  }
}

static void add(void) {
  int i, j, k, m;
#pragma omp for private(j, k, m)
  for (i = 1; i < grid_points[0] - 1; i++)
    for (j = 1; j < grid_points[1] - 1; j++)
      for (k = 1; k < grid_points[2] - 1; k++)
        for (m = 0; m < 5; m++)
          u[i][j][k][m] = u[i][j][k][m] + rhs[i][j][k][m] + 0.001 * lhs[m % 3][i][j][k] +
                          0.01 * forcing[i][j][k][m] + 0.001 * brhs[i][j][m];
}

static void adi(void) {
#pragma omp parallel
  compute_rhs();
#pragma omp parallel
  lhsx();
  block_solve();
#pragma omp parallel
  back_substitute();
#pragma omp parallel
  add();
}

static double norm(void) {
  int i, j, k;
  double sum = 0.0;
#pragma omp parallel for private(j, k) reduction(+ : sum)
  for (i = 0; i < grid_points[0]; i++)
    for (j = 0; j < grid_points[1]; j++)
      for (k = 0; k < grid_points[2]; k++)
        sum = sum + u[i][j][k][0] * u[i][j][k][0];
  return sqrt(sum / (grid_points[0] * grid_points[1] * grid_points[2]));
}

int main(void) {
  int step;
  /* The problem is smaller than the arrays, as NPB's classes may be. */
  grid_points[0] = IMAX;
  grid_points[1] = JMAX - 1;
  grid_points[2] = KMAX - 2;
  dt = 0.05;
  set_constants();
  initialize();
  exact_rhs();
  for (step = 1; step <= 4; step++) {
    adi();
    printf("step %d: norm %.12f\n", step, norm());
  }
  printf("u[5][4][3][2] = %.12f, rho_i[1][1][1] = %.12f, forcing[3][2][1][4] = %.12f, forcing[7][0][0][3] = %.12f\n",
         u[5][4][3][2], rho_i[1][1][1], forcing[3][2][1][4], forcing[7][0][0][3]);
  return 0;
}
