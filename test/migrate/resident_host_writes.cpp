// `enter data` over a pointer stays when a converted loop of the file
// reduces into an element of such memory: the host writes the result
// through the pointer, which a device copy held from the directive on
// would miss.
void solve(int n, const float *l, float *x) {
#pragma acc enter data copyin(x[0:n])
  for (int i = 0; i < n; i++) {
#pragma acc parallel loop
    for (int j = 0; j < i; j++)
      x[i] -= l[i * n + j] * x[j];
  }
#pragma acc exit data copyout(x[0:n])
}
// DIAG: resident_host_writes.cpp:[[@LINE-5]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: #pragma acc enter data copyin(x[0:n])
// REWRITE: #pragma acc exit data copyout(x[0:n])
// DIAG: resident_host_writes.cpp:6:1: warning: 'acc enter data' is not carried over: 'x' may stay a pointer, and the host touches such memory between call-sites of this file (a reduction's element, a loop that runs in order on the host, a device region's statement outside its loops), which a device copy held from here would miss [dp-migrate]
// DIAG: resident_host_writes.cpp:12:1: warning: 'acc exit data' is not carried over: 'x' may stay a pointer, and the host touches such memory between call-sites of this file (a reduction's element, a loop that runs in order on the host, a device region's statement outside its loops), which a device copy held from here would miss [dp-migrate]
// SUMMARY: migrated 1 of 1 loop (0 refused)
