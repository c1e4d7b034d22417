// dp::forall on the host: every conversion case (docs/conversions.md), every kernel
// kind, 1-3 dimensional, strided and lower-bound grids, several element
// types. Each result is checked against a reference computed by plain loops.
#include <dp/dp.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <vector>


namespace {

template <class T> T value_at(std::int64_t k) { return static_cast<T>(k % 97 + 1); }

struct rgb {
  float r, g;
  int b;
  rgb() : r(0), g(0), b(0) {}
  explicit rgb(std::int64_t k) : r(float(k)), g(float(2 * k)), b(int(k % 7)) {}
};
rgb operator+(const rgb &x, const rgb &y) {
  rgb s;
  s.r = x.r + y.r, s.g = x.g + y.g, s.b = x.b + y.b;
  return s;
}
bool operator==(const rgb &x, const rgb &y) { return x.r == y.r && x.g == y.g && x.b == y.b; }
template <> rgb value_at<rgb>(std::int64_t k) { return rgb(k); }

template <int N, class T> void fill(dp::field<N, T> &f, std::int64_t salt) {
  const dp::grid<N> g = f.get_grid();
  for (std::int64_t k = 0; k < g.size(); ++k)
    f[g.map_index(k)] = value_at<T>(k + salt);
}

// --- elemental projection, typed over element types -------------------------

template <class T> class ElementalProjection : public ::testing::Test {};
using element_types = ::testing::Types<float, double, int, std::int64_t, rgb>;
TYPED_TEST_SUITE(ElementalProjection, element_types);

template <int N, class T> void check_vector_add(const dp::grid<N> &g) {
  SCOPED_TRACE("grid " + g.to_string());
  dp::field<N, T> a(g), b(g), c(g);
  fill(a, 0);
  fill(b, 1000);
  dp::forall(g, [](T &c, T a, const T &b) { c = a + b; }, c, a, b);
  for (std::int64_t k = 0; k < g.size(); ++k) {
    const auto idx = g.map_index(k);
    EXPECT_EQ(c[idx], value_at<T>(k) + value_at<T>(k + 1000)) << "offset " << k;
  }
}

TYPED_TEST(ElementalProjection, VectorAddOverRanksAndEdgeSizes) {
  for (std::int64_t n : {0, 1, 7, 255, 256, 257, 1000, 70001})
    check_vector_add<1, TypeParam>(dp::grid<1>(n));
  check_vector_add<2, TypeParam>(dp::grid<2>(17, 33));
  check_vector_add<2, TypeParam>(dp::grid<2>(1, 300));
  check_vector_add<3, TypeParam>(dp::grid<3>(3, 5, 129));
  check_vector_add<2, TypeParam>(
      dp::grid<2>(dp::arithmetic_sequence(-3, 9), dp::arithmetic_sequence(20, 2, -3)));
}

TEST(Forall, SubGridTouchesExactlyItsElements) {
  // An interior, strided compute grid over a bigger field: only the points
  // (i, j) with i in 1..6 and j in {1, 4, 7} are written.
  dp::field<2, int> c(dp::grid<2>(8, 9), -1);
  const dp::grid<2> interior(dp::arithmetic_sequence(1, 7), dp::arithmetic_sequence(1, 9, 3));
  dp::forall(interior, [](int &c, dp::index<2> i) { c = int(10 * i[0] + i[1]); }, c, dp::_index);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 9; ++j) {
      const bool inside = i >= 1 && i <= 6 && j % 3 == 1;
      EXPECT_EQ(c(i, j), inside ? 10 * i + j : -1) << i << "," << j;
    }
}

