// The dispatch planner: the patent's examples, and the covering property
// (every logical point reached by exactly one physical thread of exactly one
// piece, within the limits) over many random problems.
#include <dp/dp.hpp>
#include <dp/rt/stub/domains.hpp>
#include <dp/rt/plan/plan.hpp>
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace {

using dp::rt::dispatch_policy;
using dp::rt::triple;

const dp::rt::device_limits generous{{2147483647, 65535, 65535}, 1024};

TEST(Planner, PatentExampleDirectRankTwo) {
  const auto plan = dp::rt::plan_dispatch(dp::extent<2>(289, 2050), generous);
  EXPECT_EQ(plan.mode, 2);
  ASSERT_EQ(plan.pieces.size(), 1u);
  EXPECT_EQ(plan.pieces[0].groups, (triple{9, 289, 1}));
  EXPECT_EQ(plan.pieces[0].origin, dp::index<2>(0, 0));
  EXPECT_EQ(plan.group_shape, (triple{256, 1, 1}));
}

TEST(Planner, PatentExampleSplitIntoFourLaunches) {
  const dp::rt::device_limits limits{{256, 256, 256}, 1024};
  const auto plan =
      dp::rt::plan_dispatch(dp::extent<2>(258, 258), limits, dispatch_policy::split, {1, 1, 1});
  EXPECT_EQ(plan.mode, 2);
  ASSERT_EQ(plan.pieces.size(), 4u);
  EXPECT_EQ(plan.pieces[0].origin, dp::index<2>(0, 0));
  EXPECT_EQ(plan.pieces[1].origin, dp::index<2>(0, 256));
  EXPECT_EQ(plan.pieces[2].origin, dp::index<2>(256, 0));
  EXPECT_EQ(plan.pieces[3].origin, dp::index<2>(256, 256));
  EXPECT_EQ(plan.pieces[0].groups, (triple{256, 256, 1}));
  EXPECT_EQ(plan.pieces[1].groups, (triple{2, 256, 1}));
  EXPECT_EQ(plan.pieces[2].groups, (triple{256, 2, 1}));
  EXPECT_EQ(plan.pieces[3].groups, (triple{2, 2, 1}));
}

TEST(Planner, WastefulDirectBecomesIndirect) {
  // 1000 x 3 with 256-wide groups: direct wastes 85 threads a point.
  const auto plan = dp::rt::plan_dispatch(dp::extent<2>(1000, 3), generous);
  EXPECT_EQ(plan.mode, 7);
  EXPECT_LT(plan.wastage(), 1.1);
}

TEST(Planner, RankThreeBeyondOneDimensionUsesPartiallyDirectModes) {
  const dp::rt::device_limits limits{{64, 64, 64}, 1024};
  // x fits (4 groups), y (100) does not: mode 4 keeps x direct.
  EXPECT_EQ(dp::rt::plan_dispatch(dp::extent<3>(10, 100, 1024), limits).mode, 4);
  // x does not fit, y does: mode 5 puts dimension 1 on x.
  EXPECT_EQ(dp::rt::plan_dispatch(dp::extent<3>(10, 50, 256 * 100), limits).mode, 5);
  // only z fits on x: mode 6.
  EXPECT_EQ(dp::rt::plan_dispatch(dp::extent<3>(50, 40, 256 * 100), limits, dispatch_policy::automatic,
                                  {256, 1, 1}).mode, 6);
}

TEST(Planner, HighRanksAreIndirectOrIteratedUnderSplit) {
  EXPECT_EQ(dp::rt::plan_dispatch(dp::extent<5>(2, 3, 4, 5, 6), generous).mode, 7);
  const auto split =
      dp::rt::plan_dispatch(dp::extent<5>(2, 3, 4, 5, 6), generous, dispatch_policy::split);
  EXPECT_EQ(split.mode, 3);
  EXPECT_EQ(split.pieces.size(), 6u); // one per value of the leading two dims
}

TEST(Planner, EmptyDomainHasNoLaunches) {
  EXPECT_TRUE(dp::rt::plan_dispatch(dp::extent<2>(0, 10), generous).pieces.empty());
}

TEST(Planner, SixtyFourBitDomains) {
  const dp::rt::device_limits limits{{1 << 20, 1 << 20, 1 << 20}, 1024};
  const auto plan = dp::rt::plan_dispatch(dp::extent<1>(std::int64_t(1) << 40), limits);
  std::int64_t threads = 0;
  for (const auto &p : plan.pieces)
    threads += p.groups[0] * p.groups[1] * p.groups[2] * 256;
  EXPECT_GE(threads, std::int64_t(1) << 40);
  EXPECT_LT(plan.wastage(), 1.01);
}

TEST(FastDivmod, EqualsDivisionAndRemainder) {
  std::mt19937 rng(7);
  std::vector<std::uint32_t> divisors = {1, 2, 3, 5, 7, 10, 255, 256, 257, 641, 65535, 65536,
                                         65537, (1u << 31) - 1, 1u << 31, (1u << 31) + 1,
                                         UINT32_MAX - 1, UINT32_MAX};
  for (int k = 0; k < 200; ++k)
    divisors.push_back(std::uniform_int_distribution<std::uint32_t>(1, UINT32_MAX)(rng));
  for (int k = 0; k < 100; ++k)
    divisors.push_back(std::uniform_int_distribution<std::uint32_t>(1, 5000)(rng));
  for (std::uint32_t d : divisors) {
    const dp::rt::fast_divmod f(d);
    std::vector<std::uint32_t> ns = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, UINT32_MAX,
                                     UINT32_MAX - 1, UINT32_MAX / d * d, UINT32_MAX / d * d - 1};
    for (int k = 0; k < 2000; ++k)
      ns.push_back(std::uniform_int_distribution<std::uint32_t>(0, UINT32_MAX)(rng));
    for (std::uint32_t n : ns) {
      std::uint32_t q, r;
      f.divmod(n, q, r);
      ASSERT_EQ(q, n / d) << n << " / " << d;
      ASSERT_EQ(r, n % d) << n << " % " << d;
    }
  }
}

