// What samples/babel_stream.cpp is measured against when it is built as
// the benchmark (DP_STREAM_BASELINES, linked with this file;
// bench/CMakeLists.txt on the host, scripts/gpu-bench.sh on a GPU):
// BabelStream's own implementations of the same kernels, in the same
// binary and the same run.
//
//  - device builds: its CUDA version (src/cuda/CUDAStream.cu) written out
//    for CUDA and HIP: grid-stride loops of 256-thread blocks, unrolled
//    4 times, over n/4 threads; Dot in 4 blocks of 1024 threads per
//    multiprocessor, each folding its partial sums in shared memory and
//    writing one to page-locked host memory, which the host adds up;
//  - host builds: its oneTBB version (src/tbb/TBBStream.cpp): a
//    tbb::parallel_for over a blocked_range per kernel, Dot a
//    tbb::parallel_reduce, arrays aligned to 2 MiB and first touched in
//    parallel.
//
// Both models run in turn within each of the --numtimes runs, so that both
// meet the same machine; the ratio compares their fastest runs.

#include <dp/dp.hpp> // the GPU vendor's runtime, as the program sees it

#include "babel_stream.hpp"

#include <functional>
#include <new>

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
#include <dp/rt/gpu/api.hpp>
#else
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/partitioner.h>
#endif

namespace stream {

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

namespace hand {
namespace gpu = dp::rt::gpu;
using i64 = std::int64_t;
constexpr int block_size = 256, dot_block_size = 1024, unroll = 4;

struct copy_op {
  const double *a;
  double *c;
  __device__ void operator()(i64 i) const { c[i] = a[i]; }
};
struct mul_op {
  double *b;
  const double *c;
  __device__ void operator()(i64 i) const { b[i] = start_scalar * c[i]; }
};
struct add_op {
  const double *a, *b;
  double *c;
  __device__ void operator()(i64 i) const { c[i] = a[i] + b[i]; }
};
struct triad_op {
  double *a;
  const double *b, *c;
  __device__ void operator()(i64 i) const { a[i] = b[i] + start_scalar * c[i]; }
};
struct nstream_op {
  double *a;
  const double *b, *c;
  __device__ void operator()(i64 i) const { a[i] += b[i] + start_scalar * c[i]; }
};
struct init_op {
  double *a, *b, *c;
  double a0, b0, c0;
  __device__ void operator()(i64 i) const { a[i] = a0, b[i] = b0, c[i] = c0; }
};

template <class F> __global__ void for_each_kernel(i64 n, F f) {
  i64 i = i64(threadIdx.x) + i64(blockDim.x) * blockIdx.x;
#pragma unroll 4
  for (; i < n; i += i64(gridDim.x) * blockDim.x)
    f(i);
}

__global__ void dot_kernel(const double *a, const double *b, double *sums, i64 n) {
  __shared__ double partial[dot_block_size];
  double sum = 0;
  const int t = threadIdx.x;
  for (i64 i = t + i64(blockDim.x) * blockIdx.x; i < n; i += i64(gridDim.x) * blockDim.x)
    sum += a[i] * b[i];
  partial[t] = sum;
  for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (t < offset)
      partial[t] += partial[t + offset];
  }
  if (t == 0)
    sums[blockIdx.x] = partial[0];
}

} // namespace hand

// BabelStream's CUDA version, for CUDA and HIP.
class baseline_model {
public:
  explicit baseline_model(std::int64_t n)
      : n_(n), a_("stream", n * sizeof(double)), b_("stream", n * sizeof(double)),
        c_("stream", n * sizeof(double)), stream_(hand::gpu::create_stream()) {
    int device = 0;
    DP_GPU_CHECK("stream", DP_GPU(GetDevice)(&device));
    dp_gpu_device_prop_t prop;
    DP_GPU_CHECK("stream", DP_GPU(GetDeviceProperties)(&prop, device));
    dot_blocks_ = prop.multiProcessorCount * 4;
    sums_ = static_cast<double *>(hand::gpu::pinned_allocate(dot_blocks_ * sizeof(double)));
  }
  ~baseline_model() {
    hand::gpu::pinned_free(sums_);
    (void)DP_GPU(StreamDestroy)(stream_);
  }
  baseline_model(const baseline_model &) = delete;
  baseline_model &operator=(const baseline_model &) = delete;

  static const char *name() {
    return dp::rt::gpu::api[0] == 'H' ? "BabelStream's HIP kernels" : "BabelStream's CUDA kernels";
  }

  void init(double a, double b, double c) {
    for_each(hand::init_op{a_.as<double>(), b_.as<double>(), c_.as<double>(), a, b, c});
  }
  void copy() { for_each(hand::copy_op{a_.as<double>(), c_.as<double>()}); }
  void mul() { for_each(hand::mul_op{b_.as<double>(), c_.as<double>()}); }
  void add() { for_each(hand::add_op{a_.as<double>(), b_.as<double>(), c_.as<double>()}); }
  void triad() { for_each(hand::triad_op{a_.as<double>(), b_.as<double>(), c_.as<double>()}); }
  void nstream() { for_each(hand::nstream_op{a_.as<double>(), b_.as<double>(), c_.as<double>()}); }
  double dot() {
    hand::gpu::launch("stream", &hand::dot_kernel, {dot_blocks_, 1, 1}, {hand::dot_block_size, 1, 1},
                      stream_, a_.as<double>(), b_.as<double>(), sums_, n_);
    wait();
    double sum = 0;
    for (std::int64_t i = 0; i < dot_blocks_; ++i)
      sum += sums_[i];
    return sum;
  }
  void read(std::vector<double> &a, std::vector<double> &b, std::vector<double> &c) const {
    a.resize(n_), b.resize(n_), c.resize(n_);
    const std::size_t bytes = n_ * sizeof(double);
    DP_GPU_CHECK("stream", DP_GPU(Memcpy)(a.data(), a_.get(), bytes, DP_GPU(MemcpyDeviceToHost)));
    DP_GPU_CHECK("stream", DP_GPU(Memcpy)(b.data(), b_.get(), bytes, DP_GPU(MemcpyDeviceToHost)));
    DP_GPU_CHECK("stream", DP_GPU(Memcpy)(c.data(), c_.get(), bytes, DP_GPU(MemcpyDeviceToHost)));
  }

