// The tiled pencil kernels of reduce<Dim> and scan<Dim> (rt/kernels/pencil_tiles.hpp)
// run on the emulated device: the GPU's kernels, groups, tile memory and
// barriers walked on the CPU, through every dispatch mode and plans of
// several launches. Each result is checked against a plain loop, over
// shapes that give one or many lanes, walkers and splits.
#include <dp/dp.hpp>
#include <dp/rt/device/pencils.hpp>
#include <dp/rt/device/requests.hpp>
#include <dp/rt/emulated/device.hpp>
#include <dp/rt/emulated/primitives.hpp>
#include <dp/rt/kernels/tile_fold.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using dp::rt::pencil_tiling;
using dp::rt::pencil_tiling_for;

TEST(PencilTiling, FillsTheGroupsAndCoversEveryStepOnce) {
  for (bool along : {false, true})
    for (bool scan : {false, true})
      for (std::int64_t last : {1, 3, 32, 33, 5000})
        for (std::int64_t rows : {1, 7, 4096})
          for (std::int64_t length : {1, 2, 15, 16, 17, 1000, 1 << 20}) {
            const pencil_tiling t = pencil_tiling_for(along, scan, rows * last, last, length);
            SCOPED_TRACE(std::to_string(along) + " " + std::to_string(scan) + " " +
                         std::to_string(last) + " " + std::to_string(rows) + " " +
                         std::to_string(length));
            EXPECT_LE(t.lanes * t.walkers, dp::rt::pencil_group_threads);
            EXPECT_EQ(t.lanes & (t.lanes - 1), 0);
            EXPECT_EQ(t.walkers & (t.walkers - 1), 0);
            EXPECT_LE(t.lanes, std::max<std::int64_t>(1, 2 * last - 1)) << "no more lanes than pencils need";
            EXPECT_GE(t.splits * t.chunk, length);
            EXPECT_LT((t.splits - 1) * t.chunk, length) << "every split has steps";
            if (scan) {
              EXPECT_EQ(t.walkers, 1);
            }
          }
}

TEST(PencilTiling, ChainedTilesCoverEveryStepOnce) {
  for (std::int64_t last : {1, 3, 32, 33, 5000})
    for (std::int64_t length : {1, 15, 16, 17, 1000, 1 << 20})
      for (std::int64_t threads : {1, 100, 1024}) {
        const pencil_tiling t = dp::rt::chain_tiling_for<float>(last, length, threads);
        SCOPED_TRACE(std::to_string(last) + " " + std::to_string(length) + " " +
                     std::to_string(threads));
        EXPECT_LE(t.lanes * t.walkers, std::min<std::int64_t>(threads, dp::rt::pencil_group_threads));
        EXPECT_LE(t.lanes, dp::rt::chain_max_lanes);
        EXPECT_EQ(t.chunk, t.walkers * dp::rt::chain_steps<float>);
        EXPECT_GE(t.splits * t.chunk, length);
        EXPECT_LT((t.splits - 1) * t.chunk, length) << "every split has steps";
        // Four pencils a lane (floats as 16-byte vectors): a quarter of
        // the steps each, a warp's row of pencils at most.
        const pencil_tiling v = dp::rt::chain_tiling_for<float, 4>(last, length, threads);
        EXPECT_EQ(v.vector, 4);
        EXPECT_LE(v.lanes * v.walkers, std::min<std::int64_t>(threads, dp::rt::pencil_group_threads));
        EXPECT_LE(v.lanes * v.vector, dp::rt::chain_max_lanes);
        EXPECT_GE(v.lanes * v.vector, std::min<std::int64_t>(last, v.lanes * v.vector));
        EXPECT_EQ(v.chunk, v.walkers * dp::rt::chain_steps<float> / 4);
        EXPECT_GE(v.splits * v.chunk, length);
        EXPECT_LT((v.splits - 1) * v.chunk, length) << "every split has steps";
      }
}

