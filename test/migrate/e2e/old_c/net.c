/* Kernels of a small network, written as old C (Rodinia's backprop is):
 * K&R definitions, implicit ints (one returning no value, which C allows
 * where callers ignore it), `register` in a macro, a local named
 * `new`, weights as arrays of rows allocated one by one. Its callers are
 * C (main.c): once migrated, as C++, the file keeps C linkage for them,
 * and for the function of main.c it calls (progress.h). */
#include <math.h>
#include <stdlib.h>
#include "net.h"
#include "progress.h"

#define COPY(to, from, n)                                                                           \
  {                                                                                                 \
    register int k_;                                                                                \
    for (k_ = 0; k_ < (n); k_++)                                                                    \
      (to)[k_] = (from)[k_];                                                                        \
  }

float squash(x)
float x;
{
  return 1.0f / (1.0f + expf(-x));
}

static fill(row, n, seed) /* one row of weights */
float *row;
{
  int j;
  for (j = 0; j < n; j++)
    row[j] = (float)((seed * 7 + j * 3) % 16 - 8) / 32.0f;
  return n;
}

static zero_row(row, n) /* an implicit int, and no value returned */
float *row;
{
  int j;
  for (j = 0; j < n; j++)
    row[j] = 0.0f;
}

float **alloc_rows(m, n)
int m, n;
{
  float **new = (float **)malloc(m * sizeof(float *));
  float first[64];
  int i;
  fill(first, n, 1);
  for (i = 0; i < m; i++) {
    new[i] = (float *)malloc(n * sizeof(float));
    if (i == 0)
      COPY(new[i], first, n)
    else if (i % 3 == 2)
      zero_row(new[i], n);
    else
      fill(new[i], n, i + 1);
  }
  return new;
}

void free_rows(rows, m)
float **rows;
int m;
{
  int i;
  for (i = 0; i < m; i++)
    free(rows[i]);
  free(rows);
}

/* out[j] = squash(sum over k of w[k][j] * in[k]), for j from 1. */
void layer(in, out, w, n_in, n_out)
const float *in;
float *out, **w;
int n_in, n_out;
{
  int j, k;
  float sum;
#pragma omp parallel for private(j, k, sum)
  for (j = 1; j <= n_out; j++) {
    sum = 0.0f;
    for (k = 0; k <= n_in; k++)
      sum += w[k][j] * in[k];
    out[j] = squash(sum);
  }
}

void adjust(delta, n_out, in, n_in, w, prev)
const float *delta, *in;
int n_out, n_in;
float **w, **prev;
{
  int j, k;
  float dw;
  progress("adjust", n_out);
#pragma omp parallel for private(j, k, dw)
  for (j = 1; j <= n_out; j++)
    for (k = 0; k <= n_in; k++) {
      dw = 0.25f * delta[j] * in[k] + 0.5f * prev[k][j];
      w[k][j] += dw;
      prev[k][j] = dw;
    }
}
