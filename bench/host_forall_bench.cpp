// Host backend against hand-written oneTBB: a triad a = b + s*c over 2^26
// floats. Both run in the same process on the same data; report the ratio
// of their times (goal: dp::forall within 5% of the hand loop).
#include <dp/dp.hpp>

#include <benchmark/benchmark.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <cstdlib>

namespace {

const std::int64_t n = std::int64_t(1) << 26;

struct triad_data {
  dp::grid<1> g{n};
  dp::field<1, float> a{g}, b{g, 1.0f}, c{g, 2.0f};
};

triad_data &data() {
  static triad_data d;
  return d;
}

void BM_TriadHandWrittenTbb(benchmark::State &state) {
  float *a = data().a.data();
  const float *b = data().b.data(), *c = data().c.data();
  const float s = 3.0f;
  for (auto _ : state) {
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n),
                      [=](const tbb::blocked_range<std::int64_t> &r) {
                        for (std::int64_t i = r.begin(); i < r.end(); ++i)
                          a[i] = b[i] + s * c[i];
                      });
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n * 3 * std::int64_t(sizeof(float)));
}

void BM_TriadDpForall(benchmark::State &state) {
  auto &d = data();
  const float s = 3.0f;
  for (auto _ : state) {
    dp::forall(d.g, [](float &a, float b, float c, float s) { a = b + s * c; }, d.a, d.b, d.c, s);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n * 3 * std::int64_t(sizeof(float)));
}

// Interleaved so drift in machine load hits both alike.
BENCHMARK(BM_TriadHandWrittenTbb)->UseRealTime()->Unit(benchmark::kMillisecond)->Repetitions(5);
BENCHMARK(BM_TriadDpForall)->UseRealTime()->Unit(benchmark::kMillisecond)->Repetitions(5);

} // namespace

int main(int argc, char **argv) {
  const char *threads = std::getenv("DP_BENCH_THREADS");
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            threads ? std::size_t(std::atoi(threads)) : 2);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
