// The benchmark of dpstub --migrate (scripts/bench.sh migrate): an OpenMP
// program in the style of the codes users arrive with (raw pointers from
// malloc with linearized indices, collapse(2), reductions, a row loop with
// an inner serial sum). The script builds it twice: as written with
// g++ -fopenmp, and migrated then translated by dpstub on the host backend;
// both run on the same threads. Each kernel times its repetitions and
// prints `kernel <name> <seconds>`; the checksums must agree. Its library
// half, bench/migrate_library.cpp, holds kernels over the caller's
// pointers, which the migration borrows at each call.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define NX 2048
#define NY 2048
#define N (NX * NY)
#define REPS 20

// bench/migrate_library.cpp: kernels over a caller's pointers.
void lib_axpy(int n, double a, double *y, const double *x);
double lib_dot(int n, const double *x, const double *y);
void lib_layer(int n1, int n2, const double *x, double *y, double **w);
void lib_adjust(int n1, int n2, const double *delta, const double *x, double **w);

/// Backprop's layer over the rows w, 2 * REPS times, timed as kernel
/// `name`; returns the outputs it read back, for the checksum.
static double time_layer(const char *name, int n1, int n2, const double *x, double *y, double **w);
/// Backprop's weight update over the rows w, timed the same way.
static void time_adjust(const char *name, int n1, int n2, const double *delta, const double *x, double **w);
static double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

static void triad(double *a, const double *b, const double *c, double s) {
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    a[i] = b[i] + s * c[i];
}

static void jacobi(double *out, const double *in) {
#pragma omp parallel for collapse(2)
  for (int i = 1; i < NX - 1; ++i)
    for (int j = 1; j < NY - 1; ++j)
      out[i * NY + j] =
          0.25 * (in[(i - 1) * NY + j] + in[(i + 1) * NY + j] + in[i * NY + j - 1] + in[i * NY + j + 1]);
}

static double dot(const double *a, const double *b) {
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < N; ++i)
    sum += a[i] * b[i];
  return sum;
}

static double total(const double *a) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; ++i)
    s += a[i];
  return s;
}

static void matvec(double *y, const double *m, const double *x) {
#pragma omp parallel for
  for (int i = 0; i < NX; ++i) {
    double acc = 0;
    for (int j = 0; j < NY; ++j)
      acc += m[i * NY + j] * x[j];
    y[i] = acc;
  }
}

// A histogram: every iteration adds to a bin its key picks, under `omp
// atomic` (dp::atomic_add once migrated).
static void histogram(int *bins, const int *key) {
#pragma omp parallel for
  for (int i = 0; i < N; ++i) {
#pragma omp atomic
    bins[key[i]]++;
  }
}

// NPB BT's back-substitution: a serial sweep down i, a parallel loop
// over j at each i, each iteration a k, m, n nest of multiply-adds over
// global C arrays of rank 4 and 6 (fields once migrated, their elements
// addressed through every index). Many short loops, as BT runs them.
#define BN 24
static double bs_rhs[BN][BN][BN][5], bs_lhs[BN][BN][BN][3][5][5];
static void back_substitute() {
  int i, j, k, m, n;
  for (i = BN - 2; i >= 0; i--) {
#pragma omp parallel for private(k, m, n)
    for (j = 1; j < BN - 1; j++)
      for (k = 1; k < BN - 1; k++)
        for (m = 0; m < 5; m++)
          for (n = 0; n < 5; n++)
            bs_rhs[i][j][k][m] = bs_rhs[i][j][k][m] - bs_lhs[i][j][k][2][m][n] * bs_rhs[i + 1][j][k][n];
  }
}