TEST(PencilTiling, ShapesOfTheBenchmarks) {
  // reduce<0> over 8192 x 8192: a warp's row of 32 pencils, 8 walkers, and
  // 8 splits to fill the GPU.
  pencil_tiling t = pencil_tiling_for(false, false, 8192, 8192, 8192);
  EXPECT_EQ(t.lanes, 32);
  EXPECT_EQ(t.walkers, 8);
  EXPECT_EQ(t.splits, 8);
  // reduce<1> over 8192 x 8192: a group of 256 walkers per row, no split.
  t = pencil_tiling_for(true, false, 8192, 8192, 8192);
  EXPECT_EQ(t.walkers, 256);
  EXPECT_EQ(t.lanes, 1);
  EXPECT_EQ(t.splits, 1);
  // 16 rows of 2^24: split until the GPU is full.
  t = pencil_tiling_for(true, false, 16, 16, std::int64_t(1) << 24);
  EXPECT_EQ(t.splits, 128);
  // Short rows along: several rows per group.
  t = pencil_tiling_for(true, false, 1 << 20, 1 << 20, 4);
  EXPECT_EQ(t.walkers, 4);
  EXPECT_EQ(t.lanes, 64);
  // scan<0> over 8192 x 8192: one walker per pencil, pencils split...
  t = pencil_tiling_for(false, true, 8192, 8192, 8192);
  EXPECT_EQ(t.lanes, 256);
  EXPECT_EQ(t.splits, 64);
  // ... and chained: a warp's row of 32 floats, 8 walkers of 16 steps, a
  // tile of 128 rows, so 64 tiles chained along each column (not 512).
  t = dp::rt::chain_tiling_for<float>(8192, 8192);
  EXPECT_EQ(t.lanes, 32);
  EXPECT_EQ(t.walkers, 8);
  EXPECT_EQ(t.chunk, 128);
  EXPECT_EQ(t.splits, 64);
  // ... with 16-byte vectors: 8 lanes of 4 pencils (the same row of 32),
  // 32 walkers of 4 steps, the same tiles of 128 rows.
  t = dp::rt::chain_tiling_for<float, 4>(8192, 8192);
  EXPECT_EQ(t.lanes, 8);
  EXPECT_EQ(t.walkers, 32);
  EXPECT_EQ(t.chunk, 128);
  EXPECT_EQ(t.splits, 64);
  // Few pencils: more walkers down each (a tile of 512 rows for 8).
  t = dp::rt::chain_tiling_for<float>(8, 1 << 20);
  EXPECT_EQ(t.lanes, 8);
  EXPECT_EQ(t.walkers, 32);
  EXPECT_EQ(t.splits, (1 << 20) / 512);
  // Grids sized to the device: two waves of groups of 256 (an H100: 132
  // multiprocessors of 2048 threads; one die of an MI250X: 110).
  EXPECT_EQ(dp::rt::pencil_target_for(132 * 2048), 2112);
  EXPECT_EQ(dp::rt::pencil_target_for(110 * 2048), 1760);
  EXPECT_EQ(dp::rt::pencil_target_for(dp::rt::device_limits{}.resident_threads),
            dp::rt::pencil_target_groups);
  EXPECT_EQ(dp::rt::pencil_target_for(100), 1);
  // reduce<0> over 8192 x 8192 on a small device: fewer splits.
  t = pencil_tiling_for(false, false, 8192, 8192, 8192, 256, 1, dp::rt::pencil_target_for(8 * 2048));
  EXPECT_EQ(t.splits, 1);
  t = pencil_tiling_for(false, false, 8192, 8192, 8192, 256, 1, dp::rt::pencil_target_for(64 * 2048));
  EXPECT_EQ(t.splits, 4);
  // A device with small groups.
  t = pencil_tiling_for(false, false, 8192, 8192, 8192, 100);
  EXPECT_LE(t.lanes * t.walkers, 64);
}

/// A rank-N box of values v(p) = a hash of p's offset, row-major.
template <int N> struct box {
  dp::extent<N> e;
  std::vector<std::int64_t> v;
  explicit box(const dp::extent<N> &x) : e(x), v(static_cast<std::size_t>(x.size())) {
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<std::int64_t>((i * 2654435761u) % 1000) - 500;
  }
  std::int64_t offset(const dp::index<N> &p) const {
    std::int64_t o = 0;
    for (int d = 0; d < N; ++d)
      o = o * e[d] + p[d];
    return o;
  }
};

/// The map function a stub would pass: the value at a position.
template <int N> struct read_box {
  const std::int64_t *data;
  std::int64_t step[N];
  std::int64_t operator()(const dp::index<N> &p) const {
    std::int64_t o = 0;
    for (int d = 0; d < N; ++d)
      o += p[d] * step[d];
    return data[o];
  }
};

template <int N> read_box<N> reader(const box<N> &b) {
  read_box<N> r{b.v.data(), {}};
  std::int64_t s = 1;
  for (int d = N - 1; d >= 0; --d)
    r.step[d] = s, s *= b.e[d];
  return r;
}

