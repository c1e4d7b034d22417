// dp::index, dp::extent, dp::arithmetic_sequence and dp::grid.
#include <dp/dp.hpp>
#include <gtest/gtest.h>

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
  const dp::index<1> big(std::int64_t(1) << 40);
  EXPECT_EQ(big[0], std::int64_t(1) << 40);
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
