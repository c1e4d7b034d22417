// Device regions around loops that carry no loop directive (NeoRodinia's
// first offloading versions: `omp target map(...) { for ... }`). In a
// bare `omp target` or `acc serial` region the loop runs in order on one
// device thread; in `acc kernels` the compiler parallelises what it
// proves independent. Each becomes a call-site where dpstub proves the
// order does not matter, and stays, with the two accesses named, where it
// does not.

void vecadd(int n, float *y, const float *x) {
#pragma omp target map(to: x[0:n]) map(tofrom: y[0:n])
  {
    for (int i = 0; i < n; ++i)
      y[i] += x[i];
// DIAG: device_regions.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// The map clauses give the lengths the call-site borrows; the directive goes.
// REWRITE-NOT: {{^}}#pragma omp target map
// REWRITE:      dp::field<1, float> dp_y = dp::borrow(y, n);
// REWRITE-NEXT: dp::field<1, const float> dp_x = dp::borrow(x, n);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, float> &y, const dp::field<1, const float> &x) {
  }
}

void matadd(int n, float *c, const float *a) {
#pragma omp target map(to: a[0:n*n]) map(tofrom: c[0:n*n])
  {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        c[i * n + j] += a[i * n + j];
      }
    }
// DIAG: device_regions.c:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
  }
}

void prefix(int n, float *y) {
#pragma acc serial copy(y[0:n])
  for (int i = 1; i < n; ++i)
    y[i] += y[i - 1];
// DIAG: device_regions.c:[[@LINE-1]]:5: warning: not converted: 'y[i]' and 'y[i - 1]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: device_regions.c:[[@LINE-2]]:13: note: the other access
// REWRITE: {{^}}#pragma acc serial copy(y[0:n])
}

float total(int n, const float *a) {
  float s = 0;
#pragma acc kernels copyin(a[0:n])
  for (int i = 0; i < n; ++i)
    s += a[i];
// DIAG: device_regions.c:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
  return s;
}

// Every thread of an `omp target parallel` region runs its loop whole:
// not a candidate, and left as written.
void every_thread(int n, float *y) {
#pragma omp target parallel map(tofrom: y[0:n]) num_threads(1)
  for (int i = 0; i < n; ++i)
    y[i] = 1.0f;
// REWRITE: {{^}}#pragma omp target parallel map(tofrom: y[0:n]) num_threads(1)
}
// SUMMARY: migrated 3 of 4 loops (1 refused)