template <class T, int R> dp::detail::affine_projection<T, R> projection(T *base, const dp::extent<R> &e) {
  dp::detail::affine_projection<T, R> p;
  p.base = base;
  std::int64_t s = 1;
  for (int d = R - 1; d >= 0; --d)
    p.step[d] = s, s *= e[d];
  return p;
}

template <int Dim, int N> dp::index<N - 1> without(const dp::index<N> &p) {
  dp::index<N - 1> q;
  for (int d = 0, j = 0; d < N; ++d)
    if (d != Dim)
      q[j++] = p[d];
  return q;
}

template <int N, class Fn> void each(const dp::extent<N> &e, Fn &&fn) {
  dp::index<N> p;
  for (std::int64_t i = 0; i < e.size(); ++i) {
    std::int64_t r = i;
    for (int d = N - 1; d >= 0; --d)
      p[d] = r % e[d], r /= e[d];
    fn(p);
  }
}

using device_t = dp::rt::emulated_device;

/// One call-site's launch on the emulated device, waited for.
template <class Fn> void on_device(Fn &&fn) {
  auto &ex = dp::rt::device_executor<device_t>::get();
  static const std::string site = "pencil_tiles_test.cpp:1:1"; // outlives the launch
  dp::rt::device_launch<device_t> L(ex, site, ex.default_queue(), {});
  fn(L);
  L.finish()->wait();
}

/// reduce<Dim> with `op` over a box of e by a loop, every result starting
/// at 7.
template <int Dim, int N, class Op>
std::vector<std::int64_t> loop_reduce(const box<N> &in, const dp::extent<N> &e, Op op) {
  const dp::extent<N - 1> qe = dp::rt::device::pencil_extent<Dim>(e);
  std::vector<std::int64_t> want(static_cast<std::size_t>(qe.size()), 7);
  each(e, [&](const dp::index<N> &p) {
    const dp::index<N - 1> q = without<Dim>(p);
    std::int64_t o = 0;
    for (int d = 0; d < N - 1; ++d)
      o = o * qe[d] + q[d];
    want[static_cast<std::size_t>(o)] = op(want[static_cast<std::size_t>(o)], in.v[in.offset(p)]);
  });
  return want;
}

/// reduce<Dim> with `op` over a box of e: device result == loop result.
template <int Dim, int N, class Op> void check_reduce(const dp::extent<N> &e, Op op) {
  const box<N> in(e);
  const dp::extent<N - 1> qe = dp::rt::device::pencil_extent<Dim>(e);
  const std::vector<std::int64_t> want = loop_reduce<Dim>(in, e, op);
  std::vector<std::int64_t> got(want.size(), 7);
  on_device([&](auto &L) {
    dp::rt::device::fold_pencils<Dim>(L, e, op, reader(in), projection(got.data(), qe));
  });
  EXPECT_EQ(got, want);
}

/// The map a stub passes when it reads one argument's element alone: it
/// also hands out that argument's projection (elements()).
template <int N> struct read_elements {
  dp::detail::affine_projection<const std::int64_t, N> p;
  template <class Pos> std::int64_t operator()(const Pos &pos) const { return p[pos]; }
  const auto &elements() const { return p; }
};

/// An operator without an identity the runtime knows (no vendor call).
struct max_op {
  std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a < b ? b : a; }
};

/// reduce<Dim> of an element read alone (vectors of 2 int64 over dense
/// rows): device result == loop result; returns the bytes each lane loaded
/// at once (0: the map's own loads).
template <int Dim, int N, class Op = std::plus<std::int64_t>>
std::size_t check_reduce_elements(const dp::extent<N> &e, Op op = {}) {
  const box<N> in(e);
  const dp::extent<N - 1> qe = dp::rt::device::pencil_extent<Dim>(e);
  const std::vector<std::int64_t> want = loop_reduce<Dim>(in, e, op);
  std::vector<std::int64_t> got(want.size(), 7);
  dp::rt::request_log log;
  on_device([&](auto &L) {
    dp::rt::device::fold_pencils<Dim>(L, e, op, read_elements<N>{projection(in.v.data(), e)},
                                      projection(got.data(), qe));
  });
  EXPECT_EQ(got, want);
  const auto made = log.requests();
  return made.empty() ? 99 : made[0].load_bytes;
}

