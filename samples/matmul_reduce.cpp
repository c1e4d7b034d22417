// C += A * B as a pencil reduction over the (i, j, k) grid: reduce<2> folds
// the k dimension (the patent's pseudocode 17, with Dim naming the
// dimension reduced).
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

#include "check.hpp"

int main() {
  const int M = 64, N = 48, K = 72;
  dp::field<2, double> A(dp::grid<2>(M, K)), B(dp::grid<2>(K, N)), C(dp::grid<2>(M, N), 1.0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      A(i, k) = 0.01 * (i - k);
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      B(k, j) = 0.02 * (k + j % 3);

  dp::reduce<2>(dp::grid<3>(M, N, K), std::plus<>(), C,
                [](double a, double b) { return a * b; },
                dp::spread<1>(A),                  // (i, j, k) -> A(i, k)
                dp::spread<0>(dp::transpose(B))); // (i, j, k) -> B(k, j)

  double err = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 1.0;
      for (int k = 0; k < K; ++k)
        s += A(i, k) * B(k, j);
      err = std::max(err, std::fabs(C(i, j) - s));
    }
  std::printf("C(0,0) = %g, C(%d,%d) = %g\n", C(0, 0), M - 1, N - 1, C(M - 1, N - 1));
  return report("matmul_reduce", err, 1e-9);
}
