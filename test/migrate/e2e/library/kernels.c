/*
 * A library of offloaded kernels in the style of NeoRodinia's OpenMP and
 * OpenACC versions: pointer parameters from callers in other files, each
 * loop mapping them by array sections. dpstub --migrate borrows each
 * array for its call-site (dp::borrow over the section's elements).
 */
#include "kernels.h"

#include <math.h>

void axpy(int n, float a, float *y, const float *x) {
  #pragma omp target teams distribute parallel for map(tofrom: y[0:n]) map(to: x[0:n])
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

void matvec(int n, const double *a, const double *x, double *y) {
  int i, j;
  double temp;
  int size = n * n;
  #pragma omp target parallel for map(to : n, a[0 : size], x[0 : n]) map(from : y[0 : n])
  for (i = 0; i < n; i++) {
    temp = 0.0;
    for (j = 0; j < n; j++)
      temp += a[i * n + j] * x[j];
    y[i] = temp;
  }
}

double dot(int n, const double *x, const double *y) {
  double sum = 0.0;
#pragma acc parallel loop reduction(+:sum) copyin(x[:n], y[:n])
  for (int i = 0; i < n; i++)
    sum += x[i] * y[i];
  return sum;
}

/* Rows of a linearized matrix, each scaled by its own factor. */
void scale_rows(int rows, int cols, double *m, const double *s) {
#pragma acc parallel loop collapse(2) copy(m[0:rows * cols]) copyin(s[0:rows])
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      m[r * cols + c] *= s[r];
}

/* A three-point average; its ends copied. */
void smooth(int n, const double *in, double *out) {
  out[0] = in[0];
  out[n - 1] = in[n - 1];
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(tofrom: out[0:n])
  for (int i = 1; i < n - 1; i++)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
}

/* Time steps inside one data region: the region borrows u and tmp once. */
void relax(int n, int steps, double *u, double *tmp) {
#pragma acc data copy(u[0:n]) create(tmp[0:n])
  for (int s = 0; s < steps; s++) {
#pragma acc parallel loop
    for (int i = 1; i < n - 1; i++)
      tmp[i] = 0.5 * (u[i - 1] + u[i + 1]);
#pragma acc parallel loop
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
}

/* A lower triangular solve, l x = x, row by row: each row's sum is a
   reduction into x[i] over the elements before it. */
void lower_solve(int n, const double *l, double *x) {
  for (int i = 0; i < n; i++) {
#pragma acc parallel loop copyin(l[0:n * n], x[0:n])
    for (int j = 0; j < i; j++)
      x[i] -= l[i * n + j] * x[j];
    x[i] /= l[i * n + i];
  }
}

/* NeoRodinia's CPU versions: a host loop's directive has no data clause.
   The accesses give the length: the last row's last element for a. */
void matvec_cpu(int n, const double *a, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t = 0.0;
    for (int j = 0; j < n; j++)
      t += a[i * n + j] * x[j];
    y[i] = t;
  }
}

/* Counting down, reaching one element beyond the loop's first value. */
void reverse_diff(int n, const double *in, double *out) {
#pragma omp parallel for
  for (int i = n - 2; i >= 0; i--)
    out[i] = in[i + 1] - in[i];
}

/* Doolittle's LU in place, row i then column i at each step (NeoRodinia's
   lud): the host loop around each call-site bounds the rows it reaches. */
void lu(int n, double *a) {
  for (int i = 0; i < n; i++) {
#pragma omp parallel for
    for (int j = i; j < n; j++) {
      double sum = a[i * n + j];
      for (int k = 0; k < i; k++)
        sum -= a[i * n + k] * a[k * n + j];
      a[i * n + j] = sum;
    }
#pragma omp parallel for
    for (int j = i + 1; j < n; j++) {
      double sum = a[j * n + i];
      for (int k = 0; k < i; k++)
        sum -= a[j * n + k] * a[k * n + i];
      a[j * n + i] = sum / a[i * n + i];
    }
  }
}

void span_ends(int n, const struct span *spans, int *end) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    end[i] = spans[i].start + spans[i].count;
}

/* A search through nodes with member arrays (b+tree's kernels): the
   access is of the node, its member array indexed inside the kernel. */
void find_keys(const struct tree_node *nodes, long count, const long *at, int *found, int q, int key) {
#pragma omp target parallel for map(to: nodes[0:count], at[0:q]) map(tofrom: found[0:q])
  for (int b = 0; b < q; b++)
    for (int t = 0; t < 4; t++)
      if (nodes[at[b]].keys[t] == key)
        found[b] = nodes[at[b]].indices[t];
}

void bump_keys(struct tree_node *nodes, int n) {
#pragma omp parallel for
  for (int b = 0; b < n; b++)
    for (int t = 0; t < 4; t++)
      nodes[b].keys[t] += b;
}

/* No section says how long v is; the loop's accesses do. */
void clear(int n, double *v) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    v[i] = 0.0;
}

/* Gaussian elimination's steps (NeoRodinia's gaussian, Rodinia's Fan1 and
   Fan2): t is a parameter, of a sign dpstub cannot know, so the elements
   the loops touch need not start at the pointer's first. Each call-site
   borrows the window from the first element they touch to the last. */
void fan1(float *m, const float *a, int size, int t) {
#pragma omp parallel for
  for (int i = 0; i < size - 1 - t; i++)
    m[size * (i + t + 1) + t] = a[size * (i + t + 1) + t] / a[size * t + t];
}

void fan2(float *m, float *a, float *b, int size, int t) {
#pragma omp parallel for
  for (int i = 0; i < size - 1 - t; i++)
    for (int j = 0; j < size - t; j++)
      a[size * (i + 1 + t) + (j + t)] -= m[size * (i + 1 + t) + t] * a[size * t + (j + t)];
#pragma omp parallel for
  for (int i = 0; i < size - 1 - t; i++)
    b[i + 1 + t] -= m[size * (i + 1 + t) + t] * b[t];
}

/* The forward pass of NeoRodinia's offloaded gaussian: a data region
   around the steps' calls borrows the arrays for its whole extent, and
   each step's windows are served by its blocks (on a device, nothing
   crosses between the steps). */
void forward(float *m, float *a, float *b, int size) {
#pragma omp target data map(tofrom: m[0:size * size], a[0:size * size], b[0:size])
  {
    for (int t = 0; t < size - 1; t++) {
      fan1(m, a, size, t);
      fan2(m, a, b, size, t);
    }
  }
}

/* A filter over an image, bounds-checked at its edges (NeoRodinia's
   stencil): the conditions say how far img and k reach, and a filter
   larger than the image is read only where some pixel meets it. */
void convolve(const float *img, float *out, int w, int h, const float *k, int kw, int kh) {
#pragma omp parallel for
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      float acc = 0.0f;
      for (int dy = 0; dy < kh; dy++)
        for (int dx = 0; dx < kw; dx++) {
          int y = r + dy - kh / 2;
          int x = c + dx - kw / 2;
          if (y >= 0 && y < h && x >= 0 && x < w)
            acc += img[y * w + x] * k[dy * kw + dx];
        }
      out[r * w + c] = acc;
    }
}