TEST(PencilTiles, ReduceAcrossDenseRowsLoadsVectors) {
  EXPECT_EQ(check_reduce_elements<0>(dp::extent<2>(5, 32)), 16u);
  EXPECT_EQ(check_reduce_elements<0>(dp::extent<2>(3000, 6)), 16u); // splits
  EXPECT_EQ(check_reduce_elements<0>(dp::extent<2>(9, 130)), 16u);  // a lane group in part
  EXPECT_EQ(check_reduce_elements<1>(dp::extent<3>(4, 300, 10)), 16u);
  EXPECT_EQ(check_reduce_elements<0>(dp::extent<4>(60, 3, 1, 4)), 16u);
  // An odd last extent would split a vector between rows: element loads.
  EXPECT_EQ(check_reduce_elements<0>(dp::extent<2>(7, 33)), 0u);
  EXPECT_EQ(check_reduce_elements<1>(dp::extent<3>(4, 30, 1)), 0u);
}

TEST(PencilTiles, ReduceAlongDenseRowsLoadsRunsOfSteps) {
  // Rows too short for the vendor's segmented reduce: each walker loads 2
  // consecutive int64 of its row as one vector.
  EXPECT_EQ(check_reduce_elements<1>(dp::extent<2>(5, 64)), 16u);
  EXPECT_EQ(check_reduce_elements<1>(dp::extent<2>(300, 6)), 16u); // rows share a group
  EXPECT_EQ(check_reduce_elements<2>(dp::extent<3>(3, 4, 1000)), 16u);
  // Long rows under an operator the vendor cannot start from: splits.
  EXPECT_EQ(check_reduce_elements<1>(dp::extent<2>(2, 40000), max_op()), 16u);
  // An odd row would split a vector between rows: element loads.
  EXPECT_EQ(check_reduce_elements<1>(dp::extent<2>(5, 63)), 0u);
}

/// scan<Dim> with `op`: device result == loop result.
template <int Dim, int N, class Op> void check_scan(const dp::extent<N> &e, Op op) {
  const box<N> in(e);
  std::vector<std::int64_t> want(in.v.size()), got(in.v.size(), -1);
  each(e, [&](const dp::index<N> &p) {
    const std::int64_t o = in.offset(p);
    if (p[Dim] == 0) {
      want[static_cast<std::size_t>(o)] = in.v[static_cast<std::size_t>(o)];
    } else {
      dp::index<N> before = p;
      before[Dim] -= 1;
      want[static_cast<std::size_t>(o)] =
          op(want[static_cast<std::size_t>(in.offset(before))], in.v[static_cast<std::size_t>(o)]);
    }
  });
  on_device([&](auto &L) {
    dp::rt::device::scan_pencils<Dim>(L, e, op, reader(in), projection(got.data(), e));
  });
  EXPECT_EQ(got, want);
}

/// scan<Dim> of an element read alone into a result `shift` elements into
/// its buffer (vectors of 2 int64 over dense, aligned rows): device result
/// == loop result; returns the scan kernel and the bytes each of its lanes
/// loaded at once ("pencil chain scan 16"; 0: the map's own loads).
template <int Dim, int N>
std::string check_scan_elements(const dp::extent<N> &e, std::size_t shift = 0) {
  const box<N> in(e);
  std::vector<std::int64_t> want(in.v.size());
  each(e, [&](const dp::index<N> &p) {
    const auto o = static_cast<std::size_t>(in.offset(p));
    dp::index<N> before = p;
    before[Dim] -= 1;
    want[o] = p[Dim] == 0 ? in.v[o] : want[static_cast<std::size_t>(in.offset(before))] + in.v[o];
  });
  std::vector<std::int64_t> got(in.v.size() + shift, -1);
  dp::rt::request_log log;
  on_device([&](auto &L) {
    dp::rt::device::scan_pencils<Dim>(L, e, std::plus<std::int64_t>(),
                                      read_elements<N>{projection(in.v.data(), e)},
                                      projection(got.data() + shift, e));
  });
  EXPECT_EQ(std::vector<std::int64_t>(got.begin() + static_cast<std::ptrdiff_t>(shift), got.end()),
            want);
  for (const auto &r : log.requests())
    if (r.what == "pencil chain scan" || r.what == "pencil tiles scan")
      return r.what + " " + std::to_string(r.load_bytes);
  return "no scan kernel";
}

