/* A C program over arrays of rows (`int **`, `float **`, read as a[i][j]),
 * in the style of Rodinia's pathfinder and backprop, for dpstub
 * --migrate's end-to-end test: rows that point into one block, walked one
 * row per step (each call-site borrows the row it reads, in place), and
 * rows allocated one by one (read through their own pointers on the
 * host; the emulated device's copy gathers them and writes them back at
 * the call-site's end), in functions whose pointers come from their caller, one
 * loop reading a matrix by columns into a sum, one writing two matrices;
 * and lavaMD's boxes of particles, each box's at an offset into common
 * arrays, reached through pointers the loop makes (`rA = &rv[first]`).
 * NPB MG's grids: arrays of planes of rows (`double ***`, each row
 * allocated alone, each plane's table of rows between them), a residual
 * called with one grid as both its input and its output, private rows,
 * a norm and a maximum reduced together, and a periodic halo written by
 * a region's three loops, and by two as MG writes it.
 * Values stay small integers or dyadic, so every order of summation gives
 * the same bits. The original is built as C; its migration, as C++. */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 24
#define COLS 37
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

#define BOXES 12
#define PER_BOX 5
#define NEIGHBOURS 2

typedef struct {
  double v, x, y, z;
} four_vector;

typedef struct {
  double x, y, z;
} three_vector;

int *data;
int **wall;

/* lavaMD: each box's forces from its own particles and its neighbours'
 * (their charges qv), through pointers to each box's first particle:
 * the home box's declared before the loop and private to it, as lavaMD
 * writes them, the neighbour's made in the loop; the distance a private
 * struct written member by member. */
static void forces(const int *offset, const int *nei, const four_vector *rv, const double *qv, four_vector *fv) {
  long first_i;
  const four_vector *rA;
  four_vector *fA;
  three_vector d;
#pragma omp parallel for private(first_i, rA, fA, d)
  for (int l = 0; l < BOXES; l++) {
    first_i = offset[l];
    rA = &rv[first_i];
    fA = fv + first_i;
    for (int k = 0; k <= NEIGHBOURS; k++) {
      const int box = k == 0 ? l : nei[l * NEIGHBOURS + k - 1];
      const four_vector *rB = rv + offset[box];
      const double *qB = &qv[offset[box]];
      for (int ia = 0; ia < PER_BOX; ia++)
        for (int ib = 0; ib < PER_BOX; ib++) {
          const double r2 = rA[ia].v + rB[ib].v - (rA[ia].x * rB[ib].x + rA[ia].y * rB[ib].y + rA[ia].z * rB[ib].z);
          fA[ia].v += qB[ib] * r2;
          d.x = rA[ia].x - rB[ib].x;
          d.y = rA[ia].y - rB[ib].y;
          d.z = rA[ia].z - rB[ib].z;
          fA[ia].x += qB[ib] * d.x;
          fA[ia].y += qB[ib] * d.y;
          fA[ia].z += qB[ib] * d.z;
        }
    }
  }
}

/* Each row alone, one more element than asked (the last untouched). */
static float **alloc_rows(int m, int n) {
  float **rows = (float **)malloc(m * sizeof(float *));
  for (int i = 0; i < m; i++) {
    rows[i] = (float *)malloc((n + 1) * sizeof(float));
    for (int j = 0; j <= n; j++)
      rows[i][j] = (float)((i * 3 + j * 5) % 8) / 4.0f;
  }
  return rows;
}

static void free_rows(float **rows, int m) {
  for (int i = 0; i < m; i++)
    free(rows[i]);
  free(rows);
}

/* l2[j] = sum over k of conn[k][j] * l1[k], for j from 1 (backprop's
 * layer): a loop over the columns, each iteration a sum down them. */
static void forward(const float *l1, float *l2, float **conn, int n1, int n2) {
  int j, k;
  float sum;
#pragma omp parallel for private(j, k, sum)
  for (j = 1; j <= n2; j++) {
    sum = 0.0f;
    for (k = 0; k <= n1; k++)
      sum += conn[k][j] * l1[k];
    l2[j] = sum;
  }
}

