/// \file
/// BabelStream's harness around samples/babel_stream.cpp's dp model: its
/// starting values, its kernels' order and sizes, the options, the timed
/// runs, its table and its check. A benchmark build (DP_STREAM_BASELINES)
/// runs the same model beside BabelStream's own implementation, which it
/// links in (bench/stream_baseline.cpp) and reaches through model_ref and
/// run_against_baseline below: the sample names no benchmark file.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
  std::printf("%s: a = %.10g, b = %.10g, c = %.10g, dot = %.10g: %s\n", m.name(), a, b, c, s,
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

/// A model's kernels behind one interface, for code that runs it without
/// seeing its type (a benchmark built apart: run_against_baseline).
class model_ref {
public:
  virtual ~model_ref() = default;
  virtual const char *name() const = 0;
  virtual void copy() = 0;
  virtual void mul() = 0;
  virtual void add() = 0;
  virtual void triad() = 0;
  virtual void nstream() = 0;
  virtual double dot() = 0;
  virtual void read(std::vector<double> &a, std::vector<double> &b, std::vector<double> &c) const = 0;
};

/// `m` as a model_ref.
template <class Model> class model_of final : public model_ref {
public:
  explicit model_of(Model &m) : m_(m) {}
  const char *name() const override { return m_.name(); }
  void copy() override { m_.copy(); }
  void mul() override { m_.mul(); }
  void add() override { m_.add(); }
  void triad() override { m_.triad(); }
  void nstream() override { m_.nstream(); }
  double dot() override { return m_.dot(); }
  void read(std::vector<double> &a, std::vector<double> &b, std::vector<double> &c) const override {
    m_.read(a, b, c);
  }

private:
  Model &m_;
};

/// The benchmark: `m` and BabelStream's own implementation in turn in
/// every run, both checked, both tables, then each kernel's bandwidth
/// against it. Defined by the benchmark build (bench/stream_baseline.cpp).
int run_against_baseline(model_ref &m, const options &o, run_times &t);

} // namespace stream
