// The host backend against hand-written oneTBB, 2 threads, every ratio
// taken within one run. Built twice: untranslated (the host reference) and
// translated by dpstub (the generated stubs' native host path).
//
//   build/bench/host_bench_dp [--benchmark_filter=...]
#include <dp/dp.hpp>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <vector>

#include "ratio_table.hpp"

namespace {

using i64 = std::int64_t;

// ---------------------------------------------------------------------------
// forall: the triad a = b + s*c, and the same points at ranks 1, 4 and 6.

const i64 triad_n = i64(1) << 26;
struct triad_data {
  dp::grid<1> g{triad_n};
  dp::field<1, float> a{g}, b{g, 1.0f}, c{g, 2.0f};
};
triad_data &triad() {
  static triad_data d;
  return d;
}

void hand_triad() {
  float *a = triad().a.data();
  const float *b = triad().b.data(), *c = triad().c.data();
  tbb::parallel_for(tbb::blocked_range<i64>(0, triad_n), [=](const tbb::blocked_range<i64> &r) {
    for (i64 i = r.begin(); i < r.end(); ++i)
      a[i] = b[i] + 3.0f * c[i];
  });
}
void dp_triad() {
  auto &d = triad();
  dp::forall(d.g, [](float &a, float b, float c, float s) { a = b + s * c; }, d.a, d.b, d.c, 3.0f);
}

void BM_TriadHand(benchmark::State &state) {
  for (auto _ : state)
    hand_triad(), benchmark::ClobberMemory();
}
void BM_TriadDp(benchmark::State &state) {
  for (auto _ : state)
    dp_triad(), benchmark::ClobberMemory();
}
void BM_TriadDpOneThread(benchmark::State &state) {
  tbb::task_arena one(1);
  for (auto _ : state)
    one.execute([] { dp_triad(); }), benchmark::ClobberMemory();
}

const i64 points = i64(1) << 24;
dp::field<1, float> &flat() {
  static dp::field<1, float> f(dp::grid<1>(points), 1.0f);
  return f;
}
void BM_Rank1(benchmark::State &state) {
  auto &f = flat();
  for (auto _ : state)
    dp::forall(f.get_grid(), [](float &x) { x = x * 0.5f + 1.0f; }, f), benchmark::ClobberMemory();
}
void BM_Rank4(benchmark::State &state) {
  static dp::field<4, float> f(dp::grid<4>(64, 64, 64, 64), 1.0f);
  for (auto _ : state)
    dp::forall(f.get_grid(), [](float &x) { x = x * 0.5f + 1.0f; }, f), benchmark::ClobberMemory();
}
void BM_Rank6(benchmark::State &state) {
  static dp::field<6, float> f(dp::grid<6>(16, 16, 16, 16, 16, 16), 1.0f);
  for (auto _ : state)
    dp::forall(f.get_grid(), [](float &x) { x = x * 0.5f + 1.0f; }, f), benchmark::ClobberMemory();
}

// Per-call overhead: a tiny forall against an empty parallel_for.
void BM_TinyForall(benchmark::State &state) {
  static dp::field<1, int> f(dp::grid<1>(16));
  for (auto _ : state)
    dp::forall(f.get_grid(), [](int &x) { x += 1; }, f);
}
void BM_EmptyParallelFor(benchmark::State &state) {
  for (auto _ : state)
    tbb::parallel_for(tbb::blocked_range<i64>(0, 16), [](const tbb::blocked_range<i64> &) {});
}

// ---------------------------------------------------------------------------
// Full reduce: a sum over 2^26 floats.

void BM_SumHand(benchmark::State &state) {
  const float *a = triad().c.data();
  for (auto _ : state) {
    const float s = tbb::parallel_reduce(
        tbb::blocked_range<i64>(0, triad_n), 0.0f,
        [=](const tbb::blocked_range<i64> &r, float acc) {
          for (i64 i = r.begin(); i < r.end(); ++i)
            acc += a[i];
          return acc;
        },
        std::plus<>());
    benchmark::DoNotOptimize(s);
  }
}
void BM_SumDp(benchmark::State &state) {
  auto &d = triad();
  for (auto _ : state) {
    dp::scalar<float> s(0.0f);
    dp::reduce(d.g, std::plus<>(), s, [](float x) { return x; }, d.c);
    benchmark::DoNotOptimize(s.get());
  }
}

/// The sum of BM_SumDp over a tiled domain: the reference and the native
/// host path see that the kernel takes no tile token, so it cannot tell
/// its tile: they run the plain reduce over the grid, then the padding
/// threads' calls (none here: 2^26 is a multiple of 256).
void BM_SumTiled(benchmark::State &state) {
  auto &d = triad();
  for (auto _ : state) {
    dp::scalar<float> s(0.0f);
    dp::reduce(dp::tile<256>(d.g), std::plus<>(), s, [](float x) { return x; }, d.c);
    benchmark::DoNotOptimize(s.get());
  }
}

// ---------------------------------------------------------------------------
// reduce<Dim> and scan<Dim> along every dimension of a 2-d (4096 x 16384)
// and a 3-d (64 x 256 x 1024) float field, against plain oneTBB loops.

const i64 R = 4096, C = 16384;
const i64 D0 = 64, D1 = 256, D2 = 1024;
dp::field<2, float> &matrix() {
  static dp::field<2, float> m = [] {
    dp::field<2, float> f(dp::grid<2>(R, C));
    float *p = f.data();
    for (i64 k = 0; k < R * C; ++k)
      p[k] = float(k % 7);
    return f;
  }();
  return m;
}
dp::field<3, float> &cube() {
  static dp::field<3, float> m = [] {
    dp::field<3, float> f(dp::grid<3>(D0, D1, D2));
    float *p = f.data();
    for (i64 k = 0; k < D0 * D1 * D2; ++k)
      p[k] = float(k % 5);
    return f;
  }();
  return m;
}

/// Hand-written: out(i) += sum of row i.
void hand_fold_along(const float *in, float *out, i64 I, i64 J) {
  tbb::parallel_for(i64(0), I, [=](i64 i) {
    float s = in[i * J];
    for (i64 j = 1; j < J; ++j)
      s += in[i * J + j];
    out[i] += s;
  });
}
/// Hand-written scan along the rows.
void hand_scan_along(const float *in, float *out, i64 I, i64 J) {
  tbb::parallel_for(i64(0), I, [=](i64 i) {
    float s = 0;
    for (i64 j = 0; j < J; ++j)
      out[i * J + j] = s += in[i * J + j];
  });
}

/// The plain loops across the rows an outside benchmark wrote against
/// reduce<0> and scan<0> (stronger than the cache-blocked loops over
/// 512-column tiles with an accumulator array this file had): blocks of
/// 1024 columns, each walking the rows straight into its slice of the
/// result, the scan adding each row to the previous output row (in cache).
constexpr i64 plain_block = 1024;
void plain_fold_rows(const float *in, float *out, i64 I, i64 J) {
  tbb::parallel_for(i64(0), (J + plain_block - 1) / plain_block, [=](i64 t) {
    const i64 j0 = t * plain_block, j1 = std::min(J, j0 + plain_block);
    for (i64 j = j0; j < j1; ++j)
      out[j] = 0;
    for (i64 i = 0; i < I; ++i)
      for (i64 j = j0; j < j1; ++j)
        out[j] += in[i * J + j];
  });
}
void plain_scan_rows(const float *in, float *out, i64 I, i64 J) {
  tbb::parallel_for(i64(0), (J + plain_block - 1) / plain_block, [=](i64 t) {
    const i64 j0 = t * plain_block, j1 = std::min(J, j0 + plain_block);
    for (i64 j = j0; j < j1; ++j)
      out[j] = in[j];
    for (i64 i = 1; i < I; ++i)
      for (i64 j = j0; j < j1; ++j)
        out[i * J + j] = out[(i - 1) * J + j] + in[i * J + j];
  });
}

template <class Hand> void run_hand(benchmark::State &state, Hand &&hand) {
  for (auto _ : state)
    hand(), benchmark::ClobberMemory();
}

// 2-d
void BM_Reduce2d0Hand(benchmark::State &s) {
  static std::vector<float> out(C);
  run_hand(s, [&] { plain_fold_rows(matrix().data(), out.data(), R, C); });
}
void BM_Reduce2d0Dp(benchmark::State &s) {
  static dp::field<1, float> out{dp::grid<1>(C)};
  for (auto _ : s)
    dp::reduce<0>(matrix().get_grid(), std::plus<>(), out, [](float x) { return x; }, matrix()),
        benchmark::ClobberMemory();
}
void BM_Reduce2d1Hand(benchmark::State &s) {
  static std::vector<float> out(R);
  run_hand(s, [&] { hand_fold_along(matrix().data(), out.data(), R, C); });
}
void BM_Reduce2d1Dp(benchmark::State &s) {
  static dp::field<1, float> out{dp::grid<1>(R)};
  for (auto _ : s)
    dp::reduce<1>(matrix().get_grid(), std::plus<>(), out, [](float x) { return x; }, matrix()),
        benchmark::ClobberMemory();
}
void BM_Scan2d0Hand(benchmark::State &s) {
  static std::vector<float> out(R * C);
  run_hand(s, [&] { plain_scan_rows(matrix().data(), out.data(), R, C); });
}
void BM_Scan2d0Dp(benchmark::State &s) {
  static dp::field<2, float> out(dp::grid<2>(R, C));
  for (auto _ : s)
    dp::scan<0>(matrix().get_grid(), std::plus<>(), out, [](float x) { return x; }, matrix()),
        benchmark::ClobberMemory();
}
void BM_Scan2d1Hand(benchmark::State &s) {
  static std::vector<float> out(R * C);
  run_hand(s, [&] { hand_scan_along(matrix().data(), out.data(), R, C); });
}
void BM_Scan2d1Dp(benchmark::State &s) {
  static dp::field<2, float> out(dp::grid<2>(R, C));
  for (auto _ : s)
    dp::scan<1>(matrix().get_grid(), std::plus<>(), out, [](float x) { return x; }, matrix()),
        benchmark::ClobberMemory();
}

// 3-d: dimension 0 folds D0 planes of D1*D2; dimension 1 folds, per i, D1
// rows of D2; dimension 2 is along the rows.
void BM_Reduce3d0Hand(benchmark::State &s) {
  static std::vector<float> out(D1 * D2);
  run_hand(s, [&] { plain_fold_rows(cube().data(), out.data(), D0, D1 * D2); });
}
void BM_Reduce3d0Dp(benchmark::State &s) {
  static dp::field<2, float> out(dp::grid<2>(D1, D2));
  for (auto _ : s)
    dp::reduce<0>(cube().get_grid(), std::plus<>(), out, [](float x) { return x; }, cube()),
        benchmark::ClobberMemory();
}
void BM_Reduce3d1Hand(benchmark::State &s) {
  static std::vector<float> out(D0 * D2);
  run_hand(s, [&] {
    tbb::parallel_for(i64(0), D0, [&](i64 i) {
      tbb::this_task_arena::isolate([&] { plain_fold_rows(cube().data() + i * D1 * D2, out.data() + i * D2, D1, D2); });
    });
  });
}
void BM_Reduce3d1Dp(benchmark::State &s) {
  static dp::field<2, float> out(dp::grid<2>(D0, D2));
  for (auto _ : s)
    dp::reduce<1>(cube().get_grid(), std::plus<>(), out, [](float x) { return x; }, cube()),
        benchmark::ClobberMemory();
}
void BM_Reduce3d2Hand(benchmark::State &s) {
  static std::vector<float> out(D0 * D1);
  run_hand(s, [&] { hand_fold_along(cube().data(), out.data(), D0 * D1, D2); });
}
void BM_Reduce3d2Dp(benchmark::State &s) {
  static dp::field<2, float> out(dp::grid<2>(D0, D1));
  for (auto _ : s)
    dp::reduce<2>(cube().get_grid(), std::plus<>(), out, [](float x) { return x; }, cube()),
        benchmark::ClobberMemory();
}
void BM_Scan3d0Hand(benchmark::State &s) {
  static std::vector<float> out(D0 * D1 * D2);
  run_hand(s, [&] { plain_scan_rows(cube().data(), out.data(), D0, D1 * D2); });
}
void BM_Scan3d0Dp(benchmark::State &s) {
  static dp::field<3, float> out(dp::grid<3>(D0, D1, D2));
  for (auto _ : s)
    dp::scan<0>(cube().get_grid(), std::plus<>(), out, [](float x) { return x; }, cube()),
        benchmark::ClobberMemory();
}
void BM_Scan3d1Hand(benchmark::State &s) {
  static std::vector<float> out(D0 * D1 * D2);
  run_hand(s, [&] {
    tbb::parallel_for(i64(0), D0, [&](i64 i) {
      tbb::this_task_arena::isolate([&] {
        plain_scan_rows(cube().data() + i * D1 * D2, out.data() + i * D1 * D2, D1, D2);
      });
    });
  });
}
void BM_Scan3d1Dp(benchmark::State &s) {
  static dp::field<3, float> out(dp::grid<3>(D0, D1, D2));
  for (auto _ : s)
    dp::scan<1>(cube().get_grid(), std::plus<>(), out, [](float x) { return x; }, cube()),
        benchmark::ClobberMemory();
}
void BM_Scan3d2Hand(benchmark::State &s) {
  static std::vector<float> out(D0 * D1 * D2);
  run_hand(s, [&] { hand_scan_along(cube().data(), out.data(), D0 * D1, D2); });
}
void BM_Scan3d2Dp(benchmark::State &s) {
  static dp::field<3, float> out(dp::grid<3>(D0, D1, D2));
  for (auto _ : s)
    dp::scan<2>(cube().get_grid(), std::plus<>(), out, [](float x) { return x; }, cube()),
        benchmark::ClobberMemory();
}

// ---------------------------------------------------------------------------
// sort<Dim> of a 2-d int field (1024 x 4096) along each dimension, against
// tbb::parallel_for over std::sort per pencil. Each iteration sorts a fresh
// copy; the copy is timed on both sides.

const i64 SR = 1024, SC = 4096;
const std::vector<int> &unsorted() {
  static std::vector<int> v = [] {
    std::vector<int> u(SR * SC);
    std::uint32_t x = 12345;
    for (int &e : u)
      x = x * 1664525u + 1013904223u, e = int(x >> 8);
    return u;
  }();
  return v;
}
void BM_Sort1Hand(benchmark::State &s) {
  std::vector<int> a;
  for (auto _ : s) {
    a = unsorted();
    tbb::parallel_for(i64(0), SR, [&](i64 i) { std::sort(a.begin() + i * SC, a.begin() + (i + 1) * SC); });
  }
}
void BM_Sort1Dp(benchmark::State &s) {
  static dp::field<2, int> f(dp::grid<2>(SR, SC));
  for (auto _ : s) {
    std::copy(unsorted().begin(), unsorted().end(), f.data());
    dp::sort<1>(f.get_grid(), [](int a, int b) { return a < b; }, f);
  }
}
void BM_Sort0Hand(benchmark::State &s) {
  std::vector<int> a;
  for (auto _ : s) {
    a = unsorted();
    tbb::parallel_for(i64(0), SC, [&](i64 j) {
      std::vector<int> pencil(SR);
      for (i64 i = 0; i < SR; ++i)
        pencil[i] = a[i * SC + j];
      std::sort(pencil.begin(), pencil.end());
      for (i64 i = 0; i < SR; ++i)
        a[i * SC + j] = pencil[i];
    });
  }
}
void BM_Sort0Dp(benchmark::State &s) {
  static dp::field<2, int> f(dp::grid<2>(SR, SC));
  for (auto _ : s) {
    std::copy(unsorted().begin(), unsorted().end(), f.data());
    dp::sort<0>(f.get_grid(), [](int a, int b) { return a < b; }, f);
  }
}

// The same values as one 1-d field of 2^22 ints: dp's sort<0> of one
// pencil (pieces sorted in parallel, then merged) against
// tbb::parallel_sort.
void BM_SortFlatHand(benchmark::State &s) {
  std::vector<int> a;
  for (auto _ : s) {
    a = unsorted();
    tbb::parallel_sort(a.begin(), a.end(), [](int x, int y) { return x < y; });
  }
}
void BM_SortFlatDp(benchmark::State &s) {
  static dp::field<1, int> f(dp::grid<1>(SR * SC));
  for (auto _ : s) {
    std::copy(unsorted().begin(), unsorted().end(), f.data());
    dp::sort<0>(f.get_grid(), [](int a, int b) { return a < b; }, f);
  }
}

// ---------------------------------------------------------------------------
// Matrix multiply, 384^3 floats: in 16 x 16 tiles through tile memory and
// barriers (samples/tiled_matmul.cpp) against the untiled pencil reduction
// reduce<2> over the (i, j, k) grid (samples/matmul_reduce.cpp). On the
// host a tile's threads are fibers that switch at every barrier.

constexpr i64 MM = 384;
constexpr int MT = 16;
struct matmul_data {
  dp::field<2, float> a{dp::grid<2>(MM, MM)}, b{dp::grid<2>(MM, MM)}, c{dp::grid<2>(MM, MM)};
  matmul_data() {
    for (i64 i = 0; i < MM * MM; ++i)
      a.data()[i] = float(i % 7), b.data()[i] = float(i % 5);
  }
};
matmul_data &matmul() {
  static matmul_data d;
  return d;
}

void tile_product(const dp::tile_group<2> &t, float &c, const dp::field<2, float> &A,
                  const dp::field<2, float> &B) {
  dp::tile_static<float[MT][MT]> a(t), b(t);
  const i64 row = t.global()[0], col = t.global()[1], r = t.local()[0], k = t.local()[1];
  float sum = 0;
  for (i64 k0 = 0; k0 < A.get_extent(1); k0 += MT) {
    a.get()[r][k] = A(row, k0 + k);
    b.get()[r][k] = B(k0 + r, col);
    t.barrier();
    for (int kk = 0; kk < MT; ++kk)
      sum += a.get()[r][kk] * b.get()[kk][k];
    t.barrier();
  }
  c = sum;
}

void BM_MatmulTiled(benchmark::State &s) {
  auto &d = matmul();
  for (auto _ : s)
    dp::forall(dp::tile<MT, MT>(d.c.get_grid()), tile_product, dp::_tile, d.c, dp::read_only(d.a),
               dp::read_only(d.b));
}
void BM_MatmulReduce(benchmark::State &s) {
  auto &d = matmul();
  for (auto _ : s) {
    std::fill(d.c.data(), d.c.data() + MM * MM, 0.0f);
    dp::reduce<2>(dp::grid<3>(MM, MM, MM), std::plus<>(), d.c, [](float a, float b) { return a * b; },
                  dp::spread<1>(d.a), dp::spread<0>(dp::transpose(d.b)));
  }
}

// ---------------------------------------------------------------------------
// Queues: two chains of launches that cannot use two cores on their own
// (each a single point of serial work, ~50 us), on two queues against one
// queue running both. Two queues' host tasks run at once.

long chain_step(long x) {
  for (int k = 0; k < 20000; ++k)
    x = (x * 1103515245 + 12345) % 2147483647;
  return x;
}
struct chains_data {
  dp::grid<1> one{1};
  dp::field<1, long> a{one, 1}, b{one, 2};
  dp::queue q1, q2;
};
chains_data &chains() {
  static chains_data d;
  return d;
}
constexpr int chain_length = 40;
void run_chains(dp::queue &first, dp::queue &second) {
  auto &d = chains();
  for (int k = 0; k < chain_length; ++k) {
    dp::forall(dp::on(first), d.one, [](long &x) { x = chain_step(x); }, d.a);
    dp::forall(dp::on(second), d.one, [](long &x) { x = chain_step(x); }, d.b);
  }
  dp::wait_all();
}
void BM_TwoQueues(benchmark::State &s) {
  for (auto _ : s)
    run_chains(chains().q1, chains().q2);
}
void BM_OneQueue(benchmark::State &s) {
  for (auto _ : s)
    run_chains(chains().q1, chains().q1);
}

// A time step of 100 small call-sites: made directly, and replayed from
// one dp::record of them (a replay must not cost more).
struct step_data {
  dp::grid<1> g{16};
  dp::field<1, float> a{g, 1.0f}, b{g, 2.0f};
  dp::queue q;
};
step_data &steps() {
  static step_data d;
  return d;
}
constexpr int step_length = 100;
void make_step() {
  auto &d = steps();
  for (int k = 0; k < step_length; ++k)
    dp::forall(dp::on(d.q), d.g, [](float &x, float y) { x = 0.5f * x + y; }, d.a, d.b);
}
void BM_StepDirect(benchmark::State &s) {
  for (auto _ : s) {
    make_step();
    steps().q.wait();
  }
}
void BM_StepReplay(benchmark::State &s) {
  const dp::graph step = dp::record(steps().q, make_step);
  for (auto _ : s) {
    step.run();
    steps().q.wait();
  }
}

#define DP_BENCH(name) BENCHMARK(name)->UseRealTime()->Unit(benchmark::kMillisecond)->Repetitions(5)->DisplayAggregatesOnly(true)
// Interleaved (hand, dp) so drift in machine load hits both alike.
DP_BENCH(BM_TriadHand);
DP_BENCH(BM_TriadDp);
DP_BENCH(BM_TriadDpOneThread);
DP_BENCH(BM_SumHand);
DP_BENCH(BM_SumDp);
DP_BENCH(BM_SumTiled);
DP_BENCH(BM_Reduce2d0Hand);
DP_BENCH(BM_Reduce2d0Dp);
DP_BENCH(BM_Reduce2d1Hand);
DP_BENCH(BM_Reduce2d1Dp);
DP_BENCH(BM_Reduce3d0Hand);
DP_BENCH(BM_Reduce3d0Dp);
DP_BENCH(BM_Reduce3d1Hand);
DP_BENCH(BM_Reduce3d1Dp);
DP_BENCH(BM_Reduce3d2Hand);
DP_BENCH(BM_Reduce3d2Dp);
DP_BENCH(BM_Scan2d0Hand);
DP_BENCH(BM_Scan2d0Dp);
DP_BENCH(BM_Scan2d1Hand);
DP_BENCH(BM_Scan2d1Dp);
DP_BENCH(BM_Scan3d0Hand);
DP_BENCH(BM_Scan3d0Dp);
DP_BENCH(BM_Scan3d1Hand);
DP_BENCH(BM_Scan3d1Dp);
DP_BENCH(BM_Scan3d2Hand);
DP_BENCH(BM_Scan3d2Dp);
DP_BENCH(BM_Sort1Hand);
DP_BENCH(BM_Sort1Dp);
DP_BENCH(BM_Sort0Hand);
DP_BENCH(BM_Sort0Dp);
DP_BENCH(BM_SortFlatHand);
DP_BENCH(BM_SortFlatDp);
DP_BENCH(BM_MatmulReduce);
DP_BENCH(BM_MatmulTiled);
DP_BENCH(BM_Rank1);
DP_BENCH(BM_Rank4);
DP_BENCH(BM_Rank6);
DP_BENCH(BM_TwoQueues);
DP_BENCH(BM_OneQueue);
DP_BENCH(BM_StepDirect);
DP_BENCH(BM_StepReplay);
BENCHMARK(BM_TinyForall)->Repetitions(5)->DisplayAggregatesOnly(true);
BENCHMARK(BM_EmptyParallelFor)->Repetitions(5)->DisplayAggregatesOnly(true);

} // namespace

