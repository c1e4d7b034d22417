// dpstub's time per translation unit against `clang -fsyntax-only` of the
// same unit with the same flags, in one run (processes spawned alike).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

namespace {

const std::string flags = "-std=c++17 -I" DPSTUB_SOURCE_DIR "/include";
const char *units[] = {DPSTUB_SOURCE_DIR "/samples/vector_add.cpp",
                       DPSTUB_SOURCE_DIR "/samples/matmul_spread.cpp",
                       DPSTUB_SOURCE_DIR "/test/e2e/forall_cases.cpp"};

void run(benchmark::State &state, const std::string &command) {
  for (auto _ : state)
    if (std::system((command + " >/dev/null 2>&1").c_str()) != 0)
      state.SkipWithError(("failed: " + command).c_str());
}

void BM_ClangSyntaxOnly(benchmark::State &state) {
  run(state, std::string(DPSTUB_CLANG) + " -fsyntax-only " + flags + " " + units[state.range(0)]);
}
void BM_Dpstub(benchmark::State &state) {
  run(state, std::string(DPSTUB_TOOL_PATH) + " --list " + units[state.range(0)] + " -- " + flags);
}

BENCHMARK(BM_ClangSyntaxOnly)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_Dpstub)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(5);

} // namespace

BENCHMARK_MAIN();
