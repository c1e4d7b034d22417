// Reductions into one array element: a loop over j that updates only
// x[i], whose subscripts it does not move (triangular solves,
// matrix-vector products, the inner loops of PolyBench's trisolv). The
// element's partial value stands for it in the kernel; the host's element
// starts the reduction and takes its result. Every other element the loop
// reads must differ from it in every iteration.
#include <cstdio>

#define M 32
double L[M][M], b[M], y[M];
void solve(int n) {
// b, which no kernel reads, stays a C array.
// REWRITE: dp::field<2, double> L{dp::grid<2>(M, M)};
// REWRITE-NEXT: double b[M];
// REWRITE-NEXT: dp::field<1, double> y{dp::grid<1>(M)};
  for (int i = 0; i < n; i++) {
    y[i] = b[i];
#pragma acc parallel loop
    for (int j = 0; j < i; j++)
      y[i] = y[i] - L[i][j] * y[j];
// DIAG: element_reductions.cpp:[[@LINE-2]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: dp::scalar<double> dp_y_i(y(i));
// REWRITE-NEXT: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, i)), std::plus<>(), dp_y_i, [=](dp::index<1> idx, const dp::field<1, double> &y, const dp::field<2, double> &L) {
// REWRITE-NEXT: const int j = idx[0];
// REWRITE-NEXT: double y_i = 0;
// REWRITE-NEXT: y_i = y_i - L(i, j) * y(j);
// REWRITE-NEXT: return y_i;
// REWRITE-NEXT: }, y, L);
// REWRITE-NEXT: y(i) = dp_y_i.get();
    y[i] /= L[i][i];
  }
  // The array is not passed when the loop touches only the element (nor
  // made a field for it); a second reduction goes into the struct beside
  // it.
  double total = 0;
  for (int i = 0; i < n; i++) {
#pragma omp parallel for
    for (int j = 0; j < n; j++) {
      b[i] += L[i][j];
      total += L[i][j];
    }
// DIAG: element_reductions.cpp:[[@LINE-4]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// DIAG: element_reductions.cpp:[[@LINE-4]]:7: note: 'b[i]' has no reduction clause: the original's threads race on it; the call-site reduces it as reduction(+: b[i]) would [dp-migrate]
// DIAG: element_reductions.cpp:[[@LINE-4]]:7: note: 'total' has no reduction clause: the original's threads race on it; the call-site reduces it as reduction(+: total) would [dp-migrate]
// REWRITE: dp::scalar<dp_reduction_[[TWO:[0-9]+]]> dp_result(dp_reduction_[[TWO]]{total, b[i]});
// REWRITE-NEXT: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), [](dp_reduction_[[TWO]] a, dp_reduction_[[TWO]] b) { return dp_reduction_[[TWO]]{a.total + b.total, a.b_i + b.b_i}; }, dp_result, [=](dp::index<1> idx, const dp::field<2, double> &L) {
// REWRITE-NEXT: const int j = idx[0];
// REWRITE-NEXT: double total = 0;
// REWRITE-NEXT: double b_i = 0;
// REWRITE-NEXT: b_i += L(i, j);
// REWRITE-NEXT: total += L(i, j);
// REWRITE: total = dp_result.get().total;
// REWRITE-NEXT: b[i] = dp_result.get().b_i;
  }
  // The loop also reads the element it updates, through y[j] at j = i:
  // no reduction (and the directive's claim is refuted), said at the
  // element with a note at the other access.
  for (int i = 0; i < n; i++) {
#pragma omp parallel for
    for (int j = 0; j <= i; j++)
      y[i] += L[i][j] * y[j];
// DIAG: element_reductions.cpp:[[@LINE-1]]:7: warning: not converted: 'y[i]' is reduced, but the loop also uses it outside its updates: 'y[j]' may be the same element [dp-migrate]
// DIAG: element_reductions.cpp:[[@LINE-2]]:25: note: the other access
  }
  // A local i in the body: its y[i] is another element than the outer
  // loop's y[i], written alike; no reduction.
  for (int i = 0; i < n; i++) {
#pragma omp parallel for
    for (int j = 0; j < n; j++) {
      y[i] += 1;
      {
        int i = j;
        y[i] += 2;
      }
    }
// DIAG: element_reductions.cpp:[[@LINE-6]]:7: warning: not converted: 'y[i]' and 'y[i]' touch the same element from iterations (*) apart, so they must run in order [dp-migrate]
// DIAG: element_reductions.cpp:[[@LINE-7]]:7: note: the other access
  }
  y[0] += total;
}

int main() {
  for (int i = 0; i < M; i++) {
    b[i] = i + 1;
    for (int j = 0; j < M; j++)
      L[i][j] = i == j ? 2.0 : 0.01 * (i + j + 1);
  }
  solve(M);
  printf("%f %f\n", y[M - 1], b[3]);
  return 0;
}
// SUMMARY: migrated 2 of 4 loops (2 refused)
