// Non-rectangular domains on the host: dp::where runs forall and full reduce
// over exactly the points its predicate keeps, dp::lower_triangle and
// dp::upper_triangle over exactly the n(n+1)/2 points of a triangle, with
// every conversion working on them as on grids; and the raise from a
// triangle's linear offset to its point is exact at every row boundary up to
// the largest order, 2^31.
#include <dp/dp.hpp>
#include <gtest/gtest.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <functional>
#include <string>

namespace {

// --- where --------------------------------------------------------------------

TEST(Where, ForallVisitsExactlyTheKeptPoints) {
  const dp::grid<2> g(dp::arithmetic_sequence(-4, 13), dp::arithmetic_sequence(3, 30, 2));
  auto keep = [](const dp::index<2> &i) { return (i[0] + i[1]) % 3 == 0; };
  dp::field<2, int> visits(g, 0);
  dp::forall(dp::where(g, keep), [](int &v) { v += 1; }, visits);
  for (std::int64_t k = 0; k < g.size(); ++k) {
    const dp::index<2> i = g.map_index(k);
    ASSERT_EQ(visits[i], keep(i) ? 1 : 0) << "at (" << i[0] << ", " << i[1] << ")";
  }
}

TEST(Where, TheKernelSeesIndexValuesAndProjectedArguments) {
  // Scale the columns of a 2-d field whose first element is negative: the
  // kernel takes its column by partial projection and a broadcast factor.
  dp::field<2, float> m(dp::grid<2>(5, 9));
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 5; ++j)
      m(j, i) = float((i % 2 ? -1 : 1) * (j + 1));
  const dp::field<2, float> &pm = m;
  dp::forall(dp::where(dp::grid<1>(9), [pm](const dp::index<1> &i) { return pm(0, i[0]) < 0; }),
             [](dp::index<1> i, dp::field<1, float> &row, float factor) {
               for (std::int64_t j = 0; j < row.get_extent(0); ++j)
                 row(j) *= factor * float(i[0]);
             },
             dp::_index, m, 2.0f);
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 5; ++j)
      EXPECT_EQ(m(j, i), float((i % 2 ? -1 : 1) * (j + 1)) * (i % 2 ? 2.0f * float(i) : 1.0f))
          << i << ", " << j;
}

TEST(Where, FullReduceFoldsOnlyTheKeptPoints) {
  const dp::grid<1> g(1000);
  dp::field<1, long> x(g);
  for (int i = 0; i < 1000; ++i)
    x(i) = i;
  dp::scalar<long> s(5); // the prior value takes part
  dp::reduce(dp::where(g, [](const dp::index<1> &i) { return i[0] % 7 == 3; }), std::plus<>(), s,
             [](const long &v) { return v; }, x);
  long expected = 5;
  for (int i = 3; i < 1000; i += 7)
    expected += i;
  EXPECT_EQ(s.get(), expected);
}

TEST(Where, APredicateThatKeepsNothingRunsNothing) {
  dp::field<2, int> f(dp::grid<2>(4, 4), 0);
  dp::forall(dp::where(f.get_grid(), [](const dp::index<2> &) { return false; }),
             [](int &v) { v = 1; }, f);
  dp::scalar<int> s(-7);
  dp::reduce(dp::where(f.get_grid(), [](const dp::index<2> &) { return false; }),
             [](int a, int b) { return a > b ? a : b; }, s, [](const int &v) { return v; }, f);
  EXPECT_EQ(s.get(), -7);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(f(i, j), 0);
}

// --- triangles ------------------------------------------------------------------

template <dp::triangle_part Part> void check_triangle_visits(std::int64_t n) {
  SCOPED_TRACE("order " + std::to_string(n));
  const dp::triangle_domain<Part> t(n);
  dp::field<2, int> visits(dp::grid<2>(n, n), 0);
  dp::field<2, std::int64_t> offsets(dp::grid<2>(n, n), -1);
  dp::forall(t, [](int &v) { v += 1; }, visits);
  dp::forall(t, [t](dp::index<2> ij, std::int64_t &o) { o = t.offset(ij); }, dp::_index, offsets);
  std::int64_t k = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const bool inside = Part == dp::triangle_part::lower ? j <= i : j >= i;
      ASSERT_EQ(visits(i, j), inside ? 1 : 0) << i << ", " << j;
      if (inside) {
        ASSERT_EQ(offsets(i, j), k) << i << ", " << j; // numbered row by row
        ASSERT_EQ(t.point(k), dp::index<2>(i, j));
        ++k;
      }
    }
  EXPECT_EQ(k, t.size());
}

TEST(Triangle, ForallVisitsEachPointOfTheLowerTriangleOnce) {
  for (std::int64_t n : {0, 1, 2, 3, 7, 64, 101})
    check_triangle_visits<dp::triangle_part::lower>(n);
}

TEST(Triangle, ForallVisitsEachPointOfTheUpperTriangleOnce) {
  for (std::int64_t n : {0, 1, 2, 3, 7, 64, 101})
    check_triangle_visits<dp::triangle_part::upper>(n);
}