/* w += new weights, oldw = new weights (backprop's adjustment). */
static void adjust(const float *delta, int nd, const float *ly, int nly, float **w, float **oldw) {
  int j, k;
  float dw;
#pragma omp parallel for private(j, k, dw)
  for (j = 1; j <= nd; j++)
    for (k = 0; k <= nly; k++) {
      dw = 0.5f * delta[j] * ly[k] + 0.25f * oldw[k][j];
      w[k][j] += dw;
      oldw[k][j] = dw;
    }
}

/* MG's grids: n3 planes of n2 rows of n1 values, each row alone. */
#define MG_ROW 24
static double ***alloc_planes(int n3, int n2, int n1) {
  double ***u = (double ***)malloc(n3 * sizeof(double **));
  for (int i3 = 0; i3 < n3; i3++) {
    u[i3] = (double **)malloc(n2 * sizeof(double *));
    for (int i2 = 0; i2 < n2; i2++) {
      u[i3][i2] = (double *)malloc(n1 * sizeof(double));
      for (int i1 = 0; i1 < n1; i1++)
        u[i3][i2][i1] = (double)((i3 * 5 + i2 * 3 + i1) % 8) / 8.0;
    }
  }
  return u;
}

static void free_planes(double ***u, int n3, int n2) {
  for (int i3 = 0; i3 < n3; i3++) {
    for (int i2 = 0; i2 < n2; i2++)
      free(u[i3][i2]);
    free(u[i3]);
  }
  free(u);
}

/* r = v - A u on the interior (MG's resid): the rows u1 and u2 each
 * iteration's own; r and v may be one grid. */
static void resid(double ***u, double ***v, double ***r, int n1, int n2, int n3, double a[4]) {
  int i3, i2, i1;
  double u1[MG_ROW], u2[MG_ROW];
#pragma omp parallel for default(shared) private(i1, i2, i3, u1, u2)
  for (i3 = 1; i3 < n3 - 1; i3++)
    for (i2 = 1; i2 < n2 - 1; i2++) {
      for (i1 = 0; i1 < n1; i1++) {
        u1[i1] = u[i3][i2 - 1][i1] + u[i3][i2 + 1][i1] + u[i3 - 1][i2][i1] + u[i3 + 1][i2][i1];
        u2[i1] = u[i3 - 1][i2 - 1][i1] + u[i3 - 1][i2 + 1][i1] + u[i3 + 1][i2 - 1][i1] + u[i3 + 1][i2 + 1][i1];
      }
      for (i1 = 1; i1 < n1 - 1; i1++)
        r[i3][i2][i1] = v[i3][i2][i1] - a[0] * u[i3][i2][i1] - a[2] * (u2[i1] + u1[i1 - 1] + u1[i1 + 1]) -
                        a[3] * (u2[i1 - 1] + u2[i1 + 1]);
    }
}

/* The periodic halo (MG's comm3): three loops of one region. */
static void comm3(double ***u, int n1, int n2, int n3) {
  int i1, i2, i3;
#pragma omp parallel default(shared) private(i1, i2, i3)
  {
#pragma omp for
    for (i3 = 1; i3 < n3 - 1; i3++)
      for (i2 = 1; i2 < n2 - 1; i2++) {
        u[i3][i2][n1 - 1] = u[i3][i2][1];
        u[i3][i2][0] = u[i3][i2][n1 - 2];
      }
#pragma omp for
    for (i3 = 1; i3 < n3 - 1; i3++)
      for (i1 = 0; i1 < n1; i1++) {
        u[i3][n2 - 1][i1] = u[i3][1][i1];
        u[i3][0][i1] = u[i3][n2 - 2][i1];
      }
#pragma omp for nowait
    for (i2 = 0; i2 < n2; i2++)
      for (i1 = 0; i1 < n1; i1++) {
        u[n3 - 1][i2][i1] = u[1][i2][i1];
        u[0][i2][i1] = u[n3 - 2][i2][i1];
      }
  }
}

