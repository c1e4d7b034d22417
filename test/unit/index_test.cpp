// dp::index, dp::extent, dp::arithmetic_sequence and dp::grid.
#include <dp/dp.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

namespace {

TEST(Index, CoordinatesAndPointwiseArithmetic) {
  const dp::index<3> a(1, 2, 3), b(4, 5, 6);
  EXPECT_EQ(a[0], 1);
  EXPECT_EQ(a[2], 3);
  EXPECT_EQ(a + b, dp::index<3>(5, 7, 9));
  EXPECT_EQ(b - a, dp::index<3>(3, 3, 3));
  EXPECT_EQ(a * b, dp::index<3>(4, 10, 18));
  EXPECT_EQ(dot(a, b), 32);
  EXPECT_NE(a, b);
  EXPECT_EQ(dp::index<2>(std::array<std::int64_t, 2>{7, 8}), dp::index<2>(7, 8));
  EXPECT_EQ(dp::index<2>(), dp::index<2>(0, 0));
}

TEST(Index, SixtyFourBitCoordinates) {
  // Index values past 2^32 reach the kernel and select the right element.
  const std::int64_t big = std::int64_t(1) << 40;
  dp::field<1, std::int64_t> values(dp::grid<1>(dp::arithmetic_sequence(big, big + 8)));
  dp::forall(values.get_grid(), [](dp::index<1> i, std::int64_t &v) { v = i[0]; }, dp::_index,
             values);
  EXPECT_EQ(values(big + 7), big + 7);

  // Element offsets past 2^32 (row * row length overflows 32 bits): a
  // 65537 x 65536 field of bytes, written and reduced over its last rows.
  const std::int64_t rows = 65537, cols = 65536;
  dp::field<2, std::uint8_t> bytes(dp::grid<2>(rows, cols));
  const dp::grid<2> tail(dp::arithmetic_sequence(rows - 2, rows),
                         dp::arithmetic_sequence(cols - 4, cols));
  dp::forall(tail, [](dp::index<2> i, std::uint8_t &b) { b = std::uint8_t(i[0] * 3 + i[1]); },
             dp::_index, bytes);
  EXPECT_EQ(bytes(rows - 1, cols - 1), std::uint8_t((rows - 1) * 3 + cols - 1));
  EXPECT_EQ(bytes(rows - 2, cols - 4), std::uint8_t((rows - 2) * 3 + cols - 4));
  EXPECT_EQ(bytes(rows - 3, cols - 1), 0); // untouched, below the written rows
  dp::scalar<std::int64_t> sum(0);
  dp::reduce(tail, std::plus<>(), sum, [](std::uint8_t b) { return std::int64_t(b); }, bytes);
  std::int64_t expected = 0;
  for (std::int64_t i = rows - 2; i < rows; ++i)
    for (std::int64_t j = cols - 4; j < cols; ++j)
      expected += std::uint8_t(i * 3 + j);
  EXPECT_EQ(sum.get(), expected);
}

TEST(Extent, SizeAndContains) {
  const dp::extent<2> e(3, 4);
  EXPECT_EQ(e.size(), 12);
  EXPECT_TRUE(e.contains(dp::index<2>(2, 3)));
  EXPECT_FALSE(e.contains(dp::index<2>(3, 0)));
  EXPECT_FALSE(e.contains(dp::index<2>(0, -1)));
  EXPECT_EQ(dp::extent<2>(0, 5).size(), 0);
}

TEST(ArithmeticSequence, Constructors) {
  const dp::arithmetic_sequence n(4);
  EXPECT_EQ(n.lb, 0);
  EXPECT_EQ(n.extent, 4);
  EXPECT_EQ(n.stride, 1);
  const dp::arithmetic_sequence lohi(1, 5);
  EXPECT_EQ(lohi.extent, 4);
  EXPECT_EQ(lohi.value(3), 4);
  const dp::arithmetic_sequence strided(1, 10, 3); // 1 4 7
  EXPECT_EQ(strided.extent, 3);
  EXPECT_EQ(strided.value(2), 7);
  const dp::arithmetic_sequence down(10, 0, -3); // 10 7 4 1
  EXPECT_EQ(down.extent, 4);
  EXPECT_EQ(down.value(3), 1);
  EXPECT_EQ(dp::arithmetic_sequence(5, 5).extent, 0);
  EXPECT_EQ(dp::arithmetic_sequence(5, 2).extent, 0);
  EXPECT_TRUE(strided.contains(7));
  EXPECT_FALSE(strided.contains(6));
  EXPECT_FALSE(strided.contains(10));
}

TEST(Grid, ShapeAndMapIndex) {
  const dp::grid<2> g(3, 4);
  EXPECT_EQ(g.rank, 2);
  EXPECT_EQ(g.extent(0), 3);
  EXPECT_EQ(g.extent(1), 4);
  EXPECT_EQ(g.size(), 12);
  EXPECT_EQ(g.map_index(7), dp::index<2>(1, 3));
  for (std::int64_t k = 0; k < g.size(); ++k)
    EXPECT_EQ(g.flatten(g.map_index(k)), k);
}

TEST(Grid, IndicesAreValues) {
  const dp::grid<2> g(dp::arithmetic_sequence(1, 4), dp::arithmetic_sequence(10, 0, -5));
  EXPECT_EQ(g.extent(0), 3);
  EXPECT_EQ(g.extent(1), 2);
  EXPECT_EQ(g.map_index(0), dp::index<2>(1, 10));
  EXPECT_EQ(g.map_index(5), dp::index<2>(3, 5));
  EXPECT_EQ(g.flatten(dp::index<2>(2, 5)), 3);
  EXPECT_TRUE(g.contains(dp::index<2>(3, 10)));
  EXPECT_FALSE(g.contains(dp::index<2>(0, 10)));
  EXPECT_EQ(g.dimension(1).stride, -5);
}

TEST(Grid, FromExtentAndDeduction) {
  const dp::grid<3> g(dp::extent<3>(2, 3, 4));
  EXPECT_EQ(g.size(), 24);
  dp::grid deduced(5, 6);
  static_assert(decltype(deduced)::rank == 2);
  EXPECT_EQ(deduced.extents(), dp::extent<2>(5, 6));
}

} // namespace
