// C = A * B in tiles of 16 x 16, C++ AMP's classic: each tile's threads
// copy one block of A and one of B into tile memory, meet at a barrier,
// multiply the blocks, and meet again before the next pair. The extents
// are not multiples of 16: the padding threads load zeros, reach every
// barrier and their result is dropped.
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>

#include "check.hpp"

constexpr int T = 16;

void tile_product(const dp::tile_group<2> &t, float &c, const dp::field<2, float> &A,
                  const dp::field<2, float> &B) {
  dp::tile_static<float[T][T]> a(t), b(t);
  const std::int64_t row = t.global()[0], col = t.global()[1];
  const std::int64_t r = t.local()[0], k = t.local()[1];
  const std::int64_t K = A.get_extent(1);
  float sum = 0;
  for (std::int64_t k0 = 0; k0 < K; k0 += T) {
    // Rows past A and columns past B are padding: load zeros.
    a.get()[r][k] = row < A.get_extent(0) && k0 + k < K ? A(row, k0 + k) : 0.0f;
    b.get()[r][k] = k0 + r < K && col < B.get_extent(1) ? B(k0 + r, col) : 0.0f;
    t.barrier();
    for (int kk = 0; kk < T; ++kk)
      sum += a.get()[r][kk] * b.get()[kk][k];
    t.barrier();
  }
  c = sum;
}

int main() {
  const int M = 100, K = 90, N = 72;
  dp::field<2, float> A(dp::grid<2>(M, K)), B(dp::grid<2>(K, N)), C(dp::grid<2>(M, N));
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      A(i, k) = 0.01f * float((i * 7 + k) % 23 - 11);
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      B(k, j) = 0.02f * float((k + 3 * j) % 17 - 8);

  dp::forall(dp::tile<T, T>(C.get_grid()), tile_product, dp::_tile, C, dp::read_only(A),
             dp::read_only(B));

  double err = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += double(A(i, k)) * B(k, j);
      err = std::max(err, std::fabs(C(i, j) - s));
    }
  std::printf("C(0,0) = %g, C(%d,%d) = %g\n", C(0, 0), M - 1, N - 1, C(M - 1, N - 1));
  return report("tiled_matmul", err, 1e-4);
}