  /// dp's goal against it: 0.97 of its bandwidth, Dot 0.95.
  static double goal(kernel k) { return k == dot_k ? 0.95 : 0.97; }

private:
  template <class F> void for_each(F f) {
    const std::int64_t blocks = (n_ / hand::unroll + hand::block_size - 1) / hand::block_size;
    hand::gpu::launch("stream", &hand::for_each_kernel<F>, {std::max<std::int64_t>(blocks, 1), 1, 1},
                      {hand::block_size, 1, 1}, stream_, n_, f);
    wait();
  }
  void wait() { DP_GPU_CHECK("stream", DP_GPU(StreamSynchronize)(stream_)); }

  std::int64_t n_;
  hand::gpu::buffer a_, b_, c_;
  hand::gpu::stream_t stream_;
  std::int64_t dot_blocks_ = 0;
  double *sums_ = nullptr;
};

#else

// BabelStream's oneTBB version.
class baseline_model {
public:
  explicit baseline_model(std::int64_t n)
      : n_(n), a_(allocate(n)), b_(allocate(n)), c_(allocate(n)) {}
  ~baseline_model() {
    std::free(a_);
    std::free(b_);
    std::free(c_);
  }
  baseline_model(const baseline_model &) = delete;
  baseline_model &operator=(const baseline_model &) = delete;

  static const char *name() { return "BabelStream's oneTBB loops"; }

  void init(double a, double b, double c) {
    each([=, x = a_, y = b_, z = c_](std::size_t i) { x[i] = a, y[i] = b, z[i] = c; });
  }
  void copy() {
    each([a = a_, c = c_](std::size_t i) { c[i] = a[i]; });
  }
  void mul() {
    each([b = b_, c = c_](std::size_t i) { b[i] = start_scalar * c[i]; });
  }
  void add() {
    each([a = a_, b = b_, c = c_](std::size_t i) { c[i] = a[i] + b[i]; });
  }
  void triad() {
    each([a = a_, b = b_, c = c_](std::size_t i) { a[i] = b[i] + start_scalar * c[i]; });
  }
  void nstream() {
    each([a = a_, b = b_, c = c_](std::size_t i) { a[i] += b[i] + start_scalar * c[i]; });
  }
  double dot() {
    return tbb::parallel_reduce(
        range(), 0.0,
        [a = a_, b = b_](const tbb::blocked_range<std::size_t> &r, double sum) {
          for (std::size_t i = r.begin(); i < r.end(); ++i)
            sum += a[i] * b[i];
          return sum;
        },
        std::plus<double>(), tbb::auto_partitioner());
  }
  void read(std::vector<double> &a, std::vector<double> &b, std::vector<double> &c) const {
    a.assign(a_, a_ + n_), b.assign(b_, b_ + n_), c.assign(c_, c_ + n_);
  }

  /// dp's goal against it: 0.95 of its bandwidth.
  static double goal(kernel) { return 0.95; }

private:
  static double *allocate(std::int64_t n) {
    constexpr std::size_t alignment = std::size_t(2) << 20;
    const std::size_t bytes = (n * sizeof(double) + alignment - 1) / alignment * alignment;
    auto *p = static_cast<double *>(std::aligned_alloc(alignment, bytes));
    if (p == nullptr)
      throw std::bad_alloc();
    return p;
  }
  tbb::blocked_range<std::size_t> range() const { return {0, std::size_t(n_)}; }
  /// One kernel: the inner loop is the kernel's, over each chunk.
  template <class F> void each(F f) {
    tbb::parallel_for(
        range(),
        [&f](const tbb::blocked_range<std::size_t> &r) {
          for (std::size_t i = r.begin(); i < r.end(); ++i)
            f(i);
        },
        tbb::auto_partitioner());
  }

  std::int64_t n_;
  double *a_, *b_, *c_;
};

#endif

// The benchmark: both models in turn in every run, both checked, both
// tables, then each kernel's bandwidth against the baseline's.
int run_against_baseline(model_ref &m, const options &o, run_times &t) {
  baseline_model base(o.n);
  base.init(start_a, start_b, start_c);
  run_times tb;
  for (int k = 0; k < o.times; ++k) {
    run_once(m, t);
    run_once(base, tb);
  }
  print_table(m.name(), o, t);
  print_table(baseline_model::name(), o, tb);
  const bool ok = check(m, o, t.sum) & check(base, o, tb.sum);
  std::printf("\n| kernel | dp MBytes/s | %s MBytes/s | dp / baseline | goal |\n|---|---|---|---|---|\n",
              baseline_model::name());
  for (int k = 0; k < kernel_count; ++k) {
    const double ratio = fastest(tb.seconds[k]) / fastest(t.seconds[k]);
    const double goal = baseline_model::goal(kernel(k));
    std::printf("| %s | %.0f | %.0f | %.3f | >= %.2f%s |\n", kernels[k].label,
                mbytes_per_second(kernel(k), o.n, fastest(t.seconds[k])),
                mbytes_per_second(kernel(k), o.n, fastest(tb.seconds[k])), ratio, goal,
                ratio >= goal ? "" : " (missed)");
  }
  return ok ? 0 : 1;
}

} // namespace stream