void check_element_scans() {
  // Dense, aligned rows: two neighbouring int64 pencils a lane, chained.
  EXPECT_EQ(check_scan_elements<0>(dp::extent<2>(3000, 6)), "pencil chain scan 16");
  EXPECT_EQ(check_scan_elements<0>(dp::extent<2>(10000, 2)), "pencil chain scan 16");
  EXPECT_EQ(check_scan_elements<0>(dp::extent<2>(2000, 130)), "pencil chain scan 16"); // a lane group in part
  EXPECT_EQ(check_scan_elements<0>(dp::extent<3>(2000, 3, 8)), "pencil chain scan 16");
  EXPECT_EQ(check_scan_elements<1>(dp::extent<3>(4, 3000, 6)), "pencil chain scan 16");
  // Short pencils, unsplit: each lane walks its two pencils, as vectors;
  // lengths around the four loads in flight, a lane group in part.
  for (std::int64_t length : {1, 2, 4, 5, 6, 9, 20})
    EXPECT_EQ(check_scan_elements<0>(dp::extent<2>(length, 4096)), "pencil tiles scan 16") << length;
  EXPECT_EQ(check_scan_elements<0>(dp::extent<2>(7, 130)), "pencil tiles scan 16");
  EXPECT_EQ(check_scan_elements<1>(dp::extent<3>(50, 9, 600)), "pencil tiles scan 16");
  // An odd last extent, or a result not aligned to a vector: elements.
  EXPECT_EQ(check_scan_elements<0>(dp::extent<2>(3000, 7)), "pencil chain scan 0");
  EXPECT_EQ(check_scan_elements<0>(dp::extent<2>(3000, 6), 1), "pencil chain scan 0");
  EXPECT_EQ(check_scan_elements<0>(dp::extent<2>(9, 4095)), "pencil tiles scan 0");
  EXPECT_EQ(check_scan_elements<0>(dp::extent<2>(9, 4096), 1), "pencil tiles scan 0");
}

void check_all() {
  const std::plus<std::int64_t> sum;
  // Across: one lane to many, one walker to many, one split to many.
  check_reduce<0>(dp::extent<2>(1, 1), sum);
  check_reduce<0>(dp::extent<2>(7, 1), sum);
  check_reduce<0>(dp::extent<2>(5, 33), sum);
  check_reduce<0>(dp::extent<2>(3000, 3), sum); // splits
  check_reduce<0>(dp::extent<2>(700, 40), max_op());
  check_reduce<1>(dp::extent<3>(3, 300, 5), sum);
  check_reduce<0>(dp::extent<4>(600, 2, 1, 3), sum);
  check_reduce<0>(dp::extent<3>(5, 3, 100), sum);   // mode 5 with few groups
  check_reduce<0>(dp::extent<3>(300, 4, 100), sum); // mode 6 with few groups
  // Along: interleaved walkers, several rows per group, splits.
  check_reduce<1>(dp::extent<2>(1, 1), sum);
  check_reduce<1>(dp::extent<2>(50, 3), sum);
  check_reduce<1>(dp::extent<2>(3, 300), max_op());
  check_reduce<1>(dp::extent<2>(2, 40000), sum); // splits
  check_reduce<2>(dp::extent<3>(4, 5, 70), sum);
  // Scans across (along is the vendor's scan by key).
  check_scan<0>(dp::extent<2>(1, 1), sum);
  check_scan<0>(dp::extent<2>(9, 40), sum);
  check_scan<0>(dp::extent<2>(3000, 3), sum); // splits, carries
  check_scan<0>(dp::extent<2>(2500, 2), max_op());
  check_scan<1>(dp::extent<3>(2, 1500, 3), sum);
  check_scan<0>(dp::extent<4>(1100, 2, 1, 3), sum);
  check_element_scans();
}

/// Sets environment variables for a scope, and the dispatch settings the
/// runtime reads from them once.
struct scoped_env {
  std::vector<std::string> names;
  scoped_env(std::initializer_list<std::pair<const char *, const char *>> vars) {
    for (const auto &[name, value] : vars) {
      ::setenv(name, value, 1);
      names.emplace_back(name);
    }
    dp::rt::reload_dispatch_settings();
  }
  ~scoped_env() {
    for (const std::string &n : names)
      ::unsetenv(n.c_str());
    dp::rt::reload_dispatch_settings();
  }
};

TEST(PencilTiles, ReduceAndScanMatchALoopOnTheEmulatedDevice) { check_all(); }

