// dpstub's cost: `dpstub --list` per translation unit against
// `clang++ -fsyntax-only` of the same unit with the same flags (the
// median of 7 interleaved runs each: a run of one, then of the other), and
// `--all` over this project's compile database with -j 1 against -j 2.
//   build/bench/tool_bench [BUILD_DIR]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

/// Seconds one shell command takes (it must succeed).
double seconds(const std::string &command) {
  const auto t0 = std::chrono::steady_clock::now();
  if (std::system((command + " >/dev/null 2>&1").c_str()) != 0) {
    std::fprintf(stderr, "tool_bench: failed: %s\n", command.c_str());
    std::exit(1);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The medians of `runs` interleaved runs of each command.
std::vector<double> interleaved(const std::vector<std::string> &commands, int runs) {
  std::vector<std::vector<double>> t(commands.size());
  for (int i = 0; i < runs; ++i)
    for (size_t c = 0; c < commands.size(); ++c)
      t[c].push_back(seconds(commands[c]));
  std::vector<double> m;
  for (const auto &v : t)
    m.push_back(median(v));
  return m;
}

} // namespace

int main(int argc, char **argv) {
  const std::string src = DPSTUB_SOURCE_DIR, build = argc > 1 ? argv[1] : DPSTUB_SOURCE_DIR "/build";
  const std::string flags = "-std=c++17 -I" + src + "/include -I" + src + "/samples";
  const std::string clang = std::string(DPSTUB_CLANG) + " -fsyntax-only -resource-dir=" DPSTUB_RESOURCE_DIR " " + flags;
  const std::vector<std::string> units = {
      "samples/vector_add.cpp",   "samples/matmul_spread.cpp",   "samples/sum_rows.cpp",
      "samples/matmul_reduce.cpp", "samples/prefix_sums.cpp",    "samples/sort_rows.cpp",
      "samples/argsort.cpp",      "samples/max3d.cpp",          "test/e2e/forall_cases.cpp",
      "test/e2e/reduce_scan_sort_cases.cpp", "bench/heavy_unit.cpp"};
  // dpstub parses with -DDPSTUB_TOOL, which leaves the dp headers' template
  // bodies out: the same parse by clang is the fair baseline for what the
  // tool adds (matching, analysis, rendering); plain clang is what a user's
  // build would cost.
  std::printf("| unit | clang++ -fsyntax-only | the same with -DDPSTUB_TOOL | dpstub --list | "
              "dpstub / clang | dpstub / the same parse (goal <= 1.05) |\n|---|---|---|---|---|---|\n");
  for (const std::string &u : units) {
    const std::string file = src + "/" + u;
    const std::vector<double> t =
        interleaved({clang + " " + file, clang + " -DDPSTUB_TOOL=1 " + file,
                     std::string(DPSTUB_TOOL_PATH) + " --list " + file + " -- " + flags},
                    7);
    std::printf("| %s | %.0f ms | %.0f ms | %.0f ms | %.3f | %.3f%s |\n", u.c_str(), t[0] * 1e3,
                t[1] * 1e3, t[2] * 1e3, t[2] / t[0], t[2] / t[1], t[2] / t[1] <= 1.05 ? "" : " (missed)");
    std::fflush(stdout);
  }
  const std::string all = std::string(DPSTUB_TOOL_PATH) + " --all -p " + build + " --list";
  const std::vector<double> j = interleaved({all + " -j 1", all + " -j 2"}, 3);
  const double one = j[0], two = j[1];
  std::printf("\n`dpstub --all` over this project's database: -j 1 %.1f s, -j 2 %.1f s, speed-up %.2f on 2 cores\n",
              one, two, one / two);
}
