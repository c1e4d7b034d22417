// On a GPU: the code dpstub generates against hand-written kernels, device
// copy bandwidth and the vendor library (CUB / rocPRIM) called directly;
// every ratio is taken within one run. Built from its dpstub translation
// with nvcc or hipcc by scripts/gpu-bench.sh (no LLVM needed there).
#include <dp/dp.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <dp/rt/backend.hpp>
#include <dp/rt/stub/iterators.hpp>

namespace {

using i64 = std::int64_t;

/// Median milliseconds of `f` over 9 runs, after 2 to warm up; `f` waits
/// for the device (dp's call-sites return once their work is enqueued:
/// their timings end with dp::wait_all()).
template <class F> double ms(F &&f) {
  for (int i = 0; i < 2; ++i)
    f();
  std::vector<double> t;
  for (int i = 0; i < 9; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[4];
}

/// ms() of a dp call-site: it returns once its work is enqueued, so the
/// timing waits for it too.
template <class F> double dp_ms(F &&f) {
  return ms([&] {
    f();
    dp::wait_all();
  });
}

struct row {
  std::string label;
  double value, goal;
};
std::vector<row> table;
void report(const std::string &label, double baseline_ms, double subject_ms, double goal) {
  table.push_back({label, baseline_ms / subject_ms, goal});
}

/// A custom order (no radix sort applies): by the low byte, then by value.
struct low_byte_first {
  DP_HOST_DEVICE bool operator()(int a, int b) const {
    return (a & 0xff) < (b & 0xff) || ((a & 0xff) == (b & 0xff) && a < b);
  }
};

} // namespace

// The baselines: hand-written kernels and the vendor library, device
// builds only. (dpstub translates this file as a host compiler sees it, so
// the dp:: call-sites below stay outside this block.)
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
#include <dp/rt/gpu/api.hpp>
#include <dp/rt/gpu/device.hpp>
#include <dp/rt/gpu/kernels.hpp>
#include <dp/rt/gpu/vendor.hpp>

namespace baseline {
namespace gpu = dp::rt::gpu;
namespace vendor = dp::rt::vendor;

__global__ void triad_kernel(float *a, const float *b, const float *c, float s, i64 n) {
  const i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}
__global__ void empty_kernel() {}
__global__ void increment_kernel(int *x, i64 n) {
  const i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

/// The baselines' stream, and waiting for it.
gpu::stream_t stream() {
  static const gpu::stream_t s = gpu::create_stream();
  return s;
}
void wait() { DP_GPU_CHECK("bench", DP_GPU(StreamSynchronize)(stream())); }

/// A vendor primitive with its scratch allocated once, as a user who calls
/// CUB or rocPRIM by hand would: sized, allocated, then timed.
template <class Call> double vendor_ms(const char *what, Call &&call) {
  std::size_t bytes = 0;
  DP_GPU_CHECK(what, call(nullptr, bytes));
  gpu::buffer scratch(what, bytes);
  return ms([&] {
    DP_GPU_CHECK(what, call(scratch.get(), bytes));
    wait();
  });
}

/// Hand-written triad and a device-to-device copy of n floats (ms each).
std::pair<double, double> triad(i64 n) {
  gpu::buffer A("bench", n * 4), B("bench", n * 4), C("bench", n * 4);
  const double hand = ms([&] {
    gpu::launch("bench", &triad_kernel, {(n + 255) / 256, 1, 1}, {256, 1, 1}, stream(),
                A.as<float>(), B.as<float>(), C.as<float>(), 3.0f, n);
    wait();
  });
  const double copy = ms([&] {
    DP_GPU_CHECK("bench", DP_GPU(MemcpyAsync)(A.get(), B.get(), n * 4, DP_GPU(MemcpyDeviceToDevice),
                                                stream()));
    wait();
  });
  return {hand, copy};
}

/// The vendor's full reduce of n floats on a raw pointer, scratch allocated
/// once (ms).
double reduce_ms(i64 n) {
  gpu::buffer raw("bench", n * 4), out("bench", 4);
  DP_GPU_CHECK("bench", DP_GPU(Memset)(raw.get(), 0, n * 4));
  return vendor_ms("reduce", [&](void *scratch, std::size_t &bytes) {
    return vendor::reduce(scratch, bytes, raw.as<float>(), out.as<float>(), n, std::plus<>(), 0.0f,
                          stream());
  });
}

/// The vendor's full reduce, segmented reduce over R rows of C, and scan
/// by key, each on R*C floats; and a copy of them (ms each).
struct reductions_ms {
  double sum, rows, scan, copy;
};
reductions_ms reductions(i64 R, i64 C) {
  const i64 n = R * C;
  gpu::buffer raw("bench", n * 4), out("bench", n * 4);
  DP_GPU_CHECK("bench", DP_GPU(Memset)(raw.get(), 0, n * 4));
  reductions_ms t;
  t.sum = reduce_ms(n);
  t.rows = vendor_ms("segmented reduce", [&](void *scratch, std::size_t &bytes) {
    return vendor::segmented_reduce(scratch, bytes, raw.as<float>(), out.as<float>(), R,
                                    dp::rt::pencil_offsets{C, 0}, dp::rt::pencil_offsets{C, 1},
                                    std::plus<>(), 0.0f, stream());
  });
  const dp::rt::offset_iterator<dp::rt::pencil_keys<2, 1>> keys(
      dp::rt::pencil_keys<2, 1>::of(dp::rt::pencil_positions<2, 1>::of(dp::extent<2>(R, C))), 0);
  t.scan = vendor_ms("scan by key", [&](void *scratch, std::size_t &bytes) {
    return vendor::inclusive_scan_by_key(scratch, bytes, keys, raw.as<float>(), out.as<float>(), n,
                                         std::plus<>(), stream());
  });
  t.copy = ms([&] {
    DP_GPU_CHECK("bench", DP_GPU(MemcpyAsync)(out.get(), raw.get(), n * 4,
                                                DP_GPU(MemcpyDeviceToDevice), stream()));
    wait();
  });
  return t;
}

/// The vendor's segmented radix sort of R rows of C ints (ms).
double sort_rows(i64 R, i64 C) {
  const i64 n = R * C;
  gpu::buffer in("bench", n * 4), out("bench", n * 4);
  DP_GPU_CHECK("bench", DP_GPU(Memset)(in.get(), 1, n * 4));
  return vendor_ms("segmented radix sort", [&](void *scratch, std::size_t &bytes) {
    return vendor::segmented_radix_sort(scratch, bytes, in.as<int>(), out.as<int>(), n, R,
                                        dp::rt::pencil_offsets{C, 0}, dp::rt::pencil_offsets{C, 1},
                                        false, stream());
  });
}

__global__ void fill_keyed(dp::rt::keyed<int> *out, i64 C, i64 n) {
  const i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = dp::rt::make_keyed(i / C, int(((i / C) * 7919 + (i % C) * 104729) % 1000003));
}

/// The vendor's merge sort of R rows of C ints with a comparator, as
/// (row, value) pairs compared by row then `less` (ms): each run sorts a
/// fresh copy of the unsorted pairs, the copy's time taken off.
template <class Less> double merge_sort_rows(i64 R, i64 C, Less less) {
  using pair = dp::rt::keyed<int>;
  const i64 n = R * C;
  gpu::buffer pristine("bench", n * sizeof(pair)), work("bench", n * sizeof(pair)),
      out("bench", n * sizeof(pair));
  gpu::launch("bench", &fill_keyed, {(n + 255) / 256, 1, 1}, {256, 1, 1}, stream(),
              pristine.as<pair>(), C, n);
  const dp::rt::keyed_less<int, Less> by_row{less};
  std::size_t bytes = 0;
  DP_GPU_CHECK("merge sort", vendor::merge_sort(nullptr, bytes, work.as<pair>(), out.as<pair>(), n, by_row, stream()));
  gpu::buffer scratch("merge sort", bytes);
  auto fresh = [&] {
    DP_GPU_CHECK("bench", DP_GPU(MemcpyAsync)(work.get(), pristine.get(), n * sizeof(pair),
                                                DP_GPU(MemcpyDeviceToDevice), stream()));
  };
  const double copy = ms([&] {
    fresh();
    wait();
  });
  const double sorted = ms([&] {
    fresh();
    DP_GPU_CHECK("merge sort", vendor::merge_sort(scratch.get(), bytes, work.as<pair>(), out.as<pair>(), n, by_row, stream()));
    wait();
  });
  return sorted - copy;
}

/// A bare kernel launch, and a plain host-to-device copy of n floats from
/// (pageable) host memory (ms each).
std::pair<double, double> overheads(i64 n) {
  const double bare = ms([&] {
    gpu::launch("bench", &empty_kernel, {1, 1, 1}, {32, 1, 1}, stream());
    wait();
  });
  std::vector<float> host(n, 1.0f);
  gpu::buffer dev("bench", n * 4);
  const double copy = ms([&] {
    DP_GPU_CHECK("bench", DP_GPU(Memcpy)(dev.get(), host.data(), n * 4, DP_GPU(MemcpyHostToDevice)));
  });
  return {bare, copy};
}

/// `launches` launches of an increment over n ints on one stream, then
/// one wait (ms).
double chain(i64 n, int launches) {
  gpu::buffer X("bench", n * 4);
  DP_GPU_CHECK("bench", DP_GPU(Memset)(X.get(), 0, n * 4));
  return ms([&] {
    for (int k = 0; k < launches; ++k)
      gpu::launch("bench", &increment_kernel, {(n + 255) / 256, 1, 1}, {256, 1, 1}, stream(),
                  X.as<int>(), n);
    wait();
  });
}

/// The same launches captured once into a graph by hand (as a CUDA or
/// HIP expert would: stream capture, one instantiation), then one graph
/// launch and one wait (ms).
double graph_chain(i64 n, int launches) {
  gpu::buffer X("bench", n * 4);
  DP_GPU_CHECK("bench", DP_GPU(Memset)(X.get(), 0, n * 4));
  gpu::graph_t captured = nullptr;
  gpu::graph_exec_t exec = nullptr;
  DP_GPU_CHECK("bench", DP_GPU(StreamBeginCapture)(stream(), DP_GPU(StreamCaptureModeGlobal)));
  for (int k = 0; k < launches; ++k)
    gpu::launch("bench", &increment_kernel, {(n + 255) / 256, 1, 1}, {256, 1, 1}, stream(),
                X.as<int>(), n);
  DP_GPU_CHECK("bench", DP_GPU(StreamEndCapture)(stream(), &captured));
  DP_GPU_CHECK("bench", DP_GPU(GraphInstantiateWithFlags)(&exec, captured, 0));
  const double t = ms([&] {
    DP_GPU_CHECK("bench", DP_GPU(GraphLaunch)(exec, stream()));
    wait();
  });
  (void)DP_GPU(GraphExecDestroy)(exec);
  (void)DP_GPU(GraphDestroy)(captured);
  return t;
}

} // namespace baseline
#else
// A host build has no GPU to measure: main says so.
namespace baseline {
inline std::pair<double, double> triad(i64) { return {0, 0}; }
struct reductions_ms {
  double sum, rows, scan, copy;
};
inline double reduce_ms(i64) { return 0; }
inline reductions_ms reductions(i64, i64) { return {}; }
inline double sort_rows(i64, i64) { return 0; }
template <class Less> double merge_sort_rows(i64, i64, Less) { return 0; }
inline std::pair<double, double> overheads(i64) { return {0, 0}; }
inline double chain(i64, int) { return 0; }
inline double graph_chain(i64, int) { return 0; }
} // namespace baseline
#endif

namespace {

void triad(i64 n) {
  const dp::grid<1> g(n);
  dp::field<1, float> a(g), b(g, 1.0f), c(g, 2.0f);
  const double triad_ms = dp_ms([&] {
    dp::forall(g, [](float &a, float b, float c, float s) { a = b + s * c; }, a, b, c, 3.0f);
  });
  const auto [hand_ms, copy_ms] = baseline::triad(n);
  const std::string size = "2^" + std::to_string(63 - __builtin_clzll(n));
  report("forall triad, " + size + " floats / hand-written kernel", hand_ms, triad_ms, 0.97);
  // The triad moves 3 arrays, a copy 2: compare bytes per second.
  report("forall triad, " + size + " floats / device copy bandwidth", copy_ms * 1.5, triad_ms, 0.90);
}

void ranks() {
  const i64 points = i64(1) << 26;
  dp::field<1, float> f1(dp::grid<1>(points), 1.0f);
  dp::field<2, float> f2(dp::grid<2>(8192, 8192), 1.0f);
  dp::field<3, float> f3(dp::grid<3>(256, 512, 512), 1.0f);
  dp::field<4, float> f4(dp::grid<4>(64, 64, 128, 128), 1.0f);
  dp::field<6, float> f6(dp::grid<6>(16, 16, 16, 16, 16, 64), 1.0f);
  const double t1 = dp_ms([&] { dp::forall(f1.get_grid(), [](float &x) { x = x * 0.5f + 1.0f; }, f1); });
  const double t2 = dp_ms([&] { dp::forall(f2.get_grid(), [](float &x) { x = x * 0.5f + 1.0f; }, f2); });
  const double t3 = dp_ms([&] { dp::forall(f3.get_grid(), [](float &x) { x = x * 0.5f + 1.0f; }, f3); });
  const double t4 = dp_ms([&] { dp::forall(f4.get_grid(), [](float &x) { x = x * 0.5f + 1.0f; }, f4); });
  const double t6 = dp_ms([&] { dp::forall(f6.get_grid(), [](float &x) { x = x * 0.5f + 1.0f; }, f6); });
  report("forall rank 2 / rank 1, 2^26 points", t1, t2, 0.95);
  report("forall rank 3 / rank 1, 2^26 points", t1, t3, 0.95);
  report("forall rank 4 / rank 1, 2^26 points", t1, t4, 0.95);
  report("forall rank 6 / rank 1, 2^26 points", t1, t6, 0.95);
}

void reductions() {
  const i64 R = 8192, C = 8192;
  dp::field<2, float> m(dp::grid<2>(R, C), 1.0f);
  const double dp_sum = dp_ms([&] {
    dp::scalar<float> s(0.0f);
    dp::reduce(m.get_grid(), std::plus<>(), s, [](float x) { return x; }, m);
  });
  dp::field<1, float> rows{dp::grid<1>(R)}, cols{dp::grid<1>(C)};
  const double dp_rows = dp_ms([&] { dp::reduce<1>(m.get_grid(), std::plus<>(), rows, [](float x) { return x; }, m); });
  const double dp_cols = dp_ms([&] { dp::reduce<0>(m.get_grid(), std::plus<>(), cols, [](float x) { return x; }, m); });
  dp::field<2, float> scanned(m.get_grid());
  const double dp_scan = dp_ms([&] { dp::scan<1>(m.get_grid(), std::plus<>(), scanned, [](float x) { return x; }, m); });
  const double dp_scan0 = dp_ms([&] { dp::scan<0>(m.get_grid(), std::plus<>(), scanned, [](float x) { return x; }, m); });
  const baseline::reductions_ms v = baseline::reductions(R, C);
  report("full reduce, 2^26 floats / vendor reduce", v.sum, dp_sum, 0.95);
  report("reduce<1> (contiguous), 8192x8192 floats / vendor segmented reduce", v.rows, dp_rows, 0.95);
  // A reduction reads the data once; a copy reads and writes it.
  report("reduce<1> (contiguous) / half the copy time (bandwidth)", v.copy / 2, dp_rows, 0.60);
  report("reduce<0> (across), 8192x8192 floats / half the copy time (bandwidth)", v.copy / 2, dp_cols, 0.90);
  report("scan<1>, 8192x8192 floats / vendor scan by key", v.scan, dp_scan, 0.95);
  // A scan reads and writes the data, as a copy does.
  report("scan<0> (across), 8192x8192 floats / the copy time (bandwidth)", v.copy, dp_scan0, 0.80);
}

void sorts() {
  const i64 R = 4096, C = 4096;
  dp::field<2, int> f(dp::grid<2>(R, C));
  auto fill = [&] {
    dp::forall(f.get_grid(), [](dp::index<2> i, int &x) { x = int((i[0] * 7919 + i[1] * 104729) % 1000003); }, f);
  };
  const double dp_sort = dp_ms([&] {
    fill();
    dp::sort<1>(f.get_grid(), [](int a, int b) { return a < b; }, f);
  });
  const double dp_fill = ms(fill);
  report("sort<1>, 4096x4096 ints / vendor segmented radix sort", baseline::sort_rows(R, C), dp_sort - dp_fill, 0.95);
  const double dp_custom = dp_ms([&] {
    fill();
    dp::sort<1>(f.get_grid(), low_byte_first(), f);
  });
  report("sort<1> with a comparator, 4096x4096 ints / vendor merge sort of (row, value)",
         baseline::merge_sort_rows(R, C, low_byte_first()), dp_custom - dp_fill, 0.90);
}

// Tiles: what they are for on a GPU. Matrix multiply in 16 x 16 tiles
// through tile memory (samples/tiled_matmul.cpp) against the untiled pencil
// reduction reduce<2> over the (i, j, k) grid; transpose through a padded
// 32 x 33 tile (samples/tiled_transpose.cpp) against the elemental
// transpose view; full reduces over dp::tile<256> — a kernel blind to its
// tile (the plain reduce, since the tiles leave no padding) and one that
// takes its local index (each tile folded by warps, then the tiles' folds)
// — against dp's plain full reduce and CUB/rocPRIM on a raw pointer.
constexpr int MT = 16, TT = 32;

void tiles() {
  const i64 M = 2048;
  dp::field<2, float> A(dp::grid<2>(M, M), 1.0f), B(dp::grid<2>(M, M), 2.0f), C(dp::grid<2>(M, M), 0.0f);
  const double tiled_mm = dp_ms([&] {
    dp::forall(dp::tile<MT, MT>(C.get_grid()),
               [](const dp::tile_group<2> &t, float &c, const dp::field<2, float> &a,
                  const dp::field<2, float> &b) {
                 dp::tile_static<float[MT][MT]> sa(t), sb(t);
                 const i64 row = t.global()[0], col = t.global()[1], r = t.local()[0], k = t.local()[1];
                 float sum = 0;
                 for (i64 k0 = 0; k0 < a.get_extent(1); k0 += MT) {
                   sa.get()[r][k] = a(row, k0 + k);
                   sb.get()[r][k] = b(k0 + r, col);
                   t.barrier();
                   for (int kk = 0; kk < MT; ++kk)
                     sum += sa.get()[r][kk] * sb.get()[kk][k];
                   t.barrier();
                 }
                 c = sum;
               },
               dp::_tile, C, dp::read_only(A), dp::read_only(B));
  });
  const double untiled_mm = dp_ms([&] {
    dp::reduce<2>(dp::grid<3>(M, M, M), std::plus<>(), C, [](float a, float b) { return a * b; },
                  dp::spread<1>(A), dp::spread<0>(dp::transpose(B)));
  });
  report("tiled matmul (16x16 tile_static) / untiled reduce<2> matmul, 2048^3", untiled_mm, tiled_mm, 0);

  const i64 N = 8192;
  dp::field<2, float> X(dp::grid<2>(N, N), 1.0f), Y(dp::grid<2>(N, N), 0.0f);
  const double tiled_t = dp_ms([&] {
    dp::forall(dp::tile<TT, TT>(X.get_grid()),
               [](const dp::tile_group<2> &t, const float &x, dp::field<2, float> &y) {
                 dp::tile_static<float[TT][TT + 1]> block(t);
                 const dp::index<2> l = t.local();
                 block.get()[l[0]][l[1]] = x;
                 t.barrier();
                 const i64 j = t.tile_origin()[1] + l[0], i = t.tile_origin()[0] + l[1];
                 if (j < y.get_extent(0) && i < y.get_extent(1))
                   y(j, i) = block.get()[l[1]][l[0]];
               },
               dp::_tile, X, Y);
  });
  const double untiled_t = dp_ms([&] {
    dp::forall(Y.get_grid(), [](float &y, float x) { y = x; }, Y, dp::transpose(X));
  });
  report("tiled transpose (32x33 tile_static) / untiled transpose view, 8192^2 floats", untiled_t, tiled_t, 0);

  dp::field<1, float> v(dp::grid<1>(i64(1) << 26), 1.0f);
  dp::scalar<float> s(0.0f);
  const double tiled_sum = dp_ms([&] {
    dp::reduce(dp::tile<256>(v.get_grid()), std::plus<>(), s, [](float x) { return x; }, v);
  });
  const double seeing_sum = dp_ms([&] {
    dp::reduce(dp::tile<256>(v.get_grid()), std::plus<>(), s,
               [](dp::index<1> local, float x) { return local[0] < 256 ? x : 0.0f; },
               dp::_local_index, v);
  });
  const double small_tiles_sum = dp_ms([&] { // 8 tiles of 32 side by side in a group
    dp::reduce(dp::tile<32>(v.get_grid()), std::plus<>(), s,
               [](dp::index<1> local, float x) { return local[0] < 32 ? x : 0.0f; },
               dp::_local_index, v);
  });
  const double plain_sum = dp_ms([&] {
    dp::reduce(v.get_grid(), std::plus<>(), s, [](float x) { return x; }, v);
  });
  report("full reduce over dp::tile<256>, blind to its tile / dp's plain full reduce, 2^26 floats",
         plain_sum, tiled_sum, 0.85);
  report("full reduce over dp::tile<256>, seeing its tile / dp's plain full reduce", plain_sum,
         seeing_sum, 0.85);
  report("full reduce over dp::tile<256>, seeing its tile / vendor reduce on a raw pointer",
         baseline::reduce_ms(v.get_grid().size()), seeing_sum, 0.80);
  report("full reduce over dp::tile<32>, seeing its place / dp's plain full reduce", plain_sum,
         small_tiles_sum, 0.85);
}

void overheads() {
  const i64 n = i64(1) << 26;
  dp::field<1, int> tiny(dp::grid<1>(16));
  const double dp_tiny = dp_ms([&] { dp::forall(tiny.get_grid(), [](int &x) { x += 1; }, tiny); });
  // A fresh field's first launch: its data crosses to the device (the
  // fields are made before the clock starts, as a plain copy's host data
  // is; each timing gets one it has not used).
  std::vector<dp::field<1, float>> fresh;
  for (int i = 0; i < 11; ++i)
    fresh.emplace_back(dp::grid<1>(n), 1.0f);
  std::size_t next = 0;
  const double first_ms = dp_ms([&] {
    dp::field<1, float> &f = fresh[next++ % fresh.size()];
    dp::forall(f.get_grid(), [](const float &) {}, f);
  });
  const auto [bare, memcpy_ms] = baseline::overheads(n);
  report("launch overhead: a bare kernel launch / a 16-point forall", bare, dp_tiny, 0);
  report("first launch of a fresh 2^26-float field / plain host-to-device copy", memcpy_ms, first_ms, 0.90);
}

/// About a thousand flops per element: on an H100 a chunk's kernel takes
/// about as long as its copy each way (with 24 steps it took a tenth, and
/// no overlap could have shown).
DP_HOST_DEVICE float pipeline_step(float x) {
  float y = x;
  for (int k = 0; k < 256; ++k)
    y = y * 0.999f + 0.5f * sinf(y);
  return y;
}

/// Execution controls: the copy/compute overlap over chunks on two queues
/// against the same steps on one, and a chain of small launches on one
/// queue against the same hand-written launches.
void controls() {
  const int chunks = 8;
  const dp::grid<1> g(i64(1) << 23);
  std::vector<dp::field<1, float>> in, out;
  for (int c = 0; c < chunks; ++c)
    in.emplace_back(g, 0.5f), out.emplace_back(g, 0.0f);
  dp::queue queues[2];
  auto pipeline = [&](bool overlap) {
    for (int c = 0; c < chunks; ++c) {
      dp::queue &q = queues[overlap ? c % 2 : 0];
      in[c](0) = float(c); // the host changed the input: it crosses again
      dp::update_device(q, in[c]);
      dp::forall(dp::on(q), g, [](float &o, float x) { o = pipeline_step(x); }, out[c], in[c]);
      dp::update_host(q, out[c]);
    }
    // The host holds every result. Read through a const field: through a
    // non-const one the read counts as a write, and the next run would
    // upload the output again before overwriting it.
    for (const auto &o : out)
      (void)o(0);
  };
  const double serial_ms = dp_ms([&] { pipeline(false); });
  const double overlap_ms = dp_ms([&] { pipeline(true); });
  report("8 chunks of 2^23 floats pushed, transformed, read back: two queues / one queue",
         serial_ms, overlap_ms, 1.6);

  const i64 n = 4096;
  const int launches = 1000;
  dp::field<1, int> x(dp::grid<1>(n), 0);
  dp::queue q;
  const double chain_ms = dp_ms([&] {
    for (int k = 0; k < launches; ++k)
      dp::forall(dp::on(q), x.get_grid(), [](int &v) { v += 1; }, x);
    q.wait();
  });
  const double hand_ms = baseline::chain(n, launches);
  report("1,000 launches over 4096 ints on one queue / the same hand-written launches",
         hand_ms, chain_ms, 0.9);

  // The same 1,000 call-sites recorded once (dp::record) and replayed: one
  // graph launch per replay, against a graph built by hand and against
  // the hand loop (a graph should beat the loop clearly).
  const dp::graph step = dp::record(q, [&] {
    for (int k = 0; k < launches; ++k)
      dp::forall(dp::on(q), x.get_grid(), [](int &v) { v += 1; }, x);
  });
  const double replay_ms = dp_ms([&] { step.run(); });
  report("1,000 launches replayed from a dp::record / a hand-built graph of them",
         baseline::graph_chain(n, launches), replay_ms, 0.9);
  report("1,000 launches replayed from a dp::record / the hand loop of them", hand_ms, replay_ms, 0);
}

} // namespace

int main() {
#if !defined(DP_COMPILER_HIP) && !defined(DP_COMPILER_CUDA)
  std::printf("gpu_bench: build the dpstub translation of this file with nvcc or hipcc "
              "(bash scripts/gpu-bench.sh)\n");
  return 0;
#endif
  std::printf("gpu_bench: on %s\n", dp::rt::to_string(dp::rt::process_backend()));
  triad(i64(1) << 26);
  triad(i64(1) << 28);
  ranks();
  reductions();
  sorts();
  tiles();
  overheads();
  controls();
  std::printf("\n| measurement | speed ratio (baseline time / dp time) | goal |\n|---|---|---|\n");
  for (const row &r : table) {
    char goal[48] = "";
    if (r.goal > 0)
      std::snprintf(goal, sizeof goal, ">= %.2f%s", r.goal, r.value >= r.goal ? "" : " (missed)");
    std::printf("| %s | %.3f | %s |\n", r.label.c_str(), r.value, goal);
  }
}