int main(int argc, char **argv) {
  const char *threads = std::getenv("DP_BENCH_THREADS");
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads ? std::size_t(std::atoi(threads)) : 2);
  using bench::ratio;
  // Queues run concurrently in the translated program; the untranslated
  // one runs every call-site at once, in order (no goal there).
#ifdef DPSTUB_HOST_BENCH_CPP_DECLARATIONS
  const double queue_goal = 1.6;
#else
  const double queue_goal = 0;
#endif
  return bench::run(argc, argv, "Host backend, 2 threads: speed of the dp call-site over the baseline (higher is faster)",
                    {
                        {"forall triad, 2^26 floats / hand-written tbb::parallel_for", "BM_TriadDp", "BM_TriadHand", 0.95},
                        {"full reduce, sum of 2^26 floats / hand-written tbb::parallel_reduce", "BM_SumDp", "BM_SumHand", 0.95},
                        {"reduce<0>, 4096x16384 floats / plain loop over 1024-column blocks", "BM_Reduce2d0Dp", "BM_Reduce2d0Hand", 0.95},
                        {"reduce<1>, 4096x16384 floats / row loop", "BM_Reduce2d1Dp", "BM_Reduce2d1Hand", 0.95},
                        {"reduce<0>, 64x256x1024 floats / plain loop over 1024-column blocks", "BM_Reduce3d0Dp", "BM_Reduce3d0Hand", 0.95},
                        {"reduce<1>, 64x256x1024 floats / plain loop per plane", "BM_Reduce3d1Dp", "BM_Reduce3d1Hand", 0.95},
                        {"reduce<2>, 64x256x1024 floats / row loop", "BM_Reduce3d2Dp", "BM_Reduce3d2Hand", 0.95},
                        {"scan<0>, 4096x16384 floats / plain loop over 1024-column blocks", "BM_Scan2d0Dp", "BM_Scan2d0Hand", 0.95},
                        {"scan<1>, 4096x16384 floats / row loop", "BM_Scan2d1Dp", "BM_Scan2d1Hand", 0.95},
                        {"scan<0>, 64x256x1024 floats / plain loop over 1024-column blocks", "BM_Scan3d0Dp", "BM_Scan3d0Hand", 0.95},
                        {"scan<1>, 64x256x1024 floats / plain loop per plane", "BM_Scan3d1Dp", "BM_Scan3d1Hand", 0.95},
                        {"scan<2>, 64x256x1024 floats / row loop", "BM_Scan3d2Dp", "BM_Scan3d2Hand", 0.95},
                        {"sort<1>, 1024x4096 ints / parallel_for of std::sort per row", "BM_Sort1Dp", "BM_Sort1Hand", 0.95},
                        {"sort<0>, 1024x4096 ints / parallel_for of std::sort per column", "BM_Sort0Dp", "BM_Sort0Hand", 0.95},
                        {"sort<0>, 2^22 ints (one pencil) / tbb::parallel_sort", "BM_SortFlatDp", "BM_SortFlatHand", 0.95},
                        {"full reduce over dp::tile<256> / over the plain grid, 2^26 floats", "BM_SumTiled", "BM_SumDp", 0},
                        {"tiled matmul, 16x16 tile_static + barriers / untiled reduce<2> matmul, 384^3", "BM_MatmulTiled", "BM_MatmulReduce", 0},
                        {"forall at rank 4 / rank 1, 2^24 points", "BM_Rank4", "BM_Rank1", 0.95},
                        {"forall at rank 6 / rank 1, 2^24 points", "BM_Rank6", "BM_Rank1", 0.95},
                        {"100 small foralls replayed from a dp::record / made directly", "BM_StepReplay", "BM_StepDirect", 1.0},
                        {"two chains of serial launches: two queues / one queue", "BM_TwoQueues", "BM_OneQueue", queue_goal},
                        {"triad on 2 threads / on 1 thread (scaling)", "BM_TriadDp", "BM_TriadDpOneThread", 0},
                        {"time of a 16-point forall / an empty tbb::parallel_for (per-call overhead)", "BM_TinyForall", "BM_EmptyParallelFor", 0, false},
                    });
}