int main() {
  double *a = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc(N * sizeof(double));
  double *c = (double *)malloc(N * sizeof(double));
  double *x = (double *)malloc(NY * sizeof(double));
  double *y = (double *)malloc(NX * sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < N; ++i) {
    a[i] = 0;
    b[i] = (i % 7) * 0.125;
    c[i] = (i % 5) * 0.25;
  }
#pragma omp parallel for
  for (int j = 0; j < NY; ++j)
    x[j] = (j % 3) * 0.5;

  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < REPS; ++r)
    triad(a, b, c, 0.5);
  printf("kernel triad %.6f\n", seconds_since(t0));

  t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < REPS / 2; ++r) {
    jacobi(c, a);
    jacobi(a, c);
  }
  printf("kernel jacobi %.6f\n", seconds_since(t0));

  double sum = 0;
  t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < REPS; ++r)
    sum += dot(a, b);
  printf("kernel dot %.6f\n", seconds_since(t0));

  double whole = 0;
  t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < REPS; ++r)
    whole += total(b);
  printf("kernel sum %.6f\n", seconds_since(t0));

  t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < REPS; ++r)
    matvec(y, a, x);
  printf("kernel matvec %.6f\n", seconds_since(t0));

  // 256 bins, keys spread over them (37 and 256 coprime).
  int *bins = (int *)calloc(256, sizeof(int));
  int *key = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; ++i)
    key[i] = (int)(((long)i * 37) % 256);
  t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < REPS / 4; ++r)
    histogram(bins, key);
  printf("kernel histogram %.6f\n", seconds_since(t0));
  double binned = 0;
  for (int k = 0; k < 256; ++k)
    binned += bins[k] * (k % 5);
  free(key);
  free(bins);

  for (int i = 0; i < BN; ++i)
    for (int j = 0; j < BN; ++j)
      for (int k = 0; k < BN; ++k)
        for (int m = 0; m < 5; ++m) {
          bs_rhs[i][j][k][m] = ((i + 2 * j + 3 * k + m) % 7) * 0.125;
          for (int l = 0; l < 3; ++l)
            for (int n = 0; n < 5; ++n)
              bs_lhs[i][j][k][l][m][n] = ((i + j + k + l + m + n) % 5) * 0.001 - 0.002;
        }
  t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < 10 * REPS; ++r)
    back_substitute();
  printf("kernel block_sweep %.6f\n", seconds_since(t0));

  // The library's kernels, over memory only they touch: borrowed at
  // each call once migrated. Many calls of a middling size, as a solver
  // makes them.
  const int n = N / 16;
  double *ly = (double *)malloc(n * sizeof(double));
  double *lx = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    ly[i] = (i % 9) * 0.5;
    lx[i] = (i % 4) * 0.25;
  }
  t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < 32 * REPS; ++r)
    lib_axpy(n, 0.5, ly, lx);
  printf("kernel borrowed_axpy %.6f\n", seconds_since(t0));
  double lsum = 0;
  t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < 32 * REPS; ++r)
    lsum += lib_dot(n, lx, ly);
  printf("kernel borrowed_dot %.6f\n", seconds_since(t0));

  // A layer over an array of rows: one block; rows allocated one by one,
  // in order (the heap lays them out evenly, its header between them);
  // and rows allocated in another order (scattered: until 2026-12-06
  // gathered into one block at each call, now read in place on the host
  // as the others, a device's copy alone gathering them). Then a weight
  // update writes the rows allocated in order, in place.
  // Not a power of two of doubles a row: the loop reads down columns, and
  // rows 8 KiB apart share a few cache sets, where malloc's rows lie 16
  // bytes further apart; the rows would then measure the cache, not the
  // borrowing.
  const int n1 = 1000, n2 = 1000;
  double *block = (double *)malloc(sizeof(double) * n1 * n2);
  double **rows = (double **)malloc(sizeof(double *) * n1);
  double **apart = (double **)malloc(sizeof(double *) * n1);
  double **scattered = (double **)malloc(sizeof(double *) * n1);
  for (int k = 0; k < n1; ++k) {
    rows[k] = block + (long)k * n2;
    apart[k] = (double *)malloc(sizeof(double) * n2);
  }
  for (int k = 0; k < n1; ++k)
    scattered[(k * 7) % n1] = (double *)malloc(sizeof(double) * n2); // 7 and 1000 coprime: each once
  for (int k = 0; k < n1; ++k)
    for (int j = 0; j < n2; ++j)
      rows[k][j] = apart[k][j] = scattered[k][j] = ((k * 7 + j) % 13) * 0.125;
  double layer = 0;
  layer += time_layer("rows_in_place", n1, n2, lx, ly, rows);
  layer += time_layer("rows_apart", n1, n2, lx, ly, apart);
  layer += time_layer("rows_gathered", n1, n2, lx, ly, scattered);
  time_adjust("rows_written", n1, n2, ly, lx, apart);
  for (int k = 0; k < n1; k += 7)
    layer += apart[k][(k * 3) % n2];

  // Rows too large for the heap's arena (200 KB each, past glibc's
  // 128 KiB threshold): each mapped alone, each below the one before, a
  // page's rounding apart. Evenly spaced downwards, they are read and
  // written in place (they were gathered, and written back, before
  // 2026-12-03).
  const int m1 = 40, m2 = 25000;
  double **mapped = (double **)malloc(sizeof(double *) * m1);
  for (int k = 0; k < m1; ++k) {
    mapped[k] = (double *)malloc(sizeof(double) * m2);
    for (int j = 0; j < m2; ++j)
      mapped[k][j] = ((k * 5 + j) % 11) * 0.25;
  }
  layer += time_layer("rows_mapped", m1, m2, lx, ly, mapped);
  time_adjust("rows_mapped_written", m1, m2, ly, lx, mapped);
  for (int k = 0; k < m1; k += 3)
    layer += mapped[k][(k * 7) % m2];
  for (int k = 0; k < m1; ++k)
    free(mapped[k]);
  free(mapped);

  printf("checksum %.10e %.10e %.10e %.10e %.10e %.10e %.10e %.10e %.10e\n", sum, whole, a[NY + 1] + a[N / 2], y[NX / 2],
         lsum, ly[n / 3], layer, binned, bs_rhs[3][5][7][2] + bs_rhs[BN - 2][1][BN - 2][4]);
  for (int k = 0; k < n1; ++k) {
    free(apart[k]);
    free(scattered[k]);
  }
  free(apart);
  free(scattered);
  free(rows);
  free(block);
  free(ly);
  free(lx);
  free(a);
  free(b);
  free(c);
  free(x);
  free(y);
  return 0;
}

static double time_layer(const char *name, int n1, int n2, const double *x, double *y, double **w) {
  double read = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < 2 * REPS; ++r) {
    lib_layer(n1, n2, x, y, w);
    read += y[r];
  }
  printf("kernel %s %.6f\n", name, seconds_since(t0));
  return read;
}

static void time_adjust(const char *name, int n1, int n2, const double *delta, const double *x, double **w) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < 2 * REPS; ++r)
    lib_adjust(n1, n2, delta, x, w);
  printf("kernel %s %.6f\n", name, seconds_since(t0));
}
