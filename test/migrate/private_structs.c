// Structs private to each iteration (Rodinia's lavaMD: `THREE_VECTOR d`
// in a private clause, written member by member): the kernel declares
// its own, and the members stay as written. A firstprivate struct comes
// in by value. Without a clause a struct is the iteration's when every
// member an iteration reads it writes first and nothing reads it after
// the loop; otherwise its members keep their own verdicts.
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z;
} vec3;

struct scale {
  double by, plus;
};

// As lavaMD: declared before the loop, named by private().
void differences(int n, const double *p, const double *q, double *out) {
  vec3 d;
  int i;
#pragma omp parallel for private(i, d)
  for (i = 0; i < n; ++i) {
    d.x = p[i] - q[i];
    d.y = p[i] + q[i];
    d.z = d.x * d.y;
    out[i] = d.x + d.y + d.z;
  }
}
// DIAG: private_structs.c:[[@LINE-7]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const int i = idx[0];
// REWRITE-NEXT: vec3 d;
// REWRITE-NEXT: d.x = p(i) - q(i);

// firstprivate: every iteration starts from the struct's value (`s.by`),
// what it writes it writes before reading.
void scaled(int n, struct scale s, const double *p, double *out) {
#pragma omp parallel for firstprivate(s)
  for (int i = 0; i < n; ++i) {
    s.plus = s.by + p[i];
    out[i] = s.by * s.plus;
  }
}
// DIAG: private_structs.c:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, const dp::field<1, const double> &p, dp::field<1, double> &out, struct scale s) {
// REWRITE-NEXT: const int i = idx[0];
// REWRITE-NEXT: s.plus = s.by + p(i);

// No clause: written before it is read in every iteration, dead after.
void no_clause(int n, const double *p, double *out) {
  struct scale t;
#pragma acc parallel loop
  for (int i = 0; i < n; ++i) {
    t.by = p[i] * 2;
    t.plus = t.by + 1;
    out[i] = t.by * t.plus;
  }
}
// DIAG: private_structs.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const int i = idx[0];
// REWRITE-NEXT: struct scale t;
// REWRITE-NEXT: t.by = p(i) * 2;

// A member read before an iteration writes it: what the thread's previous
// iteration left, which a kernel's iteration does not have.
void carried(int n, const double *p, double *out) {
  vec3 d;
  d.z = 0;
#pragma omp parallel for private(d)
  for (int i = 0; i < n; ++i) {
    d.x = p[i];
    out[i] = d.x + d.z;
    d.z = d.x;
  }
}
// DIAG: private_structs.c:[[@LINE-4]]:22: warning: not converted: 'd.z' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]

// firstprivate, a member read then written: from the second iteration of
// a thread on, the value its previous iteration left.
void accumulated(int n, struct scale s, const double *p, double *out) {
#pragma omp parallel for firstprivate(s)
  for (int i = 0; i < n; ++i) {
    s.plus += p[i];
    out[i] = s.by * s.plus;
  }
}
// DIAG: private_structs.c:[[@LINE-4]]:7: warning: not converted: 's.plus' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]

// Read after the loop without a clause: shared, the last iteration's
// value wanted; its members' verdict stands.
double live_after(int n, const double *p, double *out) {
  struct scale t;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    t.by = p[i];
    out[i] = t.by;
  }
  return t.by;
}
// DIAG: private_structs.c:[[@LINE-5]]:7: warning: not converted: 't.by' is a member of another object, which the loop writes; copy it into a local variable and back [dp-migrate]

int main(void) {
  int n = 64;
  double *p = (double *)malloc(n * sizeof(double)), *q = (double *)malloc(n * sizeof(double));
  double *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    p[i] = i % 7;
    q[i] = i % 5;
  }
  struct scale s = {2, 1};
  differences(n, p, q, out);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += out[i];
  scaled(n, s, p, out);
  for (int i = 0; i < n; ++i)
    sum += out[i];
  no_clause(n, p, out);
  carried(n, p, out);
  accumulated(n, s, p, out);
  sum += live_after(n, p, out);
  for (int i = 0; i < n; ++i)
    sum += out[i];
  printf("%g\n", sum);
  free(p);
  free(q);
  free(out);
  return 0;
}
// SUMMARY: migrated 3 of 6 loops (3 refused)