/// The 32-bit raise (fast division) and the 64-bit one give every thread
/// the same index, in every mode that raises: the same plan run both ways.
template <int N>
void check_raises_agree(const dp::extent<N> &e, const triple &shape, int count, std::set<int> &modes,
                        const dp::rt::device_limits &limits = {{40, 30, 20}, 1024}) {
  for (auto policy : {dispatch_policy::automatic, dispatch_policy::load_balance, dispatch_policy::split}) {
    const auto plan = dp::rt::plan_dispatch(e, limits, policy, shape);
    modes.insert(plan.mode);
    for (const auto &piece : plan.pieces) {
      dp::rt::launch_geometry<N> narrow = dp::rt::make_geometry(plan, piece), wide = narrow;
      ASSERT_TRUE(narrow.narrow);
      wide.narrow = false;
      std::mt19937 rng(N * 31 + plan.mode);
      for (int k = 0; k < count; ++k) {
        std::int64_t group[3], local[3];
        for (int j = 0; j < 3; ++j) {
          group[j] = std::uniform_int_distribution<std::int64_t>(0, piece.groups[j] - 1)(rng);
          local[j] = std::uniform_int_distribution<std::int64_t>(0, shape[j] - 1)(rng);
        }
        dp::index<N> a, b;
        bool ra = false, rb = false;
        switch (plan.mode) {
        case 7:
          ra = dp::rt::map_thread<7>(narrow, group, local, a), rb = dp::rt::map_thread<7>(wide, group, local, b);
          break;
        case 4: case 5: case 6:
          if constexpr (N == 3) {
            if (plan.mode == 4)
              ra = dp::rt::map_thread<4>(narrow, group, local, a), rb = dp::rt::map_thread<4>(wide, group, local, b);
            else if (plan.mode == 5)
              ra = dp::rt::map_thread<5>(narrow, group, local, a), rb = dp::rt::map_thread<5>(wide, group, local, b);
            else
              ra = dp::rt::map_thread<6>(narrow, group, local, a), rb = dp::rt::map_thread<6>(wide, group, local, b);
          }
          break;
        default:
          continue; // direct modes do not divide
        }
        ASSERT_EQ(ra, rb);
        for (int d = 0; ra && d < N; ++d)
          ASSERT_EQ(a[d], b[d]) << "mode " << plan.mode << " dimension " << d;
      }
    }
  }
}

