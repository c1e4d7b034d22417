// Regions whose loops are in the functions they call (the NAS Parallel
// Benchmarks' style): `#pragma omp parallel` over a call, the `omp for`
// loops in the function called (orphaned constructs, bound to the
// caller's team). Where every run of such a function is in view (it is
// static or the file has main, only called, never from inside another
// construct), its loops are the region's: they move with it, its
// directive goes and the calls run once. (team_functions_lib.c: a file
// without main, whose functions other files may call.)
#include <omp.h>

#define N 64
static double u[N], rhs[N], lhs[3][N];
static double total;

static void compute_rhs(void) {
  int i;
#pragma omp for
  for (i = 1; i < N - 1; i++)
    rhs[i] = u[i + 1] - 2 * u[i] + u[i - 1];
// DIAG: team_functions.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: static void compute_rhs(void) {
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(1, N - 1)), {{.*}}
}

// Called by a function a region calls: its team's too.
static void lhs_row(int n) {
  int i;
#pragma omp for nowait
  for (i = 0; i < N; i++)
    lhs[n][i] = n == 1 ? 1.0 : 0.0;
// DIAG: team_functions.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

static void lhsx(void) {
  int n;
  for (n = 0; n < 3; n++)
    lhs_row(n);
#pragma omp barrier
}

static void sweep(int n) {
  int i;
#pragma omp for
  for (i = 1; i < N; i++)
    rhs[i] += n * lhs[2][i];
// DIAG: team_functions.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

// A region with loops of its own and calls of team functions (SP's
// x_solve; LU's ssor calls its after a barrier, which holds no
// statement): all of them move, the region's directive goes.
static void x_solve(void) {
#pragma omp parallel
  {
    lhsx();
#pragma omp for
    for (int i = 0; i < N; i++)
      u[i] = u[i] + lhs[1][i] * rhs[i];
// DIAG: team_functions.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp barrier
    for (int n = 0; n < 2; n++)
      sweep(n);
  }
}
// REWRITE:      static void x_solve(void) {
// REWRITE-NEXT:   {
// REWRITE-NEXT:     lhsx();

static double total_u;
static void tally(void) {
  int i;
#pragma omp for
  for (i = 0; i < N; i++) {
#pragma omp critical
    total_u += u[i];
// DIAG: team_functions.c:[[@LINE-1]]:5: warning: not converted: 'total_u' is reduced into a namespace-scope variable; reduce into a local and assign it [dp-migrate]
  }
}

// A region whose team function keeps its loop splits around it: the
// statement calling it keeps a region of its own, where the function's
// loop binds, and the region's own loop moves.
static void z_solve(void) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < N; i++)
      lhs[0][i] = u[i];
// DIAG-DAG: team_functions.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
    tally();
  }
}
// DIAG-DAG: team_functions.c:[[@LINE-9]]:1: remark: 'omp parallel' split around its statements whose loops all moved (line [[#@LINE-6]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// REWRITE:      static void z_solve(void) {
// REWRITE-NEXT:   {
// REWRITE:      #pragma omp parallel
// REWRITE-NEXT:     tally();

// Only ever called outside a region: one thread runs it in the
// original, a call-site now.
static void add(void) {
  int i;
#pragma omp for
  for (i = 0; i < N; i++)
    u[i] += 0.1 * rhs[i];
// DIAG: team_functions.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

static void adi(void) {
#pragma omp parallel
  compute_rhs();
  x_solve();
  z_solve();
  add();
}
// REWRITE:      static void adi(void) {
// REWRITE-NEXT:   compute_rhs();
// REWRITE-NEXT:   x_solve();

// Taken by address: it may run from anywhere.
static void scale(void) {
  int i;
#pragma omp for
  for (i = 0; i < N; i++)
    u[i] *= 0.5;
// DIAG: team_functions.c:[[@LINE-3]]:1: warning: not converted: 'omp for' is outside any compute region in this function (an orphaned construct, whose region is in a caller) [dp-migrate]
}
void (*scaler)(void) = scale;

// Called under `omp master`: one thread of the team runs its loop.
static void under_master(void) {
  int i;
#pragma omp for
  for (i = 0; i < N; i++)
    rhs[i] = 0;
// DIAG: team_functions.c:[[@LINE-3]]:1: warning: not converted: 'omp for' is outside any compute region in this function (an orphaned construct, whose region is in a caller) [dp-migrate]
}

// A team function that asks for its thread's number: run once, it would
// answer otherwise, so the region stays, and with it the loops.
static void numbered(void) {
  int i;
  if (omp_get_thread_num() == 0)
    total = 0;
#pragma omp for
  for (i = 0; i < N; i++)
    lhs[0][i] = i;
// DIAG: team_functions.c:[[@LINE-3]]:1: warning: not converted: the statement at line {{[0-9]+}} of the enclosing 'omp parallel' region calls 'omp_get_thread_num', whose answer depends on the region's threads, and the region cannot split to keep that statement in a region of its own, so the region stays and none of its loops moves [dp-migrate]
}

static void others(void) {
#pragma omp parallel
  {
#pragma omp master
    under_master();
  }
#pragma omp parallel
  numbered();
}
// A region that stays, whose team function names a field: its threads'
// first accesses bring it to the host, so it is brought once, before.
// REWRITE:      (void)lhs.data(); // brought to the host once, before the threads share it
// REWRITE-NEXT: #pragma omp parallel
// REWRITE-NEXT:   numbered();

int main(void) {
  adi();
  others();
  scaler();
  return 0;
}
