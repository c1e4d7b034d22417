// dp::reduce, dp::reduce<Dim>, dp::scan<Dim> and dp::sort<Dim> on the host,
// against references computed by plain loops.
#include <dp/dp.hpp>
#include <dp/rt/stub/iterators.hpp>
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <type_traits>
#include <array>
#include <functional>
#include <random>
#include <vector>

namespace {

template <int N> dp::field<N, std::int64_t> iota_field(const dp::grid<N> &g, std::int64_t salt) {
  dp::field<N, std::int64_t> f(g);
  for (std::int64_t k = 0; k < g.size(); ++k)
    f[g.map_index(k)] = (k * 7919 + salt) % 1009 - 500;
  return f;
}

// The values GPU reductions and sorts keep in device memory have no
// padding nobody writes: copies of it are what compute-sanitizer's
// initcheck reported (a where-reduce's result, keyed<int> sort elements).
static_assert(std::has_unique_object_representations_v<dp::rt::maybe<int>>);
static_assert(std::has_unique_object_representations_v<dp::rt::maybe<long>>);
static_assert(std::has_unique_object_representations_v<dp::rt::maybe<short>>);
static_assert(std::has_unique_object_representations_v<dp::rt::keyed<int>>);
static_assert(std::has_unique_object_representations_v<dp::rt::keyed<char>>);
static_assert(std::has_unique_object_representations_v<dp::rt::keyed<long>>);

TEST(Reduce, FullSumUsesPriorValueAsInitial) {
  for (std::int64_t n : {0, 1, 2, 255, 257, 16384, 16385, 100003}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const dp::grid<1> g(n);
    auto a = iota_field(g, 3);
    dp::scalar<std::int64_t> sum(42);
    dp::reduce(g, std::plus<>(), sum, [](std::int64_t x) { return x; }, a);
    std::int64_t ref = 42;
    for (std::int64_t i = 0; i < n; ++i)
      ref += a(i);
    EXPECT_EQ(sum.get(), ref);
  }
}

TEST(Reduce, DotProductOverTwoDimensionsAndMax) {
  const dp::grid<2> g(33, 65);
  auto a = iota_field(g, 1), b = iota_field(g, 2);
  dp::scalar<std::int64_t> dot(0), max(-1000000);
  dp::reduce(g, std::plus<>(), dot, [](std::int64_t x, std::int64_t y) { return x * y; }, a, b);
  dp::reduce(g, [](std::int64_t x, std::int64_t y) { return std::max(x, y); }, max,
             [](dp::index<2> i, std::int64_t x) { return x + i[0]; }, a);
  std::int64_t rdot = 0, rmax = -1000000;
  for (int i = 0; i < 33; ++i)
    for (int j = 0; j < 65; ++j)
      rdot += a(i, j) * b(i, j), rmax = std::max(rmax, a(i, j) + i);
  EXPECT_EQ(dot.get(), rdot);
  EXPECT_EQ(max.get(), rmax);
}

TEST(Reduce, FloatingPointResultIsReproducible) {
  // The same bits whatever the number of threads (1 to 7 on any machine:
  // global_control lifts oneTBB's limit of one thread per core) and
  // however the work is split among them: the chunking is fixed.
  const dp::grid<1> g(1 << 20);
  dp::field<1, float> a(g);
  for (int i = 0; i < (1 << 20); ++i)
    a(i) = 1.0f / float(i + 1);
  // The same values as 1024 rows of 1024: the walk chunks them alike.
  const dp::grid<2> square(1024, 1024);
  dp::field<2, float> b(square);
  for (int i = 0; i < (1 << 20); ++i)
    b(i / 1024, i % 1024) = a(i);
  std::vector<float> sums;
  for (int threads : {1, 2, 3, 7}) {
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, threads);
    tbb::task_arena arena(threads);
    arena.execute([&] {
      dp::scalar<float> flat(0.0f), rows(0.0f);
      dp::reduce(g, std::plus<>(), flat, [](float x) { return x; }, a);
      dp::reduce(square, std::plus<>(), rows, [](float x) { return x; }, b);
      sums.push_back(flat.get());
      sums.push_back(rows.get());
    });
  }
  for (float s : sums)
    EXPECT_EQ(s, sums.front()) << "thread counts or shapes changed the bits";
  EXPECT_NEAR(sums.front(), 14.4402, 1e-3); // H(2^20) = ln 2^20 + 0.5772
  // A sum in a different order gives different bits: the test can fail.
  float backwards = 0.0f;
  for (int i = (1 << 20) - 1; i >= 0; --i)
    backwards += a(i);
  EXPECT_NE(backwards, sums.front());
}