TEST(FastDivmod, NarrowAndWideRaisesAgree) {
  std::set<int> modes;
  check_raises_agree(dp::extent<4>(37, 1000, 3, 129), {256, 1, 1}, 2000, modes);
  check_raises_agree(dp::extent<6>(3, 5, 7, 11, 13, 17), {64, 2, 1}, 2000, modes);
  check_raises_agree(dp::extent<3>(5000, 7, 9), {32, 4, 2}, 2000, modes);
  check_raises_agree(dp::extent<3>(3, 70000, 9), {8, 8, 4}, 2000, modes);
  // The partially direct modes 4, 5 and 6 (as in
  // Planner.RankThreeBeyondOneDimensionUsesPartiallyDirectModes).
  const dp::rt::device_limits square{{64, 64, 64}, 1024};
  check_raises_agree(dp::extent<3>(10, 100, 1024), {256, 1, 1}, 2000, modes, square);
  check_raises_agree(dp::extent<3>(10, 50, 256 * 100), {256, 1, 1}, 2000, modes, square);
  check_raises_agree(dp::extent<3>(50, 40, 256 * 100), {256, 1, 1}, 2000, modes, square);
  for (int mode : {4, 5, 6, 7})
    EXPECT_TRUE(modes.count(mode)) << "no plan used mode " << mode;
}

TEST(FastDivmod, DomainsBeyondThirtyTwoBitsRaiseIn64Bits) {
  // 2^34 points: the geometry is wide, and a thread far into the domain
  // reaches the index a plain 64-bit raise gives.
  const dp::extent<4> e(std::int64_t(1) << 10, std::int64_t(1) << 8, std::int64_t(1) << 8, std::int64_t(1) << 8);
  const dp::rt::device_limits limits{{std::int64_t(1) << 31, 65535, 65535}, 1024};
  const auto plan = dp::rt::plan_dispatch(e, limits);
  ASSERT_EQ(plan.mode, 7);
  const auto g = dp::rt::make_geometry(plan, plan.pieces.front());
  EXPECT_FALSE(g.narrow);
  const std::int64_t group[3] = {(std::int64_t(1) << 25) + 3, 0, 0}, local[3] = {17, 0, 0};
  dp::index<4> out;
  ASSERT_TRUE(dp::rt::map_thread<7>(g, group, local, out));
  std::int64_t offset = group[0] * plan.group_shape[0] + local[0];
  for (int d = 3; d >= 0; --d) {
    EXPECT_EQ(out[d], offset % e[d]);
    offset /= e[d];
  }
}

/// Walks every physical thread of every piece and counts the logical points
/// reached; each must be reached exactly once.
template <int N>
void check_covering(const dp::extent<N> &e, const dp::rt::device_limits &limits,
                    dispatch_policy policy, const triple &shape, std::uint32_t seed) {
  SCOPED_TRACE("seed " + std::to_string(seed) + " extent " + e.to_string() + " shape (" +
               std::to_string(shape[0]) + "," + std::to_string(shape[1]) + "," +
               std::to_string(shape[2]) + ") max_groups (" + std::to_string(limits.max_groups[0]) +
               "," + std::to_string(limits.max_groups[1]) + "," +
               std::to_string(limits.max_groups[2]) + ") policy " +
               std::to_string(static_cast<int>(policy)));
  const auto plan = dp::rt::plan_dispatch(e, limits, policy, shape);
  ASSERT_GE(plan.mode, 1);
  ASSERT_LE(plan.mode, 7);
  if (plan.mode >= 4 && plan.mode <= 6) {
    ASSERT_EQ(N, 3);
  }
  std::vector<int> hits(static_cast<std::size_t>(e.size()), 0);
  const dp::grid<N> g(e);
  for (const auto &piece : plan.pieces) {
    for (int k = 0; k < 3; ++k) {
      ASSERT_GE(piece.groups[k], 1);
      ASSERT_LE(piece.groups[k], limits.max_groups[k]);
    }
    dp::rt::physical_thread th{};
    for (th.group[2] = 0; th.group[2] < piece.groups[2]; ++th.group[2])
      for (th.group[1] = 0; th.group[1] < piece.groups[1]; ++th.group[1])
        for (th.group[0] = 0; th.group[0] < piece.groups[0]; ++th.group[0])
          for (th.local[2] = 0; th.local[2] < shape[2]; ++th.local[2])
            for (th.local[1] = 0; th.local[1] < shape[1]; ++th.local[1])
              for (th.local[0] = 0; th.local[0] < shape[0]; ++th.local[0]) {
                dp::index<N> idx;
                if (!dp::rt::logical_index(plan, piece, th, idx))
                  continue;
                ASSERT_TRUE(e.contains(idx));
                ++hits[static_cast<std::size_t>(g.flatten(idx))];
              }
  }
  for (std::size_t k = 0; k < hits.size(); ++k)
    ASSERT_EQ(hits[k], 1) << "logical offset " << k << " mode " << plan.mode;
}

