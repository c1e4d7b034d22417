// Results a caller takes by reference (miniWeather's `void reductions(
// double &mass, double &te)`): a reduction into a reference reduces into
// a dp::scalar, and the result goes back through the reference after the
// call-site. Written otherwise, a reference would be written through by
// every iteration: the loop stays, with the way round it.
#include <cstdio>

void reductions(const double *state, int n, double &mass, double &te) {
  mass = 0;
  te = 0;
#pragma omp target teams distribute parallel for simd reduction(+:mass, te) map(to: state[0:n])
  for (int i = 0; i < n; i++) {
    mass += state[i];
    te += state[i] * state[i];
  }
// DIAG: reference_results.cpp:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:      dp::scalar<dp_reduction_[[R:[0-9]+]]> dp_result(dp_reduction_[[R]]{mass, te});
// REWRITE:      double mass = 0;
// REWRITE-NEXT: double te = 0;
// REWRITE:      mass = dp_result.get().mass;
// REWRITE-NEXT: te = dp_result.get().te;
}

void largest(const double *v, int n, double &best) {
#pragma omp parallel for reduction(max : best)
  for (int i = 0; i < n; i++)
    best = v[i] > best ? v[i] : best;
// DIAG: reference_results.cpp:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: best = dp_best.get();
}

// No clause: the update NVHPC's compiler finds (GCC's keeps each gang's
// copy of the firstprivate scalar: the note says so).
void total_of(const double *v, int n, double &total) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    total += v[i];
// DIAG: reference_results.cpp:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// DIAG: reference_results.cpp:[[@LINE-2]]:5: note: 'total' has no reduction clause: 'acc parallel loop' makes it firstprivate, so each gang updates a copy of its own, which GCC's build drops (NVHPC reduces it on its own); the call-site reduces it as reduction(+: total) would [dp-migrate]
// REWRITE: total = dp_total.get();
}

void last(const double *v, int n, double &seen) {
#pragma omp parallel for private(seen)
  for (int i = 0; i < n; i++)
    seen = v[i];
// DIAG: reference_results.cpp:[[@LINE-1]]:5: warning: not converted: 'seen' is a reference the loop writes other than as a reduction; write a local variable and assign it after the loop [dp-migrate]
}

int main() {
  double s[8] = {1, 2, 3, 4, 5, 6, 7, 8}, mass, te, best = 0, seen = 0;
  reductions(s, 8, mass, te);
  largest(s, 8, best);
  last(s, 8, seen);
  double total = 1;
  total_of(s, 8, total);
  std::printf("%g %g %g %g %g\n", mass, te, best, seen, total);
  return 0;
}
