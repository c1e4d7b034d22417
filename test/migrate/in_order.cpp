// A directive that calls a loop parallel when dpstub proves its iterations
// depend on one another was wrong: converting the loop would change what
// the program computes. The loop stays a loop with its warning; once the
// loops inside it, or the other loops of its region, become call-sites,
// its directive goes and it runs in order on the host (what the program
// computes with its directives ignored).
#include <cstdlib>

// LU without pivoting as PolyBench/ACC writes it: `acc loop` on k, whose
// steps depend on one another; the loops inside a step do not.
static void lu(int n, double *A) {
#pragma acc parallel
  {
#pragma acc loop
    for (int k = 0; k < n; k++) {
#pragma acc loop
      for (int j = k + 1; j < n; j++)
        A[k * n + j] = A[k * n + j] / A[k * n + k];
#pragma acc loop collapse(2)
      for (int i = k + 1; i < n; i++)
        for (int j = k + 1; j < n; j++)
          A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
// k's verdict comes first (the loops in source order), then its inner loops'.
// DIAG: in_order.cpp:[[@LINE-2]]:11: warning: not converted: 'A[i * n + j]' and 'A[k * n + j]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: in_order.cpp:[[@LINE-7]]:9: note: the other access
// DIAG: in_order.cpp:[[@LINE-11]]:5: note: its directive goes: the loop runs in order on the host, around the call-sites of the loops inside it [dp-migrate]
// DIAG: in_order.cpp:[[@LINE-10]]:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// DIAG: in_order.cpp:[[@LINE-8]]:7: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
    }
  }
}
// The region's directive and k's go; k stays a loop around two call-sites.
// REWRITE-NOT: {{^}}#pragma acc
// REWRITE:     for (int k = 0; k < n; k++) {
// REWRITE-NEXT:       dp::forall(dp::grid<1>(dp::arithmetic_sequence(k + 1, n)), [=](dp::index<1> idx, dp::field<1, double> &A) {
// REWRITE:       dp::forall(dp::grid<2>(dp::arithmetic_sequence(k + 1, n), dp::arithmetic_sequence(k + 1, n)), [=](dp::index<2> idx, dp::field<1, double> &A) {

// A column sum written with the race OpenMP codes have: every i updates
// every s[j]. The first loop of the region moves, so the region goes; the
// second runs in order on the host.
static void colsum(int n, int m, const double *A, double *s) {
#pragma omp parallel
  {
#pragma omp for
    for (int j = 0; j < m; j++)
      s[j] = 0;
// DIAG: in_order.cpp:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp for
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        s[j] = s[j] + A[i * m + j];
// DIAG: in_order.cpp:[[@LINE-1]]:9: warning: not converted: 's[j]' and 's[j]' touch the same element from iterations (*) apart, so they must run in order [dp-migrate]
// DIAG: in_order.cpp:[[@LINE-2]]:9: note: the other access
// DIAG: in_order.cpp:[[@LINE-5]]:5: note: its directive goes: the loop runs in order on the host [dp-migrate]
  }
}
// REWRITE:     for (int i = 0; i < n; i++)
// REWRITE-NEXT:       for (int j = 0; j < m; j++)
// REWRITE-NEXT:         s(j) = s(j) + A(i * m + j);

// Alone, with nothing inside it to move, a dependent loop keeps its
// directive: dpstub changes nothing it does not convert.
static void prefix(int n, double *p) {
#pragma omp parallel for
  for (int i = 1; i < n; i++)
    p[i] += p[i - 1];
// DIAG: in_order.cpp:[[@LINE-1]]:5: warning: not converted: 'p[i]' and 'p[i - 1]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: in_order.cpp:[[@LINE-2]]:13: note: the other access
}
// REWRITE: #pragma omp parallel for
// REWRITE-NEXT:   for (int i = 1; i < n; i++)
// REWRITE-NEXT:     p[i] += p[i - 1];

// A wavefront as Rodinia's nw writes it: the blocks of one anti-diagonal
// are independent, each reading the halo its neighbours on the diagonal
// before wrote. Linearised by a row length `cols` the nest never relates
// to the diagonal, the accesses could meet only in rows too short for the
// blocks: that proves no dependence, so the directive is believed.
static void wavefront(int cols, int blk, int *m) {
#pragma omp parallel for
  for (int b = 0; b < blk; ++b) {
    int by = blk - 1 - b;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        m[cols * (by * 4 + i + 1) + b * 4 + j + 1] = m[cols * (by * 4 + i) + b * 4 + j] + 1;
  }
// DIAG: in_order.cpp:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}
// REWRITE:   dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, blk)), [=](dp::index<1> idx, dp::field<1, int> &m) {
// REWRITE:         m(cols * (by * 4 + i + 1) + b * 4 + j + 1) = m(cols * (by * 4 + i) + b * 4 + j) + 1;

int main() {
  const int n = 6;
  double *A = (double *)malloc(n * n * sizeof(double));
  double *s = (double *)malloc(n * sizeof(double));
  double *p = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n * n; i++)
    A[i] = (i % 7) + (i / n == i % n ? n : 0);
  for (int i = 0; i < n; i++)
    p[i] = i;
  lu(n, A);
  colsum(n, n, A, s);
  prefix(n, p);
  int *w = (int *)calloc(9 * 9, sizeof(int));
  for (int blk = 1; blk <= 2; ++blk)
    wavefront(9, blk, w);
  free(w);
  free(A);
  free(s);
  free(p);
  return 0;
}
// SUMMARY: migrated 4 of 7 loops (3 refused)
// LIST: "construct": "acc loop",
// LIST-NEXT: "verdict": "refused",
// LIST: "diagnostic": "migrateDependence",
// LIST-NEXT: "directive": "removed: the loop runs in order on the host"