/// The domain less dimension Dim, as index values.
template <int Dim> dp::grid<2> reduced_grid(const dp::grid<3> &g) {
  std::array<dp::arithmetic_sequence, 2> s;
  for (int d = 0, k = 0; d < 3; ++d)
    if (d != Dim)
      s[k++] = g.dimension(d);
  return dp::grid<2>(s);
}

template <int Dim> void check_pencil_reduce(const dp::grid<3> &g) {
  SCOPED_TRACE("Dim " + std::to_string(Dim) + " grid " + g.to_string());
  auto a = iota_field(g, 5);
  // The result is indexed by the domain's index values less dimension Dim.
  const dp::grid<2> rg = reduced_grid<Dim>(g);
  dp::field<2, std::int64_t> c(rg, 10);
  dp::reduce<Dim>(g, std::plus<>(), c, [](std::int64_t x) { return 2 * x; }, a);
  for (std::int64_t p = 0; p < rg.size(); ++p) {
    const std::int64_t r0 = p / rg.extent(1), r1 = p % rg.extent(1);
    std::int64_t ref = 10;
    for (std::int64_t k = 0; k < g.extent(Dim); ++k) {
      std::int64_t pos[3];
      for (int d = 0, q = 0; d < 3; ++d)
        pos[d] = d == Dim ? k : (q++ == 0 ? r0 : r1);
      ref += 2 * a(g.dimension(0).value(pos[0]), g.dimension(1).value(pos[1]),
                   g.dimension(2).value(pos[2]));
    }
    EXPECT_EQ(c[rg.map_index(p)], ref) << "pencil " << r0 << "," << r1;
  }
}

TEST(ReducePencils, EveryDimensionOfARankThreeGrid) {
  const dp::grid<3> g(4, 5, 300);
  check_pencil_reduce<0>(g);
  check_pencil_reduce<1>(g);
  check_pencil_reduce<2>(g);
  check_pencil_reduce<1>(dp::grid<3>(dp::arithmetic_sequence(2, 8, 2), 3, dp::arithmetic_sequence(-4, 4)));
}

TEST(ReducePencils, MatrixMultiplyAccumulate) {
  // C(i,j) += sum_k A(i,k) * B(k,j): the reduce<2> form of the patent's
  // pseudocode 17.
  const int M = 7, N = 9, K = 11;
  dp::field<2, double> A(dp::grid<2>(M, K)), B(dp::grid<2>(K, N)), C(dp::grid<2>(M, N), 1.0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      A(i, k) = i + 0.5 * k;
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      B(k, j) = k - 0.25 * j;
  dp::reduce<2>(dp::grid<3>(M, N, K), std::plus<>(), C, [](double x, double y) { return x * y; },
                dp::spread<1>(A), dp::spread<0>(dp::transpose(B)));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 1.0;
      for (int k = 0; k < K; ++k)
        ref += A(i, k) * B(k, j);
      EXPECT_DOUBLE_EQ(C(i, j), ref);
    }
}

TEST(Scan, InclusivePrefixOfOneLongPencil) {
  for (std::int64_t n : {1, 5, 16384, 16385, 200001}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const dp::grid<1> g(n);
    auto a = iota_field(g, 9);
    dp::field<1, std::int64_t> out(g, -7);
    dp::scan<0>(g, std::plus<>(), out, [](std::int64_t x) { return x; }, a);
    std::int64_t run = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      run += a(i);
      ASSERT_EQ(out(i), run) << "at " << i;
    }
  }
}

