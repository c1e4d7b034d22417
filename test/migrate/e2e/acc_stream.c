/* An OpenACC stream triad in the style of ParRes Kernels' nstream: the
 * arrays come from malloc and are first written by a device loop, then
 * updated by the triad each iteration; the host reads the result once.
 * Migrated, each array becomes a value-initialised dp::field, whose device
 * copy starts as zeros set on the device: CTest
 * migrate.region_costs.acc_stream asserts that no call-site moves a byte
 * (the initialising loop moved the three arrays' zeros to the device
 * before the runtime set them there). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int length = 1 << 16, iterations = 4;
  const double scalar = 3.0;
  double *A = (double *)malloc(length * sizeof(double));
  double *B = (double *)malloc(length * sizeof(double));
  double *C = (double *)malloc(length * sizeof(double));

#pragma acc parallel loop
  for (int i = 0; i < length; i++) {
    A[i] = 0.0;
    B[i] = 2.0;
    C[i] = 2.0;
  }
  for (int iter = 0; iter <= iterations; iter++) {
#pragma acc parallel loop
    for (int i = 0; i < length; i++)
      A[i] += B[i] + scalar * C[i];
  }

  double asum = 0.0;
  for (int i = 0; i < length; i++)
    asum += fabs(A[i]);
  printf("asum %.17g\n", asum);
  free(A);
  free(B);
  free(C);
  return 0;
}
