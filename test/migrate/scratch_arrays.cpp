// Scratch arrays of plain loops, asked for by --selection: a C array of
// the function's own that every iteration fills before it reads it (a
// vector's components, a small stencil's weights) is each iteration's
// own, declared in the kernel, as a `private` clause would make it; the
// loop converts when it is otherwise independent. An array an iteration
// may read before it writes it, or whose values the function reads after
// the loop, carries values between iterations: the dependence says why
// the loop stays.
// SELECTION: 11:1-110:1
#include <cstdio>

void vectors(int n, const double *a, double *b, double *c) {
  double v[3];
  for (int i = 0; i < n; ++i) {
    v[0] = a[i];
    v[1] = a[i] * 2;
    v[2] = v[0] + v[1];
    b[i] = v[0] * v[1] + v[2];
  }
// DIAG: scratch_arrays.cpp:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      {{ *}}const int i = idx[0];
// REWRITE-NEXT: {{ *}}double v[3];
// REWRITE-NEXT: {{ *}}v[0] = a(i);
// REWRITE:      {{ *}}}, dp_a, b);

  // Two dimensions, filled in declarations' order by a nest's level.
  double m[2][2];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) {
      m[0][0] = a[i];
      m[1][1] = a[i] + j;
      m[0][1] = m[1][0] = 0.5;
      c[i * 4 + j] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    }
// DIAG: scratch_arrays.cpp:[[@LINE-7]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// REWRITE:      {{ *}}const int j = idx{{\[}}1];
// REWRITE-NEXT: {{ *}}double m{{\[}}2][2];

  // Filled by a loop over its elements, then read at varying subscripts.
  double g[4];
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 4; ++k)
      g[k] = a[i] * k;
    double s = 0;
    for (int k = 0; k <= 3; ++k)
      s += g[k] * g[3 - k];
    b[i] = s;
  }
// DIAG: scratch_arrays.cpp:[[@LINE-8]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      {{ *}}const int i = idx{{\[}}0];
// REWRITE-NEXT: {{ *}}double g{{\[}}4];
// REWRITE-NEXT: {{ *}}for (int k = 0; k < 4; ++k)
// REWRITE-NEXT: {{ *}}g[k] = a(i) * k;

  // A fill that stops short, or whose passes may skip the write.
  double h[4];
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k)
      h[k] = a[i];
    b[i] = h[3];
  }
// DIAG: scratch_arrays.cpp:[[@LINE-3]]:7: warning: not converted: 'h[k]' and 'h[k]' touch the same element from iterations (*) apart, so they must run in order [dp-migrate]
// DIAG: scratch_arrays.cpp:{{.*}}: note: the other access
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 4; ++k) {
      if (k == i % 4)
        continue;
      h[k] = k * 0.5;
    }
    b[i] = h[2];
  }
// DIAG: scratch_arrays.cpp:[[@LINE-4]]:7: warning: not converted: {{.*}}
// DIAG: scratch_arrays.cpp:{{.*}}: note: the other access

  // Read before it is written: the value the previous iteration left.
  double w[2];
  w[0] = 0;
  for (int i = 0; i < n; ++i) {
    b[i] = w[0];
    w[0] = a[i];
  }
// DIAG: scratch_arrays.cpp:[[@LINE-3]]:12: warning: not converted: 'w[0]' and 'w[0]' touch the same element from iterations (*) apart, so they must run in order [dp-migrate]
// DIAG: scratch_arrays.cpp:[[@LINE-3]]:5: note: the other access

  // Written only under a condition, or read in the statement that writes
  // it, or at an index the loop computes: no proof it is the iteration's.
  double t[2];
  for (int i = 0; i < n; ++i) {
    if (a[i] > 0)
      t[1] = a[i];
    b[i] = t[1];
  }
// DIAG: scratch_arrays.cpp:[[@LINE-3]]:7: warning: not converted: dpstub cannot prove the iterations independent: 't[1]' and 't[1]' may touch one element from two iterations (under a condition); mark the loop with '#pragma omp parallel for' if they are [dp-migrate]
  for (int i = 0; i < n; ++i) {
    t[0] = t[0] + a[i];
    b[i] = t[0];
  }
// DIAG: scratch_arrays.cpp:[[@LINE-3]]:5: warning: not converted: 't[0]' and 't[0]' touch the same element from iterations (*) apart, so they must run in order [dp-migrate]
// DIAG: scratch_arrays.cpp:[[@LINE-4]]:5: note: the other access
  for (int i = 0; i < n; ++i) {
    t[i % 2] = a[i];
    b[i] = t[i % 2];
  }
// DIAG: scratch_arrays.cpp:[[@LINE-3]]:5: warning: not converted: dpstub cannot prove the iterations independent: 't[i % 2]' is not an affine function of the loop variables; mark the loop with '#pragma omp parallel for' if they are [dp-migrate]

  // Its last values are read after the loop.
  double last[1];
  for (int i = 0; i < n; ++i) {
    last[0] = a[i];
    b[i] = last[0] * 2;
  }
  std::printf("%g\n", last[0]);
// DIAG: scratch_arrays.cpp:[[@LINE-4]]:5: warning: not converted: 'last[0]' and 'last[0]' touch the same element from iterations (*) apart, so they must run in order [dp-migrate]
// DIAG: scratch_arrays.cpp:[[@LINE-5]]:5: note: the other access
}

int main() {
  double a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8], c[32];
  vectors(8, a, b, c);
  std::printf("%g %g %g\n", b[0], b[7], c[31]);
}
// SUMMARY: migrated 3 of 10 loops (7 refused)
