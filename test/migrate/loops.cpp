// Loop forms --migrate converts: the grid of the levels (bounds of every
// form, collapse, nested `acc loop`), the kernel's variables (captured,
// passed in, private), `continue`, and the clauses that become execution
// options. Each expectation sits under the loop it concerns.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#define NX 64
const int ny = 32;
double g_scale = 2.0;
static int at(int k, int i, int n) { return k * n + i; }

void forms(int n, int m, double *a, const double *b, double alpha) {
// Pointer parameters become fields; a const pointee a read-only field.
// REWRITE: void forms(int n, int m, dp::field<1, double> a, dp::field<1, const double> b, double alpha) {
  int i, j;
#pragma omp parallel for
  for (i = 0; i <= n - 1; i++)
    a[i] =
        alpha * b[i];
// DIAG: loops.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// The directive goes; `i <= n - 1` is the sequence 0..n-1; a local read is
// captured, an array is a field parameter (written: by reference); a
// continuation line keeps its place under the statement it continues.
// REWRITE-NOT: {{^}}#pragma omp parallel for
// REWRITE:   dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &a, const dp::field<1, const double> &b) {
// REWRITE-NEXT:     const int i = idx[0];
// REWRITE-NEXT:     a(i) =
// REWRITE-NEXT:         alpha * b(i);
// REWRITE-NEXT:   }, a, b);

#pragma omp parallel for collapse(2) private(j)
  for (i = 1; i < n - 1; i++)
    for (j = 1; j < m - 1; j++) {
      double t = b[at(i, j, m)] + b[at(i - 1, j, m)];
      a[at(i, j, m)] = 0.5 * t;
    }
// DIAG: loops.cpp:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// REWRITE:   dp::forall(dp::grid<2>(dp::arithmetic_sequence(1, n - 1), dp::arithmetic_sequence(1, m - 1)), [=](dp::index<2> idx, const dp::field<1, const double> &b, dp::field<1, double> &a) {
// REWRITE-NEXT:     const int i = idx[0];
// REWRITE-NEXT:     const int j = idx[1];
// REWRITE-NEXT:     double t = b(at(i, j, m)) + b(at(i - 1, j, m));
// REWRITE-NEXT:     a(at(i, j, m)) = 0.5 * t;
// REWRITE-NEXT:   }, b, a);

#pragma acc parallel loop gang vector_length(128) num_gangs(64)
  for (int k = n - 1; k >= 0; k -= 2) {
#pragma acc loop seq
    for (int s = 0; s < 4; ++s)
      a[k] += s * g_scale;
  }
// DIAG: loops.cpp:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// Counting down by two; the launch hints; a namespace-scope variable is
// passed in (a device cannot read the host's globals); the sequential
// inner loop stays a loop, its directive goes.
// REWRITE:   dp::forall(dp::group_size(128).max_groups(64), dp::grid<1>(dp::arithmetic_sequence(n - 1, -1, -2)), [=](dp::index<1> idx, dp::field<1, double> &a, double g_scale) {
// REWRITE-NEXT:     const int k = idx[0];
// REWRITE-NEXT:     for (int s = 0; s < 4; ++s)
// REWRITE-NEXT:       a(k) += s * g_scale;
// REWRITE-NEXT:   }, a, g_scale);
// REWRITE-NOT: {{^}}#pragma acc loop seq

#pragma acc parallel loop gang
  for (int r = 0; r < n; ++r) {
#pragma acc loop vector
    for (int c = 0; c < m; ++c) {
      if (b[r * m + c] < 0)
        continue;
      a[r * m + c] = std::sqrt(b[r * m + c]);
    }
  }
// DIAG: loops.cpp:[[@LINE-8]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// A gang loop over a vector loop is one grid of both; `continue` leaves a
// do-while(false) around the body.
// REWRITE:   dp::forall(dp::grid<2>(dp::arithmetic_sequence(0, n), dp::arithmetic_sequence(0, m)), [=](dp::index<2> idx, const dp::field<1, const double> &b, dp::field<1, double> &a) {
// REWRITE-NEXT:     const int r = idx[0];
// REWRITE-NEXT:     const int c = idx[1];
// REWRITE-NEXT:     do { // a `continue` leaves this iteration
// REWRITE-NEXT:       if (b(r * m + c) < 0)
// REWRITE-NEXT:         continue;
// REWRITE-NEXT:       a(r * m + c) = std::sqrt(b(r * m + c));
// REWRITE-NEXT:     } while (false);
// REWRITE-NEXT:   }, b, a);

#pragma omp target teams distribute parallel for num_teams(n / 128) thread_limit(2048)
  for (int x = 0; x < n; ++x)
    a[x] = 2 * a[x];
// DIAG: loops.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// Launch hints OpenMP leaves to the implementation when out of range (no
// team on a small input, more threads than a device takes) are brought
// into dp's range, which would be a dp::error.
// REWRITE:   dp::forall(dp::group_size(1024).max_groups(std::max<std::int64_t>(n / 128, 1)), dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &a) {

#pragma omp target teams distribute parallel for if(n > 1000)
  for (int x = 0; x < NX; ++x)
    a[x] = a[x] + ny;
// DIAG: loops.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// if(c): the device only when c holds; a constant bound is the extent.
// REWRITE:   dp::forall(dp::when(n > 1000), dp::grid<1>(NX), [=](dp::index<1> idx, dp::field<1, double> &a) {
}

