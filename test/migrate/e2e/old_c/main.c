/* The network's caller, in C: it is not migrated, and links with the
 * migrated net.c (C++ by then) as with the original. */
#include <stdio.h>
#include "net.h"
#include "progress.h"

static int adjusted;

void progress(const char *stage, int n) {
  adjusted += n;
  if (adjusted == n)
    printf("first %s of %d outputs\n", stage, n);
}

int main(void) {
  const int n_in = 12, n_out = 6;
  float **w = alloc_rows(n_in + 1, n_out + 1), **prev = alloc_rows(n_in + 1, n_out + 1);
  float in[13], out[7], delta[7];
  int i, j, round;
  for (i = 0; i <= n_in; i++)
    in[i] = (float)(i % 5) / 4.0f;
  for (round = 0; round < 4; round++) {
    double total = 0;
    layer(in, out, w, n_in, n_out);
    for (j = 1; j <= n_out; j++)
      delta[j] = (0.5f - out[j]) * out[j] * (1.0f - out[j]);
    adjust(delta, n_out, in, n_in, w, prev);
    for (i = 0; i <= n_in; i++)
      for (j = 0; j <= n_out; j++)
        total += w[i][j];
    printf("round %d: out %.6f %.6f, weights %.6f\n", round, out[1], out[n_out], total);
  }
  printf("%d outputs adjusted\n", adjusted);
  free_rows(w, n_in + 1);
  free_rows(prev, n_in + 1);
  return 0;
}