template <int N> void random_coverings(std::uint32_t seed, int count) {
  std::mt19937 rng(seed);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const std::int64_t budget = N <= 2 ? 4000 : 3000; // logical points per case
  for (int c = 0; c < count; ++c) {
    dp::extent<N> e;
    std::int64_t points = 1;
    for (int d = 0; d < N; ++d) {
      e[d] = pick(d == 0 ? 0 : 1, std::max<std::int64_t>(1, std::min<std::int64_t>(40, budget / points)));
      points *= std::max<std::int64_t>(1, e[d]);
    }
    const triple shape{pick(1, 8), pick(1, 3), pick(1, 2)};
    const dp::rt::device_limits limits{{pick(1, 12), pick(1, 12), pick(1, 12)}, 64};
    const dispatch_policy policy = static_cast<dispatch_policy>(pick(0, 2));
    bool impossible = false;
    try {
      (void)dp::rt::plan_dispatch(e, limits, policy, shape);
    } catch (const dp::error &) {
      impossible = true; // too many launches: allowed to refuse, never to be wrong
    }
    if (!impossible)
      check_covering(e, limits, policy, shape, seed * 1000 + std::uint32_t(c));
  }
}

TEST(Planner, HighRanksWithUnitLeadingDimensionsAreOneDirectLaunch) {
  // What a launch over whole fields plans once its contiguous dimensions
  // are folded into the last (launch.hpp): the rank-1 launch's groups, in
  // the row mode (1: the leading coordinates are the constant 0).
  const auto folded = dp::rt::plan_dispatch(dp::extent<6>(1, 1, 1, 1, 1, 3000), generous);
  EXPECT_EQ(folded.mode, 1);
  ASSERT_EQ(folded.pieces.size(), 1u);
  EXPECT_EQ(folded.pieces[0].groups, (triple{12, 1, 1}));
  EXPECT_EQ(folded.pieces[0].groups,
            dp::rt::plan_dispatch(dp::extent<1>(3000), generous).pieces[0].groups);
  const dp::rt::device_limits small{{4, 4, 4}, 64};
  for (auto policy : {dispatch_policy::automatic, dispatch_policy::split, dispatch_policy::load_balance})
    check_covering<4>(dp::extent<4>(1, 2, 3, 30), small, policy, {8, 1, 1}, 0);
}

/// Rows of rank R (leading extents 1): planned as the rank-1 domain of the
/// last dimension, in the row mode unless indirect mapping is cheaper, with
/// every point reached once under every policy and limit; a group shape of
/// more than one dimension is planned as the rank's grid.
template <int R> void random_rows(std::uint32_t seed, int count) {
  std::mt19937 rng(seed);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  for (int c = 0; c < count; ++c) {
    dp::extent<R> e;
    for (int d = 0; d + 1 < R; ++d)
      e[d] = 1;
    e[R - 1] = pick(1, 3000);
    const triple shape{pick(1, 64), 1, 1};
    const dp::rt::device_limits limits{{pick(1, 40), pick(1, 12), pick(1, 12)}, 64};
    const dispatch_policy policy = static_cast<dispatch_policy>(pick(0, 2));
    dp::rt::dispatch_plan<R> plan;
    try {
      plan = dp::rt::plan_dispatch(e, limits, policy, shape);
    } catch (const dp::error &) {
      continue; // too many launches: allowed to refuse, never to be wrong
    }
    const auto row = dp::rt::plan_dispatch(dp::extent<1>(e[R - 1]), limits, policy, shape);
    EXPECT_EQ(plan.mode, row.mode);
    EXPECT_TRUE(plan.mode == 1 || plan.mode == 7) << plan.mode;
    ASSERT_EQ(plan.pieces.size(), row.pieces.size());
    for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
      EXPECT_EQ(plan.pieces[k].groups, row.pieces[k].groups);
      for (int d = 0; d + 1 < R; ++d)
        EXPECT_EQ(plan.pieces[k].origin[d], 0);
    }
    check_covering(e, limits, policy, shape, seed * 1000 + std::uint32_t(c));
  }
  dp::extent<R> e;
  for (int d = 0; d + 1 < R; ++d)
    e[d] = 1;
  e[R - 1] = 3000;
  EXPECT_NE(dp::rt::plan_dispatch(e, generous, dispatch_policy::automatic, {16, 16, 1}).mode, 1);
}

