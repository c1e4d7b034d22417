// What one call-site costs the host, per kind, on tiny data (16 points; 4x4
// for the kinds along a dimension), in steady state: nanoseconds per call.
// scripts/bench.sh launch runs the translated program twice:
//   - on the host's threads (DP_HOST_MODE=native): the call-site's whole cost;
//   - on the emulated device with DP_EMULATE_RECORD_ONLY=1: its device path
//     (planning, field mirrors, dependencies, completions, the launch
//     request) over a device layer that records each launch and vendor call
//     instead of running it, so what is left is what the host spends per
//     call-site before a GPU would start, against which a CUDA launch costs
//     a few microseconds.
// A reduce whose value the host reads includes the read-back and its wait.
#include <dp/dp.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

dp::field<1, int> &small() {
  static dp::field<1, int> f(dp::grid<1>(16), 1);
  return f;
}
dp::field<2, int> &square() {
  static dp::field<2, int> f(dp::grid<2>(4, 4), 1);
  return f;
}

void BM_Forall(benchmark::State &state) {
  dp::field<1, int> &f = small();
  for (auto _ : state)
    dp::forall(f.get_grid(), [](int &x) { x += 1; }, f);
  dp::wait_all();
}

void BM_ForallOnQueue(benchmark::State &state) {
  dp::field<1, int> &f = small();
  static dp::queue q;
  for (auto _ : state)
    dp::forall(dp::on(q), f.get_grid(), [](int &x) { x += 1; }, f);
  q.wait();
}

void BM_ReduceRead(benchmark::State &state) {
  const dp::field<1, int> &f = small();
  dp::scalar<int> sum(0);
  for (auto _ : state) {
    dp::reduce(f.get_grid(), std::plus<>(), sum, [](int x) { return x; }, f);
    benchmark::DoNotOptimize(sum.get());
  }
}

void BM_ReduceRows(benchmark::State &state) {
  const dp::field<2, int> &f = square();
  static dp::field<1, int> rows(dp::grid<1>(4));
  for (auto _ : state)
    dp::reduce<1>(f.get_grid(), std::plus<>(), rows, [](int x) { return x; }, f);
  dp::wait_all();
}

void BM_ScanRows(benchmark::State &state) {
  const dp::field<2, int> &f = square();
  static dp::field<2, int> out(dp::grid<2>(4, 4));
  for (auto _ : state)
    dp::scan<1>(f.get_grid(), std::plus<>(), out, [](int x) { return x; }, f);
  dp::wait_all();
}

void BM_SortRows(benchmark::State &state) {
  dp::field<2, int> &f = square();
  for (auto _ : state)
    dp::sort<1>(f.get_grid(), [](int a, int b) { return a < b; }, f);
  dp::wait_all();
}

#define DP_LAUNCH_BENCH(name) BENCHMARK(name)->Repetitions(5)->DisplayAggregatesOnly(true)
DP_LAUNCH_BENCH(BM_Forall);
DP_LAUNCH_BENCH(BM_ForallOnQueue);
DP_LAUNCH_BENCH(BM_ReduceRead);
DP_LAUNCH_BENCH(BM_ReduceRows);
DP_LAUNCH_BENCH(BM_ScanRows);
DP_LAUNCH_BENCH(BM_SortRows);

/// Keeps each benchmark's median time per iteration (ns).
class medians : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &r : runs)
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median")
        ns[r.run_name.function_name] = r.GetAdjustedRealTime();
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> ns;
};

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  medians reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const char *mode = std::getenv("DP_HOST_MODE");
  const char *record = std::getenv("DP_EMULATE_RECORD_ONLY");
  std::printf("\nns per call-site (median of 5), %s:\n\n| call-site | ns |\n|---|---|\n",
              mode && std::string(mode) == "emulate"
                  ? (record && std::string(record) == "1"
                         ? "device path over a recording device layer"
                         : "the emulated device, run")
                  : "the host's threads");
  const std::pair<const char *, const char *> rows[] = {
      {"BM_Forall", "forall, 16 points, default queue"},
      {"BM_ForallOnQueue", "forall, 16 points, on a dp::queue"},
      {"BM_ReduceRead", "full reduce of 16 points, value read by the host"},
      {"BM_ReduceRows", "reduce<1>, 4x4"},
      {"BM_ScanRows", "scan<1>, 4x4"},
      {"BM_SortRows", "sort<1> with a comparator, 4x4"}};
  for (const auto &[name, label] : rows)
    if (auto it = reporter.ns.find(name); it != reporter.ns.end())
      std::printf("| %s | %.0f |\n", label, it->second);
  benchmark::Shutdown();
}