// A triangular collapse(2) whose inner bound is the outer variable is one
// of dp's triangles of the square (PolyBench's reg_detect): (j, i) with
// i >= j, or i <= j; other triangles stay refused (refusals.cpp).
void triangles(int n, double *a) {
  int i, j;
#pragma omp parallel for private(i) collapse(2)
  for (j = 0; j <= n - 1; j++)
    for (i = j; i <= n - 1; i++)
      a[j * n + i] = i - j;
// DIAG: loops.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::upper_triangle [dp-migrate]
// REWRITE:   dp::forall(dp::upper_triangle(n), [=](dp::index<2> idx, dp::field<1, double> &a) {
// REWRITE-NEXT:     const int j = idx[0];
// REWRITE-NEXT:     const int i = idx[1];
  double sum = 0;
#pragma omp parallel for collapse(2) reduction(+ : sum)
  for (int r = 0; r < n; ++r)
    for (int c = 0; c <= r; ++c)
      sum += a[c * n + r];
// DIAG: loops.cpp:[[@LINE-3]]:3: remark: converted to dp::reduce over dp::lower_triangle [dp-migrate]
// REWRITE:     dp::reduce(dp::lower_triangle(n), std::plus<>(), dp_sum, [=](dp::index<2> idx, const dp::field<1, double> &a) {
  // From 1: the triangle of the square [1, n), its index values shifted.
#pragma omp parallel for collapse(2)
  for (int r = 1; r < n; ++r)
    for (int c = r; c < n; ++c)
      a[r * n + c] += 1;
// DIAG: loops.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::upper_triangle [dp-migrate]
// (no order below 0: with n < 1 the loops ran nothing).
// REWRITE:   dp::forall(dp::upper_triangle(std::max<std::int64_t>(n - 1, 0)), [=](dp::index<2> idx, dp::field<1, double> &a) {
// REWRITE-NEXT:     const int r = idx[0] + 1;
// REWRITE-NEXT:     const int c = idx[1] + 1;
  // Without the diagonal (pairs i < j): the triangle of a square one
  // smaller, the inner index (upper) or the outer one (lower) shifted.
#pragma omp parallel for collapse(2)
  for (int p = 0; p < n; ++p)
    for (int q = p + 1; q < n; ++q)
      a[p * n + q] -= 1;
// DIAG: loops.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::upper_triangle [dp-migrate]
// REWRITE:   dp::forall(dp::upper_triangle(std::max<std::int64_t>(n - 1, 0)), [=](dp::index<2> idx, dp::field<1, double> &a) {
// REWRITE-NEXT:     const int p = idx[0];
// REWRITE-NEXT:     const int q = idx[1] + 1;
#pragma omp parallel for collapse(2)
  for (int p = 1; p <= n - 1; ++p)
    for (int q = 1; q < p; ++q)
      a[p * n + q] *= 2;
// DIAG: loops.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::lower_triangle [dp-migrate]
// REWRITE:   dp::forall(dp::lower_triangle(std::max<std::int64_t>((n - 1) - 1, 0)), [=](dp::index<2> idx, dp::field<1, double> &a) {
// REWRITE-NEXT:     const int p = idx[0] + 2;
// REWRITE-NEXT:     const int q = idx[1] + 1;
  a[0] = sum;
}

// Tiles: the step is a local that keeps its constant first value, so the
// grid steps by it and names it as the user did; the loops inside a tile
// are the kernel's own.
void tiles(int n, double *a) {
  int tile = 8;
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i += tile)
    for (int j = 0; j < n; j += tile)
      for (int ti = i; ti < i + tile && ti < n; ++ti)
        for (int tj = j; tj < j + tile && tj < n; ++tj)
          a[ti * n + tj] += 0.5;
// DIAG: loops.cpp:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// REWRITE:   dp::forall(dp::grid<2>(dp::arithmetic_sequence(0, n, tile), dp::arithmetic_sequence(0, n, tile)), [=](dp::index<2> idx, dp::field<1, double> &a) {
// REWRITE-NEXT:     const int i = idx[0];
// REWRITE-NEXT:     const int j = idx[1];
// REWRITE-NEXT:     for (int ti = i; ti < i + tile && ti < n; ++ti)
}

