// BabelStream (Deakin, McIntosh-Smith et al., University of Bristol) in
// dp: its six memory-bandwidth kernels over three arrays of doubles, one
// call-site each, with its initial values, its order (every kernel once,
// then again, `--numtimes` times) and its result check.
//
//   babel_stream [--arraysize N] [--numtimes K] [--timings]
//
// Without --timings it prints only what every right run prints (the size
// and the check), so that its runs on every backend compare byte for
// byte. With --timings it adds BabelStream's table: MBytes/s from the
// fastest run of each kernel, then min, max and average seconds, the first
// run left out, as BabelStream prints them.
//
// bench/stream_baseline.hpp turns this file into the benchmark
// (DP_STREAM_BASELINES): the same run, beside it BabelStream's CUDA/HIP
// kernels written by hand (device builds) or its oneTBB loops (host
// builds), and the ratio of each kernel's bandwidth to theirs.
#include <dp/dp.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

namespace stream {

// BabelStream's starting values and scalar.
constexpr double start_a = 0.1, start_b = 0.2, start_c = 0.0, start_scalar = 0.4;

/// The kernels in BabelStream's order, and how many arrays of the size
/// each moves (reads and writes).
enum kernel { copy_k, mul_k, add_k, triad_k, dot_k, nstream_k, kernel_count };
struct kernel_info {
  const char *label;
  int arrays_moved;
};
constexpr kernel_info kernels[kernel_count] = {{"Copy", 2},  {"Mul", 2}, {"Add", 3},
                                               {"Triad", 3}, {"Dot", 2}, {"Nstream", 4}};

/// The dp model: three fields, a call-site per kernel. Each kernel returns
/// once its work is done (dp call-sites return once it is enqueued), as
/// BabelStream's kernels must.
class dp_model {
public:
  explicit dp_model(std::int64_t n) : g_(n), a_(g_), b_(g_), c_(g_) {}

  static const char *name() { return "dp"; }

