// Data directives once their arrays are dp::fields: regions, transfers,
// queues and waits in dp's words; routine and declare need nothing (dpstub
// marks a kernel's callees and passes its values itself).
#include <cstdio>
#include <cstdlib>
// The helper holding the queues, before the first declaration.
// REWRITE: #include <map>
// REWRITE: static dp::queue &dp_async_queue(long long number = -1) {

#pragma acc routine seq
static double flux(double a, double b) { return 0.5 * (a - b); }
// REWRITE-NOT: {{^}}#pragma acc routine seq

static void step(int n, double *u, double *v, double c) {
#pragma acc parallel loop present(u, v) async(1)
  for (int i = 1; i < n - 1; ++i)
    v[i] = u[i] + c * (flux(u[i - 1], u[i]) - flux(u[i], u[i + 1]));
// DIAG: directives.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// async(q): on the queue of that number, made once for the run.
// REWRITE: dp::forall(dp::on(dp_async_queue(1)), dp::grid<1>(dp::arithmetic_sequence(1, n - 1)), [=](dp::index<1> idx, dp::field<1, double> &v, const dp::field<1, double> &u) {
#pragma acc parallel loop present(u, v) async(1)
  for (int i = 1; i < n - 1; ++i)
    u[i] = v[i];
// DIAG: directives.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

static void scale(int n, double *w) {
#pragma omp target teams distribute parallel for map(tofrom: w[0:n]) nowait
  for (int i = 0; i < n; ++i)
    w[i] *= 2;
// DIAG: directives.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// OpenMP's nowait: the default queue.
// REWRITE: dp::forall(dp::on(dp_async_queue()), dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &w) {
}

// Directives chosen by the preprocessor (BabelStream's OpenMP version):
// this build converts the loop under its own directive; the other
// branch's directive stays in the text, in front of the call-site, and
// a warning says a build taking that branch would apply it there.
static void twice(int n, double *w) {
#ifdef STREAM_OFFLOAD
#pragma omp target teams distribute parallel for \
    map(tofrom: w[0:n])
#else
#pragma omp parallel for
#endif
  for (int i = 0; i < n; ++i)
    w[i] *= 2;
}
// DIAG: directives.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// DIAG: directives.cpp:[[@LINE-9]]:1: warning: this directive, in a branch this build skips, stands before the loop converted at line [[#@LINE-4]]; a build that takes the branch applies it to the call-site, which it cannot take: remove it, or migrate with that build's flags first [dp-migrate]
// REWRITE: #pragma omp target teams distribute parallel for \
// REWRITE-NEXT: map(tofrom: w[0:n])
// REWRITE-NEXT: #else
// REWRITE-NEXT: #endif

// A function another file defines, declared for the device: the loop
// calls it as the user asserted, and the directive stays (the translation
// marks the declaration it names; shade.cpp of test/migrate/e2e/routine
// is the whole program).
#pragma acc routine seq
double limiter(double r);
// REWRITE: #pragma acc routine seq
// REWRITE-NEXT: double limiter(double r);

double limit(int n) {
  double *r = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    r[i] = i;
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    r[i] = limiter(r[i]);
// DIAG: directives.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &r) {
  // OpenACC's copyin on a compute construct is a data clause (OpenMP's
  // copyin, of threadprivate variables, has no counterpart in dp).
  double sum = 0.0;
#pragma acc parallel loop copyin(r[0:n]) reduction(+:sum)
  for (int i = 0; i < n; ++i)
    sum += r[i];
// DIAG: directives.cpp:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, n)), std::plus<>(), dp_sum, [=](dp::index<1> idx, const dp::field<1, double> &r) {
  const double last = r[n - 1] + sum;
  free(r);
  return last;
}

// copyout of a C array: dp::copyout where a loop writes every element,
// unconditionally; dp::copy where a border stays unwritten (the original,
// run on the host, keeps its values there). Named by copyin and copyout,
// an array is dp::copy.
static double border() {
  double in[8][8], full[8][8], inner[8][8], both[8][8];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      in[i][j] = inner[i][j] = both[i][j] = i + j;
#pragma acc data copyin(in, both) copyout(full, inner, both)
  {
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j)
        full[i][j] = both[i][j] = 2 * in[i][j];
// DIAG: directives.cpp:[[@LINE-3]]:5: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
#pragma acc parallel loop collapse(2)
    for (int i = 1; i < 7; ++i)
      for (int j = 1; j < 7; ++j)
        inner[i][j] = in[i - 1][j] + in[i + 1][j];
// DIAG: directives.cpp:[[@LINE-3]]:5: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
  }
// DIAG: directives.cpp:[[@LINE-13]]:1: warning: copyout(inner) becomes dp::copy(inner): dpstub cannot prove the region writes every element of 'inner', and copyout would give the others undefined values (the original keeps its host values) [dp-migrate]
// REWRITE: dp::data_region dp_region(dp::copyin(in), dp::copy(both, inner), dp::copyout(full));
  return full[7][7] + inner[0][0] + both[1][1];
}