// A wavefront (ParRes Kernels' p2p): each anti-diagonal's cells at once,
// bounded by the least and greatest of values the loop does not change
// (std::max, a MIN macro's choice): symbols of their own to the
// dependence test, the user's text in the grid.
#define MIN(a, b) ((a) < (b) ? (a) : (b))
void wavefront(int n, double *grid) {
  for (int d = 2; d <= 2 * n - 2; d++) {
#pragma omp parallel for
    for (int j = std::max(2, d - n + 2); j <= MIN(d, n); j++) {
      const int x = d - j + 1;
      const int y = j - 1;
      grid[x * n + y] = grid[(x - 1) * n + y] + grid[x * n + (y - 1)] - grid[(x - 1) * n + (y - 1)];
    }
// DIAG: loops.cpp:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: {{ *}}dp::forall(dp::grid<1>(dp::arithmetic_sequence(std::max(2, d - n + 2), (MIN(d, n)) + 1)), [=](dp::index<1> idx, dp::field<1, double> &grid) {
  }
}

// Tiles of a size only the run gives (ParRes Kernels read it from the
// command line): a step of variables the loop does not change. The grid
// steps by it as written; OpenMP requires it to run towards the bound,
// and a step of 0 is a dp::error where the loop would never end.
void run_time_tiles(int n, double *a, int tile) {
#pragma omp parallel for collapse(2)
  for (int it = 0; it < n; it += tile)
    for (int jt = 0; jt < n; jt += tile)
      for (int i = it; i < MIN(n, it + tile); i++)
        for (int j = jt; j < MIN(n, jt + tile); j++)
          a[i * n + j] += 0.25;
// DIAG: loops.cpp:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// REWRITE:   dp::forall(dp::grid<2>(dp::arithmetic_sequence(0, n, tile), dp::arithmetic_sequence(0, n, tile)), [=](dp::index<2> idx, dp::field<1, double> &a) {
// REWRITE-NEXT:     const int it = idx[0];
// REWRITE-NEXT:     const int jt = idx[1];
// REWRITE-NEXT:     for (int i = it; i < MIN(n, it + tile); i++)
#pragma omp parallel for
  for (int i = n - 1; i >= 0; i -= 2 * tile)
    a[i] -= 1.0;
// DIAG: loops.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:   dp::forall(dp::grid<1>(dp::arithmetic_sequence(n - 1, -1, -(2 * tile))), [=](dp::index<1> idx, dp::field<1, double> &a) {
}

// C++ that GCC takes and clang 19 refuses by default, `.template` before
// a name with no template arguments (miniBUDE's `devices.template
// emplace_back(...)`): parsed as GCC does, migrated and translated.
struct sizes_list {
  template <class T = int> void add(T) {}
};
void gcc_template_keyword(sizes_list &sizes, int n, double *a) {
  sizes.template add(n);
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = 0.5 * i;
// DIAG: loops.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: sizes.template add(n);
}

int main() {
  int n = 40, m = 40;
  double *a = (double *)calloc(n * m, sizeof(double));
  double *b = new double[n * m];
// REWRITE:   dp::field<1, double> a{dp::grid<1>(n * m)};
// REWRITE-NEXT:   dp::field<1, double> b{dp::grid<1>(n * m)};
  for (int k = 0; k < n * m; ++k)
    b[k] = k % 5 - 1;
// Host code's accesses are element accesses too (dp keeps both sides
// coherent); a loop with no directive is no candidate here.
// REWRITE:     b(k) = k % 5 - 1;
  forms(n, m, a, b, 3.0);
  triangles(n, a);
  tiles(n, a);
  wavefront(n, a);
  run_time_tiles(n, a, 7);
  double sum = 0;
  for (int k = 0; k < n * m; ++k)
    sum += a[k];
  delete[] b;
  free(a);
// REWRITE:   b = dp::field<1, double>();
// REWRITE-NEXT:   a = dp::field<1, double>();
  return sum > 0 ? 0 : 1;
}
// SUMMARY: migrated 16 of 16 loops (0 refused)
// LIST: {
// LIST-NEXT:     "file": "loops.cpp",
// LIST-NEXT:     "line": 19,
// LIST-NEXT:     "column": 3,
// LIST-NEXT:     "construct": "omp parallel for",
// LIST-NEXT:     "verdict": "converted",
// LIST-NEXT:     "kind": "dp::forall",
// LIST-NEXT:     "rank": 1,
// LIST-NEXT:     "grid": "dp::grid<1>(dp::arithmetic_sequence(0, n))"
// LIST-NEXT:   },
