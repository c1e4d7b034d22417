// A loop that stays under a device directive while arrays it uses became
// dp::fields for the loops that moved: no device construct maps a
// dp::field (GCC: "'a' does not have pointer or array type", "does not
// have a mappable type"), so the directive goes and the loop runs in
// order on the host, where dp keeps the fields current. Before
// 2026-12-05 the directive stayed and the migration did not compile with
// -fopenmp (ParRes Kernels' transpose-openmp-target).
// FLAGS: -fopenmp -fopenacc
#include <cstdlib>
double shade(double); // defined elsewhere: dpstub cannot see into it

void offload(int n, double *b) {
  double *a = (double *)malloc(n * sizeof(double));
#pragma omp target teams distribute parallel for map(from: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = i;
// DIAG: device_on_host.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp target teams distribute parallel for collapse(2) map(to: a[0:n]) map(tofrom: b[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 2; j++)
      b[i] += shade(a[i] + j);
// DIAG: device_on_host.cpp:[[@LINE-1]]:15: warning: not converted: the loop calls 'shade', which is defined in another file and not declared for the device (`#pragma acc routine` or `omp declare target` at its declaration) [dp-migrate]
// DIAG: device_on_host.cpp:[[@LINE-4]]:3: note: its directive goes: the loop runs in order on the host, as 'a' is now a dp::field, which no device directive can map [dp-migrate]
// REWRITE-NOT: {{^}}#pragma omp target teams distribute parallel for collapse(2){{.*}}
// REWRITE:   for (int i = 0; i < n; i++)
// REWRITE-NEXT:     for (int j = 0; j < 2; j++)
// REWRITE-NEXT:       b[i] += shade(a(i) + j);
  free(a);
}

// A loop over pointers alone keeps its directive: they are what it maps.
void pointers_only(int n, double *b) {
#pragma omp target teams distribute parallel for map(tofrom: b[0:n])
  for (int i = 0; i < n; i++)
    b[i] = shade(b[i]);
// DIAG: device_on_host.cpp:[[@LINE-1]]:12: warning: not converted: the loop calls 'shade', which is defined in another file and not declared for the device (`#pragma acc routine` or `omp declare target` at its declaration) [dp-migrate]
// REWRITE: #pragma omp target teams distribute parallel for map(tofrom: b[0:n])
// REWRITE-NEXT:   for (int i = 0; i < n; i++)
// REWRITE-NEXT:     b[i] = shade(b[i]);
}

// A region that stays: its directive goes, with its loops'.
void region(int n, double *b, double *c) {
  double *a = (double *)malloc(n * sizeof(double));
  double *w = (double *)malloc(n * sizeof(double));
#pragma omp target teams distribute parallel for map(from: a[0:n], w[0:n])
  for (int i = 0; i < n; i++) {
    a[i] = 2 * i;
    w[i] = 1.0 / (i + 1);
  }
// DIAG: device_on_host.cpp:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp target teams map(to: a[0:n], w[0:n]) map(tofrom: b[0:n], c[0:n])
  {
#pragma omp distribute parallel for
    for (int i = 0; i < n; i++)
      b[i] += a[i] * w[i];
// DIAG: device_on_host.cpp:[[@LINE-3]]:1: warning: not converted: another loop of the enclosing 'omp target teams' region stays a loop, so the region stays and none of its loops moves [dp-migrate]
// DIAG: device_on_host.cpp:[[@LINE-3]]:5: note: its directive goes: the loop runs in order on the host, as 'a' and 'w' are now dp::fields, which no device directive can map [dp-migrate]
#pragma omp distribute parallel for
    for (int i = 0; i < n; i++)
      c[i] = shade(a[i]);
// DIAG: device_on_host.cpp:[[@LINE-1]]:14: warning: not converted: the loop calls 'shade', which is defined in another file and not declared for the device (`#pragma acc routine` or `omp declare target` at its declaration) [dp-migrate]
// DIAG: device_on_host.cpp:[[@LINE-3]]:5: note: its directive goes: the loop runs in order on the host, as 'a' and 'w' are now dp::fields, which no device directive can map [dp-migrate]
  }
// REWRITE-NOT: {{^}}#pragma omp target teams map{{.*}}
// REWRITE-NOT: {{^}}#pragma omp distribute parallel for
// REWRITE:   {
// REWRITE-NEXT:     for (int i = 0; i < n; i++)
// REWRITE-NEXT:       b[i] += a(i) * w(i);
// REWRITE:     for (int i = 0; i < n; i++)
// REWRITE-NEXT:       c[i] = shade(a(i));
  free(a);
  free(w);
}

// OpenACC: the loop directive goes with the compute construct's.
void acc(int n, double *b) {
  double *a = (double *)malloc(n * sizeof(double));
#pragma acc parallel loop copyout(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = 3 * i;
// DIAG: device_on_host.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma acc parallel loop copyin(a[0:n]) copy(b[0:n])
  for (int i = 0; i < n; i++) {
#pragma acc loop seq
    for (int j = 0; j < 2; j++)
      b[i] += shade(a[i] + j);
// DIAG: device_on_host.cpp:[[@LINE-1]]:15: warning: not converted: the loop calls 'shade', which is defined in another file and not declared for the device (`#pragma acc routine` or `omp declare target` at its declaration) [dp-migrate]
// DIAG: device_on_host.cpp:[[@LINE-5]]:3: note: its directive goes: the loop runs in order on the host, as 'a' is now a dp::field, which no device directive can map [dp-migrate]
  }
// REWRITE-NOT: {{^}}#pragma acc {{.*}}
// REWRITE:   for (int i = 0; i < n; i++) {
// REWRITE-NEXT:     for (int j = 0; j < 2; j++)
// REWRITE-NEXT:       b[i] += shade(a(i) + j);
  free(a);
}