template <int Dim> void check_scan(const dp::grid<2> &g) {
  SCOPED_TRACE("Dim " + std::to_string(Dim) + " grid " + g.to_string());
  auto a = iota_field(g, 11);
  dp::field<2, std::int64_t> out(g); // indexed by the domain's index values
  dp::scan<Dim>(g, std::plus<>(), out, [](std::int64_t x) { return x; }, a);
  for (std::int64_t i = 0; i < g.extent(0); ++i)
    for (std::int64_t j = 0; j < g.extent(1); ++j) {
      std::int64_t ref = 0;
      for (std::int64_t k = 0; k <= (Dim == 0 ? i : j); ++k)
        ref += Dim == 0 ? a(g.dimension(0).value(k), g.dimension(1).value(j))
                        : a(g.dimension(0).value(i), g.dimension(1).value(k));
      ASSERT_EQ(out(g.dimension(0).value(i), g.dimension(1).value(j)), ref) << i << "," << j;
    }
}

TEST(Scan, EveryDimensionOfARankTwoGrid) {
  check_scan<0>(dp::grid<2>(40, 300));
  check_scan<1>(dp::grid<2>(40, 300));
  check_scan<1>(dp::grid<2>(dp::arithmetic_sequence(3, 13), dp::arithmetic_sequence(50, 0, -5)));
  // Across the rows, pencils wider than one tile of neighbours (1024) and
  // a grid of index values that step backwards.
  check_scan<0>(dp::grid<2>(7, 2500));
  check_scan<0>(dp::grid<2>(dp::arithmetic_sequence(3, 13), dp::arithmetic_sequence(50, 0, -5)));
}

TEST(Scan, NonCommutativeFoldKeepsOrder) {
  // max-plus style fold where order matters for the running maximum index.
  const dp::grid<1> g(1000);
  dp::field<1, std::int64_t> out(g);
  dp::scan<0>(g, [](std::int64_t acc, std::int64_t x) { return acc * 0 + x; }, out,
              [](dp::index<1> i) { return i[0]; });
  for (int i = 0; i < 1000; ++i)
    EXPECT_EQ(out(i), i); // "last" fold: each prefix ends at its own element
}

TEST(Sort, EachPencilAlongEitherDimension) {
  std::mt19937 rng(1234);
  const dp::grid<2> g(13, 57);
  dp::field<2, int> f(g), ref(g);
  for (int i = 0; i < 13; ++i)
    for (int j = 0; j < 57; ++j)
      f(i, j) = ref(i, j) = int(rng() % 100);
  dp::sort<1>(g, [](int a, int b) { return a < b; }, f);
  for (int i = 0; i < 13; ++i) {
    std::vector<int> row;
    for (int j = 0; j < 57; ++j)
      row.push_back(ref(i, j));
    std::sort(row.begin(), row.end());
    for (int j = 0; j < 57; ++j)
      EXPECT_EQ(f(i, j), row[j]);
  }
  dp::sort<0>(g, [](int a, int b) { return a > b; }, f);
  for (int j = 0; j < 57; ++j)
    for (int i = 1; i < 13; ++i)
      EXPECT_GE(f(i - 1, j), f(i, j));
}

// The reference: every pencil along Dim of `f` at the index values of g
// (a 2-d grid) sorted with std::sort.
template <int Dim, class T, class Less>
void sort_by_loops(dp::field<2, T> &f, const dp::grid<2> &g, const Less &less) {
  const dp::arithmetic_sequence &along = g.dimension(Dim), &across = g.dimension(1 - Dim);
  for (std::int64_t q = 0; q < across.extent; ++q) {
    const std::int64_t at = across.lb + q * across.stride;
    const auto element = [&](std::int64_t k) -> T & {
      const std::int64_t v = along.lb + k * along.stride;
      return Dim == 0 ? f(v, at) : f(at, v);
    };
    std::vector<T> pencil;
    for (std::int64_t k = 0; k < along.extent; ++k)
      pencil.push_back(element(k));
    std::sort(pencil.begin(), pencil.end(), less);
    for (std::int64_t k = 0; k < along.extent; ++k)
      element(k) = pencil[static_cast<std::size_t>(k)];
  }
}