TEST(Forall, RowsFoldOnlyWhereEveryArgumentIsContiguous) {
  // Over a whole rank-4 field the trailing dimensions are walked as one
  // row; over the first half of the last dimension, or with a transposed
  // or index argument, they are not: each point still gets its own value.
  dp::field<4, int> f(dp::grid<4>(3, 4, 5, 6), 0), t(dp::grid<4>(3, 4, 6, 5), 0);
  dp::forall(f.get_grid(), [](int &x, dp::index<4> i) { x = int(((i[0] * 4 + i[1]) * 5 + i[2]) * 6 + i[3]); },
             f, dp::_index);
  int one = 1;
  dp::forall(f.get_grid(), [](int &x, int k) { x = 2 * x + k; }, f, one); // folded: a broadcast
  const dp::grid<4> half(3, 4, 5, 3);
  dp::forall(half, [](int &x) { x = -x; }, f); // rows of 3 within rows of 6
  dp::forall(dp::grid<4>(3, 4, 6, 5), [](int &y, int x) { y = x; }, t,
             dp::transpose<2, 3>(f)); // the transposed view steps by 6
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 5; ++c)
        for (int d = 0; d < 6; ++d) {
          const int k = ((a * 4 + b) * 5 + c) * 6 + d, want = d < 3 ? -(2 * k + 1) : 2 * k + 1;
          ASSERT_EQ(f(a, b, c, d), want) << a << b << c << d;
          ASSERT_EQ(t(a, b, d, c), want) << a << b << c << d;
        }
}

TEST(Forall, LowerBoundFieldsAreIndexedByValue) {
  const int n = 10;
  const dp::grid<1> one_based(dp::arithmetic_sequence(1, n + 1));
  dp::field<1, int> a(one_based), b(one_based);
  dp::forall(one_based, [](int &a, dp::index<1> i) { a = int(i[0]); }, a, dp::_index);
  // b(i) = a(i-1) for i in 2..n, reading a through a broadcast.
  dp::forall(dp::grid<1>(dp::arithmetic_sequence(2, n + 1)),
             [](dp::index<1> i, int &b, const dp::field<1, int> &a) { b = a(i[0] - 1); }, b, a);
  EXPECT_EQ(b(1), 0);
  for (int i = 2; i <= n; ++i)
    EXPECT_EQ(b(i), i - 1);
}

// --- special indices -------------------------------------------------------

// The tile tokens (dp::_tile, _tile_index, _local_index) are tested with
// tiled domains in tiles_test.cpp.
TEST(Forall, IndexTokenAndImplicitIndex) {
  const dp::grid<3> g(2, 3, 4);
  dp::field<3, std::int64_t> viaToken(g), implicit(g);
  dp::forall(g, [](dp::index<3> i, std::int64_t &v) { v = 100 * i[0] + 10 * i[1] + i[2]; },
             dp::_index, viaToken);
  dp::forall(g, [](const dp::index<3> &i, std::int64_t &v) { v = 100 * i[0] + 10 * i[1] + i[2]; },
             implicit);
  for (std::int64_t k = 0; k < g.size(); ++k) {
    const auto i = g.map_index(k);
    const std::int64_t expect = 100 * i[0] + 10 * i[1] + i[2];
    EXPECT_EQ(viaToken[i], expect);
    EXPECT_EQ(implicit[i], expect);
  }
}

// --- partial projection ------------------------------------------------------

// Patent pseudocode 12: c(i) = sum over k of A(k, i).
void sum_rows(double &c, const dp::field<1, double> &a) {
  double s = 0;
  for (std::int64_t k = 0; k < a.get_extent(0); ++k)
    s += a(k);
  c = s;
}

TEST(Forall, PartialProjectionSumRows) {
  const int rows = 37, cols = 300;
  dp::field<2, double> A(dp::grid<2>(rows, cols));
  fill(A, 0);
  dp::field<1, double> C{dp::grid<1>(cols)};
  dp::forall(C.get_grid(), sum_rows, C, A);
  for (int i = 0; i < cols; ++i) {
    double s = 0;
    for (int k = 0; k < rows; ++k)
      s += A(k, i);
    EXPECT_DOUBLE_EQ(C(i), s);
  }
}

TEST(Forall, PartialProjectionOfRankTwoKernelOverRankOneDomain) {
  // Patent pseudocode 13-14: the kernel sees the leading Rf = 2 dimensions.
  dp::field<3, int> A(dp::grid<3>(3, 4, 5));
  fill(A, 3);
  dp::field<1, int> C(dp::grid<1>(5));
  dp::forall(C.get_grid(),
             [](int &c, const dp::field<2, int> &a) {
               c = 0;
               for (std::int64_t i = 0; i < a.get_extent(0); ++i)
                 for (std::int64_t j = 0; j < a.get_extent(1); ++j)
                   c += a(i, j);
             },
             C, A);
  for (int k = 0; k < 5; ++k) {
    int s = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)
        s += A(i, j, k);
    EXPECT_EQ(C(k), s);
  }
}