  void init(double a, double b, double c) {
    dp::forall(g_, [](double &x, double &y, double &z, double a0, double b0, double c0) {
      x = a0, y = b0, z = c0;
    }, a_, b_, c_, a, b, c);
    dp::wait_all();
  }
  void copy() {
    dp::forall(g_, [](double &c, double a) { c = a; }, c_, a_);
    dp::wait_all();
  }
  void mul() {
    dp::forall(g_, [](double &b, double c) { b = start_scalar * c; }, b_, c_);
    dp::wait_all();
  }
  void add() {
    dp::forall(g_, [](double &c, double a, double b) { c = a + b; }, c_, a_, b_);
    dp::wait_all();
  }
  void triad() {
    dp::forall(g_, [](double &a, double b, double c) { a = b + start_scalar * c; }, a_, b_, c_);
    dp::wait_all();
  }
  void nstream() {
    dp::forall(g_, [](double &a, double b, double c) { a += b + start_scalar * c; }, a_, b_, c_);
    dp::wait_all();
  }
  double dot() {
    dp::scalar<double> sum(0.0);
    dp::reduce(g_, std::plus<>(), sum, [](double a, double b) { return a * b; }, a_, b_);
    return sum.get();
  }
  /// The arrays on the host (read through const fields: a read through a
  /// non-const one would count as a write).
  void read(std::vector<double> &a, std::vector<double> &b, std::vector<double> &c) const {
    const std::int64_t n = a_.get_extent(0);
    a.resize(n), b.resize(n), c.resize(n);
    for (std::int64_t i = 0; i < n; ++i)
      a[i] = a_(i), b[i] = b_(i), c[i] = c_(i);
  }

private:
  dp::grid<1> g_;
  dp::field<1, double> a_, b_, c_;
};

struct options {
  std::int64_t n;
  int times;
  bool timings;
};

/// Seconds each kernel took in each run, and the last dot product.
struct run_times {
  std::vector<double> seconds[kernel_count];
  double sum = 0;
};

template <class F> double seconds(F &&f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// One run of every kernel in BabelStream's order, each timed.
template <class Model> void run_once(Model &m, run_times &t) {
  t.seconds[copy_k].push_back(seconds([&] { m.copy(); }));
  t.seconds[mul_k].push_back(seconds([&] { m.mul(); }));
  t.seconds[add_k].push_back(seconds([&] { m.add(); }));
  t.seconds[triad_k].push_back(seconds([&] { m.triad(); }));
  t.seconds[dot_k].push_back(seconds([&] { t.sum = m.dot(); }));
  t.seconds[nstream_k].push_back(seconds([&] { m.nstream(); }));
}

/// A kernel's fastest run, the first left out (BabelStream's warm-up).
inline double fastest(const std::vector<double> &s) {
  return s.size() > 1 ? *std::min_element(s.begin() + 1, s.end()) : s.front();
}

inline double mbytes_per_second(kernel k, std::int64_t n, double s) {
  return 1e-6 * double(kernels[k].arrays_moved) * double(sizeof(double)) * double(n) / s;
}

/// BabelStream's table of one model's run.
inline void print_table(const char *model, const options &o, const run_times &t) {
  std::printf("%s:\n%-12s%-12s%-12s%-12s%-12s\n", model, "Function", "MBytes/sec", "Min (sec)", "Max",
              "Average");
  for (int k = 0; k < kernel_count; ++k) {
    const std::vector<double> &s = t.seconds[k];
    const auto first = s.begin() + (s.size() > 1 ? 1 : 0);
    const double max = *std::max_element(first, s.end());
    const double average = std::accumulate(first, s.end(), 0.0) / double(s.end() - first);
    std::printf("%-12s%-12.3f%-12.5f%-12.5f%-12.5f\n", kernels[k].label,
                mbytes_per_second(kernel(k), o.n, fastest(s)), fastest(s), max, average);
  }
}

/// BabelStream's check: every element against the values the kernels
/// give when run on scalars, relative error within 100 ulps (the dot
/// product within 1e7 ulps). Prints the expected values and the outcome.
template <class Model> bool check(const Model &m, const options &o, double sum) {
  double a = start_a, b = start_b, c = start_c, s = 0;
  for (int k = 0; k < o.times; ++k) {
    c = a;
    b = start_scalar * c;
    c = a + b;
    a = b + start_scalar * c;
    s = a * b * double(o.n);
    a += b + start_scalar * c;
  }
  const double eps = std::numeric_limits<double>::epsilon();
  auto close = [](double is, double should, double rel) {
    return std::fabs(is - should) <= std::max(std::fabs(is), std::fabs(should)) * rel;
  };
  std::vector<double> ha, hb, hc;
  m.read(ha, hb, hc);
  std::int64_t failed = 0;
  for (std::int64_t i = 0; i < o.n; ++i)
    failed += !close(ha[i], a, 100 * eps) + !close(hb[i], b, 100 * eps) + !close(hc[i], c, 100 * eps);
  const bool dot_ok = close(sum, s, 1e7 * eps);
  std::printf("%s: a = %.10g, b = %.10g, c = %.10g, dot = %.10g: %s\n", Model::name(), a, b, c, s,
              failed == 0 && dot_ok ? "validated" : "FAILED validation");
  if (failed != 0 || !dot_ok)
    std::printf("  %lld elements differ; dot is %.17g\n", static_cast<long long>(failed), sum);
  return failed == 0 && dot_ok;
}

inline options parse(int argc, char **argv, options o) {
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    char *end = nullptr;
    if ((!std::strcmp(argv[i], "--arraysize") || !std::strcmp(argv[i], "-s")) && has_value) {
      o.n = std::strtoll(argv[++i], &end, 10);
      if (*end != '\0' || o.n < 1)
        std::fprintf(stderr, "babel_stream: --arraysize takes a positive count\n"), std::exit(2);
    } else if ((!std::strcmp(argv[i], "--numtimes") || !std::strcmp(argv[i], "-n")) && has_value) {
      o.times = int(std::strtol(argv[++i], &end, 10));
      if (*end != '\0' || o.times < 2)
        std::fprintf(stderr, "babel_stream: --numtimes takes a count of at least 2\n"), std::exit(2);
    } else if (!std::strcmp(argv[i], "--timings")) {
      o.timings = true;
    } else {
      std::fprintf(stderr, "usage: %s [--arraysize N] [--numtimes K] [--timings]\n", argv[0]);
      std::exit(2);
    }
  }
  return o;
}

inline void print_size(const options &o) {
  const double mb = 1e-6 * double(o.n) * double(sizeof(double));
  std::printf("BabelStream kernels in dp: %lld doubles, %.1f MB per array, %.1f MB in all; %d runs\n",
              static_cast<long long>(o.n), mb, 3 * mb, o.times);
}

} // namespace stream

#if defined(DP_STREAM_BASELINES)
#include "stream_baseline.hpp"
#endif

int main(int argc, char **argv) {
  using namespace stream;
#if defined(DP_STREAM_BASELINES)
  // The benchmark: BabelStream's defaults (2^25 doubles, 100 runs).
  const options o = parse(argc, argv, {std::int64_t(1) << 25, 100, true});
#else
  const options o = parse(argc, argv, {std::int64_t(1) << 20, 10, false});
#endif
  print_size(o);
  dp_model m(o.n);
  m.init(start_a, start_b, start_c);
  run_times t;
#if defined(DP_STREAM_BASELINES)
  return run_against_baseline(m, o, t);
#else
  for (int k = 0; k < o.times; ++k)
    run_once(m, t);
  if (o.timings)
    print_table(dp_model::name(), o, t);
  return check(m, o, t.sum) ? 0 : 1;
#endif
}