// The tiled kernels size their grid to the device: a device that runs
// fewer threads at once gets fewer splits of the same pencils.
TEST(PencilTiles, GridsFollowTheThreadsTheDeviceRuns) {
  const auto groups_of = [] {
    std::vector<std::int64_t> got(300, 7);
    const box<2> in(dp::extent<2>(4096, 300));
    dp::rt::request_log log;
    on_device([&](auto &L) {
      dp::rt::device::fold_pencils<0>(L, in.e, std::plus<std::int64_t>(), reader(in),
                                      projection(got.data(), dp::extent<1>(300)));
    });
    const auto made = log.requests();
    return made.empty() ? std::int64_t(-1) : made[0].threads;
  };
  const std::int64_t many = groups_of();
  {
    scoped_env env{{"DP_EMULATE_RESIDENT_THREADS", "16384"}};
    EXPECT_LT(groups_of(), many) << "a smaller device, fewer groups";
  }
  EXPECT_EQ(groups_of(), many);
}

TEST(PencilTiles, EveryModeAndPlansOfSeveralLaunches) {
  // Few groups per launch: rank 2 and 3 plans split into several launches
  // with origins, or go through the partial modes (4-6) and the indirect
  // one (7).
  for (const char *groups : {"3,2,2", "3,8,8"})
    for (const char *policy : {"automatic", "load_balance", "split"}) {
      SCOPED_TRACE(std::string(groups) + " " + policy);
      scoped_env env{{"DP_EMULATE_MAX_GROUPS", groups}, {"DP_DISPATCH_POLICY", policy}};
      check_all();
    }
}

/// x -> m x + c, composed left to right: associative, not commutative, and
/// not a type the chained scan's arithmetic paths handle.
struct affine {
  std::uint64_t m, c;
  bool operator==(const affine &o) const { return m == o.m && c == o.c; }
};
struct then_op { // first a, then b
  affine operator()(const affine &a, const affine &b) const { return {b.m * a.m, b.m * a.c + b.c}; }
};
template <int N> struct affine_at {
  affine operator()(const dp::index<N> &p) const {
    std::uint64_t h = 0;
    for (int d = 0; d < N; ++d)
      h = h * 1000003u + static_cast<std::uint64_t>(p[d]);
    return {2 * (h % 7) + 1, h % 1009};
  }
};

/// scan<Dim> of affine maps over e: device (chained across its splits) ==
/// the loop, so every split's carry is folded in order.
template <int Dim, int N> void check_affine_scan(const dp::extent<N> &e) {
  std::vector<affine> want(static_cast<std::size_t>(e.size())), got(want.size(), affine{0, 0});
  const box<N> shape(e);
  each(e, [&](const dp::index<N> &p) {
    const affine x = affine_at<N>()(p);
    dp::index<N> before = p;
    before[Dim] -= 1;
    want[static_cast<std::size_t>(shape.offset(p))] =
        p[Dim] == 0 ? x : then_op()(want[static_cast<std::size_t>(shape.offset(before))], x);
  });
  on_device([&](auto &L) {
    dp::rt::device::scan_pencils<Dim>(L, e, then_op(), affine_at<N>(), projection(got.data(), e));
  });
  EXPECT_TRUE(got == want);
}

TEST(PencilChain, KeepsTheOrderOfItsSplits) {
  // Splits of chain_steps<affine> = 4 steps: 2500 and 750 of them chained,
  // 40 columns of lanes in the 3-d case.
  check_affine_scan<0>(dp::extent<2>(10000, 7));
  check_affine_scan<0>(dp::extent<3>(3000, 3, 40));
  check_affine_scan<1>(dp::extent<3>(5, 997, 3));
}

