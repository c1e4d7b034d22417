// dp::forall over tiled domains on the host: every point runs exactly once
// whether or not the extents are multiples of the tile, padding threads see
// value-initialised elements and their writes are dropped, barriers really
// synchronise the threads of a tile, tile_static memory is shared by them,
// and every misuse is a dp::error that names the call and the tile.
#include <dp/dp.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>

namespace {

template <int N> dp::index<N> tile_extent_index(const dp::extent<N> &te) {
  dp::index<N> i;
  for (int d = 0; d < N; ++d)
    i[d] = te[d];
  return i;
}

// Runs a tiled forall that checks, for each thread, that global(), local(),
// tile(), tile_origin(), _index, _tile_index and _local_index agree with
// each other and with the grid, and that the in-domain threads are exactly
// the grid's points, each once.
template <int... T, int N> void check_tiled_visit(const dp::grid<N> &g) {
  const auto domain = dp::tile<T...>(g);
  SCOPED_TRACE("domain " + domain.to_string());
  const dp::index<N> te = tile_extent_index<N>(domain.tile_extents());
  dp::field<N, int> visits(g, 0);
  std::atomic<std::int64_t> threads{0}, padding{0}, inconsistent{0};
  dp::forall(
      domain,
      [&](const dp::tile_group<N> &t, dp::index<N> at, dp::index<N> tile, dp::index<N> local,
          int &v) {
        ++threads;
        bool ok = t.in_domain() == g.contains(t.global());
        for (int d = 0; d < N; ++d) {
          const std::int64_t pos = t.tile()[d] * te[d] + t.local()[d];
          ok = ok && t.global()[d] == g.dimension(d).lb + pos * g.dimension(d).stride;
          ok = ok && t.tile_origin()[d] == g.dimension(d).lb + t.tile()[d] * te[d] * g.dimension(d).stride;
          ok = ok && t.local()[d] >= 0 && t.local()[d] < te[d];
        }
        ok = ok && at == t.global() && tile == t.tile() && local == t.local();
        inconsistent += !ok;
        if (t.in_domain())
          v += 1;
        else
          ++padding, v += 1000; // dropped
      },
      dp::_tile, dp::_index, dp::_tile_index, dp::_local_index, visits);
  std::int64_t tiles = 1, volume = 1;
  for (int d = 0; d < N; ++d)
    tiles *= domain.tiles()[d], volume *= te[d];
  EXPECT_EQ(threads.load(), tiles * volume);
  EXPECT_EQ(padding.load(), tiles * volume - g.size());
  EXPECT_EQ(inconsistent.load(), 0);
  for (std::int64_t k = 0; k < g.size(); ++k)
    ASSERT_EQ(visits[g.map_index(k)], 1) << "at point " << k;
}

TEST(TiledForall, EveryPointOnceWhenExtentsAreMultiplesOfTheTile) {
  check_tiled_visit<8>(dp::grid<1>(64));
  check_tiled_visit<4, 8>(dp::grid<2>(16, 32));
  check_tiled_visit<2, 4, 8>(dp::grid<3>(4, 8, 16));
  check_tiled_visit<2, 2, 2, 4>(dp::grid<4>(4, 2, 6, 8));
}

TEST(TiledForall, EveryPointOnceWhenExtentsArePadded) {
  check_tiled_visit<8>(dp::grid<1>(61));
  check_tiled_visit<16>(dp::grid<1>(1));
  check_tiled_visit<4, 8>(dp::grid<2>(13, 30));
  check_tiled_visit<2, 4, 8>(dp::grid<3>(5, 7, 17));
  check_tiled_visit<2, 3, 2, 4>(dp::grid<4>(3, 5, 1, 9));
}

TEST(TiledForall, StridedGridsWithLowerBounds) {
  check_tiled_visit<4, 4>(
      dp::grid<2>(dp::arithmetic_sequence(-3, 9), dp::arithmetic_sequence(20, 2, -3)));
  check_tiled_visit<8>(dp::grid<1>(dp::arithmetic_sequence(5, 40, 2)));
}

TEST(TiledForall, EmptyGridRunsNothing) {
  int calls = 0;
  dp::forall(dp::tile<4, 4>(dp::grid<2>(0, 9)), [&](dp::tile_group<2>) { ++calls; }, dp::_tile);
  EXPECT_EQ(calls, 0);
}

TEST(TiledForall, PaddingThreadsReadValueInitialisedElementsAndWriteNothing) {
  const dp::grid<2> g(5, 7);
  dp::field<2, float> a(g, 3.0f), b(g, -1.0f);
  dp::field<1, float> row_sums(dp::grid<1>(5), 0.0f);
  std::atomic<int> padding_reads_nonzero{0};
  dp::forall(
      dp::tile<4, 4>(g),
      [&](const dp::tile_group<2> &t, const float &x, float &y) {
        if (!t.in_domain() && x != 0.0f)
          ++padding_reads_nonzero;
        y = x + 1.0f;
      },
      dp::_tile, a, b);
  EXPECT_EQ(padding_reads_nonzero.load(), 0);
  for (std::int64_t i = 0; i < 5; ++i)
    for (std::int64_t j = 0; j < 7; ++j)
      ASSERT_EQ(b(i, j), 4.0f);
}

// A kernel that takes no tile token cannot tell its tile, so the host runs
// it as the plain forall (or reduce) over the grid; its padding threads
// must still run, as they do on a GPU: each once, at index values past the
// grid, reading value-initialised elements, their writes dropped and their
// values not folded.
template <int... T, int N> void check_tile_blind(const dp::grid<N> &g) {
  const auto domain = dp::tile<T...>(g);
  SCOPED_TRACE("domain " + domain.to_string());
  std::int64_t threads = 1;
  for (int d = 0; d < N; ++d)
    threads *= domain.tiles()[d] * domain.tile_extents()[d];
  dp::field<N, std::int64_t> x(g, 5), y(g, 0);
  std::atomic<std::int64_t> calls{0}, outside{0}, nonzero_reads{0};
  dp::forall(
      domain,
      [&](dp::index<N> i, const std::int64_t &v, std::int64_t &w) {
        ++calls;
        if (!g.contains(i)) {
          ++outside;
          nonzero_reads += v != 0;
        }
        w = v + 1;
      },
      dp::_index, x, y);
  EXPECT_EQ(calls.load(), threads);
  EXPECT_EQ(outside.load(), threads - g.size());
  EXPECT_EQ(nonzero_reads.load(), 0);
  for (std::int64_t k = 0; k < g.size(); ++k)
    ASSERT_EQ(y[g.map_index(k)], 6) << "at point " << k;

  calls = 0;
  dp::scalar<std::int64_t> sum(7);
  dp::reduce(
      domain, std::plus<>(), sum,
      [&](dp::index<N> i, std::int64_t v) {
        ++calls;
        return g.contains(i) ? v : std::int64_t(1000000); // a padding value is dropped
      },
      dp::_index, x);
  EXPECT_EQ(calls.load(), threads);
  EXPECT_EQ(sum.get(), 7 + 5 * g.size());
}

TEST(TiledForall, AKernelThatCannotTellItsTileStillRunsItsPaddingThreads) {
  check_tile_blind<8>(dp::grid<1>(64));
  check_tile_blind<8>(dp::grid<1>(61));
  check_tile_blind<16>(dp::grid<1>(1));
  check_tile_blind<4, 8>(dp::grid<2>(13, 30));
  check_tile_blind<2, 4, 8>(dp::grid<3>(5, 7, 17));
  check_tile_blind<2, 3, 2, 4>(dp::grid<4>(3, 5, 1, 9));
  check_tile_blind<4, 4>(
      dp::grid<2>(dp::arithmetic_sequence(-3, 9), dp::arithmetic_sequence(20, 2, -3)));
}

TEST(TiledForall, BroadcastAndPartialProjectionOnATiledDomain) {
  // Column sums of a 2-d field: the kernel receives column i (the partial
  // projection of a field over (j, i) onto rank 1) and a broadcast scale.
  const dp::grid<1> rows(11);
  dp::field<2, int> m(dp::grid<2>(6, 11));
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j < 6; ++j)
      m(j, i) = i * 10 + j;
  dp::field<1, int> sums(rows, -1);
  const int scale = 2;
  dp::forall(
      dp::tile<4>(rows),
      [](const dp::field<1, int> &row, int s, int &out) {
        int acc = 0;
        for (std::int64_t j = 0; j < row.get_extent(0); ++j)
          acc += row(j);
        out = s * acc;
      },
      m, scale, sums);
  for (int i = 0; i < 11; ++i)
    EXPECT_EQ(sums(i), 2 * (60 * i + 15));
}

