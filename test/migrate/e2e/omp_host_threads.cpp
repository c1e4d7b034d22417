// An OpenMP program whose migration keeps one loop on the host's threads
// (it calls a helper with a static local) between loops that become
// call-sites, built with -fopenmp: the threads share a dp::field whose
// data a converted loop left on the device. Unless the field is brought
// to the host once before them, each thread's first access copies it from
// the device at once with the others, over another thread's writes: in
// dispatch emulation the sums came out wrong at every run (2026-12-05).
#include <cstdio>
#include <cstdlib>

static double shade(double x) {
  static const double half = 0.5;
  return x * half;
}

int main() {
  const int n = 1 << 16;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[i] = i;
    b[i] = 2 * i;
  }
  for (int rep = 0; rep < 4; rep++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = a[i] + b[i] + 1;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = shade(a[i]);
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  printf("%.17g\n", sum);
  free(a);
  free(b);
  return 0;
}
