// `enter data` over a pointer stays when a dependent loop of the file runs
// in order on the host around call-sites (the benchmark's directive on
// LU's `k` was wrong): in the original its statements ran on the device,
// next to the data, where a held device copy would leave the host's.
void lu(int n, double *A) {
#pragma acc enter data copyin(A[0:n * n])
#pragma acc parallel present(A[0:n * n])
  {
#pragma acc loop
    for (int k = 0; k < n; k++) {
#pragma acc loop
      for (int j = k + 1; j < n; j++)
        A[k * n + j] = A[k * n + j] / A[k * n + k];
      for (int i = k + 1; i < n; i++)
#pragma acc loop
        for (int j = k + 1; j < n; j++)
          A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
    }
  }
#pragma acc exit data copyout(A[0:n * n])
}
// DIAG: resident_in_order.cpp:17:11: warning: not converted: 'A[i * n + j]' and 'A[k * n + j]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: resident_in_order.cpp:13:9: note: the other access
// DIAG: resident_in_order.cpp:10:5: note: its directive goes: the loop runs in order on the host, around the call-sites of the loops inside it [dp-migrate]
// DIAG: resident_in_order.cpp:12:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// DIAG: resident_in_order.cpp:16:9: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: #pragma acc enter data copyin(A[0:n * n])
// REWRITE: #pragma acc exit data copyout(A[0:n * n])
// DIAG: resident_in_order.cpp:6:1: warning: 'acc enter data' is not carried over: 'A' may stay a pointer, and the host touches such memory between call-sites of this file (a reduction's element, a loop that runs in order on the host, a device region's statement outside its loops), which a device copy held from here would miss [dp-migrate]
// DIAG: resident_in_order.cpp:20:1: warning: 'acc exit data' is not carried over: 'A' may stay a pointer, and the host touches such memory between call-sites of this file (a reduction's element, a loop that runs in order on the host, a device region's statement outside its loops), which a device copy held from here would miss [dp-migrate]
// SUMMARY: migrated 2 of 3 loops (1 refused)