template <int Dim, class T, class Less>
void check_sort(const dp::grid<2> &full, const dp::grid<2> &g, const Less &less) {
  std::mt19937 rng(99);
  dp::field<2, T> f(full, T(0)), ref(full, T(0));
  for (std::int64_t k = 0; k < full.size(); ++k)
    f[full.map_index(k)] = ref[full.map_index(k)] = T(int(rng() % 1000) - 500);
  dp::sort<Dim>(g, less, f);
  sort_by_loops<Dim>(ref, g, less);
  for (std::int64_t k = 0; k < full.size(); ++k)
    ASSERT_TRUE(f[full.map_index(k)] == ref[full.map_index(k)]) << "element " << k;
}

// A value with no default constructor (fields hold them: field(g, init)).
struct tagged {
  int v;
  explicit tagged(int x) : v(x) {}
  bool operator==(const tagged &o) const { return v == o.v; }
};

// sort<Dim> across the last dimension gathers tiles of neighbouring pencils
// row by row (narrower ones for long pencils), along it sorts a pencil of
// consecutive elements where it lies: every tile edge and every layout
// against the loops.
TEST(Sort, EveryTileAndLayoutAgainstLoops) {
  const auto less = [](int a, int b) { return a < b; };
  const auto greater = [](double a, double b) { return a > b; };
  check_sort<0, int>(dp::grid<2>(9, 200), dp::grid<2>(9, 200), less); // 64-wide tiles, 8 over
  check_sort<0, double>(dp::grid<2>(40000, 3), dp::grid<2>(40000, 3), greater); // 1-wide tiles
  check_sort<0, int>(dp::grid<2>(700, 130), dp::grid<2>(700, 130), less); // 93-wide: 2 tiles
  // Every third column (the tile's rows stride), rows 5..60.
  const dp::grid<2> full(70, 90);
  const dp::grid<2> strided(dp::arithmetic_sequence(5, 61), dp::arithmetic_sequence(1, 90, 3));
  check_sort<0, int>(full, strided, less);
  check_sort<1, int>(full, strided, less); // along the last dimension, not contiguous
  check_sort<1, double>(full, full, greater); // contiguous rows, sorted in place
  check_sort<1, int>(dp::grid<2>(1, 5000), dp::grid<2>(1, 5000), less); // one pencil
  check_sort<0, int>(dp::grid<2>(5000, 1), dp::grid<2>(5000, 1), less);

  // No default constructor: one pencil at a time.
  dp::field<2, tagged> t(dp::grid<2>(33, 70), tagged(0));
  for (int i = 0; i < 33; ++i)
    for (int j = 0; j < 70; ++j)
      t(i, j) = tagged((i * 37 + j * 11) % 29);
  dp::sort<0>(t.get_grid(), [](const tagged &a, const tagged &b) { return a.v < b.v; }, t);
  for (int j = 0; j < 70; ++j) {
    std::vector<int> pencil;
    for (int i = 0; i < 33; ++i)
      pencil.push_back((i * 37 + j * 11) % 29);
    std::sort(pencil.begin(), pencil.end());
    for (int i = 0; i < 33; ++i)
      ASSERT_EQ(t(i, j).v, pencil[static_cast<std::size_t>(i)]) << i << "," << j;
  }

  // Rank 3 across the last dimension: the tiles of each plane.
  const dp::grid<3> g3(4, 30, 70);
  dp::field<3, int> c(g3), cref(g3);
  std::mt19937 rng(5);
  for (std::int64_t k = 0; k < g3.size(); ++k)
    c[g3.map_index(k)] = cref[g3.map_index(k)] = int(rng() % 50);
  dp::sort<1>(g3, less, c);
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 70; ++k) {
      std::vector<int> pencil;
      for (int j = 0; j < 30; ++j)
        pencil.push_back(cref(i, j, k));
      std::sort(pencil.begin(), pencil.end());
      for (int j = 0; j < 30; ++j)
        ASSERT_EQ(c(i, j, k), pencil[static_cast<std::size_t>(j)]) << i << "," << j << "," << k;
    }
}