void inner_product(float &c, const dp::field<1, float> &a, const dp::field<1, float> &b) {
  double s = 0;
  for (std::int64_t k = 0; k < a.get_extent(0); ++k)
    s += a(k) * b(k);
  c = float(s);
}

std::vector<float> reference_matmul(const dp::field<2, float> &A, const dp::field<2, float> &B) {
  const auto M = A.get_extent(0), K = A.get_extent(1), N = B.get_extent(1);
  std::vector<float> C(M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += A(i, k) * B(k, j);
      C[i * N + j] = float(s);
    }
  return C;
}

TEST(Forall, MatrixMultiplyWithSpreadAndTranspose) {
  // Patent pseudocode 16.
  const int M = 19, K = 23, N = 31;
  dp::field<2, float> A(dp::grid<2>(M, K)), B(dp::grid<2>(K, N)), C(dp::grid<2>(M, N));
  fill(A, 0);
  fill(B, 50);
  dp::forall(C.get_grid(), inner_product, C, dp::spread<2>(dp::transpose(A)), dp::spread<1>(B));
  const auto ref = reference_matmul(A, B);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      EXPECT_FLOAT_EQ(C(i, j), ref[i * N + j]);
}

TEST(Forall, WritablePartialProjection) {
  // Each column k of A is a rank-1 view the kernel writes through.
  dp::field<2, int> A(dp::grid<2>(4, 6));
  dp::forall(dp::grid<1>(6),
             [](dp::index<1> k, dp::field<1, int> &column) {
               for (std::int64_t r = 0; r < column.get_extent(0); ++r)
                 column(r) = int(10 * r + k[0]);
             },
             A);
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 6; ++k)
      EXPECT_EQ(A(r, k), 10 * r + k);
}

// --- broadcasts ----------------------------------------------------------------

// Patent pseudocode 27-28: the index implicitly, whole matrices broadcast.
void mxm_naive(dp::index<2> c_idx, float &c, const dp::field<2, float> &mA,
               const dp::field<2, float> &mB) {
  double s = 0;
  for (std::int64_t k = 0; k < mA.get_extent(1); ++k)
    s += mA(c_idx[0], k) * mB(k, c_idx[1]);
  c = float(s);
}

TEST(Forall, BroadcastFieldsWithImplicitIndex) {
  const int M = 8, K = 5, N = 6;
  dp::field<2, float> A(dp::grid<2>(M, K)), B(dp::grid<2>(K, N)), C(dp::grid<2>(M, N));
  fill(A, 1);
  fill(B, 2);
  dp::forall(C.get_grid(), mxm_naive, C, A, B);
  const auto ref = reference_matmul(A, B);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      EXPECT_FLOAT_EQ(C(i, j), ref[i * N + j]);
}

TEST(Forall, BroadcastScalarAndReadOnlyView) {
  const dp::grid<1> g(100);
  dp::field<1, double> y(g, 1.0), x(g);
  fill(x, 0);
  const double alpha = 2.5;
  // saxpy with a read_only view bound to a by-value element and a const
  // field& parameter reading it whole.
  dp::forall(g,
             [](dp::index<1> i, double &y, double a, double xi, const dp::field<1, double> &whole) {
               y += a * xi + 0 * whole(i[0]);
             },
             y, alpha, dp::read_only(x), dp::read_only(x));
  for (int i = 0; i < 100; ++i)
    EXPECT_DOUBLE_EQ(y(i), 1.0 + alpha * x(i));
}

