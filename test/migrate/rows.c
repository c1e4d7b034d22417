// Arrays of rows (`float **a`, read as a[i][j]): never dp::fields, since
// their rows may lie anywhere, but a loop that reaches a known number of
// rows and columns borrows them for its call-site (dp::borrowed_rows),
// its kernel taking them as a dp::rows view: the caller's own rows on the
// host; on a device a copy, in place when the rows lie one after
// another, else gathered and written back at the block's end. Rodinia's
// pathfinder and backprop.
#include <stddef.h>
#include <stdlib.h>

void *omp_target_alloc(size_t bytes, int device);

// Rows from the caller: the loop reads n1 + 1 of them, columns 1 to n2 of
// each (column 0, which it never touches, is not borrowed: 1-based rows
// may not even have one); a row only read is borrowed const (never
// written back).
void forward(float *l2, float **conn, const float *l1, int n1, int n2) {
#pragma omp parallel for
  for (int j = 1; j <= n2; j++) {
    float sum = 0.0f;
    for (int k = 0; k <= n1; k++)
      sum += conn[k][j] * l1[k];
    l2[j] = sum;
  }
// DIAG: rows.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::borrowed_rows<const float> dp_conn(conn, 0, dp_touches ? n1 + 1 : 0, dp_touches ? 1 : 0, dp_touches ? n2 + 1 : 0);
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(1, n2 + 1)), [=](dp::index<1> idx, const dp::rows<const float> &conn, const dp::field<1, const float> &l1, dp::field<1, float> &l2) {
// REWRITE: sum += conn(k, j) * l1(k);
// REWRITE: }, dp_conn.rows(), dp_l1, dp_l2);
}

// Two written arrays of rows.
void adjust(float **w, float **oldw, const float *delta, int nd, int nly) {
#pragma omp parallel for
  for (int j = 1; j <= nd; j++)
    for (int k = 0; k <= nly; k++) {
      float dw = 0.5f * delta[j] + 0.25f * oldw[k][j];
      w[k][j] += dw;
      oldw[k][j] = dw;
    }
// DIAG: rows.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::borrowed_rows<float> dp_oldw(oldw, 0, dp_touches ? nly + 1 : 0, dp_touches ? 1 : 0, dp_touches ? nd + 1 : 0);
// REWRITE: dp::borrowed_rows<float> dp_w(w, 0, dp_touches ? nly + 1 : 0, dp_touches ? 1 : 0, dp_touches ? nd + 1 : 0);
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(1, nd + 1)), [=](dp::index<1> idx, const dp::field<1, const float> &delta, const dp::rows<float> &oldw, const dp::rows<float> &w) {
// REWRITE: w(k, j) += dw;
// REWRITE: }, dp_delta, dp_oldw.rows(), dp_w.rows());
}

// Only the rows the loop touches: a loop over t that reads row t + 1
// borrows that one row (a window, its indices kept), not the t + 2 from
// the first.
int step(int *dst, const int *src, int **wall, int t, int cols) {
#pragma omp parallel for
  for (int n = 0; n < cols; n++)
    dst[n] = wall[t + 1][n] + src[n];
// DIAG: rows.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const std::int64_t dp_wall_first = dp_touches ? t + 1 : 0;
// REWRITE: const std::int64_t dp_wall_end = dp_touches ? t + 2 : 0;
// REWRITE: dp::borrowed_rows<const int> dp_wall(wall, dp_wall_first, dp_wall_end, dp_touches ? cols : 0);
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, cols)), [=](dp::index<1> idx, dp::field<1, int> &dst, const dp::rows<const int> &wall, const dp::field<1, const int> &src) {
// REWRITE: dst(n) = wall(t + 1, n) + src(n);
// REWRITE: }, dp_dst, dp_wall.rows(), dp_src);
  return dst[0];
}

// A row handed on whole: the loop takes part of the array.
static float total(const float *row, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += row[j];
  return s;
}
void sums(float *out, float **a, int m, int n) {
#pragma omp parallel for
  for (int i = 0; i < m; i++)
    out[i] = total(a[i], n);
// DIAG: rows.c:[[@LINE-1]]:20: warning: not converted: 'a' cannot become a dp::field: the loop takes a row of it ('a[i]'), which a call-site cannot borrow alone [dp-migrate]
}

// A reach dpstub cannot tell (rows chosen through another array).
void gather(float *out, float **a, const int *pick, int m, int n) {
#pragma omp parallel for
  for (int i = 0; i < m; i++)
    out[i] = a[pick[i]][n - 1];
// DIAG: rows.c:[[@LINE-1]]:14: warning: not converted: 'a' cannot become a dp::field: its elements are rows ('float *'), which a loop borrows only where it indexes it as 'a[i][j]' and dpstub can tell how many rows and columns it reaches (line [[@LINE-4]]) [dp-migrate]
}