// --- barriers and tile memory -------------------------------------------------

TEST(TileStatic, TransposeThroughAPaddedTileWithABarrier) {
  const int n = 37, m = 50;
  dp::field<2, float> a(dp::grid<2>(n, m)), b(dp::grid<2>(m, n), -1.0f);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      a(i, j) = float(i * 100 + j);
  dp::forall(
      dp::tile<8, 8>(a.get_grid()),
      [](const dp::tile_group<2> &t, const float &x, dp::field<2, float> &out) {
        dp::tile_static<float[8][9]> s(t);
        const dp::index<2> l = t.local();
        s.get()[l[0]][l[1]] = x;
        t.barrier();
        // Thread (r, c) writes element (origin_j + r, origin_i + c) of the
        // transpose from the tile's column.
        const std::int64_t i = t.tile_origin()[0] + l[1], j = t.tile_origin()[1] + l[0];
        if (j < out.get_extent(0) && i < out.get_extent(1))
          out(j, i) = s.get()[l[1]][l[0]];
      },
      dp::_tile, a, b);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      ASSERT_EQ(b(j, i), a(i, j)) << i << ", " << j;
}

TEST(TileStatic, TreeReductionWithABarrierPerStep) {
  const std::int64_t n = 1000; // 16 tiles of 64, the last one padded
  dp::field<1, std::int64_t> x{dp::grid<1>(n)}, tile_sums(dp::grid<1>(16), 0);
  for (std::int64_t i = 0; i < n; ++i)
    x(i) = i;
  dp::forall(
      dp::tile<64>(x.get_grid()),
      [](const dp::tile_group<1> &t, const std::int64_t &v, dp::field<1, std::int64_t> &sums) {
        dp::tile_static<std::int64_t[64]> s(t);
        const std::int64_t l = t.local()[0];
        s[l] = v; // a padding thread's v is 0
        for (std::int64_t half = 32; half > 0; half /= 2) {
          t.barrier();
          if (l < half)
            s[l] += s[l + half];
        }
        if (l == 0)
          sums(t.tile()[0]) = s[0];
      },
      dp::_tile, x, tile_sums);
  for (std::int64_t k = 0; k < 16; ++k) {
    std::int64_t expected = 0;
    for (std::int64_t i = 64 * k; i < std::min(n, 64 * (k + 1)); ++i)
      expected += i;
    EXPECT_EQ(tile_sums(k), expected) << "tile " << k;
  }
}

