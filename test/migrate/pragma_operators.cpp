// Directives written by the _Pragma operator, in the file or by macros:
// ParRes Kernels' style, macros that write OpenMP's directives only when
// the build enables OpenMP (so dpstub defines _OPENMP as the build does).
// FLAGS: -fopenmp
#include <cstdio>
#include <cstdlib>

#define PRAGMA(x) _Pragma(#x)
#ifdef _OPENMP
#define OMP_PARALLEL(x) PRAGMA(omp parallel x)
#define OMP_FOR(x) PRAGMA(omp for x)
#define OMP_PARALLEL_FOR_REDUCE(x) PRAGMA(omp parallel for reduction(x))
#define OMP_BARRIER PRAGMA(omp barrier)
#define OMP_MASTER PRAGMA(omp master)
#else
#define OMP_PARALLEL(x)
#define OMP_FOR(x)
#define OMP_PARALLEL_FOR_REDUCE(x)
#define OMP_BARRIER
#define OMP_MASTER
#endif
// Two directives from one macro's use: neither can go alone.
#define PARALLEL_THEN_FOR _Pragma("omp parallel") _Pragma("omp for")

static double nstream(int n, int iterations, double *a, const double *b, const double *c) {
  double scalar = 3.0;
  int done = 0;
  OMP_PARALLEL()
  {
    OMP_FOR()
    for (int i = 0; i < n; ++i)
      a[i] = 0.0;
// DIAG: pragma_operators.cpp:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// The macro's line goes, as a `#pragma` line would.
// REWRITE-NOT: {{ *}}OMP_FOR(){{$}}
// REWRITE: {{ *}}dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &a) {
    for (int iter = 0; iter <= iterations; ++iter) {
      OMP_FOR()
      for (int i = 0; i < n; ++i)
        a[i] += b[i] + scalar * c[i];
// DIAG: pragma_operators.cpp:[[@LINE-2]]:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
    }
    OMP_BARRIER
    OMP_MASTER
    done = 1;
  }
// Every loop of the region moved, so the region goes; its other
// directives stay as written (they bind to the one thread left).
// REWRITE-NOT: {{ *}}OMP_PARALLEL(){{$}}
// REWRITE: {{ *}}OMP_BARRIER
// REWRITE-NEXT: {{ *}}OMP_MASTER
  double asum = 0.0;
  OMP_PARALLEL_FOR_REDUCE(+ : asum)
  for (int i = 0; i < n; ++i)
    asum += a[i];
// DIAG: pragma_operators.cpp:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// The clause's reduction, read from the macro's expansion.
// REWRITE: {{ *}}dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), std::plus<>(), dp_asum, [=](dp::index<1> idx, const dp::field<1, double> &a) {
  return asum + done;
}

static void transpose(int n, double *b, const double *a) {
  OMP_PARALLEL()
  {
    OMP_FOR(collapse(2))
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        b[i * n + j] += a[j * n + i];
// DIAG: pragma_operators.cpp:[[@LINE-3]]:5: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// REWRITE: {{ *}}dp::forall(dp::grid<2>(dp::arithmetic_sequence(0, n), dp::arithmetic_sequence(0, n)), [=](dp::index<2> idx, dp::field<1, double> &b, const dp::field<1, const double> &a) {
  }
}

static void operators(int n, double *x) {
  _Pragma("omp parallel for")
  for (int i = 0; i < n; ++i)
    x[i] = 2 * x[i];
// DIAG: pragma_operators.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE-NOT: {{.*}}_Pragma("omp parallel for"){{.*}}
// REWRITE: {{ *}}x(i) = 2 * x(i);
  _Pragma("omp parallel for") for (int i = 0; i < n; ++i) x[i] += 1;
// DIAG: pragma_operators.cpp:[[@LINE-1]]:31: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// Sharing its line with the loop, the operator alone goes.
// REWRITE: {{ *}}x(i) += 1;
  PARALLEL_THEN_FOR
  for (int i = 0; i < n; ++i)
    x[i] -= 1;
// DIAG: pragma_operators.cpp:[[@LINE-3]]:3: warning: not converted: 'omp for' is written by a macro that writes other directives too, so it cannot go alone: give it a macro of its own [dp-migrate]
// REWRITE: {{ *}}PARALLEL_THEN_FOR
// REWRITE-NEXT: {{ *}}for (int i = 0; i < n; ++i)
// REWRITE-NEXT: {{ *}}x(i) -= 1;
}

int main() {
  const int n = 64;
  double *a = (double *)malloc(sizeof(double) * n * n);
  double *b = (double *)malloc(sizeof(double) * n * n);
  double *c = (double *)malloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = i % 5;
    b[i] = i % 3;
    c[i] = 1.0;
  }
  const double s = nstream(n * n, 3, a, b, c);
  transpose(n, b, a);
  operators(n * n, c);
  printf("%.3f %.3f %.3f\n", s, b[n + 1], c[7]);
  free(a);
  free(b);
  free(c);
  return 0;
}
// SUMMARY: migrated 6 of 7 loops (1 refused)