TEST(PencilChain, LooksBackThroughAggregatesToAPrefix) {
  // Splits 0-4 of one column, one pencil: 1 has published its prefix, 2
  // and 3 only their aggregates, 4 looks back over the window 3, 2, 1, 0.
  using job_t = dp::rt::pencil_chain_job<2, 0, affine, then_op, affine_at<2>>;
  const affine none{0, 0}, p1{3, 1}, a2{5, 2}, a3{7, 3};
  std::vector<affine> aggregates = {none, none, a2, a3, none}, prefixes = {none, p1, none, none, none};
  job_t job{};
  job.aggregates = projection(aggregates.data(), dp::extent<2>(5, 1));
  job.prefixes = projection(prefixes.data(), dp::extent<2>(5, 1));
  job.groups[0] = 5; // splits
  job.groups[1] = 1; // one column
  dp::rt::pencil_place<2> at{};
  const unsigned window[] = {dp::rt::chain_aggregate, dp::rt::chain_aggregate, dp::rt::chain_prefix,
                             dp::rt::chain_prefix};
  // The nearest prefix is split 1, two before split 3; then p1, a2, a3 in
  // the splits' order (the operator is not commutative).
  ASSERT_EQ(dp::rt::chain_nearest_prefix(window, 4), 2);
  EXPECT_TRUE(dp::rt::chain_window_fold(job, at, 3, window, 2) == then_op()(then_op()(p1, a2), a3));
  EXPECT_TRUE(dp::rt::chain_window_fold(job, at, 1, window + 2, 0) == p1);
  // A window of aggregates only folds them all; the next window goes on.
  EXPECT_EQ(dp::rt::chain_nearest_prefix(window, 2), -1);
  EXPECT_TRUE(dp::rt::chain_window_fold(job, at, 3, window, 1) == then_op()(a2, a3));
}

TEST(PencilChain, LongWindowsLoadInBatchesInOrder) {
  // 40 splits of one pencil, all aggregates but split 0's prefix: a window
  // of 32 folds splits 8..39 over four batches of loads, then the next
  // window splits 0..7.
  using job_t = dp::rt::pencil_chain_job<2, 0, affine, then_op, affine_at<2>>;
  std::vector<affine> aggregates(40), prefixes(40, affine{0, 0});
  for (std::size_t s = 0; s < aggregates.size(); ++s)
    aggregates[s] = affine{2 * (s % 5) + 1, s};
  prefixes[0] = aggregates[0];
  job_t job{};
  job.aggregates = projection(aggregates.data(), dp::extent<2>(40, 1));
  job.prefixes = projection(prefixes.data(), dp::extent<2>(40, 1));
  job.groups[0] = 40;
  job.groups[1] = 1;
  dp::rt::pencil_place<2> at{};
  std::vector<unsigned> statuses(32, dp::rt::chain_aggregate);
  affine want = aggregates[8];
  for (std::size_t s = 9; s < 40; ++s)
    want = then_op()(want, aggregates[s]);
  EXPECT_TRUE(dp::rt::chain_window_fold(job, at, 39, statuses.data(), 31) == want);
  statuses[7] = dp::rt::chain_prefix;
  affine first = prefixes[0];
  for (std::size_t s = 1; s < 8; ++s)
    first = then_op()(first, aggregates[s]);
  EXPECT_TRUE(dp::rt::chain_window_fold(job, at, 7, statuses.data(), 7) == first);
}

// --- the tiled reduce's choice of fold, per tile ------------------------------

// Stands for tile_fold_job: what folds_by_warps, tile_fold_name and
// group_number read.
template <std::int64_t Volume, std::int64_t Pack = 1> struct fold_choice_job {
  static constexpr int rank = 2;
  static constexpr std::int64_t volume = Volume;
  static constexpr std::int64_t pack = Pack;
  static constexpr std::int64_t threads = Volume * Pack;
  std::int64_t tiles[2];
  std::int64_t whole[2];
  std::int64_t run = 1;
  std::int64_t span() const { return run * Pack; }
};

TEST(TileFold, InteriorTilesFoldByWarpsPaddedEdgesWithFlags) {
  // 5 x 4 tiles of 8 x 8 over a 36 x 32 grid, a tile per group: the last
  // row of tiles is padded, every column whole.
  const fold_choice_job<64> job{{5, 4}, {4, 4}};
  for (std::int64_t i = 0; i < 5; ++i)
    for (std::int64_t j = 0; j < 4; ++j)
      EXPECT_EQ(dp::rt::folds_by_warps(job, dp::index<2>(i, j)), i < 4) << i << "," << j;
  EXPECT_STREQ(dp::rt::tile_fold_name(job), "warp tile fold, flagged edges");
  EXPECT_STREQ(dp::rt::tile_fold_name(fold_choice_job<64>{{5, 4}, {5, 4}}), "warp tile fold");
  // No whole tile along one dimension, or tiles that are not whole warps.
  EXPECT_STREQ(dp::rt::tile_fold_name(fold_choice_job<64>{{1, 4}, {0, 4}}), "tile fold");
  const fold_choice_job<48> odd{{5, 4}, {5, 4}};
  EXPECT_FALSE(dp::rt::folds_by_warps(odd, dp::index<2>(0, 0)));
  EXPECT_STREQ(dp::rt::tile_fold_name(odd), "tile fold");
}

