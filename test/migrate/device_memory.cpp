// Device memory: a pointer from acc_malloc (or omp_target_alloc), or one a
// directive names device memory (deviceptr, is_device_ptr). The host
// cannot read it, so no call-site may borrow it (ParRes Kernels' OpenACC
// versions allocate so; before 2026-12-05 their loops borrowed it): each
// such loop stays, with the reason.
#include <cstddef>
#include <cstdio>
#include <cstdlib>

extern "C" void *acc_malloc(size_t bytes);
extern "C" void acc_free(void *p);

int main() {
  const int n = 100;
  double *a = (double *)acc_malloc(n * sizeof(double));
#pragma acc parallel loop deviceptr(a)
  for (int i = 0; i < n; ++i)
    a[i] = i;
// DIAG: device_memory.cpp:[[@LINE-1]]:5: warning: not converted: 'a' cannot become a dp::field: it holds device memory ('(double *)acc_malloc(n * sizeof(double))'), which the host cannot read, so no call-site may borrow it: allocate it with malloc or new[] (it then becomes a dp::field, which dp moves to the device) (line 15) [dp-migrate]
// REWRITE: {{ *}}a[i] = i;
  acc_free(a);
  // Assigned, not declared so: the same.
  double *b;
  b = (double *)acc_malloc(n * sizeof(double));
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    b[i] = i;
// DIAG: device_memory.cpp:[[@LINE-1]]:5: warning: not converted: 'b' cannot become a dp::field: it holds device memory ('(double *)acc_malloc(n * sizeof(double))'), which the host cannot read, so no call-site may borrow it: allocate it with malloc or new[] (it then becomes a dp::field, which dp moves to the device) (line 24) [dp-migrate]
  acc_free(b);
  // Memory of the host's: a field.
  double *c = (double *)malloc(n * sizeof(double));
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    c[i] = i;
// DIAG: device_memory.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: {{ *}}dp::field<1, double> c{dp::grid<1>(n)};
  printf("%g\n", c[n - 1]);
  free(c);
  return 0;
}
// SUMMARY: migrated 1 of 3 loops (2 refused)