// A device region of statements, no loop (ParRes Kernels' p2p corner
// `#pragma acc kernels { grid[0] = -grid[last]; }`): a kernel of one
// point, so the field stays where the call-sites leave it. One that writes
// a variable of the host (a kernel's copy would not change it) loses its
// directive instead, and runs on the host.
constexpr double Scale = 0.5;
double offset = 1;
void corner(int n, double *out) {
  double *g = (double *)malloc(n * sizeof(double));
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    g[i] = i;
// DIAG: device_on_host.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma acc parallel num_gangs(1) present(g[0:n])
  {
    const double last = g[n - 1];
    g[0] = -last;
  }
// DIAG: device_on_host.cpp:[[@LINE-5]]:1: remark: 'acc parallel' of statements converted to dp::forall over dp::grid<1>(1) [dp-migrate]
// REWRITE-NOT: {{^}}#pragma acc parallel num_gangs{{.*}}
// REWRITE:   dp::forall(dp::grid<1>(1), [=](dp::index<1>, dp::field<1, double> &g) {
// REWRITE-NEXT:     const double last = g(n - 1);
// REWRITE-NEXT:     g(0) = -last;
// REWRITE-NEXT:   }, g);
  double first = 0;
#pragma acc serial
  {
    first = g[0];
  }
// DIAG: device_on_host.cpp:[[@LINE-4]]:1: warning: 'acc serial' goes: its statements use 'g', which is now a dp::field that no device directive can map, and cannot be a kernel of one point (it writes 'first', a variable of the host, which a kernel's copy would not change); they run on the host, where dp brings the data each time [dp-migrate]
// --list names such regions apart from loops (the summary counts none):
// LIST: "construct": "acc serial",
// LIST-NEXT: "statements": true,
// LIST-NEXT: "verdict": "refused",
// LIST: "directive": "removed: the statements run on the host"
// REWRITE-NOT: {{^}}#pragma acc serial
// REWRITE:   {
// REWRITE-NEXT:     first = g(0);
  out[0] = first;
  // A constant of the file is folded in; a variable of the file is the
  // host's.
#pragma acc kernels
  {
    g[1] = Scale * g[2];
  }
// DIAG: device_on_host.cpp:[[@LINE-4]]:1: remark: 'acc kernels' of statements converted to dp::forall over dp::grid<1>(1) [dp-migrate]
// LIST: "construct": "acc kernels",
// LIST-NEXT: "statements": true,
// LIST-NEXT: "verdict": "converted",
// LIST-NEXT: "kind": "dp::forall",
// LIST-NEXT: "rank": 1,
// LIST-NEXT: "grid": "dp::grid<1>(1)"
#pragma acc kernels
  {
    g[2] = offset;
  }
// DIAG: device_on_host.cpp:[[@LINE-4]]:1: warning: 'acc kernels' goes: its statements use 'g', which is now a dp::field that no device directive can map, and cannot be a kernel of one point (it uses 'offset', a variable of namespace scope or static, which a device cannot read); they run on the host, where dp brings the data each time [dp-migrate]
  // On a queue, as the loops' call-sites are (the OpenACC guide's
  // mandelbrot warm-up, `acc parallel num_gangs(1) async(i)`): the
  // `wait` after it waits for it there. Until 2026-12-05, evening, such a
  // region ran on the host.
  for (int q = 1; q <= 2; q++) {
#pragma acc parallel num_gangs(1) async(q)
    {
      g[q] = 2 * g[0];
    }
  }
#pragma acc wait
// DIAG: device_on_host.cpp:[[@LINE-6]]:1: remark: 'acc parallel' of statements converted to dp::forall over dp::grid<1>(1) [dp-migrate]
// REWRITE: {{^}}    dp::forall(dp::on(dp_async_queue(q)), dp::grid<1>(1), [=](dp::index<1>, dp::field<1, double> &g) {
// REWRITE-NEXT:       g(q) = 2 * g(0);
// REWRITE-NEXT:     }, g);
// REWRITE-NEXT:   }
// REWRITE-NEXT: dp::wait_all();
  out[1] = g[1] + g[2];
  // A wait() clause orders it behind queue 1's work, which dp does by the
  // fields it uses, as for a loop's.
#pragma acc kernels wait(1)
  {
    g[0] = g[1];
  }
// DIAG: device_on_host.cpp:[[@LINE-4]]:1: remark: 'acc kernels' of statements converted to dp::forall over dp::grid<1>(1) [dp-migrate]
// REWRITE: {{^}}  dp::forall(dp::grid<1>(1), [=](dp::index<1>, dp::field<1, double> &g) {
// REWRITE-NEXT:     g(0) = g(1);
  // An if() clause: on the host where it is false, as a loop's .when().
#pragma acc parallel if(n > 8) async(3)
  {
    g[1] = g[0];
  }
// DIAG: device_on_host.cpp:[[@LINE-4]]:1: remark: 'acc parallel' of statements converted to dp::forall over dp::grid<1>(1) [dp-migrate]
// REWRITE: {{^}}  dp::forall(dp::on(dp_async_queue(3)).when(n > 8), dp::grid<1>(1), [=](dp::index<1>, dp::field<1, double> &g) {
// REWRITE-NEXT:     g(1) = g(0);
  free(g);
}
// SUMMARY: migrated 4 of 9 loops (5 refused)
