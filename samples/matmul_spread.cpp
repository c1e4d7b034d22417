// C = A * B as a forall whose kernel takes rank-1 partial projections of
// spread/transposed views (the patent's pseudocode 15-16).
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>

#include "check.hpp"

void inner_product(float &c, const dp::field<1, float> &a, const dp::field<1, float> &b) {
  float s = 0;
  for (std::int64_t k = 0; k < a.get_extent(0); ++k)
    s += a(k) * b(k);
  c = s;
}

int main() {
  const int M = 96, K = 80, N = 112;
  dp::field<2, float> A(dp::grid<2>(M, K)), B(dp::grid<2>(K, N)), C(dp::grid<2>(M, N));
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      A(i, k) = float((i + 2 * k) % 7) - 3.0f;
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      B(k, j) = float((3 * k + j) % 5) - 2.0f;

  // spread<2>(transpose(A))(k, i, j) == A(i, k); spread<1>(B)(k, i, j) == B(k, j)
  dp::forall(C.get_grid(), inner_product, C, dp::spread<2>(dp::transpose(A)), dp::spread<1>(B));

  double err = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += A(i, k) * B(k, j);
      err = std::max(err, double(std::fabs(C(i, j) - s)));
    }
  std::printf("C(0,0) = %g, C(%d,%d) = %g\n", C(0, 0), M - 1, N - 1, C(M - 1, N - 1));
  return report("matmul_spread", err, 1e-3);
}
