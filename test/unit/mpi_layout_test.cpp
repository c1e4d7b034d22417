// The arithmetic of dp::mpi's decompositions (dp/mpi/layout.hpp), checked
// exhaustively on one process: parts tile the grid, differ by at most one,
// and the messages a rank receives tile its halo exactly once.
#include <dp/mpi/layout.hpp>

#include <gtest/gtest.h>

#include <random>
#include <set>

using dp::mpi::detail::box;
using dp::mpi::detail::cart_layout;
using dp::mpi::detail::part_of;
using dp::mpi::detail::split;

TEST(MpiLayout, SplitTilesAndBalances) {
  for (std::int64_t n = 0; n <= 40; ++n)
    for (int p = 1; p <= 9; ++p) {
      std::int64_t at = 0, small = n, large = 0;
      for (int k = 0; k < p; ++k) {
        const auto part = split(n, p, k);
        EXPECT_EQ(part.lo, at) << n << " over " << p;
        for (std::int64_t x = part.lo; x < part.hi; ++x)
          EXPECT_EQ(part_of(n, p, x), k) << "position " << x << " of " << n << " over " << p;
        small = std::min(small, part.size());
        large = std::max(large, part.size());
        at = part.hi;
      }
      EXPECT_EQ(at, n);
      EXPECT_LE(large - small, 1);
    }
}

template <int N, std::size_t M> bool inside(const box<N> &b, const std::array<std::int64_t, M> &x) {
  for (int d = 0; d < N; ++d)
    if (x[d] < b.dim[d].lo || x[d] >= b.dim[d].hi)
      return false;
  return true;
}

/// Every halo cell of every rank arrives exactly once, from its owner;
/// nothing else arrives; neighbours are mutual.
template <int N>
void check_layout(const std::array<std::int64_t, N> &extent, const std::array<int, N> &dims,
                  std::int64_t halo) {
  const cart_layout<N> L(extent, dims, halo);
  std::int64_t owned_total = 0;
  for (int q = 0; q < L.ranks(); ++q) {
    owned_total += L.owned(q).size();
    EXPECT_EQ(L.rank_of(L.coords(q)), q);
    const box<N> own = L.owned(q), wide = L.with_halo(q);
    const std::vector<int> peers = L.neighbors(q);
    for (int d = 0; d < N && !own.empty(); ++d) {
      EXPECT_EQ(wide.dim[d].lo, std::max<std::int64_t>(0, own.dim[d].lo - halo));
      EXPECT_EQ(wide.dim[d].hi, std::min<std::int64_t>(extent[d], own.dim[d].hi + halo));
    }
    std::int64_t arrived = 0;
    for (int p = 0; p < L.ranks(); ++p) {
      const box<N> m = L.message(p, q);
      const bool peer = std::find(peers.begin(), peers.end(), p) != peers.end();
      if (p == q) {
        EXPECT_FALSE(peer);
        continue;
      }
      EXPECT_EQ(peer, !m.empty()) << "rank " << p << " -> " << q;
      const std::vector<int> back = L.neighbors(p);
      EXPECT_EQ(peer, std::find(back.begin(), back.end(), q) != back.end());
      if (!m.empty())
        arrived += m.size();
    }
    // Walk the widened box: every cell is owned or arrives from exactly one
    // peer, which owns it.
    std::int64_t halo_cells = 0;
    std::array<std::int64_t, N> x{};
    for (int d = 0; d < N; ++d)
      x[d] = wide.dim[d].lo;
    if (!wide.empty())
      for (;;) {
        if (!inside(own, x)) {
          ++halo_cells;
          int from = 0;
          for (int p : peers)
            if (inside(L.message(p, q), x)) {
              ++from;
              EXPECT_TRUE(inside(L.owned(p), x));
            }
          EXPECT_EQ(from, 1);
        }
        int d = N - 1;
        while (d >= 0 && ++x[d] == wide.dim[d].hi)
          x[d] = wide.dim[d].lo, --d;
        if (d < 0)
          break;
      }
    EXPECT_EQ(arrived, halo_cells) << "rank " << q;
  }
  std::int64_t all = 1;
  for (int d = 0; d < N; ++d)
    all *= extent[d];
  EXPECT_EQ(owned_total, all);
}

TEST(MpiLayout, HalosArriveExactlyOnce) {
  std::mt19937 rng(21);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 200; ++trial) {
    const std::int64_t halo = pick(0, 3);
    check_layout<1>({pick(0, 30)}, {pick(1, 6)}, halo);
    check_layout<2>({pick(0, 12), pick(0, 12)}, {pick(1, 4), pick(1, 4)}, halo);
    check_layout<3>({pick(0, 7), pick(0, 7), pick(0, 7)}, {pick(1, 3), pick(1, 3), pick(1, 3)},
                    halo);
  }
}

TEST(MpiLayout, WideHalosReachPastTheNeighbour) {
  // 5 positions over 4 ranks: parts 2, 1, 1, 1; a halo of 2 around rank 0
  // reaches ranks 1 and 2.
  const cart_layout<1> L({5}, {4}, 2);
  EXPECT_EQ(L.neighbors(0), (std::vector<int>{1, 2}));
  EXPECT_EQ(L.neighbors(3), (std::vector<int>{1, 2}));
  // More ranks than positions: the empty parts have no halo and no peers.
  const cart_layout<1> E({2}, {4}, 1);
  EXPECT_TRUE(E.owned(3).empty());
  EXPECT_TRUE(E.neighbors(3).empty());
  EXPECT_EQ(E.neighbors(0), (std::vector<int>{1}));
}

TEST(MpiLayout, BadProcessGridsAreErrors) {
  EXPECT_THROW((cart_layout<2>({4, 4}, {0, 2}, 1)), dp::error);
  EXPECT_THROW((cart_layout<1>({4}, {2}, -1)), dp::error);
}

TEST(MpiLayout, PeelLeavesDisjointStrips) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 300; ++trial) {
    box<3> outer, inner;
    for (int d = 0; d < 3; ++d) {
      outer.dim[d] = {pick(0, 3), pick(3, 9)};
      inner.dim[d] = {pick(int(outer.dim[d].lo), int(outer.dim[d].hi)), 0};
      inner.dim[d].hi = pick(int(inner.dim[d].lo), int(outer.dim[d].hi));
    }
    const auto strips = dp::mpi::detail::peel(outer, inner);
    EXPECT_LE(strips.size(), 6u);
    std::array<std::int64_t, 3> x{};
    for (x[0] = outer.dim[0].lo; x[0] < outer.dim[0].hi; ++x[0])
      for (x[1] = outer.dim[1].lo; x[1] < outer.dim[1].hi; ++x[1])
        for (x[2] = outer.dim[2].lo; x[2] < outer.dim[2].hi; ++x[2]) {
          int in = 0;
          for (const auto &s : strips)
            in += inside(s, x);
          EXPECT_EQ(in, inner.empty() || !inside(inner, x) ? 1 : 0);
        }
  }
}
