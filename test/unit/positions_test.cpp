// How the device's reductions, scans and sorts walk a domain
// (rt/positions.hpp): offsets raised to positions by 32-bit multiply-high
// division when every offset fits 32 bits, by 64-bit division otherwise,
// and dimensions of extent 1 skipped. Both ways must give what plain
// row-major arithmetic gives, at the edges of each.
#include <dp/rt/jobs.hpp>
#include <dp/rt/stub/iterators.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

/// Row-major coordinates of `offset` over e, the plain way.
template <int N> dp::index<N> plain(const dp::extent<N> &e, std::int64_t offset) {
  dp::index<N> p;
  for (int d = N - 1; d >= 0; --d) {
    p[d] = offset % e[d];
    offset /= e[d];
  }
  return p;
}

/// Offsets to try over e: both ends, around powers of two, random ones.
template <int N> std::vector<std::int64_t> offsets(const dp::extent<N> &e) {
  const std::int64_t n = e.size();
  std::vector<std::int64_t> o{0, 1, n / 2, n - 2, n - 1};
  for (std::int64_t b = 1; b < n; b *= 2)
    o.insert(o.end(), {b - 1, b});
  std::mt19937_64 rng(42);
  for (int i = 0; i < 200; ++i)
    o.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)));
  std::vector<std::int64_t> in;
  for (std::int64_t x : o)
    if (x >= 0 && x < n)
      in.push_back(x);
  return in;
}

template <int N> void check_linear(const dp::extent<N> &e, bool narrow) {
  const auto positions = dp::rt::linear_positions<N>::of(e);
  EXPECT_EQ(positions.raise.narrow, narrow);
  for (std::int64_t o : offsets(e))
    ASSERT_EQ(positions(o), plain(e, o)) << "offset " << o;
}

TEST(Positions, LinearOffsetsRaiseLikeRowMajorArithmetic) {
  check_linear(dp::extent<1>(17), true);
  check_linear(dp::extent<3>(3, 5, 7), true);
  check_linear(dp::extent<4>(1, 1, 1, 1000), true); // a merged launch: no division
  check_linear(dp::extent<4>(6, 1, 7, 1), true);
  check_linear(dp::extent<2>(65537, 65535), true);  // every offset just below 2^32
  check_linear(dp::extent<2>(65537, 65536), false); // one past
  check_linear(dp::extent<3>(3, 1, std::int64_t(1) << 33), false);
  check_linear(dp::extent<2>(2, 4294967295), false);
  check_linear(dp::extent<1>(4294967295), true);
}

template <int N, int Dim> void check_pencils(const dp::extent<N> &e, bool narrow) {
  const auto positions = dp::rt::pencil_positions<N, Dim>::of(e);
  const auto keys = dp::rt::pencil_keys<N, Dim>::of(positions);
  EXPECT_EQ(positions.narrow, narrow);
  // Pencil numbers run row-major over the other dimensions.
  dp::extent<(N > 1 ? N - 1 : 1)> others;
  for (int d = 0, j = 0; d < N; ++d)
    if (d != Dim || N == 1)
      others[j++] = N == 1 ? 1 : e[d];
  for (std::int64_t o : offsets(e)) {
    const std::int64_t p = o / e[Dim], k = o % e[Dim];
    dp::index<N> want;
    if constexpr (N > 1) {
      const auto q = plain(others, p);
      for (int d = 0, j = 0; d < N; ++d)
        want[d] = d == Dim ? k : q[j++];
    } else {
      want[0] = k;
    }
    ASSERT_EQ(positions(o), want) << "offset " << o;
    ASSERT_EQ(keys(o), p) << "offset " << o;
  }
}

TEST(Positions, PencilOffsetsRaiseLikeRowMajorArithmetic) {
  check_pencils<1, 0>(dp::extent<1>(1000), true);
  check_pencils<2, 0>(dp::extent<2>(7, 9), true);
  check_pencils<2, 1>(dp::extent<2>(7, 9), true);
  check_pencils<3, 1>(dp::extent<3>(4, 5, 6), true);
  check_pencils<3, 0>(dp::extent<3>(1, 5, 1), true);
  check_pencils<4, 2>(dp::extent<4>(2, 1, 300, 3), true);
  check_pencils<2, 1>(dp::extent<2>(65537, 65535), true);
  check_pencils<2, 0>(dp::extent<2>(65537, 65536), false);
  check_pencils<3, 2>(dp::extent<3>(5, 1, std::int64_t(1) << 32), false);
}

TEST(Positions, RowMajorDenseProjections) {
  int data[1] = {};
  dp::detail::affine_projection<int, 3> p;
  p.base = data;
  p.step[0] = 20, p.step[1] = 5, p.step[2] = 1;
  EXPECT_TRUE(dp::rt::row_major_dense(p, dp::extent<3>(3, 4, 5)));
  EXPECT_FALSE(dp::rt::row_major_dense(p, dp::extent<3>(3, 4, 4))) << "rows padded";
  p.step[2] = 2;
  EXPECT_FALSE(dp::rt::row_major_dense(p, dp::extent<3>(3, 4, 5))) << "strided rows";
  p.step[0] = 999, p.step[1] = 5, p.step[2] = 1;
  EXPECT_TRUE(dp::rt::row_major_dense(p, dp::extent<3>(1, 4, 5))) << "extent 1: any step";
  p.step[0] = 1, p.step[1] = 3, p.step[2] = 12;
  EXPECT_FALSE(dp::rt::row_major_dense(p, dp::extent<3>(3, 4, 5))) << "a transpose";
}

} // namespace

// The positions the host's rows give a body (rt/jobs.hpp positions_of):
// origin rows are unit rows whose broadcast fields start at index 0 over
// a grid stepping by 1; on them an index value is the grid's first value
// plus the position, as on any row where the steps are 1.
TEST(Positions, OriginRowsAreUnitRowsAtIndexZero) {
  using dp::rt::row_position_kind;
  dp::rt::row_layout rows;
  EXPECT_EQ(dp::rt::positions_of(rows), row_position_kind::origin);
  rows.origin = false;
  EXPECT_EQ(dp::rt::positions_of(rows), row_position_kind::unit);
  rows.origin = true;
  rows.unit_rows = false;
  EXPECT_EQ(dp::rt::positions_of(rows), row_position_kind::index);

  dp::rt::index_values<2> values{{3, -2}, {1, 1}};
  dp::detail::origin_row_index<2> at;
  at[0] = 4, at[1] = 7;
  dp::index<2> plain;
  plain[0] = 4, plain[1] = 7;
  EXPECT_EQ(values[at], values[plain]);
  EXPECT_EQ(values[at][0], 7);
  EXPECT_EQ(values[at][1], 5);
}
