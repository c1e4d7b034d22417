// A 5 x 5 convolution of an image, in tiles of 16 x 16: the tile's threads
// first load the tile's block of the image with a halo of 2 on every side
// (20 x 20 values: each thread loads one or two), meet at a barrier, and
// each then convolves from tile memory. Outside the image counts as zero.
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>

#include "check.hpp"

constexpr int T = 16, R = 2, W = T + 2 * R;

struct stencil {
  float w[2 * R + 1][2 * R + 1];

  void operator()(const dp::tile_group<2> &t, float &out, const dp::field<2, float> &in) const {
    dp::tile_static<float[W][W]> halo(t);
    const std::int64_t rows = in.get_extent(0), cols = in.get_extent(1);
    const std::int64_t r0 = t.tile_origin()[0] - R, c0 = t.tile_origin()[1] - R;
    for (std::int64_t k = t.local()[0] * T + t.local()[1]; k < W * W; k += T * T) {
      const std::int64_t r = r0 + k / W, c = c0 + k % W;
      halo.get()[k / W][k % W] = r >= 0 && r < rows && c >= 0 && c < cols ? in(r, c) : 0.0f;
    }
    t.barrier();
    float s = 0;
    for (int dr = 0; dr <= 2 * R; ++dr)
      for (int dc = 0; dc <= 2 * R; ++dc)
        s += w[dr][dc] * halo.get()[t.local()[0] + dr][t.local()[1] + dc];
    out = s;
  }
};

int main() {
  const int rows = 75, cols = 120;
  dp::field<2, float> image(dp::grid<2>(rows, cols)), out(dp::grid<2>(rows, cols));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      image(i, j) = float((i * 13 + j * 7) % 29) / 29.0f;
  stencil blur{};
  for (int dr = 0; dr <= 2 * R; ++dr)
    for (int dc = 0; dc <= 2 * R; ++dc)
      blur.w[dr][dc] = float(1 + std::min(dr, 2 * R - dr) + std::min(dc, 2 * R - dc)) / 61.0f;

  dp::forall(dp::tile<T, T>(out.get_grid()), blur, dp::_tile, out, dp::read_only(image));

  double err = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      double s = 0;
      for (int dr = -R; dr <= R; ++dr)
        for (int dc = -R; dc <= R; ++dc)
          if (i + dr >= 0 && i + dr < rows && j + dc >= 0 && j + dc < cols)
            s += double(blur.w[dr + R][dc + R]) * image(i + dr, j + dc);
      err = std::max(err, std::fabs(out(i, j) - s));
    }
  std::printf("out(0,0) = %g, out(%d,%d) = %g\n", out(0, 0), rows / 2, cols / 2,
              out(rows / 2, cols / 2));
  return report("convolution", err, 1e-5);
}
