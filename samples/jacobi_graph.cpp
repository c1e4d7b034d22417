// A time-step solver as a recorded launch sequence: Jacobi relaxation of
// the Laplace equation on a square plate (top edge hot, the others cold),
// each step a stencil, a residual (the largest change) and a copy back.
// dp::record keeps the step's three call-sites once; each step.run() replays
// them as one launch (one CUDA or HIP graph launch on a GPU), with the
// dependencies and transfers dpstub tracks for any call-site. The loop
// reads the residual after each replay to decide when to stop. Checked
// against the same iteration written as plain loops.
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.hpp"

/// The average of the four neighbours (interior points only).
void relax(double &next, const dp::field<2, double> &t, dp::index<2> p) {
  const std::int64_t i = p[0], j = p[1];
  next = 0.25 * (t(i - 1, j) + t(i + 1, j) + t(i, j - 1) + t(i, j + 1));
}
double change(double next, double now) { return std::fabs(next - now); }
double larger(double a, double b) { return std::max(a, b); }
void take(double &now, double next) { now = next; }

int main() {
  const std::int64_t n = 48;
  const int max_steps = 1000;
  const double tolerance = 1e-3;
  const dp::grid<2> plate(n, n);
  const dp::grid<2> inside(dp::arithmetic_sequence(1, n - 1), dp::arithmetic_sequence(1, n - 1));

  dp::field<2, double> t(plate, 0.0), next(plate, 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    t(0, j) = next(0, j) = 100.0; // the hot edge
  dp::scalar<double> residual(0.0);

  dp::queue q;
  dp::graph step = dp::record(q, [&] {
    dp::forall(dp::on(q), inside, relax, next, t, dp::_index);
    dp::reduce(dp::on(q), inside, larger, residual, change, next, t);
    dp::forall(dp::on(q), inside, take, t, next);
  });

  int steps = 0;
  do {
    residual.set(0.0); // each replay folds into the value it finds
    step.run();
    ++steps;
  } while (residual.get() > tolerance && steps < max_steps);

  // The same iteration as plain loops.
  std::vector<double> rt(n * n, 0.0), rn(n * n, 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    rt[j] = rn[j] = 100.0;
  int ref_steps = 0;
  double ref_residual = 0.0;
  do {
    ref_residual = 0.0;
    for (std::int64_t i = 1; i < n - 1; ++i)
      for (std::int64_t j = 1; j < n - 1; ++j) {
        rn[i * n + j] = 0.25 * (rt[(i - 1) * n + j] + rt[(i + 1) * n + j] + rt[i * n + j - 1] +
                                rt[i * n + j + 1]);
        ref_residual = std::max(ref_residual, std::fabs(rn[i * n + j] - rt[i * n + j]));
      }
    for (std::int64_t i = 1; i < n - 1; ++i)
      for (std::int64_t j = 1; j < n - 1; ++j)
        rt[i * n + j] = rn[i * n + j];
    ++ref_steps;
  } while (ref_residual > tolerance && ref_steps < max_steps);

  double max_error = 0.0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      max_error = std::max(max_error, std::fabs(t(i, j) - rt[i * n + j]));
  // Contracted arithmetic (an FMA on a GPU) may move convergence by a step.
  std::printf("jacobi_graph: %zu call-sites recorded, replayed until the residual fell below %g\n",
              step.size(), tolerance);
  if (std::abs(steps - ref_steps) > 1) {
    std::printf("jacobi_graph: %d steps, the loop's %d\n", steps, ref_steps);
    return report("jacobi_graph", 1.0, 0.0);
  }
  return report("jacobi_graph", max_error, 1e-6);
}