TEST(TileStatic, NestedScopesReuseTheTileMemory) {
  // 3 x 16 KiB live at once would not fit in 48 KiB; in sequence they do.
  dp::field<1, int> out(dp::grid<1>(4), 0);
  dp::forall(
      dp::tile<4>(out.get_grid()),
      [](const dp::tile_group<1> &t, int &o) {
        for (int round = 0; round < 3; ++round) {
          dp::tile_static<int[4096]> s(t);
          s[t.local()[0]] = round + 1;
          t.barrier();
          o += s[(t.local()[0] + 1) % 4];
          t.barrier();
        }
      },
      dp::_tile, out);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(out(i), 6);
}

TEST(TileStatic, AKernelWithoutBarriersStillSharesTheTileMemory) {
  // Threads of a tile run in order of their local index when the kernel has
  // no barrier; the last thread sees what the others wrote before it.
  dp::field<1, int> out(dp::grid<1>(8), 0);
  dp::forall(
      dp::tile<8>(out.get_grid()),
      [](const dp::tile_group<1> &t, int &o) {
        dp::tile_static<int> count(t);
        if (t.local()[0] == 0)
          count.get() = 0;
        o = ++count.get();
      },
      dp::_tile, out);
  EXPECT_EQ(out(7), 8);
}

// --- full reduce over a tiled grid -------------------------------------------------

