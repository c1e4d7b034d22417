// `enter data` over a pointer stays when an `exit data ... finalize` of
// the file names such memory: it ends every hold at once, where
// dp::exit_data ends one, so memory entered twice would stay held.
void twice(int n, double *p) {
#pragma acc enter data copyin(p[0:n])
#pragma acc enter data copyin(p[0:n])
#pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++)
    p[i] = 2 * p[i];
#pragma acc exit data copyout(p[0:n]) finalize
}
// DIAG: resident_finalize.cpp:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: #pragma acc enter data copyin(p[0:n])
// REWRITE: #pragma acc exit data copyout(p[0:n]) finalize
// DIAG: resident_finalize.cpp:5:1: warning: 'acc enter data' is not carried over: 'p' may stay a pointer, and an 'exit data ... finalize' of this file ends every hold on its memory at once, where dp::exit_data ends one [dp-migrate]
// DIAG: resident_finalize.cpp:6:1: warning: 'acc enter data' is not carried over: 'p' may stay a pointer, and an 'exit data ... finalize' of this file ends every hold on its memory at once, where dp::exit_data ends one [dp-migrate]
// DIAG: resident_finalize.cpp:10:1: warning: 'acc exit data' is not carried over: 'p' may stay a pointer, and an 'exit data ... finalize' of this file ends every hold on its memory at once, where dp::exit_data ends one [dp-migrate]
// SUMMARY: migrated 1 of 1 loop (0 refused)
