// A file without main (a library's, NeoRodinia's kernel files): other
// files may call its external functions, from a region of their own. A
// function only they call, or only a function they may call calls
// outside a region, may run on any team: its loops stay. One called
// inside a region of this file's binds to that region, whoever calls the
// function holding it.
#define N 32
static double a[N];

static void fill(void) {
  int i;
#pragma omp for
  for (i = 0; i < N; i++)
    a[i] = i;
// DIAG: team_functions_lib.c:[[@LINE-3]]:1: warning: not converted: 'omp for' is outside any compute region in this function (an orphaned construct, whose region is in a caller) [dp-migrate]
}

void exported(void) {
  int i;
#pragma omp for
  for (i = 0; i < N; i++)
    a[i] += 1;
// DIAG: team_functions_lib.c:[[@LINE-3]]:1: warning: not converted: 'omp for' is outside any compute region in this function (an orphaned construct, whose region is in a caller) [dp-migrate]
  fill();
}

static void halve(void) {
  int i;
#pragma omp for
  for (i = 0; i < N; i++)
    a[i] *= 0.5;
// DIAG: team_functions_lib.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

void solve(void) {
#pragma omp parallel
  halve();
}
// REWRITE:      extern "C" void solve(void) {
// REWRITE-NEXT:   halve();
// REWRITE-NEXT: }
