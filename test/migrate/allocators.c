// C programs allocate through wrappers of their own and check what they
// get (ParRes Kernels' C versions: `prk_malloc(bytes)`, which pads the
// bytes to an alignment for aligned_alloc, then `if (!in || !out)`), and
// print with format macros written against the literal (`"norm = "FSTR`).
// An array from such a wrapper becomes a field as one from malloc does:
// the wrapper's body in view, one integer parameter (the bytes), every
// return a fresh allocation. The null check tests the field's data.
#include <stdio.h>
#include <stdlib.h>

#define FSTR "%lf"

static inline void *padded_malloc(size_t bytes) {
  const size_t alignment = 64;
  size_t padded = bytes;
  size_t excess = bytes % alignment;
  if (excess > 0)
    padded += alignment - excess;
  return aligned_alloc(alignment, padded);
}

static inline void *memalign_malloc(size_t bytes) {
  void *ptr = NULL;
  if (posix_memalign(&ptr, 64, bytes))
    ptr = NULL;
  return ptr;
}

static inline void padded_free(void *p) { free(p); }

// A helper of several statements taking a count of elements, not bytes:
// what it allocates is not read from its argument, so its array stays a
// pointer, which the loop borrows as far as it reaches (were `n` read as
// bytes, a field would be 8 times too short).
static double *doubles(size_t n) {
  double *p = (double *)malloc(n * sizeof(double));
  if (!p)
    abort();
  return p;
}

int main(void) {
  const int n = 1000;
  double *in = (double *)padded_malloc(n * sizeof(double));
  double *out = (double *)memalign_malloc(n * sizeof(double));
  double *w = (double *)aligned_alloc(64, n * sizeof(double));
// REWRITE:   dp::field<1, double> in{dp::grid<1>(n)};
// REWRITE-NEXT:   dp::field<1, double> out{dp::grid<1>(n)};
// REWRITE-NEXT:   dp::field<1, double> w{dp::grid<1>(n)};
  if (!in || !out || w == NULL) {
// REWRITE:   if (!in.data() || !out.data() || w.data() == NULL) {
    printf("ERROR: could not allocate space\n");
    exit(EXIT_FAILURE);
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    in[i] = i;
    w[i] = 0.5;
  }
// DIAG: allocators.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  double norm = 0;
#pragma omp parallel for reduction(+ : norm)
  for (int i = 0; i < n; i++) {
    out[i] = w[i] * in[i];
    norm += out[i];
  }
// DIAG: allocators.c:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
  double *v = doubles(n);
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    v[i] = out[i];
// DIAG: allocators.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:   double *v = doubles(n);
// REWRITE:     dp::field<1, double> dp_v = dp::borrow(v, 1000);
  printf("L1 norm = "FSTR", "FSTR"\n", norm, out[n - 1]);
// REWRITE:   printf("L1 norm = " FSTR", " FSTR"\n", norm, out(n - 1));
  padded_free(in);
  free(out);
  free(w);
  free(v);
  return 0;
}
// SUMMARY: migrated 3 of 3 loops (0 refused)
