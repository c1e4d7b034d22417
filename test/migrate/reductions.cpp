// Reductions: every operator of the clauses, and in plain loops (here
// selected with --selection) the update forms dpstub recognises. One
// variable gives a dp::reduce into a dp::scalar of it; several, one
// dp::reduce over a small struct, every other statement kept.
// SELECTION: 10:1-205:1
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

// Arg max and arg min: `if (e > s) { s = e; k = i; }` sets a value and
// the variables that go with it, which become one reduction over a
// struct; its kernel notes the iteration that set the value, so that of
// equal values the first wins (`>`, `<`) or the last (`>=`, `<=`), as
// in the loop.
double located(int n, const std::vector<double> &x) {
  double best = -1, worst = 1e300, low = 1e300, total = 0, b2 = 0;
  int at = -1, wi = -1, li = -1, lj = -1, k2 = 0, k3 = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] > best) {
      best = x[i];
      at = i; // the first of equal values
    }
  }
// DIAG: reductions.cpp:[[@LINE-6]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:      struct dp_reduction_[[BEST:[0-9]+]] {
// REWRITE-NEXT:   double best;
// REWRITE-NEXT:   int at;
// REWRITE-NEXT:   std::int64_t dp_best_at; ///< the iteration that set best
// REWRITE-NEXT: };
// REWRITE:      dp::scalar<dp_reduction_[[BEST]]> dp_result(dp_reduction_[[BEST]]{best, at, std::numeric_limits<std::int64_t>::min()});
// REWRITE-NEXT: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), [](dp_reduction_[[BEST]] a, dp_reduction_[[BEST]] b) { const bool b_best = b.best > a.best || (b.best == a.best && b.dp_best_at < a.dp_best_at); return dp_reduction_[[BEST]]{b_best ? b.best : a.best, b_best ? b.at : a.at, b_best ? b.dp_best_at : a.dp_best_at}; }, dp_result, [=](dp::index<1> idx, const dp::field<1, double> &x) {
// REWRITE-NEXT:   const int i = idx[0];
// REWRITE-NEXT:   double best = -std::numeric_limits<double>::infinity();
// REWRITE-NEXT:   int at{};
// REWRITE-NEXT:   std::int64_t dp_best_at = std::numeric_limits<std::int64_t>::max();
// REWRITE-NEXT:   if (x(i) > best) {
// REWRITE-NEXT:     best = x(i);
// REWRITE-NEXT:     at = i; // the first of equal values
// REWRITE-NEXT:     dp_best_at = std::int64_t(i);
// REWRITE-NEXT:   }
// REWRITE-NEXT:   return dp_reduction_[[BEST]]{best, at, dp_best_at};
// REWRITE-NEXT: }, x);
// REWRITE-NEXT: best = dp_result.get().best;
// REWRITE-NEXT: at = dp_result.get().at;
  // Counting down with `<=`: the last of equal values is the lowest i,
  // the smallest note; the value before the loop loses a tie.
  for (int i = n - 1; i >= 0; --i)
    if (x[i] <= worst) { worst = x[i]; wi = i; }
// DIAG: reductions.cpp:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:      dp::scalar<dp_reduction_{{[0-9]+}}> dp_result(dp_reduction_{{[0-9]+}}{worst, wi, std::numeric_limits<std::int64_t>::max() - 1});
// REWRITE:      if (x(i) <= worst) { worst = x(i); wi = i; dp_worst_at = std::int64_t(i); }
  // A nest, beside a sum: the note is both indices, compared in order.
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) {
      total += x[i] * j;
      if (x[i] * j < low) {
        low = x[i] * j;
        li = i;
        lj = j;
      }
    }
// DIAG: reductions.cpp:[[@LINE-9]]:3: remark: converted to dp::reduce over dp::grid<2> [dp-migrate]
// REWRITE: {{.*}}{ const bool b_low = b.low < a.low || (b.low == a.low && (b.dp_low_at0 != a.dp_low_at0 ? b.dp_low_at0 < a.dp_low_at0 : b.dp_low_at1 < a.dp_low_at1)); return dp_reduction_{{[0-9]+}}{a.total + b.total, b_low ? b.low : a.low, b_low ? b.li : a.li, b_low ? b.lj : a.lj, b_low ? b.dp_low_at0 : a.dp_low_at0, b_low ? b.dp_low_at1 : a.dp_low_at1}; }{{.*}}
// REWRITE:          dp_low_at0 = std::int64_t(i); dp_low_at1 = std::int64_t(j);
// REWRITE-NEXT:   }
  // The index is read in the loop too: each iteration needs the one
  // before it.
  for (int i = 0; i < n; ++i) {
    if (x[i] > b2) {
      b2 = x[i];
      k2 = i;
    }
    k3 += k2;
  }
// DIAG: reductions.cpp:[[@LINE-6]]:16: warning: not converted: 'b2' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]
  return best + worst + low + total + b2 + at + wi + li + lj + k3;
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
  return reductions(n, x, flags) + located(n, x) > 0 && rounds > 0 ? 0 : 1;
}
// SUMMARY: migrated 12 of 14 loops (2 refused)
