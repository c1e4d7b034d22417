// dp::field: a handle with value-indexed elements, and its views.
#include <dp/dp.hpp>
#include <gtest/gtest.h>

namespace {

TEST(Field, ValueInitialisedAndFilled) {
  dp::field<2, int> zero(dp::grid<2>(2, 3));
  EXPECT_EQ(zero(1, 2), 0);
  dp::field<2, double> filled(dp::grid<2>(2, 3), 1.5);
  EXPECT_EQ(filled(0, 0), 1.5);
  EXPECT_EQ(filled.size(), 6);
  EXPECT_EQ(filled.get_extent(1), 3);
  EXPECT_EQ(filled.rank, 2);
}

TEST(Field, CopiesShareCloneCopies) {
  dp::field<1, int> a(dp::grid<1>(4));
  dp::field<1, int> shared = a;
  dp::field<1, int> deep = a.clone();
  a(2) = 7;
  EXPECT_EQ(shared(2), 7);
  EXPECT_EQ(deep(2), 0);
}

TEST(Field, IndexedByGridValues) {
  const std::int64_t n = 5;
  dp::field<1, int> f(dp::grid<1>(dp::arithmetic_sequence(1, n + 1)));
  for (std::int64_t i = 1; i <= n; ++i)
    f[dp::index<1>(i)] = static_cast<int>(10 * i);
  EXPECT_EQ(f.data()[0], 10);
  EXPECT_EQ(f.data()[4], 50);
  EXPECT_EQ(f.get_grid(), dp::grid<1>(dp::arithmetic_sequence(1, n + 1)));
}

TEST(Field, StridedAndDescendingGrids) {
  dp::field<1, int> f(dp::grid<1>(dp::arithmetic_sequence(10, 0, -2))); // 10 8 6 4 2
  f(10) = 1;
  f(2) = 5;
  EXPECT_EQ(f.data()[0], 1);
  EXPECT_EQ(f.data()[4], 5);
}

// Element addresses take one path when every index stride is 1 and
// another otherwise: each element of a rank-3 field lies at its row-major
// position, whichever strides its dimensions have.
TEST(Field, EveryStrideMixAddressesRowMajor) {
  const dp::arithmetic_sequence unit(1, 4), down(10, 0, -5), by3(0, 9, 3), by2(-4, 0, 2);
  const dp::arithmetic_sequence mixes[][3] = {
      {unit, dp::arithmetic_sequence(-2, 0), dp::arithmetic_sequence(7, 12)},
      {unit, down, by3}, {by3, unit, unit}, {unit, unit, by2}, {down, by2, by3}};
  for (const auto &mix : mixes) {
    const dp::grid<3> g(mix[0], mix[1], mix[2]);
    dp::field<3, int> f(g);
    for (std::int64_t p = 0; p < g.size(); ++p)
      f[g.map_index(p)] = static_cast<int>(p);
    const int *data = f.data();
    for (std::int64_t p = 0; p < g.size(); ++p)
      EXPECT_EQ(data[p], p) << "lower bound " << mix[0].lb << ", " << mix[1].lb << ", " << mix[2].lb;
  }
}

TEST(Field, AtChecksBounds) {
  dp::field<2, int> f(dp::grid<2>(2, 2));
  EXPECT_NO_THROW(f.at(dp::index<2>(1, 1)));
  EXPECT_THROW(f.at(dp::index<2>(2, 0)), dp::error);
}

TEST(Field, ReadOnlyViewSharesData) {
  dp::field<1, int> f(dp::grid<1>(3));
  dp::field<1, const int> ro = dp::read_only(f);
  f(1) = 4;
  EXPECT_EQ(ro(1), 4);
  static_assert(std::is_same<decltype(ro(1)), const int &>::value);
  const dp::field<1, int> &cf = f;
  static_assert(std::is_same<decltype(cf(1)), const int &>::value);
}

TEST(Field, TransposeSwapsDimensions) {
  dp::field<2, int> a(dp::grid<2>(2, 3));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      a(i, j) = 10 * i + j;
  auto t = dp::transpose(a);
  EXPECT_EQ(t.get_extent(0), 3);
  EXPECT_EQ(t.get_extent(1), 2);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(t(j, i), a(i, j));
  dp::field<3, int> c(dp::grid<3>(2, 3, 4));
  c(1, 2, 3) = 99;
  EXPECT_EQ((dp::transpose<0, 2>(c)(3, 2, 1)), 99);
}

TEST(Field, SpreadInsertsDummyDimension) {
  dp::field<2, int> a(dp::grid<2>(2, 3));
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 3; ++k)
      a(i, k) = 10 * i + k;
  auto s = dp::spread<1>(a);
  static_assert(decltype(s)::rank == 3);
  for (int i = 0; i < 2; ++i)
    for (int j = -3; j < 7; ++j)
      for (int k = 0; k < 3; ++k)
        EXPECT_EQ(s(i, j, k), a(i, k));
  EXPECT_EQ(s.get_extent(1), dp::unbounded);
}

struct pair_f {
  float x;
  int y;
};

TEST(Field, StructElements) {
  dp::field<1, pair_f> f(dp::grid<1>(2), pair_f{1.5f, 2});
  f(1).y = 9;
  EXPECT_EQ(f(0).x, 1.5f);
  EXPECT_EQ(f(1).y, 9);
}

TEST(Indexable, RankOfTypes) {
  static_assert(dp::rank_of_v<dp::field<3, float>> == 3);
  static_assert(dp::rank_of_v<float> == 0);
  static_assert(dp::is_indexable_v<dp::field<1, const int>>);
  static_assert(!dp::is_indexable_v<int>);
}

} // namespace
