// `enter data` over a pointer stays when a device region holds a statement
// outside its loops: the original ran it on the device, the migration on
// the host, where a device copy held across call-sites would not show it.
void f(int n, double *A) {
#pragma acc enter data copyin(A[0:n])
#pragma acc parallel present(A[0:n])
  {
    A[0] = 1;
#pragma acc loop
    for (int j = 1; j < n; j++)
      A[j] = 2 * A[j];
  }
#pragma acc exit data copyout(A[0:n])
}
// DIAG: resident_region.cpp:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: #pragma acc enter data copyin(A[0:n])
// REWRITE: A[0] = 1;
// REWRITE: #pragma acc exit data copyout(A[0:n])
// DIAG: resident_region.cpp:5:1: warning: 'acc enter data' is not carried over: 'A' may stay a pointer, and the host touches such memory between call-sites of this file (a reduction's element, a loop that runs in order on the host, a device region's statement outside its loops), which a device copy held from here would miss [dp-migrate]
// DIAG: resident_region.cpp:13:1: warning: 'acc exit data' is not carried over: 'A' may stay a pointer, and the host touches such memory between call-sites of this file (a reduction's element, a loop that runs in order on the host, a device region's statement outside its loops), which a device copy held from here would miss [dp-migrate]
// SUMMARY: migrated 1 of 1 loop (0 refused)
