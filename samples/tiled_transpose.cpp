// B = transpose(A) through tile memory: a tile of 32 x 32 threads reads a
// block of A along its rows (coalesced), and writes the block of B along
// B's rows, reading tile memory down a column. The tile is T[32][33]: the
// extra column puts the elements of a column in distinct memory banks.
#include <dp/dp.hpp>

#include <algorithm>

#include "check.hpp"

constexpr int T = 32;

void transpose_tile(const dp::tile_group<2> &t, const float &a, dp::field<2, float> &B) {
  dp::tile_static<float[T][T + 1]> block(t);
  const dp::index<2> l = t.local();
  block.get()[l[0]][l[1]] = a; // padding threads store a zero, never read
  t.barrier();
  // This thread writes B(j, i) for the transposed place in the tile.
  const std::int64_t j = t.tile_origin()[1] + l[0], i = t.tile_origin()[0] + l[1];
  if (j < B.get_extent(0) && i < B.get_extent(1))
    B(j, i) = block.get()[l[1]][l[0]];
}

int main() {
  const int M = 200, N = 130;
  dp::field<2, float> A(dp::grid<2>(M, N)), B(dp::grid<2>(N, M), -1.0f);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      A(i, j) = float(i * 1000 + j);

  dp::forall(dp::tile<T, T>(A.get_grid()), transpose_tile, dp::_tile, A, B);

  double err = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      err = std::max(err, double(B(j, i) != A(i, j)));
  std::printf("B(%d,%d) = %g (A(%d,%d))\n", N - 1, 0, B(N - 1, 0), 0, N - 1);
  return report("tiled_transpose", err, 0);
}
