// Reductions: every operator of the clauses, and in plain loops (here
// selected with --selection) the update forms dpstub recognises. One
// variable gives a dp::reduce into a dp::scalar of it; several, one
// dp::reduce over a small struct, every other statement kept.
// SELECTION: 10:1-135:1
#include <algorithm>
#include <cmath>
#include <vector>

double reductions(int n, const std::vector<double> &x, std::vector<int> &flags) {
// A vector passed by reference is a field passed by reference.
// The first loop's two reductions: their struct before the function.
// REWRITE: struct dp_reduction_[[SUMS:[0-9]+]] {
// REWRITE: double reductions(int n, const dp::field<1, double> &x, dp::field<1, int> &flags) {
  double sum = 0, prod = 1, hi = -1e300, lo = 1e300, m1 = 0, m2 = 0, m3 = 0;
  int bits_and = ~0, bits_or = 0, bits_xor = 0, all = 1, any = 0, count = 0;
#pragma acc parallel loop reduction(+:sum) reduction(*:prod)
  for (int i = 0; i < n; ++i) {
    sum += x[i];
    prod *= 1.0 + x[i] / n;
  }
// DIAG: reductions.cpp:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// Two variables: a struct of their partial values, declared before the
// function, each starting from its operator's identity in the kernel.
// REWRITE:     dp::scalar<dp_reduction_[[SUMS]]> dp_result(dp_reduction_[[SUMS]]{sum, prod});
// REWRITE-NEXT:     dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), [](dp_reduction_[[SUMS]] a, dp_reduction_[[SUMS]] b) { return dp_reduction_[[SUMS]]{a.sum + b.sum, a.prod * b.prod}; }, dp_result, [=](dp::index<1> idx, const dp::field<1, double> &x) {
// REWRITE-NEXT:       const int i = idx[0];
// REWRITE-NEXT:       double sum = 0;
// REWRITE-NEXT:       double prod = 1;
// REWRITE-NEXT:       sum += x(i);
// REWRITE-NEXT:       prod *= 1.0 + x(i) / n;
// REWRITE-NEXT:       return dp_reduction_[[SUMS]]{sum, prod};
// REWRITE-NEXT:     }, x);
// REWRITE-NEXT:     sum = dp_result.get().sum;
// REWRITE-NEXT:     prod = dp_result.get().prod;

#pragma omp parallel for reduction(max:hi) reduction(min:lo)
  for (int i = 0; i < n; ++i) {
    hi = std::max(hi, x[i]);
    lo = std::min(lo, x[i]);
  }
// DIAG: reductions.cpp:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: double hi = -std::numeric_limits<double>::infinity();
// REWRITE-NEXT: double lo = std::numeric_limits<double>::infinity();

#pragma omp parallel for reduction(&:bits_and) reduction(|:bits_or) reduction(^:bits_xor)
  for (int i = 0; i < n; ++i) {
    bits_and &= i | 1;
    bits_or |= i;
    bits_xor ^= i;
  }
// DIAG: reductions.cpp:[[@LINE-5]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: int bits_and = ~int(0);

#pragma omp parallel for reduction(&&:all) reduction(||:any)
  for (int i = 0; i < n; ++i) {
    all = all && x[i] > -5;
    any = any || x[i] > 3;
  }
// DIAG: reductions.cpp:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: {{.*}}{ return dp_reduction_{{[0-9]+}}{a.all && b.all, a.any || b.any}; }{{.*}}

  // Plain loops from here: the forms of a reduction's update.
  for (int i = 0; i < n; ++i) // s = fmax(s, e)
    m1 = fmax(m1, x[i]);
// DIAG: reductions.cpp:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// The function the user's update calls combines the partial values too;
// the comment on the loop's line stays, above the call-site.
// REWRITE: // s = fmax(s, e)
// REWRITE-NEXT: {
// REWRITE-NEXT: dp::scalar<double> dp_m1(m1);
// REWRITE-NEXT: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), [](double a, double b) { return fmax(a, b); }, dp_m1, [=](dp::index<1> idx, const dp::field<1, double> &x) {
// REWRITE: m1 = dp_m1.get();
  for (int i = 0; i < n; ++i) // s = s < e ? e : s
    m2 = m2 < x[i] * 2 ? x[i] * 2 : m2;
// DIAG: reductions.cpp:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), [](double a, double b) { return a < b ? b : a; }, dp_m2, [=](dp::index<1> idx, const dp::field<1, double> &x) {
  for (int i = 0; i < n; ++i) { // if (e > s) s = e
    if (x[i] + 1 > m3)
      m3 = x[i] + 1;
  }
// DIAG: reductions.cpp:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), [](double a, double b) { return a < b ? b : a; }, dp_m3, [=](dp::index<1> idx, const dp::field<1, double> &x) {
  for (int i = 0; i < n; ++i) { // count++ beside a write
    flags[i] = x[i] > 0;
    if (x[i] > 0)
      count++;
  }
// DIAG: reductions.cpp:[[@LINE-5]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// A reduction keeps the loop's other statements: the kernel writes flags.
// REWRITE: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), std::plus<>(), dp_count, [=](dp::index<1> idx, dp::field<1, int> &flags, const dp::field<1, double> &x) {
// REWRITE-NEXT: const int i = idx[0];
// REWRITE-NEXT: int count = 0;
// REWRITE-NEXT: // count++ beside a write
// REWRITE-NEXT: flags(i) = x(i) > 0;
  return sum + prod + hi + lo + bits_and + bits_or + bits_xor + all + any + m1 + m2 + m3 + count;
}

// Rounds until nothing changes, as Rodinia's bfs writes them: every
// iteration that changes a value sets a shared bool (the same value, a
// race OpenMP codes rely on) that the enclosing do-while reads. A bool
// set to one constant is a reduction: || from false.
int settle(int n, int *v) {
  bool changed;
  int rounds = 0;
  do {
    changed = false;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      if (v[i] > 1) {
        v[i] /= 2;
        changed = true;
      }
// DIAG: reductions.cpp:[[@LINE-5]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: dp::scalar<bool> dp_changed(changed);
// REWRITE-NEXT: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), [](bool a, bool b) { return a || b; }, dp_changed, [=](dp::index<1> idx, dp::field<1, int> &v) {
// REWRITE-NEXT: const int i = idx[0];
// REWRITE-NEXT: bool changed = false;
// REWRITE: return changed;
// REWRITE: changed = dp_changed.get();
    rounds++;
  } while (changed);
  // An int written in the loop is its last iteration's value, which the
  // do-while's condition reads before the body sets it again.
  int last;
  do {
    last = -1;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      if (v[i] > 1)
        last = i;
// DIAG: reductions.cpp:[[@LINE-1]]:9: warning: not converted: 'last' is written in the loop and read after it, which needs the last iteration's value [dp-migrate]
  } while (last >= 0);
  return rounds;
}

int main() {
  int n = 100;
  std::vector<double> x(n);
  std::vector<int> flags(n, 0);
// REWRITE: dp::field<1, double> x{dp::grid<1>(n)};
// REWRITE-NEXT: dp::field<1, int> flags(dp::grid<1>(n), 0);
  int *v = new int[n];
  for (int i = 0; i < n; ++i)
    x[i] = std::sin(i) * 4, v[i] = i;
  const int rounds = settle(n, v);
  delete[] v;
  return reductions(n, x, flags) > 0 && rounds > 0 ? 0 : 1;
}
// SUMMARY: migrated 9 of 10 loops (1 refused)
