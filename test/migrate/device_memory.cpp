// Device memory. Allocated on the device alone (acc_malloc,
// omp_target_alloc), which only device code touches, it becomes a
// dp::field as malloc's memory does (ParRes Kernels' OpenACC versions
// allocate so; before 2026-12-05 their loops borrowed it, which a GPU
// cannot do, then stayed). Handed to the device's functions
// (acc_memcpy_to_device), or tied to host memory (acc_copyin), it stays a
// pointer, and no call-site may borrow it: the host cannot read it.
#include <cstddef>
#include <cstdio>
#include <cstdlib>

extern "C" void *acc_malloc(size_t bytes);
extern "C" void acc_free(void *p);
extern "C" void *acc_copyin(void *h, size_t bytes);
extern "C" void acc_memcpy_to_device(void *d, void *h, size_t bytes);
extern "C" void *omp_target_alloc(size_t bytes, int device);
extern "C" void omp_target_free(void *p, int device);

int main() {
  const int n = 100;
  size_t bytes = n * sizeof(double);
  double *a = (double *)acc_malloc(bytes);
// REWRITE: {{ *}}dp::field<1, double> a{dp::grid<1>((bytes) / sizeof(double))};
#pragma acc parallel loop deviceptr(a)
  for (int i = 0; i < n; ++i)
    a[i] = i;
// DIAG: device_memory.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  double sum = 0;
#pragma acc parallel loop reduction(+:sum) deviceptr(a)
  for (int i = 0; i < n; ++i)
    sum += a[i];
// DIAG: device_memory.cpp:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
  acc_free(a);
// REWRITE: {{ *}}a = dp::field<1, double>();
  printf("%g\n", sum);

  // Assigned, not declared so; and OpenMP's allocator.
  double *b;
  b = (double *)acc_malloc(n * sizeof(double));
// REWRITE: {{ *}}b = dp::field<1, double>(dp::grid<1>(n));
  int *k = (int *)omp_target_alloc(n * sizeof(int), 0);
// REWRITE: {{ *}}dp::field<1, int> k{dp::grid<1>(n)};
#pragma omp target teams distribute parallel for is_device_ptr(b, k)
  for (int i = 0; i < n; ++i) {
    b[i] = 2 * i;
    k[i] = i % 7;
  }
// DIAG: device_memory.cpp:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  acc_free(b);
  omp_target_free(k, 0);
// REWRITE: {{ *}}b = dp::field<1, double>();
// REWRITE-NEXT: {{ *}}k = dp::field<1, int>();

  // Handed to a function of the device's: a pointer, and not borrowed.
  double *host = (double *)malloc(bytes);
  double *c = (double *)acc_malloc(bytes);
  acc_memcpy_to_device(c, host, bytes);
#pragma acc parallel loop deviceptr(c)
  for (int i = 0; i < n; ++i)
    c[i] += 1;
// DIAG: device_memory.cpp:[[@LINE-1]]:5: warning: not converted: 'c' cannot become a dp::field: it is device memory handed to 'acc_memcpy_to_device', which the host copy of a dp::field cannot stand for (line 57) [dp-migrate]
// REWRITE: {{ *}}c[i] += 1;
  acc_free(c);

  // Handed on through a function pointer (ParRes Kernels' stencil picks
  // its kernel so): the call names the pointer.
  void (*kernel)(int, double *) = nullptr;
  double *e = (double *)acc_malloc(bytes);
  if (kernel)
    kernel(n, e);
#pragma acc parallel loop deviceptr(e)
  for (int i = 0; i < n; ++i)
    e[i] = 1;
// DIAG: device_memory.cpp:[[@LINE-1]]:5: warning: not converted: 'e' cannot become a dp::field: it is device memory handed to 'kernel', which the host copy of a dp::field cannot stand for (line 70) [dp-migrate]
  acc_free(e);

  // Device memory of host memory: the same.
  double *d = (double *)acc_copyin(host, bytes);
#pragma acc parallel loop deviceptr(d)
  for (int i = 0; i < n; ++i)
    d[i] = i;
// DIAG: device_memory.cpp:[[@LINE-1]]:5: warning: not converted: 'd' cannot become a dp::field: it holds device memory ('(double *)acc_copyin(host, bytes)'), which the host cannot read, so no call-site may borrow it: allocate it with malloc or new[] (it then becomes a dp::field, which dp moves to the device) (line 78) [dp-migrate]
  free(host);
  return 0;
}
// SUMMARY: migrated 3 of 6 loops (3 refused)