TEST(Sort, PermutationByKeysHeldElsewhere) {
  const int n = 100000;
  const dp::grid<1> g(n);
  dp::field<1, float> keys(g);
  dp::field<1, int> perm(g);
  std::mt19937 rng(7);
  for (int i = 0; i < n; ++i)
    keys(i) = float(rng() % 100000) / 7.0f, perm(i) = i;
  dp::sort<0>(g, [](int a, int b, const dp::field<1, float> &k) { return k(a) < k(b); }, perm, keys);
  std::vector<bool> seen(n, false);
  for (int i = 0; i < n; ++i) {
    ASSERT_FALSE(seen[perm(i)]);
    seen[perm(i)] = true;
    if (i) {
      ASSERT_LE(keys(perm(i - 1)), keys(perm(i)));
    }
  }
}

// Results are indexed by index values, like every projection.
TEST(ResultsByIndexValues, ScanOverTheInteriorWritesTheInteriorOfAFullSizeResult) {
  const dp::grid<2> full(6, 9);
  const dp::grid<2> interior(dp::arithmetic_sequence(1, 5), dp::arithmetic_sequence(1, 8));
  auto a = iota_field(full, 3);
  dp::field<2, std::int64_t> out(full, -1);
  dp::scan<1>(interior, std::plus<>(), out, [](std::int64_t x) { return x; }, a);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 9; ++j) {
      const bool inside = i >= 1 && i < 5 && j >= 1 && j < 8;
      std::int64_t ref = -1;
      if (inside) {
        ref = 0;
        for (int k = 1; k <= j; ++k)
          ref += a(i, k);
      }
      EXPECT_EQ(out(i, j), ref) << i << "," << j;
    }
}

TEST(ResultsByIndexValues, SortOverASubGridSortsExactlyThoseElements) {
  const dp::grid<2> full(10, 4);
  dp::field<2, int> f(full);
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 4; ++j)
      f(i, j) = (i * 7 + j * 3) % 10;
  const dp::field<2, int> before = f.clone();
  // Rows 8, 6, 4, 2 (a descending stride) of columns 1..2.
  const dp::grid<2> sub(dp::arithmetic_sequence(8, 0, -2), dp::arithmetic_sequence(1, 3));
  dp::sort<0>(sub, std::less<>(), f);
  for (int j = 0; j < 4; ++j) {
    std::vector<int> pencil;
    for (int i = 8; i > 0; i -= 2)
      pencil.push_back(before(i, j));
    std::sort(pencil.begin(), pencil.end());
    for (int i = 0; i < 10; ++i) {
      const bool in_sub = j >= 1 && j < 3 && i > 0 && i <= 8 && i % 2 == 0;
      // Position k of the pencil is index value 8 - 2k.
      EXPECT_EQ(f(i, j), in_sub ? pencil[(8 - i) / 2] : before(i, j)) << i << "," << j;
    }
  }
}

TEST(ResultsByIndexValues, PencilReduceOverAStridedDomain) {
  const dp::grid<2> full(8, 12);
  auto a = iota_field(full, 1);
  dp::field<1, std::int64_t> sums(dp::grid<1>(12), 100);
  const dp::grid<2> every_other_row(dp::arithmetic_sequence(0, 8, 2), dp::arithmetic_sequence(2, 12, 3));
  dp::reduce<0>(every_other_row, std::plus<>(), sums, [](std::int64_t x) { return x; }, a);
  for (int j = 0; j < 12; ++j) {
    std::int64_t ref = 100;
    if (j >= 2 && (j - 2) % 3 == 0)
      for (int i = 0; i < 8; i += 2)
        ref += a(i, j);
    EXPECT_EQ(sums(j), ref) << j;
  }
}

} // namespace
