// The caller of kernels.c: allocates, fills, calls, prints. It has no
// loops to migrate; its memory reaches the kernels as plain pointers.
#include "kernels.h"

#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 300, rows = 37, cols = 29;
  float *y = static_cast<float *>(std::malloc(n * sizeof(float)));
  float *x = static_cast<float *>(std::malloc(n * sizeof(float)));
  double *a = static_cast<double *>(std::malloc(n * n * sizeof(double)));
  double *u = static_cast<double *>(std::malloc(n * sizeof(double)));
  double *v = static_cast<double *>(std::malloc(n * sizeof(double)));
  double *m = static_cast<double *>(std::malloc(rows * cols * sizeof(double)));
  double *s = static_cast<double *>(std::malloc(rows * sizeof(double)));
  for (int i = 0; i < n; ++i) {
    y[i] = 0.5f * i;
    x[i] = 1.0f + (i % 7);
    u[i] = 0.25 * (i % 11);
    for (int j = 0; j < n; ++j)
      a[i * n + j] = ((i + 2 * j) % 13) / 8.0;
  }
  for (int i = 0; i < rows * cols; ++i)
    m[i] = i % 17;
  for (int r = 0; r < rows; ++r)
    s[r] = 1.0 + r / 4.0;

  axpy(n, 2.0f, y, x);
  std::printf("axpy: %.2f %.2f %.2f\n", y[0], y[1], y[n - 1]);
  axpy(0, 1.0f, y, x); // nothing to do
  // C lets a caller pass one array as two pointers: the loops read the
  // values from before them, as the originals do.
  axpy(n, 0.5f, y, y);
  axpy(n - 1, 1.0f, y, y + 1);
  std::printf("axpy, aliased: %.2f %.2f %.2f\n", y[0], y[1], y[n - 1]);
  matvec(n, a, u, v);
  std::printf("matvec: %.4f %.4f %.4f\n", v[0], v[n / 2], v[n - 1]);
  std::printf("dot: %.4f\n", dot(n, u, v));
  std::printf("dot, overlapping: %.4f\n", dot(n - 1, u, u + 1));
  scale_rows(rows, cols, m, s);
  std::printf("scale_rows: %.2f %.2f %.2f\n", m[0], m[cols + 1], m[rows * cols - 1]);
  smooth(n, v, u);
  std::printf("smooth: %.4f %.4f %.4f\n", u[0], u[1], u[n - 1]);
  double *t = static_cast<double *>(std::malloc(n * sizeof(double)));
  relax(n, 25, u, t);
  std::printf("relax: %.6f %.6f %.6f\n", u[1], u[n / 2], u[n - 2]);
  std::free(t);
  // a's lower triangle, made diagonally dominant, solves for v.
  for (int i = 0; i < n; ++i)
    a[i * n + i] = n + i % 3;
  lower_solve(n, a, v);
  std::printf("lower_solve: %.6f %.6f %.6f\n", v[0], v[n / 2], v[n - 1]);
  matvec_cpu(n, a, u, v);
  std::printf("matvec_cpu: %.4f %.4f %.4f\n", v[0], v[n / 2], v[n - 1]);
  reverse_diff(n, v, u);
  std::printf("reverse_diff: %.6f %.6f %.6f\n", u[0], u[n / 2], u[n - 2]);
  reverse_diff(1, v, u); // no iteration: nothing borrowed
  lu(n, a);
  std::printf("lu: %.6f %.6f %.6f\n", a[n + 1], a[(n / 2) * n + n / 3], a[n * n - 1]);
  span spans[5] = {{0, 3}, {3, 1}, {4, 0}, {4, 7}, {11, 2}};
  int end[5];
  span_ends(5, spans, end);
  std::printf("span_ends: %d %d %d %d %d\n", end[0], end[1], end[2], end[3], end[4]);
  tree_node nodes[6];
  for (int k = 0; k < 6; ++k)
    for (int t = 0; t < 4; ++t) {
      nodes[k].keys[t] = 10 * k + t;
      nodes[k].indices[t] = 100 * k + t;
    }
  bump_keys(nodes, 6);
  long at[5] = {5, 0, 3, 3, 1};
  int found[5] = {-1, -1, -1, -1, -1};
  find_keys(nodes, 6, at, found, 5, 33);
  std::printf("find_keys: %d %d %d %d %d\n", found[0], found[1], found[2], found[3], found[4]);
  clear(n, v);
  clear(0, u);
  std::printf("clear: %.1f %.6f\n", v[n / 3], u[1]);
  // Forward elimination of a diagonally dominant system, a step per t.
  const int size = 23;
  float *ga = static_cast<float *>(std::malloc(size * size * sizeof(float)));
  float *gm = static_cast<float *>(std::calloc(size * size, sizeof(float)));
  float *gb = static_cast<float *>(std::malloc(size * sizeof(float)));
  for (int i = 0; i < size; ++i) {
    gb[i] = 1.0f + i % 5;
    for (int j = 0; j < size; ++j)
      ga[i * size + j] = i == j ? 2.0f * size : static_cast<float>((i + 3 * j) % 7) / 4.0f;
  }
  for (int step = 0; step < size - 1; ++step) {
    fan1(gm, ga, size, step);
    fan2(gm, ga, gb, size, step);
  }
  fan1(gm, ga, size, size - 1); // no row below the last: nothing touched
  std::printf("gaussian: %.5f %.5f %.5f %.5f\n", ga[size * size - 1], gm[(size - 1) * size + 3], gb[size - 1],
              ga[5 * size + 9]);
  // The same elimination again, inside the forward pass's data region.
  for (int i = 0; i < size; ++i) {
    gb[i] = 1.0f + i % 5;
    for (int j = 0; j < size; ++j) {
      ga[i * size + j] = i == j ? 2.0f * size : static_cast<float>((i + 3 * j) % 7) / 4.0f;
      gm[i * size + j] = 0.0f;
    }
  }
  forward(gm, ga, gb, size);
  std::printf("forward: %.5f %.5f %.5f %.5f\n", ga[size * size - 1], gm[(size - 1) * size + 3], gb[size - 1],
              ga[5 * size + 9]);
  std::free(ga);
  std::free(gm);
  std::free(gb);
  // A 5 x 3 filter over a 17 x 11 image, then a 9 x 7 one over a 4 x 2
  // image: only its middle rows and columns meet a pixel.
  const int iw = 17, ih = 11;
  float *img = static_cast<float *>(std::malloc(iw * ih * sizeof(float)));
  float *out = static_cast<float *>(std::malloc(iw * ih * sizeof(float)));
  float *filter = static_cast<float *>(std::malloc(9 * 7 * sizeof(float)));
  for (int i = 0; i < iw * ih; ++i)
    img[i] = static_cast<float>((i * 7) % 13) / 8.0f;
  for (int i = 0; i < 9 * 7; ++i)
    filter[i] = static_cast<float>(i % 5 + 1) / 16.0f;
  convolve(img, out, iw, ih, filter, 5, 3);
  std::printf("convolve: %.5f %.5f %.5f\n", out[0], out[iw + 3], out[iw * ih - 1]);
  convolve(img, out, 4, 2, filter, 9, 7);
  std::printf("convolve, small image: %.5f %.5f %.5f\n", out[0], out[5], out[7]);
  std::free(img);
  std::free(out);
  std::free(filter);
  std::free(y);
  std::free(x);
  std::free(a);
  std::free(u);
  std::free(v);
  std::free(m);
  std::free(s);
  return 0;
}
