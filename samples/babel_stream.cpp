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
// Built with DP_STREAM_BASELINES and linked with bench/stream_baseline.cpp
// it is the benchmark: the same run, beside it BabelStream's CUDA/HIP
// kernels written by hand (device builds) or its oneTBB loops (host
// builds), and the ratio of each kernel's bandwidth to theirs.
#include <dp/dp.hpp>

#include <cstdint>
#include <functional>
#include <vector>

#include "babel_stream.hpp"

namespace stream {

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

} // namespace stream

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
  model_of<dp_model> measured(m);
  return run_against_baseline(measured, o, t);
#else
  for (int k = 0; k < o.times; ++k)
    run_once(m, t);
  if (o.timings)
    print_table(dp_model::name(), o, t);
  return check(m, o, t.sum) ? 0 : 1;
#endif
}