// The fold of f over a tiled grid is the fold over its points, whatever the
// tile and whether the extents are padded: padding threads run (they reach
// the barriers) but their values are dropped.
template <int... T, int N> void check_tiled_sum(const dp::grid<N> &g) {
  const auto domain = dp::tile<T...>(g);
  SCOPED_TRACE("domain " + domain.to_string());
  dp::field<N, std::int64_t> x(g);
  std::int64_t expected = 7;
  for (std::int64_t k = 0; k < g.size(); ++k) {
    x[g.map_index(k)] = k * k % 1009 - 300;
    expected += k * k % 1009 - 300;
  }
  dp::scalar<std::int64_t> sum(7);
  std::atomic<std::int64_t> threads{0};
  dp::reduce(domain, std::plus<>(), sum,
             [&](const dp::tile_group<N> &t, const std::int64_t &v) {
               ++threads;
               return t.in_domain() ? v : std::int64_t(1000000); // a padding value is dropped
             },
             dp::_tile, x);
  EXPECT_EQ(sum.get(), expected);
  std::int64_t tiles = 1;
  for (int d = 0; d < N; ++d)
    tiles *= domain.tiles()[d];
  EXPECT_EQ(threads.load(), tiles * domain.tile_extents().size());
}

TEST(TiledReduce, FoldsEveryPointOnceAtEveryRank) {
  check_tiled_sum<8>(dp::grid<1>(64));
  check_tiled_sum<8>(dp::grid<1>(61));
  check_tiled_sum<4, 8>(dp::grid<2>(13, 30));
  check_tiled_sum<2, 4, 8>(dp::grid<3>(5, 7, 17));
  check_tiled_sum<2, 3, 2, 4>(dp::grid<4>(3, 5, 1, 9));
  check_tiled_sum<16, 16>(dp::grid<2>(dp::arithmetic_sequence(-3, 40, 2), dp::arithmetic_sequence(5, 20)));
}

TEST(TiledReduce, AnEmptyGridLeavesTheResult) {
  dp::scalar<int> s(3);
  dp::reduce(dp::tile<4>(dp::grid<1>(0)), std::plus<>(), s, [](dp::index<1>) { return 1; },
             dp::_index);
  EXPECT_EQ(s.get(), 3);
}

TEST(TiledReduce, TheKernelSharesTileMemoryThroughBarriers) {
  // Each point contributes the product of its value and its right
  // neighbour's in the tile (a neighbour past the tile or the grid gives 0).
  const std::int64_t n = 70; // 5 tiles of 16, the last padded
  dp::field<1, std::int64_t> x{dp::grid<1>(n)};
  for (std::int64_t i = 0; i < n; ++i)
    x(i) = i % 11 + 1;
  dp::scalar<std::int64_t> s(0);
  dp::reduce(dp::tile<16>(x.get_grid()), std::plus<>(), s,
             [](const dp::tile_group<1> &t, const std::int64_t &v) {
               dp::tile_static<std::int64_t[16]> row(t);
               const std::int64_t l = t.local()[0];
               row[l] = v; // 0 for a padding thread
               t.barrier();
               return v * (l + 1 < 16 ? row[l + 1] : 0);
             },
             dp::_tile, x);
  std::int64_t expected = 0;
  for (std::int64_t i = 0; i < n; ++i)
    if ((i + 1) % 16 != 0 && i + 1 < n)
      expected += x(i) * x(i + 1);
  EXPECT_EQ(s.get(), expected);
}

TEST(TiledReduce, FloatingPointFoldsAreReproducible) {
  dp::field<2, double> x(dp::grid<2>(300, 301));
  for (std::int64_t i = 0; i < 300; ++i)
    for (std::int64_t j = 0; j < 301; ++j)
      x(i, j) = 1.0 / double(1 + i * 301 + j);
  auto run = [&] {
    dp::scalar<double> s(0.0);
    dp::reduce(dp::tile<8, 32>(x.get_grid()), std::plus<>(), s,
               [](const dp::tile_group<2> &, const double &v) { return v; }, dp::_tile, x);
    return s.get();
  };
  const double first = run();
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(run(), first);
}

// --- errors ---------------------------------------------------------------------

template <class F> std::string error_of(F &&f) {
  try {
    f();
  } catch (const dp::error &e) {
    return e.what();
  }
  return "(no dp::error)";
}