TEST(PlannerProperty, RowsOfEveryRankAreRank1Plans) {
  random_rows<2>(21, 60);
  random_rows<3>(22, 60);
  random_rows<4>(23, 60);
  random_rows<6>(24, 60);
}

TEST(PlannerProperty, EveryPointExactlyOnceRank1) { random_coverings<1>(1, 250); }
TEST(PlannerProperty, EveryPointExactlyOnceRank2) { random_coverings<2>(2, 250); }
TEST(PlannerProperty, EveryPointExactlyOnceRank3) { random_coverings<3>(3, 400); }
TEST(PlannerProperty, EveryPointExactlyOnceRank4) { random_coverings<4>(4, 150); }
TEST(PlannerProperty, EveryPointExactlyOnceRank5) { random_coverings<5>(5, 100); }
TEST(PlannerProperty, EveryPointExactlyOnceRank6) { random_coverings<6>(6, 100); }

TEST(PlannerProperty, EveryModeIsExercised) {
  // The random search above must not miss a mode: hit each one on purpose.
  const dp::rt::device_limits small{{4, 4, 4}, 64};
  check_covering<1>(dp::extent<1>(30), small, dispatch_policy::automatic, {8, 1, 1}, 0);      // 1
  check_covering<2>(dp::extent<2>(3, 30), small, dispatch_policy::automatic, {8, 1, 1}, 0);   // 2
  check_covering<3>(dp::extent<3>(3, 4, 30), small, dispatch_policy::automatic, {8, 1, 1}, 0); // 3
  check_covering<3>(dp::extent<3>(3, 5, 30), small, dispatch_policy::automatic, {8, 1, 1}, 0); // 4
  check_covering<3>(dp::extent<3>(2, 3, 40), small, dispatch_policy::automatic, {8, 1, 1}, 0); // 5
  check_covering<3>(dp::extent<3>(3, 70, 3), small, dispatch_policy::load_balance, {1, 1, 1}, 0);
  check_covering<4>(dp::extent<4>(3, 3, 3, 3), small, dispatch_policy::automatic, {8, 1, 1}, 0); // 7
  check_covering<2>(dp::extent<2>(50, 50), small, dispatch_policy::split, {4, 2, 1}, 0);       // split
  check_covering<1>(dp::extent<1>(5000), small, dispatch_policy::load_balance, {8, 1, 1}, 0);  // multi 7
  EXPECT_EQ(dp::rt::plan_dispatch(dp::extent<3>(3, 5, 30), small, dispatch_policy::automatic, {8, 1, 1}).mode, 4);
  EXPECT_EQ(dp::rt::plan_dispatch(dp::extent<3>(2, 3, 40), small, dispatch_policy::automatic, {8, 1, 1}).mode, 5);
  EXPECT_EQ(dp::rt::plan_dispatch(dp::extent<1>(5000), small, dispatch_policy::load_balance, {8, 1, 1}).pieces.size(), 10u);
}

// --- tiled plans (one group per tile) --------------------------------------------

/// Walks every physical thread of a tiled plan as the generated stub does
/// (the group's id gives the tile, the thread's id its place in the tile)
/// and checks that each point of the grid is reached by exactly one thread
/// that is not padding, and that the groups are exactly the tiles.
template <int... T, int N = sizeof...(T)>
void check_tiled_covering(const dp::extent<N> &e, const dp::rt::device_limits &limits) {
  const dp::extent<N> tile(T...);
  SCOPED_TRACE("extent " + e.to_string() + " tile " + tile.to_string() + " max_groups (" +
               std::to_string(limits.max_groups[0]) + "," + std::to_string(limits.max_groups[1]) +
               "," + std::to_string(limits.max_groups[2]) + ")");
  const dp::extent<N> tiles = dp::rt::tile_counts(e, tile);
  const auto plan = dp::rt::plan_tiles("test", tiles, tile, limits);
  const triple shape = dp::rt::tile_group_shape(tile);
  dp::rt::tiling<N, T...> tiling{};
  for (int d = 0; d < N; ++d)
    tiling.extent[d] = e[d];
  std::vector<int> hits(static_cast<std::size_t>(e.size()), 0);
  std::vector<int> tile_hits(static_cast<std::size_t>(tiles.size()), 0);
  std::int64_t padding = 0;
  const dp::grid<N> g(e), tg(tiles);
  for (const auto &piece : plan.pieces) {
    for (int k = 0; k < 3; ++k)
      ASSERT_LE(piece.groups[k], limits.max_groups[k]);
    dp::rt::physical_thread th{};
    for (th.group[2] = 0; th.group[2] < piece.groups[2]; ++th.group[2])
      for (th.group[1] = 0; th.group[1] < piece.groups[1]; ++th.group[1])
        for (th.group[0] = 0; th.group[0] < piece.groups[0]; ++th.group[0]) {
          dp::rt::tile_point<N> at;
          th.local = {0, 0, 0};
          if (!dp::rt::logical_index(plan, piece, th, at.tile))
            continue;
          ASSERT_TRUE(tiles.contains(at.tile));
          ++tile_hits[static_cast<std::size_t>(tg.flatten(at.tile))];
          for (std::int64_t z = 0; z < shape[2]; ++z)
            for (std::int64_t y = 0; y < shape[1]; ++y)
              for (std::int64_t x = 0; x < shape[0]; ++x) {
                const std::int64_t local[3] = {x, y, z};
                tiling.place(local, at);
                if (!at.in_domain) {
                  ++padding;
                  continue;
                }
                ASSERT_TRUE(e.contains(at.pos));
                ++hits[static_cast<std::size_t>(g.flatten(at.pos))];
              }
        }
  }
  for (std::size_t k = 0; k < tile_hits.size(); ++k)
    ASSERT_EQ(tile_hits[k], 1) << "tile " << k;
  for (std::size_t k = 0; k < hits.size(); ++k)
    ASSERT_EQ(hits[k], 1) << "point " << k;
  EXPECT_EQ(padding, tiles.size() * tile.size() - e.size());
}