// Rows of device memory (NeoRodinia's kmeans, offloaded): the host cannot
// read them, so no call-site borrows them.
void scale(int m, int n, float k) {
  float **d = (float **)malloc(m * sizeof(float *));
  for (int i = 0; i < m; i++)
    d[i] = (float *)omp_target_alloc(n * sizeof(float), 0);
#pragma omp target teams distribute parallel for
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      d[i][j] *= k;
// DIAG: rows.c:[[@LINE-1]]:7: warning: not converted: 'd' cannot become a dp::field: its rows are device memory ('d[i]' from 'omp_target_alloc'), which the host cannot read (line [[@LINE-5]]) [dp-migrate]
  free(d);
}

// Arrays of arrays of rows (`double ***u`, NPB MG's grids): each
// subscript reaches on its own, planes, rows and columns; a grid read and
// written is borrowed written, one only read const.
void resid(double ***u, double ***v, double ***r, int n1, int n2, int n3) {
#pragma omp parallel for
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i2 = 1; i2 < n2 - 1; i2++)
      for (int i1 = 1; i1 < n1 - 1; i1++)
        r[i3][i2][i1] = v[i3][i2][i1] - u[i3 - 1][i2][i1 + 1] - u[i3 + 1][i2 - 1][i1];
// DIAG: rows.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const bool dp_touches = n3 > 2 && n2 > 2 && n1 > 2;
// REWRITE: dp::borrowed_rows<double, 3> dp_r(r, dp_r_first, dp_r_end, dp_touches ? 1 : 0, dp_touches ? n2 - 1 : 0, dp_touches ? 1 : 0, dp_touches ? n1 - 1 : 0);
// REWRITE: dp::borrowed_rows<const double, 3> dp_u(u, 0, dp_touches ? n3 : 0, 0, dp_touches ? n2 - 1 : 0, dp_touches ? 1 : 0, dp_touches ? n1 : 0);
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(1, n3 - 1)), [=](dp::index<1> idx, const dp::rows<double, 3> &r, const dp::rows<const double, 3> &v, const dp::rows<const double, 3> &u) {
// REWRITE: r(i3, i2, i1) = v(i3, i2, i1) - u(i3 - 1, i2, i1 + 1) - u(i3 + 1, i2 - 1, i1);
// REWRITE: }, dp_r.rows(), dp_v.rows(), dp_u.rows());
}

// A projection onto a coarser grid (NPB MG's rprj3): the fine grid's
// indices set at the top of each level's body from the coarse ones
// (`i3 = 2 * j3 - d`), read as those values; the window from the first
// element touched, written with d.
void project(double ***r, double ***s, int m1j, int m3k) {
  int j3, j1, i3, i1, d;
  if (m3k == 3)
    d = 2;
  else
    d = 1;
#pragma omp parallel for private(j1, i1, i3)
  for (j3 = 1; j3 < m1j - 1; j3++) {
    i3 = 2 * j3 - d;
    for (j1 = 1; j1 < m1j - 1; j1++) {
      i1 = 2 * j1 - d;
      s[j3][0][j1] = r[i3][0][i1] + r[i3 + 2][1][i1 + 1];
    }
  }
// DIAG: rows.c:[[@LINE-7]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::borrowed_rows<const double, 3> dp_r(r, dp_r_first, dp_r_end, 0, dp_touches ? 2 : 0, dp_touches ? -d + 2 : 0, dp_touches ? 2 * m1j - d - 2 : 0);
// REWRITE: s(j3, 0, j1) = r(i3, 0, i1) + r(i3 + 2, 1, i1 + 1);
}

