// Arrays and values reached through members of other objects (`m->x[i]`,
// `s->g->u[k]`, `g.v[k]`): the pointers stay in their structs, each
// call-site borrows the memory a path points to and the kernel takes it
// as a parameter named after the path (`m_x`), the values it reads
// (`m->n`) too, so that it never reaches the struct in host memory. The
// data directives over paths become dp's (enter/exit data, updates).
#include <stdlib.h>

typedef struct {
  int n;
  double total;
  double *x, *y;
} vec_t;

typedef struct {
  vec_t *v;
  double a;
} axpy_t;

void vec_init(vec_t *m, int n) {
  m->n = n;
  m->x = (double *)malloc(n * sizeof(double));
  m->y = (double *)malloc(n * sizeof(double));
#pragma acc enter data create(m->x[0:n], m -> y[0:n])
}
// REWRITE: dp::enter_data(m->x, n); dp::enter_data(m->y, n);

void vec_free(vec_t *m) {
#pragma acc exit data delete(m->x, m->y)
  free(m->x);
  free(m->y);
}
// REWRITE: dp::exit_data(m->x); dp::exit_data(m->y);

// The data clause gives the length, by the path's name.
void axpy(vec_t *m, double a) {
#pragma acc parallel loop present(m->x[0:m->n], m->y[0:m->n])
  for (int i = 0; i < m->n; i++)
    m->y[i] += a * m->x[i];
// DIAG: paths.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_m_y = dp::borrow(m->y, m->n);
// REWRITE-NEXT: dp::field<1, const double> dp_m_x = dp::borrow_read(m->x, m->n, dp_m_y);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, m->n)), [=](dp::index<1> idx, dp::field<1, double> &m_y, const dp::field<1, const double> &m_x) {
// REWRITE:      m_y(i) += a * m_x(i);
// REWRITE-NEXT: }, dp_m_y, dp_m_x);
}

// Through two members, a value read in the body becomes a parameter; the
// accesses give the length.
void axpy_through(axpy_t *s) {
#pragma omp parallel for
  for (int i = 0; i < s->v->n; i++)
    s->v->y[i] = s->a * s->v->x[i] + s->v->n;
// DIAG: paths.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_s_v_y = dp::borrow(s->v->y, s->v->n > 0 ? s->v->n : 0);
// REWRITE:      dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, s->v->n)), [=](dp::index<1> idx, dp::field<1, double> &s_v_y, const dp::field<1, const double> &s_v_x, double s_a, int s_v_n) {
// REWRITE:      s_v_y(i) = s_a * s_v_x(i) + s_v_n;
// REWRITE-NEXT: }, dp_s_v_y, dp_s_v_x, s->a, s->v->n);
}

// A struct passed by value; the name the path would take is the user's,
// so the kernel's gets `_member` after it. (Refused paths: a member the
// loop writes, a path inside a macro, a struct of the loop's own:
// refusals.cpp.)
double dot(vec_t v) {
  double v_x = 0.0;
#pragma omp parallel for reduction(+ : v_x)
  for (int i = 0; i < v.n; i++)
    v_x += v.x[i] * v.y[i];
// DIAG: paths.c:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE:      dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, v.n)), std::plus<>(), dp_v_x, [=](dp::index<1> idx, const dp::field<1, const double> &v_x_member, const dp::field<1, const double> &v_y) {
// REWRITE:      v_x += v_x_member(i) * v_y(i);
  return v_x;
}

// A structured data region over paths: the region borrows the memory for
// its whole extent and the loops' own borrows share its blocks, so on a
// device each array crosses once each way, not at every call-site.
void relax(vec_t *m, int steps) {
#pragma acc data copy(m->x[0:m->n]) create(m->y[0:m->n])
  {
// REWRITE:      {
// REWRITE-NEXT: dp::field<1, double> dp_region_m_x = dp::borrow(m->x, m->n);
// REWRITE-NEXT: dp::field<1, double> dp_region_m_y = dp::borrow(m->y, m->n);
    for (int t = 0; t < steps; t++) {
#pragma acc parallel loop
      for (int i = 1; i < m->n - 1; i++)
        m->y[i] = 0.5 * (m->x[i - 1] + m->x[i + 1]);
// DIAG: paths.c:[[@LINE-2]]:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma acc parallel loop
      for (int i = 1; i < m->n - 1; i++)
        m->x[i] = m->y[i];
// DIAG: paths.c:[[@LINE-2]]:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
    }
  }
}

// The host writes through a path inside the region: holding the memory
// there would hide that write from the device, so the region stays.
void relax_pinned(vec_t *m) {
#pragma acc data copy(m->x[0:m->n])
  {
#pragma acc parallel loop
    for (int i = 0; i < m->n; i++)
      m->x[i] *= 2.0;
// DIAG: paths.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// DIAG: paths.c:[[@LINE-6]]:1: warning: 'acc data' is not carried over: 'm->x' stays a pointer, and the region reaches it outside the loops it converts [dp-migrate]
    m->x[0] = 1.0;
  }
}

// SUMMARY: migrated 6 of 6 loops (0 refused)