// A scalar reaches a by-value parameter as a copy of the caller's value at
// every point (the kernel may change its copy; the next point and the
// caller see the original), and a const& parameter as the caller's object.
TEST(Forall, BroadcastScalarByValueAndByReference) {
  const dp::grid<2> g(7, 33);
  dp::field<2, int> out(g, 0), same(g, 0);
  int k = 5;
  const int *where = &k;
  dp::forall(g, [](int &o, int v) { v += 1; o = v; }, out, k);
  dp::forall(g, [where](int &o, const int &r) { o = &r == where; }, same, k);
  float s = 0.5f;
  dp::field<2, float> half(g, 0.0f);
  dp::forall(g, [](float &o, float v, long w) { o = v * static_cast<float>(w); }, half, s, 4L);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 33; ++j) {
      EXPECT_EQ(out(i, j), 6) << i << "," << j;
      EXPECT_EQ(same(i, j), 1) << i << "," << j;
      EXPECT_FLOAT_EQ(half(i, j), 2.0f);
    }
  EXPECT_EQ(k, 5);
}

// --- kernel kinds --------------------------------------------------------------

struct scale_by {
  int factor;
  void operator()(int &out, int in) const { out = factor * in; }
};

void negate(int &out, int in) { out = -in; }

TEST(Forall, KernelKinds) {
  const dp::grid<2> g(5, 7);
  dp::field<2, int> in(g), out(g);
  fill(in, 0);
  dp::forall(g, scale_by{3}, out, in);
  EXPECT_EQ(out(4, 6), 3 * in(4, 6));
  dp::forall(g, negate, out, in);
  EXPECT_EQ(out(2, 3), -in(2, 3));
  dp::forall(g, &negate, out, in);
  EXPECT_EQ(out(1, 1), -in(1, 1));
  // Generic lambda: conversions chosen from the actuals alone.
  dp::forall(g, [](auto &o, auto i, auto s) { o = i * s; }, out, in, 4);
  EXPECT_EQ(out(3, 3), 4 * in(3, 3));
}

TEST(Forall, CapturedFieldsAreBroadcast) {
  const dp::grid<1> g(64);
  dp::field<1, int> table(g), out(g);
  fill(table, 0);
  // Captured by value: read-only inside a non-mutable lambda.
  dp::forall(g, [table](dp::index<1> i, int &o) { o = table(63 - i[0]); }, out);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(out(i), table(63 - i));
  // A mutable lambda may write through its captured field.
  dp::field<1, int> hist(dp::grid<1>(64));
  dp::forall(g, [hist](dp::index<1> i) mutable { hist(i[0]) = int(2 * i[0]); });
  EXPECT_EQ(hist(10), 20);
}

// --- user-defined indexable types ------------------------------------------------

/// A read-only diagonal "matrix" that is not a field.
struct diagonal {
  static constexpr int rank = 2;
  double operator[](const dp::index<2> &i) const { return i[0] == i[1] ? double(i[0] + 1) : 0.0; }
};

TEST(Forall, UserIndexableTypes) {
  const dp::grid<2> g(4, 4);
  dp::field<2, double> out(g);
  dp::forall(g, [](double &o, double d) { o = d; }, out, diagonal{});
  EXPECT_EQ(out(2, 2), 3.0);
  EXPECT_EQ(out(2, 1), 0.0);
  // Partial projection of a user type: the kernel indexes the leading dim.
  dp::field<1, double> trace_col(dp::grid<1>(4));
  dp::forall(trace_col.get_grid(),
             [](double &t, const dp::partial_view<diagonal, 1, 1> &column) {
               t = 0;
               for (int r = 0; r < 4; ++r)
                 t += column[dp::index<1>(r)];
             },
             trace_col, diagonal{});
  for (int c = 0; c < 4; ++c)
    EXPECT_EQ(trace_col(c), c + 1.0);
}

TEST(Forall, EmptyDomainRunsNothing) {
  int calls = 0;
  dp::field<1, int> f(dp::grid<1>(0));
  dp::forall(dp::grid<1>(0), [&calls](int &) { ++calls; }, f);
  dp::forall(dp::grid<2>(3, 0), [&calls](dp::index<2>) { ++calls; });
  EXPECT_EQ(calls, 0);
}

