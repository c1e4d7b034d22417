// Plain loops, asked for by --selection: converted only when dpstub proves
// their iterations independent (affine subscripts, through constants and
// small index helpers), as deep as the nest stays independent.
// SELECTION: 14:1-122:1
#include <cstdlib>

const int W = 32;
static int at(int i, int j, int n) { return i * n + j; }
int sq(int x) { return x * x; }
// A helper the kernel calls is marked for the device when translated.

void kernels(int n, int m, double *a, double *b, const double *c) {
  // A stencil into another array: independent.
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      b[at(i, j, m)] = c[at(i - 1, j, m)] + c[at(i + 1, j, m)] + sq(j);
// DIAG: plain.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// REWRITE: dp::forall(dp::grid<2>(dp::arithmetic_sequence(1, n - 1), dp::arithmetic_sequence(1, m - 1)), [=](dp::index<2> idx, dp::field<1, double> &b, const dp::field<1, const double> &c) {

  // In place along rows: iterations of j depend on one another, rows do
  // not; the grid is the rows, each kernel runs its row's loop.
  for (int i = 0; i < n; ++i)
    for (int j = 1; j < m; ++j)
      a[i * m + j] = a[i * m + j - 1] + c[i * m + j];
// DIAG: plain.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &a, const dp::field<1, const double> &c) {
// REWRITE-NEXT: const int i = idx[0];
// REWRITE-NEXT: for (int j = 1; j < m; ++j)
// REWRITE-NEXT: a(i * m + j) = a(i * m + j - 1) + c(i * m + j);

  // In place down the columns: no level is independent.
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < m; ++j)
      a[i * m + j] = a[(i - 1) * m + j] * 0.5;
// DIAG: plain.cpp:[[@LINE-1]]:7: warning: not converted: 'a[i * m + j]' and 'a[(i - 1) * m + j]' touch the same element from iterations (1, 0) apart, so they must run in order [dp-migrate]
// DIAG: plain.cpp:[[@LINE-2]]:22: note: the other access

  // Constant row length, a constant offset: still a proof.
  for (int r = 0; r < 8; ++r)
    for (int s = 0; s < W; ++s)
      b[W * r + s] = a[W * r + s] + 1;
// DIAG: plain.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]

  // Through an index array: not affine, so no proof.
  for (int i = 0; i < n; ++i)
    b[(int)c[i]] = 1;
// DIAG: plain.cpp:[[@LINE-1]]:5: warning: not converted: dpstub cannot prove the iterations independent: 'b[(int)c[i]]' is not an affine function of the loop variables; mark the loop with '#pragma omp parallel for' if they are [dp-migrate]

  // Every iteration writes one element.
  for (int i = 0; i < n; ++i)
    b[0] = c[i];
// DIAG: plain.cpp:[[@LINE-1]]:5: warning: not converted: 'b[0]' and 'b[0]' touch the same element from iterations (*) apart, so they must run in order [dp-migrate]
// DIAG: plain.cpp:[[@LINE-2]]:5: note: the other access

  // Reading the upper half while writing the lower: never the same element.
  for (int i = 0; i < n; ++i)
    a[i] = a[i + n];
// DIAG: plain.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

// A plain loop (asked for by --selection) in a class template's member,
// BabelStream's serial version: `sum += ...` over a T every instance
// makes arithmetic reduces.
template <class T> struct Pair {
  long n;
  T *a, *b;
  T dot() const {
    T sum{};
    for (long i = 0; i < n; i++)
      sum += a[i] * b[i];
    return sum;
  }
};
// DIAG: plain.cpp:[[@LINE-5]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: dp::scalar<T> dp_sum(sum);
template struct Pair<float>;
template struct Pair<double>;

// Elements of a struct: C++ assigns them by the struct's operator=, which
// writes the element as `=` writes a double. The copy is independent; the
// shift in place carries each element to the next iteration.
struct Cell {
  double v, w;
};
void cells(Cell *to, const Cell *from, Cell *shift, int n) {
  for (int i = 0; i < n; ++i)
    to[i] = from[i];
// DIAG: plain.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, Cell> &to, const dp::field<1, const Cell> &from) {
  for (int i = 0; i < n - 1; ++i)
    shift[i + 1] = shift[i];
// DIAG: plain.cpp:[[@LINE-1]]:5: warning: not converted: 'shift[i + 1]' and 'shift[i]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: plain.cpp:[[@LINE-2]]:20: note: the other access
}

// One variable for two inner loops in turn: each access takes the range
// of the loop around it. The first loop writes p[i] and p[i + 1], which
// the next iteration writes too; over p[2 * i + j] no two iterations
// meet. (Until 2026-12-07 every access took the last loop's range of j:
// "cannot solve" for the first.)
double p[64], q[64];
void pairs(int n) {
  int j;
  for (int i = 0; i < n; ++i) {
    for (j = 0; j < 2; ++j)
      p[i + j] = i;
    for (j = 0; j < 1; ++j)
      q[i] = p[i + j];
  }
// DIAG: plain.cpp:[[@LINE-4]]:7: warning: not converted: 'p[i + j]' and 'p[i + j]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: plain.cpp:[[@LINE-5]]:7: note: the other access
  for (int i = 0; i < n; ++i) {
    for (j = 0; j < 2; ++j)
      p[2 * i + j] = i;
    for (j = 0; j < 1; ++j)
      q[i] = p[2 * i + j];
  }
// DIAG: plain.cpp:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

int main() {
  int n = 16, m = 24;
  double *a = (double *)malloc(2 * n * m * sizeof(double));
  double *b = (double *)malloc(n * m * sizeof(double));
  double *c = (double *)malloc(n * m * sizeof(double));
  kernels(n, m, a, b, c);
  free(a);
  free(b);
  free(c);
}
// SUMMARY: migrated 7 of 12 loops (5 refused)
