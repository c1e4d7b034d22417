// An OpenACC program as the OpenACC courses teach it, before dpstub: Laplace's
// equation on a plate by Jacobi relaxation. Raw arrays from malloc indexed
// through a macro, a data region around the time loop, a collapsed nest
// with a max reduction, a copy-back nest. `bash scripts/migrate-sample.sh`
// migrates it into dp call-sites with `dpstub --migrate`, translates the
// result with `dpstub` and runs all three builds: they print the same.
//
//   laplace [N [ITERATIONS]]   (an N x N plate, default 128, 400)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define OFFSET(i, j, m) ((i) * (m) + (j))

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 128;
  const int m = n;
  const int iter_max = argc > 2 ? atoi(argv[2]) : 400;
  const double tol = 1.0e-5;

  double *A = (double *)malloc(sizeof(double) * n * m);
  double *Anew = (double *)malloc(sizeof(double) * n * m);
  memset(A, 0, sizeof(double) * n * m);
  memset(Anew, 0, sizeof(double) * n * m);
  // The top edge is hot.
  for (int j = 0; j < m; j++) {
    A[OFFSET(0, j, m)] = 1.0;
    Anew[OFFSET(0, j, m)] = 1.0;
  }
  printf("Jacobi relaxation on a %d x %d plate\n", n, m);

  double error = 1.0;
  int iter = 0;
#pragma acc data copy(A[0:n*m]) create(Anew[0:n*m])
  while (error > tol && iter < iter_max) {
    error = 0.0;
#pragma acc parallel loop collapse(2) reduction(max:error)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++) {
        Anew[OFFSET(i, j, m)] = 0.25 * (A[OFFSET(i, j + 1, m)] + A[OFFSET(i, j - 1, m)] +
                                        A[OFFSET(i - 1, j, m)] + A[OFFSET(i + 1, j, m)]);
        error = fmax(error, fabs(Anew[OFFSET(i, j, m)] - A[OFFSET(i, j, m)]));
      }
#pragma acc parallel loop collapse(2)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        A[OFFSET(i, j, m)] = Anew[OFFSET(i, j, m)];
    if (iter % 100 == 0)
      printf("%5d, %0.6f\n", iter, error);
    iter++;
  }

  // In row order on the host: the same bits whatever ran the loops.
  double total = 0.0;
  for (int i = 0; i < n * m; i++)
    total += A[i];
  printf("%d iterations, error %0.6f, heat %0.10f\n", iter, error, total);
  free(A);
  free(Anew);
  return 0;
}