TEST(TileFold, GroupsWalkRunsOfTilesAlongTheLastDimension) {
  // About 2048 points a group, at most 16 tiles, no more than there are.
  EXPECT_EQ(dp::rt::tile_fold_run(256, 1000), 8);
  EXPECT_EQ(dp::rt::tile_fold_run(32, 1000), 16);
  EXPECT_EQ(dp::rt::tile_fold_run(1024, 1000), 2);
  EXPECT_EQ(dp::rt::tile_fold_run(4096, 1000), 1);
  EXPECT_EQ(dp::rt::tile_fold_run(256, 3), 3);
  // 2 x 19 tiles in runs of 8: three groups per row, the last holding
  // tiles 16-18 of which 18 is padded; only that group uses flags.
  const fold_choice_job<64> job{{2, 19}, {2, 18}, 8};
  EXPECT_EQ(dp::rt::fold_groups(job, 0), 2);
  EXPECT_EQ(dp::rt::fold_groups(job, 1), 3);
  for (std::int64_t i = 0; i < 2; ++i)
    for (std::int64_t g = 0; g < 3; ++g) {
      EXPECT_EQ(dp::rt::folds_by_warps(job, dp::index<2>(i, g)), g < 2) << i << "," << g;
      EXPECT_EQ(dp::rt::group_number(job, dp::index<2>(i, g)), i * 3 + g);
    }
  EXPECT_STREQ(dp::rt::tile_fold_name(job), "warp tile fold, flagged edges");
  // A run of 8 ending past the 6 whole tiles: no group is whole.
  EXPECT_STREQ(dp::rt::tile_fold_name(fold_choice_job<64>{{2, 8}, {2, 6}, 8}), "tile fold");
  EXPECT_FALSE(dp::rt::folds_by_warps(fold_choice_job<64>{{2, 8}, {2, 6}, 8}, dp::index<2>(0, 0)));
}

TEST(TileFold, SmallIndependentTilesShareAGroup) {
  // A kernel that may wait for its tile's threads keeps a group per tile.
  EXPECT_EQ(dp::rt::tile_fold_pack(32, false), 1);
  // One that cannot: up to 256 threads of whole warps (a 32-thread tile
  // is one warp of a group of 8), else as many as fit.
  EXPECT_EQ(dp::rt::tile_fold_pack(32, true), 8);
  EXPECT_EQ(dp::rt::tile_fold_pack(64, true), 4);
  EXPECT_EQ(dp::rt::tile_fold_pack(24, true), 8); // 192 threads, 6 warps
  EXPECT_EQ(dp::rt::tile_fold_pack(9, true), 28);  // 252 threads: no whole warps fit
  EXPECT_EQ(dp::rt::tile_fold_pack(256, true), 1);
  EXPECT_EQ(dp::rt::tile_fold_pack(1024, true), 1);
  // 8 tiles of 32 side by side, each slot walking 8: a span of 64 tiles
  // a group; interior spans fold by warps.
  EXPECT_EQ(dp::rt::tile_fold_run(256, 1000, 8), 8);
  EXPECT_EQ(dp::rt::tile_fold_run(256, 20, 8), 3); // no more than a slot's share
  const fold_choice_job<32, 8> packed{{3, 150}, {3, 149}, 8};
  EXPECT_EQ(dp::rt::fold_groups(packed, 1), 3);
  EXPECT_TRUE(dp::rt::folds_by_warps(packed, dp::index<2>(0, 1)));
  EXPECT_FALSE(dp::rt::folds_by_warps(packed, dp::index<2>(0, 2)));
  EXPECT_STREQ(dp::rt::tile_fold_name(packed), "warp tile fold, flagged edges");
}

} // namespace

// A projection's base is restrict-qualified: the request log must still
// call it a pointer (the vendor's vector loads), not an iterator.
TEST(RequestLog, RestrictQualifiedPointersArePointers) {
  EXPECT_EQ(dp::rt::input_name<const float *DP_RESTRICT>(), "pointer");
  EXPECT_EQ(dp::rt::output_name<double *DP_RESTRICT>(), "pointer");
  EXPECT_EQ(dp::rt::output_name<double *>(), "pointer");
  using keys_t = dp::rt::offset_iterator<dp::rt::pencil_keys<2, 1>>;
  EXPECT_EQ(dp::rt::input_name<keys_t>(), "pencil keys<2, 1>");
}
