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
// SUMMARY: migrated 3 of 6 loops (3 refused)