template <int... T> void random_tiled_coverings(std::uint32_t seed, int count) {
  constexpr int N = sizeof...(T);
  std::mt19937 rng(seed);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  for (int c = 0; c < count; ++c) {
    dp::extent<N> e;
    for (int d = 0; d < N; ++d)
      e[d] = pick(d == 0 ? 0 : 1, N <= 2 ? 40 : 12);
    const dp::rt::device_limits limits{{pick(1, 5), pick(1, 5), pick(1, 5)}, 1024};
    try {
      (void)dp::rt::plan_tiles("test", dp::rt::tile_counts(e, dp::extent<N>(T...)),
                               dp::extent<N>(T...), limits);
    } catch (const dp::error &) {
      continue; // too many launches: allowed to refuse, never to be wrong
    }
    check_tiled_covering<T...>(e, limits);
  }
}

TEST(TiledPlan, EveryPointOnceAndEveryTileOneGroupRank1) { random_tiled_coverings<8>(11, 200); }
TEST(TiledPlan, EveryPointOnceAndEveryTileOneGroupRank2) { random_tiled_coverings<4, 3>(12, 200); }
TEST(TiledPlan, EveryPointOnceAndEveryTileOneGroupRank3) { random_tiled_coverings<2, 3, 2>(13, 150); }
TEST(TiledPlan, EveryPointOnceAndEveryTileOneGroupRank4) { random_tiled_coverings<2, 1, 3, 2>(14, 100); }

TEST(TiledPlan, ManyTilesSplitIntoLaunchesWithOriginsInTileUnits) {
  // 100 x 100 tiles of 8 x 8, at most 16 groups a dimension.
  const dp::rt::device_limits small{{16, 16, 16}, 1024};
  const auto plan = dp::rt::plan_tiles("test", dp::extent<2>(100, 100), dp::extent<2>(8, 8), small);
  EXPECT_GT(plan.pieces.size(), 1u);
  check_tiled_covering<8, 8>(dp::extent<2>(799, 800), small);
}

TEST(TiledPlan, ATileBeyondTheDeviceIsAnErrorNamingTheCall) {
  const dp::rt::device_limits limits{{65535, 65535, 65535}, 256, {256, 256, 64}};
  try {
    (void)dp::rt::plan_tiles("dp::forall at k.cpp:3:5", dp::extent<2>(4, 4), dp::extent<2>(32, 16),
                             limits);
    FAIL() << "no dp::error";
  } catch (const dp::error &e) {
    EXPECT_NE(std::string(e.what()).find("k.cpp:3:5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("512"), std::string::npos) << e.what();
  }
  try {
    (void)dp::rt::plan_tiles("site", dp::extent<3>(1, 1, 1), dp::extent<3>(128, 1, 1), limits);
    FAIL() << "no dp::error";
  } catch (const dp::error &e) {
    EXPECT_NE(std::string(e.what()).find("z dimension"), std::string::npos) << e.what();
  }
}

} // namespace