// Two inner loops over different ranges and an offset d (MG's interp):
// the reach from the first element, as far as the furthest access, which
// needs d at least 1: a local that only ever holds 1 or 2 has it. A
// parameter may not: then each inner loop's window counts where that
// loop runs (either may run while the other does not).
void interp(double ***u, double ***z, int mm1, int n3) {
  int i3, i1, d;
  if (n3 == 3)
    d = 2;
  else
    d = 1;
#pragma omp parallel for private(i1)
  for (i3 = d; i3 <= mm1 - 1; i3++) {
    for (i1 = d; i1 <= mm1 - 1; i1++)
      u[2 * i3 - d - 1][0][2 * i1 - d - 1] += z[i3 - 1][0][i1 - 1];
    for (i1 = 1; i1 <= mm1 - 1; i1++)
      u[2 * i3 - d - 1][0][2 * i1 - 2] += z[i3 - 1][0][i1];
  }
// DIAG: rows.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::borrowed_rows<double, 3> dp_u(u, 0, mm1 > d ? 2 * mm1 - d - 2 : 0, 0, mm1 > d ? 1 : 0, 0, mm1 > d && mm1 > 1 ? 2 * mm1 - 3 : 0);
// REWRITE: dp::borrowed_rows<const double, 3> dp_z(z, 0, mm1 > d ? mm1 - 1 : 0, 0, mm1 > d ? 1 : 0, 0, mm1 > d && mm1 > 1 ? mm1 : 0);
}
void interp_any(double ***u, double ***z, int mm1, int d) {
  int i3, i1;
#pragma omp parallel for private(i1)
  for (i3 = d; i3 <= mm1 - 1; i3++) {
    for (i1 = d; i1 <= mm1 - 1; i1++)
      u[2 * i3 - d - 1][0][2 * i1 - d - 1] += z[i3 - 1][0][i1 - 1];
    for (i1 = 1; i1 <= mm1 - 1; i1++)
      u[2 * i3 - d - 1][0][2 * i1 - 2] += z[i3 - 1][0][i1];
  }
// DIAG: rows.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const std::int64_t dp_u_first = dp_touches ? d - 1 : 0;
// REWRITE: const std::int64_t dp_u_columns_first = dp_touches ? std::min<std::int64_t>({d - 1, mm1 > 1 ? 0 : INT64_MAX}) : 0;
// REWRITE: const std::int64_t dp_u_columns_end = dp_touches ? std::max<std::int64_t>({2 * mm1 - d - 2, mm1 > 1 ? 2 * mm1 - 3 : INT64_MIN}) : 0;
// REWRITE: dp::borrowed_rows<double, 3> dp_u(u, dp_u_first, dp_u_end, 0, mm1 > d ? 1 : 0, dp_u_columns_first, dp_u_columns_end);
}

// MG's comm3: one loop over planes runs both inner loops, one over rows
// 1 .. n2 - 2 touching columns n1 - 1, 1, 0 and n1 - 2, one over every
// column; n1 - 2 may be below 0 (column -1, read where n1 is 1, is the
// original's to answer for). The window: each loop's where it runs.
void comm3(double ***u, int n1, int n2, int n3) {
  int i1, i2, i3;
#pragma omp parallel for private(i1, i2)
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
// DIAG: rows.c:[[@LINE-10]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const bool dp_touches = n3 > 2 && (n2 > 2 || n1 > 0);
// REWRITE: const std::int64_t dp_u_first = dp_touches ? 1 : 0;
// REWRITE: const std::int64_t dp_u_end = dp_touches ? n3 - 1 : 0;
// REWRITE: const std::int64_t dp_u_rows_first = dp_touches ? std::min<std::int64_t>({n2 > 2 ? 1 : INT64_MAX, n1 > 0 ? std::min<std::int64_t>({0, n2 - 2}) : INT64_MAX}) : 0;
// REWRITE: const std::int64_t dp_u_rows_end = dp_touches ? std::max<std::int64_t>({n2 > 2 ? n2 - 1 : INT64_MIN, n1 > 0 ? std::max<std::int64_t>({n2, 2}) : INT64_MIN}) : 0;
// REWRITE: const std::int64_t dp_u_columns_first = dp_touches ? std::min<std::int64_t>({n2 > 2 ? std::min<std::int64_t>({0, n1 - 2}) : INT64_MAX, n1 > 0 ? 0 : INT64_MAX}) : 0;
// REWRITE: const std::int64_t dp_u_columns_end = dp_touches ? std::max<std::int64_t>({n2 > 2 ? std::max<std::int64_t>({n1, 2}) : INT64_MIN, n1 > 0 ? n1 : INT64_MIN}) : 0;
// REWRITE: dp::borrowed_rows<double, 3> dp_u(u, dp_u_first, dp_u_end, dp_u_rows_first, dp_u_rows_end, dp_u_columns_first, dp_u_columns_end);
}

// A plane or a row of one handed on whole: part of the array.
static double plane_sum(double **plane, int n2, int n1) {
  double s = 0.0;
  for (int i2 = 0; i2 < n2; i2++)
    for (int i1 = 0; i1 < n1; i1++)
      s += plane[i2][i1];
  return s;
}
void planes(double *out, double ***u, int n3, int n2, int n1) {
#pragma omp parallel for
  for (int i3 = 0; i3 < n3; i3++)
    out[i3] = plane_sum(u[i3], n2, n1);
// DIAG: rows.c:[[@LINE-1]]:25: warning: not converted: 'u' cannot become a dp::field: the loop takes a plane of it ('u[i3]'), which a call-site cannot borrow alone [dp-migrate]
}
// SUMMARY: migrated 8 of 12 loops (4 refused)
