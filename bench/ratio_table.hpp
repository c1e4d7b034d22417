/// \file
/// Google Benchmark runs with a ratio table at the end: every ratio is
/// taken between two benchmarks of the same run (medians of repetitions),
/// never across runs.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace bench {

/// One row: how `subject` compares with `baseline`.
struct ratio {
  std::string label;
  std::string subject, baseline; ///< benchmark names (without aggregate suffixes)
  double goal;                   ///< 0 when there is none
  /// true: baseline time / subject time (a speed, higher is better);
  /// false: subject time / baseline time (a cost, lower is better).
  bool speed = true;
};

/// Keeps the median real time of every benchmark while printing as usual.
class median_reporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &r : runs) {
      const std::string name = r.run_name.function_name;
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median")
        medians[name] = r.GetAdjustedRealTime(), from_median.insert(name);
      else if (r.run_type == Run::RT_Iteration && !from_median.count(name))
        medians[name] = r.GetAdjustedRealTime(); // a single repetition
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> medians;
  std::set<std::string> from_median;
};

/// Runs the registered benchmarks, then prints the table of `ratios`.
inline int run(int argc, char **argv, const char *title, const std::vector<ratio> &ratios) {
  benchmark::Initialize(&argc, argv);
  median_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::printf("\n%s\n\n| measurement | ratio | goal |\n|---|---|---|\n", title);
  for (const ratio &r : ratios) {
    const auto s = reporter.medians.find(r.subject), b = reporter.medians.find(r.baseline);
    if (s == reporter.medians.end() || b == reporter.medians.end())
      continue; // filtered out
    const double value = r.speed ? b->second / s->second : s->second / b->second;
    char goal[64] = "";
    if (r.goal > 0)
      std::snprintf(goal, sizeof goal, "%s %.2f%s", r.speed ? ">=" : "<=", r.goal,
                    (r.speed ? value >= r.goal : value <= r.goal) ? "" : " (missed)");
    std::printf("| %s | %.3f | %s |\n", r.label.c_str(), value, goal);
  }
  benchmark::Shutdown();
  return 0;
}

} // namespace bench