/* The halo as MG writes it: one loop over planes runs both inner loops,
 * over rows 1 .. n2 - 2 and over columns 0 .. n1 - 1, either of which may
 * run while the other does not; its call-site borrows the columns each
 * reaches where it runs. NPB's npb-C.h defines max() as a macro too. */
#define max(a, b) (((a) > (b)) ? (a) : (b))
static void comm3_merged(double ***u, int n1, int n2, int n3) {
  int i1, i2, i3;
#pragma omp parallel default(shared) private(i1, i2, i3)
  {
#pragma omp for
    for (i3 = 1; i3 < n3 - 1; i3++) {
      for (i2 = 1; i2 < n2 - 1; i2++) {
        u[i3][i2][n1 - 1] = u[i3][i2][1];
        u[i3][i2][0] = u[i3][i2][n1 - 2];
      }
      for (i1 = 0; i1 < n1; i1++) {
        u[i3][n2 - 1][i1] = u[i3][1][i1];
        u[i3][0][i1] = u[i3][n2 - 2][i1];
      }
    }
#pragma omp for nowait
    for (i2 = 0; i2 < n2; i2++)
      for (i1 = 0; i1 < n1; i1++) {
        u[n3 - 1][i2][i1] = u[1][i2][i1];
        u[0][i2][i1] = u[n3 - 2][i2][i1];
      }
  }
}

/* The interior's sum of squares and largest magnitude (MG's norm2u3). */
static void norm2u3(double ***r, int n1, int n2, int n3, double *rnm2, double *rnmu) {
  double s = 0.0, tmp = 0.0, a;
  int i3, i2, i1;
#pragma omp parallel for default(shared) private(i1, i2, i3, a) reduction(+ : s) reduction(max : tmp)
  for (i3 = 1; i3 < n3 - 1; i3++)
    for (i2 = 1; i2 < n2 - 1; i2++)
      for (i1 = 1; i1 < n1 - 1; i1++) {
        s = s + r[i3][i2][i1] * r[i3][i2][i1];
        a = r[i3][i2][i1] < 0 ? -r[i3][i2][i1] : r[i3][i2][i1];
        if (a > tmp)
          tmp = a;
      }
  *rnm2 = s;
  *rnmu = tmp;
}