// The host's split of a walk (host_split): every point once, in pieces
// of equal size, few of them below the even-split size (about one per
// thread) and a bounded number above it, at the sizes around the switch.
TEST(Forall, HostSplitCoversEveryPointOnceInFewPieces) {
  const std::int64_t threads = dp::detail::host_concurrency();
  const std::int64_t even = dp::detail::even_split_points;
  for (std::int64_t n : {std::int64_t(1), std::int64_t(2), std::int64_t(3), threads + 1, std::int64_t(1000), even - 1,
                         even, even + 1, 3 * even + 5}) {
    std::vector<std::atomic<int>> seen(static_cast<std::size_t>(n));
    std::atomic<std::int64_t> pieces{0};
    dp::detail::host_split(n, [&](std::int64_t begin, std::int64_t end) {
      ++pieces;
      for (std::int64_t k = begin; k < end; ++k)
        ++seen[static_cast<std::size_t>(k)];
    });
    std::int64_t wrong = 0;
    for (const auto &s : seen)
      wrong += s.load() != 1;
    EXPECT_EQ(wrong, 0) << "n = " << n;
    EXPECT_LE(pieces.load(), 2 * (n <= even ? threads : 8 * threads)) << "n = " << n;
  }
  // Through a forall, the reference path's walk.
  const std::int64_t n = even + 3;
  dp::field<1, int> f{dp::grid<1>(n)};
  dp::forall(dp::grid<1>(n), [](int &x) { x += 1; }, f);
  std::int64_t wrong = 0;
  for (std::int64_t k = 0; k < n; ++k)
    wrong += f(k) != 1;
  EXPECT_EQ(wrong, 0);
}

// Which host walks stay on the calling thread: none or one point always;
// up to calling_thread_points when each point is cheap (a kernel with no
// loop of its own); never more, and never for a kernel that loops itself.
TEST(Forall, FewCheapPointsStayOnTheCallingThread) {
  using dp::detail::walk_on_calling_thread;
  const std::int64_t most = dp::detail::calling_thread_points;
  for (const bool cheap : {true, false}) {
    EXPECT_TRUE(walk_on_calling_thread(0, cheap));
    EXPECT_TRUE(walk_on_calling_thread(1, cheap));
    EXPECT_EQ(walk_on_calling_thread(2, cheap), cheap);
    EXPECT_EQ(walk_on_calling_thread(most, cheap), cheap);
    EXPECT_FALSE(walk_on_calling_thread(most + 1, cheap));
    EXPECT_FALSE(walk_on_calling_thread(std::int64_t(1) << 40, cheap));
  }
  static_assert(dp::detail::walk_on_calling_thread(34, true), "a decision the compiler can fold");
}

} // namespace

// dp::atomic_add: iterations of one call-site pick the same elements (a
// histogram's bins) and every addition lands, of each type a GPU adds.
TEST(Forall, AtomicAddLandsEveryUpdateOfAnElement) {
  const std::int64_t n = 200003;
  const dp::grid<1> bins(7);
  dp::field<1, int> count(bins, 0);
  dp::field<1, double> weight(bins, 0.0);
  dp::field<1, float> half(bins, 0.0f);
  dp::field<1, std::int64_t> down(bins, 0);
  dp::field<1, unsigned> wrapped(bins, 0u);
  dp::forall(
      dp::grid<1>(n),
      [](dp::index<1> idx, dp::field<1, int> &count, dp::field<1, double> &weight, dp::field<1, float> &half,
         dp::field<1, std::int64_t> &down, dp::field<1, unsigned> &wrapped) {
        const std::int64_t bin = idx[0] * 5 % 7;
        dp::atomic_add(count(bin), 1);
        dp::atomic_add(weight(bin), 0.25 * (idx[0] % 4));
        dp::atomic_add(half(bin), 0.5f);
        dp::atomic_add(down(bin), -3);
        dp::atomic_add(wrapped(bin), -1); // unsigned: wraps, as -= 1 does
      },
      count, weight, half, down, wrapped);
  for (std::int64_t b = 0; b < 7; ++b) {
    std::int64_t hits = 0;
    double w = 0;
    for (std::int64_t i = 0; i < n; ++i)
      if (i * 5 % 7 == b)
        ++hits, w += 0.25 * (i % 4);
    EXPECT_EQ(count(b), hits) << "bin " << b;
    EXPECT_EQ(weight(b), w) << "bin " << b; // quarters: every order sums exactly
    EXPECT_EQ(half(b), 0.5f * hits) << "bin " << b;
    EXPECT_EQ(down(b), -3 * hits) << "bin " << b;
    EXPECT_EQ(wrapped(b), static_cast<unsigned>(-hits)) << "bin " << b;
  }
}