int main() {
  int n = 100, steps = 10;
  double *u = (double *)malloc(n * sizeof(double));
  double *v = (double *)malloc(n * sizeof(double));
  double *w = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    u[i] = v[i] = w[i] = (i == n / 2) ? 1.0 : 0.0;
#pragma acc data copy(u[0:n]) create(v[0:n]) copyin(n)
  {
#pragma acc update device(v[0:n])
    for (int t = 0; t < steps; ++t)
      step(n, u, v, 0.25);
#pragma acc wait(1)
#pragma acc update host(u[0:n]) async(1)
#pragma acc wait
  }
// A data region is a dp::data_region at the start of its block (scalars
// need none); update, wait and async are dp's.
// REWRITE:   {
// REWRITE-NEXT:     dp::data_region dp_region(dp::copy(u), dp::create(v));
// REWRITE-NEXT:     dp::update_device(v);
// REWRITE-NEXT:     for (int t = 0; t < steps; ++t)
// REWRITE-NEXT:       step(n, u, v, 0.25);
// REWRITE-NEXT:     dp_async_queue(1).wait();
// REWRITE-NEXT:     dp::update_host(dp_async_queue(1), u);
// REWRITE-NEXT:     dp::wait_all();
// REWRITE-NEXT:   }
#pragma omp target data map(to: u[0:n]) map(from: w[0:n])
  scale(n, w);
#pragma omp taskwait
// DIAG: directives.cpp:[[@LINE-3]]:1: warning: copyout(w) becomes dp::copy(w): the region reads 'w', and copyout would start it from undefined values on the device (the original reads its host values) [dp-migrate]
// A region over one statement gets a block of its own. `from` of an array
// the region reads (scale's w *= 2) is copy: the original reads its
// host values.
// REWRITE:   {
// REWRITE-NEXT:     dp::data_region dp_region(dp::copyin(u), dp::copy(w));
// REWRITE-NEXT:   scale(n, w);
// REWRITE-NEXT:   }
// REWRITE-NEXT:   dp::wait_all();
#pragma acc enter data copyin(v[0:n]) create(w[0:n])
#pragma acc exit data copyout(v[0:n]) delete(w)
// REWRITE: dp::update_device(v);
// REWRITE-NEXT: dp::update_host(v);
  twice(n, w);
#pragma acc host_data use_device(u)
  {
    printf("%p\n", (void *)0);
  }
// DIAG: directives.cpp:[[@LINE-4]]:1: warning: 'acc host_data' is not carried over: dp has no counterpart for 'use_device(u)' [dp-migrate]
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += u[i] * i + w[i];
  printf("%.6f %.1f\n", s, border());
  free(u);
  free(v);
  free(w);
}
// SUMMARY: migrated 8 of 8 loops (0 refused)
