// `enter data` over a pointer stays when a loop the original ran on the
// host's threads converts beside an update to the device: the loop's
// results are now the device's, and the update, which sent the host's
// results, would send an older copy over them.
void step(int n, double *p) {
#pragma omp target enter data map(to: p[0:n])
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    p[i] = i;
#pragma omp target update to(p[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    p[i] = 2 * p[i];
#pragma omp target exit data map(from: p[0:n])
}
// DIAG: resident_host_loop.cpp:8:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// DIAG: resident_host_loop.cpp:12:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: #pragma omp target enter data map(to: p[0:n])
// REWRITE: #pragma omp target update to(p[0:n])
// REWRITE: #pragma omp target exit data map(from: p[0:n])
// DIAG: resident_host_loop.cpp:6:1: warning: 'omp target enter data' is not carried over: 'p' may stay a pointer, and a loop of this file that ran on the host's threads now runs where the data is, where an update to the device would send the host's older copy over its results [dp-migrate]
// DIAG: resident_host_loop.cpp:10:1: warning: 'omp target update' is not carried over: 'p' may stay a pointer, and a loop of this file that ran on the host's threads now runs where the data is, where an update to the device would send the host's older copy over its results [dp-migrate]
// DIAG: resident_host_loop.cpp:14:1: warning: 'omp target exit data' is not carried over: 'p' may stay a pointer, and a loop of this file that ran on the host's threads now runs where the data is, where an update to the device would send the host's older copy over its results [dp-migrate]
// SUMMARY: migrated 2 of 2 loops (0 refused)