// The other atomic updates: a product, a minimum and a maximum (integers
// of both signs and widths, floating-point values) and the bitwise and,
// or and xor, each element updated by many iterations of one call-site.
TEST(Forall, AtomicUpdatesOfEveryOperatorLandEveryUpdate) {
  const std::int64_t n = 100003;
  const dp::grid<1> bins(5);
  dp::field<1, double> product(bins, 1.0);
  dp::field<1, int> low(bins, 1 << 30);
  dp::field<1, std::int64_t> high(bins, std::numeric_limits<std::int64_t>::min());
  dp::field<1, unsigned long long> ulow(bins, ~0ull);
  dp::field<1, float> fhigh(bins, -1.0f);
  dp::field<1, double> dlow(bins, 1e300);
  dp::field<1, unsigned> seen(bins, 0u);
  dp::field<1, std::int64_t> kept(bins, -1);
  dp::field<1, int> parity(bins, 0);
  dp::forall(
      dp::grid<1>(n),
      [](dp::index<1> idx, dp::field<1, double> &product, dp::field<1, int> &low, dp::field<1, std::int64_t> &high,
         dp::field<1, unsigned long long> &ulow, dp::field<1, float> &fhigh, dp::field<1, double> &dlow,
         dp::field<1, unsigned> &seen, dp::field<1, std::int64_t> &kept, dp::field<1, int> &parity) {
        const std::int64_t i = idx[0], bin = i * 3 % 5;
        // Powers of two whose exponents cancel but for a few: exact in
        // every order.
        if (i < 64)
          dp::atomic_mul(product(bin), i % 2 ? 2.0 : 0.5);
        const std::int64_t v = (i * 7919) % 100003 - 50000; // both signs
        dp::atomic_min(low(bin), v);
        dp::atomic_max(high(bin), v * 1000000007);
        dp::atomic_min(ulow(bin), static_cast<unsigned long long>(v + 60000));
        dp::atomic_max(fhigh(bin), 0.25f * static_cast<float>(v));
        dp::atomic_min(dlow(bin), 0.5 * static_cast<double>(v));
        dp::atomic_or(seen(bin), 1u << (i % 32));
        dp::atomic_and(kept(bin), ~(std::int64_t(1) << (i % 40)));
        dp::atomic_xor(parity(bin), static_cast<int>(i));
      },
      product, low, high, ulow, fhigh, dlow, seen, kept, parity);
  for (std::int64_t b = 0; b < 5; ++b) {
    double prod = 1.0;
    int lo = 1 << 30, x = 0;
    std::int64_t hi = std::numeric_limits<std::int64_t>::min(), k = -1;
    unsigned long long ulo = ~0ull;
    float fhi = -1.0f;
    double dlo = 1e300;
    unsigned s = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      if (i * 3 % 5 != b)
        continue;
      if (i < 64)
        prod *= i % 2 ? 2.0 : 0.5;
      const std::int64_t v = (i * 7919) % 100003 - 50000;
      lo = std::min<int>(lo, static_cast<int>(v));
      hi = std::max(hi, v * 1000000007);
      ulo = std::min(ulo, static_cast<unsigned long long>(v + 60000));
      fhi = std::max(fhi, 0.25f * static_cast<float>(v));
      dlo = std::min(dlo, 0.5 * static_cast<double>(v));
      s |= 1u << (i % 32);
      k &= ~(std::int64_t(1) << (i % 40));
      x ^= static_cast<int>(i);
    }
    EXPECT_EQ(product(b), prod) << "bin " << b;
    EXPECT_EQ(low(b), lo) << "bin " << b;
    EXPECT_EQ(high(b), hi) << "bin " << b;
    EXPECT_EQ(ulow(b), ulo) << "bin " << b;
    EXPECT_EQ(fhigh(b), fhi) << "bin " << b;
    EXPECT_EQ(dlow(b), dlo) << "bin " << b;
    EXPECT_EQ(seen(b), s) << "bin " << b;
    EXPECT_EQ(kept(b), k) << "bin " << b;
    EXPECT_EQ(parity(b), x) << "bin " << b;
  }
}
