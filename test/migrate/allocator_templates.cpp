// Arrays from allocation helpers in a header (LULESH: `Allocate<Real_t>(n)`
// and `Release(&p)`): the helper's count is read from its body, not its
// text, which the migration of this file does not hold; a release through
// the pointer's address empties the field, as `free(p)` does.
#include "allocator_templates_helpers.h"
#include <stdio.h>

typedef double Real_t;

// The element each iteration reads goes through a list, so the call-site
// needs the whole array: its allocation gives its length.
static void gather(Real_t *out, const Real_t *in, const int *list, int n) {
#pragma omp parallel for firstprivate(n)
  for (int i = 0; i < n; ++i)
    out[i] = 2.0 * in[list[i]];
// DIAG: allocator_templates.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

// Its array's pointer handed to a helper that sets it to null without
// releasing it: no field stands for that.
static double kept(const int *list, int n) {
  Real_t *w = Allocate<Real_t>(n);
// REWRITE: Real_t *w = Allocate<Real_t>(n);
  for (int i = 0; i < n; ++i)
    w[i] = 1.0 / (i + 1);
  double s = 0;
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += w[list[i]];
// DIAG: allocator_templates.cpp:[[@LINE-1]]:10: warning: not converted: 'w' cannot become a dp::field: '&w' uses it in a way dpstub does not follow (line [[@LINE+3]]) [dp-migrate]
// DIAG: allocator_templates.cpp:[[@LINE-2]]:10: note: the call-site could borrow 'w', but the loop's accesses do not show how far it reaches; a data region around the loop would give its length: '#pragma omp target data map(tofrom: w[0:n])'
  Release(&w);
  Forget(&w);
  return s;
}

int main() {
  const int n = 64;
  Real_t *in = Allocate<Real_t>(n);
// REWRITE: dp::field<1, Real_t> in{dp::grid<1>(n)};
  Real_t *out = Allocate<Real_t>(n);
// REWRITE: dp::field<1, Real_t> out{dp::grid<1>(n)};
  int *list = Allocate<int>(n);
// REWRITE: dp::field<1, int> list{dp::grid<1>(n)};
  for (int i = 0; i < n; ++i) {
    in[i] = i;
    list[i] = (i * 5) % n;
  }
  gather(out, in, list, n);
  printf("%g %g %g\n", out[0], out[1], out[n - 1]);
  Release(&in);
// REWRITE: in = dp::field<1, Real_t>();
  Release(&out);
// REWRITE: out = dp::field<1, Real_t>();
  printf("%g\n", kept(list, n));
  Release(&list);
// REWRITE: list = dp::field<1, int>();
  return 0;
}
// SUMMARY: migrated 1 of 2 loops (1 refused)