/// A barrier only some threads of a tile reach. dpstub rejects the ones it
/// can see depend on the thread (tiles_diagnostics.cpp); this one depends on
/// it through tile memory (on the host each thread reads back what it
/// stored before the next one runs), which only the run finds.
TEST(TiledErrors, ABarrierThatOnlySomeThreadsReachIsAnError) {
  const std::string e = error_of([] {
    dp::forall(dp::tile<8>(dp::grid<1>(6)),
               [](const dp::tile_group<1> &t) {
                 dp::tile_static<std::int64_t> last(t);
                 last.get() = t.local()[0];
                 if (last.get() % 2 == 0)
                   t.barrier();
               },
               dp::_tile);
  });
  EXPECT_NE(e.find("dp::forall"), std::string::npos) << e;
  EXPECT_NE(e.find("tile (0)"), std::string::npos) << e;
  EXPECT_NE(e.find("barrier"), std::string::npos) << e;
}

TEST(TiledErrors, ATileWithMoreThreadsThanAGroupIsAnError) {
  const std::string e = error_of([] {
    dp::forall(dp::tile<64, 32>(dp::grid<2>(64, 64)), [](const dp::tile_group<2> &) {}, dp::_tile);
  });
  EXPECT_NE(e.find("2048"), std::string::npos) << e;
  EXPECT_NE(e.find("1024"), std::string::npos) << e;
  // Also when the kernel cannot tell its tile: a GPU could not launch it.
  dp::field<2, int> f(dp::grid<2>(64, 64), 1);
  EXPECT_NE(error_of([&] { dp::forall(dp::tile<64, 32>(f.get_grid()), [](int &v) { v = 0; }, f); })
                .find("2048"),
            std::string::npos);
  dp::scalar<int> s(0);
  EXPECT_NE(error_of([&] {
              dp::reduce(dp::tile<64, 32>(f.get_grid()), std::plus<>(), s, [](int v) { return v; }, f);
            }).find("2048"),
            std::string::npos);
}

TEST(TiledErrors, TileMemoryBeyond48KiBIsAnError) {
  const std::string e = error_of([] {
    dp::forall(dp::tile<2>(dp::grid<1>(2)),
               [](const dp::tile_group<1> &t) {
                 dp::tile_static<char[40000]> a(t);
                 dp::tile_static<char[10000]> b(t);
               },
               dp::_tile);
  });
  EXPECT_NE(e.find("tile memory"), std::string::npos) << e;
  EXPECT_NE(e.find("49152"), std::string::npos) << e;
}

TEST(TiledErrors, ATiledReduceLeavesItsKernelWhatItsFoldDoesNotTake) {
  // 256 threads fold 256 doubles and 256 flags in tile memory: 48 KiB less
  // 2304 bytes remain, so 47 KiB of tile_static no longer fits.
  const std::string e = error_of([] {
    dp::scalar<double> s(0);
    dp::reduce(dp::tile<256>(dp::grid<1>(256)), std::plus<>(), s,
               [](const dp::tile_group<1> &t) {
                 dp::tile_static<char[47 * 1024]> a(t);
                 return 1.0;
               },
               dp::_tile);
  });
  EXPECT_NE(e.find("dp::reduce"), std::string::npos) << e;
  EXPECT_NE(e.find("tile memory"), std::string::npos) << e;
  EXPECT_NE(e.find("46848"), std::string::npos) << e;
}

TEST(TiledErrors, AnExceptionInOneThreadReachesTheCaller) {
  EXPECT_THROW(dp::forall(dp::tile<4, 4>(dp::grid<2>(8, 8)),
                          [](const dp::tile_group<2> &t) {
                            t.barrier();
                            if (t.global() == dp::index<2>(5, 6))
                              throw std::runtime_error("kernel failed");
                            t.barrier();
                          },
                          dp::_tile),
               std::runtime_error);
  // The runtime is usable afterwards.
  dp::field<1, int> out(dp::grid<1>(3), 0);
  dp::forall(dp::tile<2>(out.get_grid()),
             [](const dp::tile_group<1> &t, int &o) {
               t.barrier();
               o = 1;
             },
             dp::_tile, out);
  EXPECT_EQ(out(2), 1);
}

} // namespace
