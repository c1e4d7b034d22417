// Pointers that name a place in an array (`double *row = &a[i * m];`,
// `struct rec *q = p + k;`, then `row[j]`, `q[j].x`): an offset into the
// array, not memory of their own. The pointer becomes that offset (an
// integer) and its elements the array's, so the array still becomes a
// dp::field and the loop a call-site. Rodinia's lavaMD reaches its
// particles this way (`rA = &rv[first_i]`).
#include <stdio.h>
#include <stdlib.h>

struct rec {
  double x, y;
};

#define DOT(A, B) ((A).x * (B).y)

// As lavaMD writes them: declared before the loop, private to it, made
// in it (then, in the kernel, an offset of its own); several makings;
// elements in a macro's arguments.
void forces(int n, const int *first, const struct rec *r, double *f) {
  long at;
  const struct rec *rA;
  double *fA;
#pragma omp parallel for private(at, rA, fA)
  for (int l = 0; l < n; l++) {
    at = first[l];
    rA = &r[at];
    fA = f + at;
    for (int k = 0; k < 4; k++) {
      fA[k] = DOT(rA[k], rA[k]);
      rA = r + first[(l + 1) % n];
      fA[k] += rA[k].x;
      rA = &r[at];
    }
  }
}
// DIAG: offset_pointers.c:[[@LINE-12]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: std::int64_t rA;
// REWRITE-NEXT: std::int64_t fA;
// REWRITE: std::int64_t rA;
// REWRITE-NEXT: std::int64_t fA;
// REWRITE: rA = at;
// REWRITE-NEXT: fA = at;
// REWRITE: f(fA + k) = DOT(r(rA + k), r(rA + k));
// REWRITE-NEXT: rA = first((l + 1) % n);

int main(void) {
  int n = 24, m = 16;
  double *a = (double *)malloc(sizeof(double) * n * m);
  struct rec *p = (struct rec *)malloc(sizeof(struct rec) * n * m);
  int *first = (int *)malloc(sizeof(int) * n);
  for (int k = 0; k < n * m; k++) {
    a[k] = k % 7;
    p[k].x = k % 5;
    p[k].y = k % 3;
  }
  for (int i = 0; i < n; i++)
    first[i] = ((i * 5) % n) * m;
  double *f = (double *)malloc(sizeof(double) * n * m);
  forces(n, first, p, f);

  // A row and a record per iteration, declared in the body.
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double *row = &a[i * m];
    struct rec *q = p + i * m;
    for (int j = 0; j < m; j++)
      row[j] = row[j] * 2 + q[j].x - q[j].y;
  }
// DIAG: offset_pointers.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const std::int64_t row = i * m;
// REWRITE-NEXT: const std::int64_t q = i * m;
// REWRITE: a(row + j) = a(row + j) * 2 + p(q + j).x - p(q + j).y;

  // Rows one apart: the tool proves what the directive asserts false
  // (row i reads row i - 1, written by the iteration before).
#pragma omp parallel for
  for (int i = 1; i < n; i++) {
    const double *prev = &a[(i - 1) * m];
    double *cur = &a[i * m];
    for (int j = 0; j < m; j++)
      cur[j] += prev[j];
  }
// DIAG: offset_pointers.c:[[@LINE-2]]:7: warning: not converted: 'cur[j]' and 'prev[j]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: offset_pointers.c:[[@LINE-3]]:17: note: the other access
// REWRITE: const std::int64_t prev = (i - 1) * m;
// REWRITE: a(cur + j) += a(prev + j);

  // Through an index read from another array (the offset unknown to the
  // tool, as lavaMD's box offsets are): taken as the directive asserts.
  // A subscript that adds with a lower precedence goes in parentheses.
  double total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < n; i++) {
    const struct rec *box = &p[first[i]];
    for (int j = 1; j < m; j++)
      total += box[j - 1].x * box[j].y;
  }
// DIAG: offset_pointers.c:[[@LINE-5]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: const std::int64_t box = first(i);
// REWRITE: total += p(box + (j - 1)).x * p(box + j).y;

  // Declared before the loop: the kernel takes the offset by value.
  double *tail = a + (n - 1) * m;
#pragma omp parallel for
  for (int j = 0; j < m; j++)
    tail[j] = j;
// DIAG: offset_pointers.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const std::int64_t tail = (n - 1) * m;
// REWRITE: a(tail + j) = j;

  // A pointer that moves is not an offset: it keeps a pointer into the
  // array, which then cannot become a field; the loop borrows it.
  double *c = (double *)malloc(sizeof(double) * m);
  double *cursor = &c[0];
#pragma omp parallel for
  for (int j = 0; j < m; j++)
    c[j] = j;
// DIAG: offset_pointers.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: double *cursor = &c[0];
// REWRITE: dp::field<1, double> dp_c = dp::borrow(c, m > 0 ? m : 0);
  cursor++;
  printf("%g %g %g %g\n", total, a[5 * m + 3], tail[2], cursor[1]);
// REWRITE: printf("%g %g %g %g\n", total, a(5 * m + 3), a(tail + 2), cursor[1]);
  free(a);
  free(p);
  free(c);
  free(first);
  free(f);
  return 0;
}
// SUMMARY: migrated 5 of 6 loops (1 refused)