int main(void) {
  int t, n, i, j;
  data = (int *)malloc(sizeof(int) * ROWS * COLS);
  wall = (int **)malloc(sizeof(int *) * ROWS);
  for (n = 0; n < ROWS; n++)
    wall[n] = data + COLS * n;
  for (i = 0; i < ROWS; i++)
    for (j = 0; j < COLS; j++)
      wall[i][j] = (i * 7 + j * 13) % 10;

  /* pathfinder: the cheapest path down the wall, one row per step. */
  int *src = (int *)malloc(sizeof(int) * COLS);
  int *dst = (int *)malloc(sizeof(int) * COLS);
  for (j = 0; j < COLS; j++)
    dst[j] = wall[0][j];
  for (t = 0; t < ROWS - 1; t++) {
    int *tmp = src;
    src = dst;
    dst = tmp;
#pragma omp parallel for
    for (n = 0; n < COLS; n++) {
      int best = src[n];
      if (n > 0)
        best = MIN(best, src[n - 1]);
      if (n < COLS - 1)
        best = MIN(best, src[n + 1]);
      dst[n] = wall[t + 1][n] + best;
    }
  }
  long paths = 0;
  for (j = 0; j < COLS; j++)
    paths = (paths * 3 + dst[j]) % 1000003;
  printf("paths %ld (first %d, last %d)\n", paths, dst[0], dst[COLS - 1]);

  /* backprop: rows allocated one by one. */
  const int n1 = 16, n2 = 9;
  float **conn = alloc_rows(n1 + 1, n2 + 1);
  float **oldw = alloc_rows(n1 + 1, n2 + 1);
  float l1[17], l2[10], delta[10];
  for (i = 0; i <= n1; i++)
    l1[i] = (float)(i % 4) / 2.0f;
  for (j = 0; j <= n2; j++)
    l2[j] = delta[j] = 0.0f;
  for (int round = 0; round < 3; round++) {
    forward(l1, l2, conn, n1, n2);
    for (j = 1; j <= n2; j++)
      delta[j] = l2[j] / 8.0f;
    adjust(delta, n2, l1, n1, conn, oldw);
  }
  double total = 0, past = 0, spare = 0;
  for (i = 0; i <= n1; i++)
    for (j = 0; j <= n2; j++) {
      total += conn[i][j];
      past += oldw[i][j];
    }
  for (i = 0; i <= n1; i++)
    spare += conn[i][n2 + 1] + oldw[i][n2 + 1]; /* past the columns: as allocated */
  printf("layer %.6f %.6f, weights %.6f, previous %.6f, spare %.6f\n", l2[1], l2[n2], total, past, spare);

  /* lavaMD: boxes in a shuffled order in the common arrays. */
  four_vector *rv = (four_vector *)malloc(sizeof(four_vector) * BOXES * PER_BOX);
  four_vector *fv = (four_vector *)malloc(sizeof(four_vector) * BOXES * PER_BOX);
  double *qv = (double *)malloc(sizeof(double) * BOXES * PER_BOX);
  int *offset = (int *)malloc(sizeof(int) * BOXES);
  int *nei = (int *)malloc(sizeof(int) * BOXES * NEIGHBOURS);
  for (i = 0; i < BOXES; i++) {
    offset[i] = (i * 5) % BOXES * PER_BOX;
    nei[i * NEIGHBOURS] = (i + 1) % BOXES;
    nei[i * NEIGHBOURS + 1] = (i + BOXES - 1) % BOXES;
  }
  for (i = 0; i < BOXES * PER_BOX; i++) {
    rv[i].v = (i % 4) * 0.25;
    rv[i].x = (i % 3) * 0.5;
    rv[i].y = (i % 5) * 0.25;
    rv[i].z = (i % 2) * 0.5;
    qv[i] = (i % 3) * 0.5;
    fv[i].v = fv[i].x = fv[i].y = fv[i].z = 0.0;
  }
  forces(offset, nei, rv, qv, fv);
  double fsum = 0;
  for (i = 0; i < BOXES * PER_BOX; i++)
    fsum += fv[i].v + 2 * fv[i].x + 3 * fv[i].y + 4 * fv[i].z;
  printf("forces %.17g, box 3: %.17g %.17g\n", fsum, fv[offset[3]].v, fv[offset[3] + PER_BOX - 1].z);
  /* MG: the residual twice, its output the second time also its input. */
  const int g1 = MG_ROW, g2 = 10, g3 = 7;
  double ***u = alloc_planes(g3, g2, g1), ***v = alloc_planes(g3, g2, g1), ***r = alloc_planes(g3, g2, g1);
  double coef[4] = {-3.0, 0.0, 0.25, 0.125}, rnm2, rnmu;
  resid(u, v, r, g1, g2, g3, coef);
  comm3(r, g1, g2, g3);
  resid(u, r, r, g1, g2, g3, coef);
  comm3_merged(r, g1, g2, g3);
  norm2u3(r, g1, g2, g3, &rnm2, &rnmu);
  double corners = r[0][0][0] + r[g3 - 1][g2 - 1][g1 - 1] + r[0][g2 - 1][1] + r[g3 - 1][0][g1 - 2];
  printf("mg norm %.17g, max %.17g, corners %.17g\n", rnm2, rnmu, corners);
  free_planes(u, g3, g2);
  free_planes(v, g3, g2);
  free_planes(r, g3, g2);

  free(rv);
  free(fv);
  free(qv);
  free(offset);
  free(nei);

  free_rows(conn, n1 + 1);
  free_rows(oldw, n1 + 1);
  free(src);
  free(dst);
  free(wall);
  free(data);
  return 0;
}