TEST(Triangle, PairwiseDistancesWithBroadcastAndPartialProjection) {
  // d(i, j) = |p_i - p_j|^2 over the lower triangle: the points are
  // broadcast whole, and a (2, n, n) field of pairs is projected onto the
  // kernel's rank-1 formal at (:, i, j).
  const int n = 23;
  dp::field<2, double> p(dp::grid<2>(n, 3));
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c)
      p(i, c) = double((i * 7 + c * 3) % 11);
  dp::field<2, double> d(dp::grid<2>(n, n), -1.0);
  dp::field<3, int> pairs(dp::grid<3>(2, n, n), 0);
  dp::forall(dp::lower_triangle(n),
             [](dp::index<2> ij, const dp::field<2, double> &pts, double &dist,
                dp::field<1, int> &pair) {
               double s = 0;
               for (int c = 0; c < 3; ++c) {
                 const double e = pts(ij[0], c) - pts(ij[1], c);
                 s += e * e;
               }
               dist = s;
               pair(0) = int(ij[0]), pair(1) = int(ij[1]);
             },
             dp::_index, p, d, pairs);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int c = 0; c < 3; ++c)
        s += (p(i, c) - p(j, c)) * (p(i, c) - p(j, c));
      ASSERT_EQ(d(i, j), j <= i ? s : -1.0) << i << ", " << j;
      ASSERT_EQ(pairs(0, i, j), j <= i ? i : 0);
      ASSERT_EQ(pairs(1, i, j), j <= i ? j : 0);
    }
}

TEST(Triangle, FullReduceOverBothTriangles) {
  const int n = 300;
  dp::field<2, long> m(dp::grid<2>(n, n));
  long lower = 0, upper = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      m(i, j) = (i * 31 + j * 17) % 101;
      (j <= i ? lower : upper) += m(i, j);
      if (j == i)
        upper += m(i, j);
    }
  dp::scalar<long> sl(0), su(0);
  dp::reduce(dp::lower_triangle(n), std::plus<>(), sl, [](const long &v) { return v; }, m);
  dp::reduce(dp::upper_triangle(n), std::plus<>(), su, [](const long &v) { return v; }, m);
  EXPECT_EQ(sl.get(), lower);
  EXPECT_EQ(su.get(), upper);
}

TEST(Triangle, AnOrderOutOfRangeIsAnError) {
  EXPECT_THROW(dp::lower_triangle(-1), dp::error);
  EXPECT_THROW(dp::upper_triangle(dp::max_triangle_order + 1), dp::error);
  EXPECT_NO_THROW(dp::upper_triangle(dp::max_triangle_order));
}

// The raise from offset k to row i (the largest i with i(i+1)/2 <= k) starts
// from a double square root and corrects it in integers. The row changes
// only at k = i(i+1)/2, so checking both sides of every such boundary for
// every row of the largest triangle (2^31 rows) shows it exact for every k
// of every triangle dp accepts.
TEST(TriangleRaise, ExactAtEveryRowBoundaryUpToOrder2To31) {
  const std::int64_t rows = dp::max_triangle_order;
  const std::int64_t wrong = tbb::parallel_reduce(
      tbb::blocked_range<std::int64_t>(1, rows + 1), std::int64_t(0),
      [](const tbb::blocked_range<std::int64_t> &r, std::int64_t bad) {
        for (std::int64_t i = r.begin(); i != r.end(); ++i) {
          const std::int64_t first = i * (i + 1) / 2;
          bad += dp::detail::triangle_row(first) != i;
          bad += dp::detail::triangle_row(first - 1) != i - 1;
        }
        return bad;
      },
      std::plus<>());
  EXPECT_EQ(wrong, 0);
}

TEST(TriangleRaise, PointAndOffsetAreInversesAtTheEdgesOfTheLargestTriangles) {
  for (std::int64_t n : {std::int64_t(1) << 31, (std::int64_t(1) << 31) - 1, std::int64_t(94906267),
                         std::int64_t(1) << 26}) {
    const auto lower = dp::lower_triangle(n);
    const auto upper = dp::upper_triangle(n);
    for (std::int64_t i : {std::int64_t(0), std::int64_t(1), n / 2, n - 2, n - 1}) {
      for (std::int64_t k : {lower.row_offset(i), lower.row_offset(i) + i, lower.row_offset(i) - 1}) {
        if (k < 0 || k >= lower.size())
          continue;
        EXPECT_EQ(lower.offset(lower.point(k)), k) << "lower, n " << n << ", k " << k;
      }
      for (std::int64_t k : {upper.row_offset(i), upper.row_offset(i) + (n - 1 - i),
                             upper.row_offset(i) - 1}) {
        if (k < 0 || k >= upper.size())
          continue;
        const dp::index<2> p = upper.point(k);
        EXPECT_TRUE(p[1] >= p[0] && p[1] < n) << "upper, n " << n << ", k " << k;
        EXPECT_EQ(upper.offset(p), k) << "upper, n " << n << ", k " << k;
      }
    }
    EXPECT_EQ(lower.point(lower.size() - 1), dp::index<2>(n - 1, n - 1));
    EXPECT_EQ(upper.point(upper.size() - 1), dp::index<2>(n - 1, n - 1));
    EXPECT_EQ(upper.point(0), dp::index<2>(0, 0));
  }
}

} // namespace
