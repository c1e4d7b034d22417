// An OpenMP parallel construct that stays on the host's threads while
// arrays it uses became dp::fields: each thread's first access would bring
// a field to the host at once with the others (two copies from the
// device, one over another thread's writes; a pending launch waited for
// twice). dpstub brings each field to the host once, before the
// construct, after which the threads only read and write elements.
// FLAGS: -fopenmp
#include <cmath>
#include <cstdio>
#include <cstdlib>

// OpenMP's routines (omp.h), declared here as a program would see them.
extern "C" int omp_get_num_threads(void);
extern "C" int omp_get_thread_num(void);

void report(int n) {
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[i] = i;
    b[i] = 0;
  }
// DIAG: host_threads.cpp:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    b[i] = printf("%g\n", a[i]);
// DIAG: host_threads.cpp:[[@LINE-1]]:12: warning: not converted: the loop calls 'printf', a library function with no device version [dp-migrate]
// REWRITE:   (void)b.data(); (void)a.data(); // brought to the host once, before the threads share them
// REWRITE-NEXT: #pragma omp parallel for
// REWRITE-NEXT:   for (int i = 0; i < n; i++)
// REWRITE-NEXT:     b(i) = printf("%g\n", a(i));

  // A region that stays: once before it, not before its loops. Its
  // threads keep a variable of their own (private(t)) from one statement
  // to the next, which a split would not keep (each region of it makes
  // its copies anew), so it cannot split.
  double t = 0;
#pragma omp parallel private(t)
  {
    t = 0.5;
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] += 1;
#pragma omp for
    for (int i = 0; i < n; i++)
      printf("%g\n", a[i] + t);
  }
// DIAG: host_threads.cpp:[[@LINE-7]]:1: warning: not converted: another loop of the enclosing 'omp parallel' region stays a loop, so the region stays and none of its loops moves [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-3]]:7: warning: not converted: the loop calls 'printf', a library function with no device version [dp-migrate]
// REWRITE:   (void)a.data(); // brought to the host once, before the threads share it
// REWRITE-NEXT: #pragma omp parallel private(t)
// REWRITE-NEXT:   {
// REWRITE-NEXT:     t = 0.5;
  // Where each statement writes a thread's own variable before it reads
  // it, nothing flows between them through it: the region splits, and
  // each region of the split keeps the clause (since 2026-12-06).
#pragma omp parallel private(t)
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] += 1;
#pragma omp for
    for (int i = 0; i < n; i++) {
      t = a[i];
      printf("%g\n", t);
    }
  }
// DIAG: host_threads.cpp:[[@LINE-11]]:1: remark: 'omp parallel' split around its statements whose loops all moved (line [[#@LINE-8]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-9]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-5]]:7: warning: not converted: the loop calls 'printf', a library function with no device version [dp-migrate]
// REWRITE:     (void)a.data(); // brought to the host once, before the threads share it
// REWRITE-NEXT: #pragma omp parallel private(t)
// REWRITE-NEXT: #pragma omp for
// REWRITE-NEXT:     for (int i = 0; i < n; i++) {

  // A region some of whose loops move splits around them: a statement
  // whose loops all move leaves it and runs once (a call-site inside it
  // would run once per thread); each run of the statements that stay gets
  // the directive again, clauses and all, with the fields they share
  // brought to the host before it (ParRes Kernels' p2p, miniBUDE's
  // copies). A statement holding a loop that stays keeps its other loops.
#pragma omp parallel num_threads(2)
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] += 1;
// DIAG: host_threads.cpp:[[@LINE-5]]:1: remark: 'omp parallel' split around its statements whose loops all moved (lines [[#@LINE-2]] and [[#@LINE+19]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-3]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp master
    printf("%g\n", a[0]);
#pragma omp barrier
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      printf("%g\n", b[i]);
// DIAG: host_threads.cpp:[[@LINE-1]]:7: warning: not converted: the loop calls 'printf', a library function with no device version [dp-migrate]
// REWRITE:     (void)a.data(); (void)b.data(); // brought to the host once, before the threads share them
// REWRITE-NEXT: #pragma omp parallel num_threads(2)
// REWRITE-NEXT:     {
// REWRITE-NEXT: #pragma omp master
// REWRITE-NEXT:     printf("%g\n", a(0));
// REWRITE-NEXT: #pragma omp barrier
// REWRITE-NEXT: #pragma omp for nowait
// REWRITE-NEXT:     for (int i = 0; i < n; i++)
// REWRITE-NEXT:       printf("%g\n", b(i));
// REWRITE-NEXT:     }
    for (int k = 0; k < 2; k++) {
#pragma omp for
      for (int i = 0; i < n; i++)
        b[i] += k;
    }
// DIAG: host_threads.cpp:[[@LINE-3]]:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// LIST: "line": [[#@LINE-27]],
// LIST: "grid": "dp::grid<1>(dp::arithmetic_sequence(0, n))",
// LIST-NEXT: "left_region": [[#@LINE-32]]
// LIST: "line": [[#@LINE-7]],
// LIST: "grid": "dp::grid<1>(dp::arithmetic_sequence(0, n))",
// LIST-NEXT: "left_region": [[#@LINE-35]]
    for (int k = 0; k < 2; k++) {
#pragma omp for
      for (int i = 0; i < n; i++)
        a[i] += k;
#pragma omp for
      for (int i = 0; i < n; i++)
        printf("%g\n", a[i]);
    }
// DIAG: host_threads.cpp:[[@LINE-7]]:1: warning: not converted: the statement of the enclosing 'omp parallel' region that holds it also holds a loop that stays (line [[#@LINE-3]]), so it stays in the region, where a call-site would run once per thread [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-3]]:9: warning: not converted: the loop calls 'printf', a library function with no device version [dp-migrate]
// REWRITE:     (void)a.data(); // brought to the host once, before the threads share it
// REWRITE-NEXT: #pragma omp parallel num_threads(2)
// REWRITE-NEXT:     for (int k = 0; k < 2; k++) {
  }
  // A declaration among the statements that stay goes with them when only
  // their run uses it (ParRes Kernels' p2p-doacross, `int const ib`).
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] = 2 * a[i];
    const int last = n - 1;
#pragma omp for
    for (int i = 0; i < n; i++)
      printf("%g\n", b[i] + b[last]);
  }
// DIAG: host_threads.cpp:[[@LINE-10]]:1: remark: 'omp parallel' split around its statements whose loops all moved (line [[#@LINE-7]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-8]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-4]]:7: warning: not converted: the loop calls 'printf', a library function with no device version [dp-migrate]
// LIST: "line": [[#@LINE-10]],
// LIST: "grid": "dp::grid<1>(dp::arithmetic_sequence(0, n))",
// LIST-NEXT: "left_region": [[#@LINE-15]]
// REWRITE:     (void)b.data(); // brought to the host once, before the threads share it
// REWRITE-NEXT:     #pragma omp parallel
// REWRITE-NEXT:     {
// REWRITE-NEXT:     const int last = n - 1;
  // A region whose loops all move goes with them: nothing to bring
  // (PolyBench's OpenMP versions; before 2026-12-05, evening, the line
  // was written before the region all the same).
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] += a[i];
  }
// DIAG: host_threads.cpp:[[@LINE-3]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// LIST: "line": [[#@LINE-4]],
// LIST-NOT: "left_region"
// REWRITE-NOT: {{^}} *(void)b.data();{{.*}}
// REWRITE:   {
// REWRITE-NEXT:     dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &b, const dp::field<1, double> &a) {
  // The construct alone as an if's body: a block of its own holds the
  // line and the construct (before 2026-12-05, evening, it got no line).
  if (n > 4)
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      printf("%g\n", b[i]);
// DIAG: host_threads.cpp:[[@LINE-1]]:7: warning: not converted: the loop calls 'printf', a library function with no device version [dp-migrate]
// REWRITE:   if (n > 4)
// REWRITE-NEXT:     {
// REWRITE-NEXT:       (void)b.data(); // brought to the host once, before the threads share it
// REWRITE-NEXT: #pragma omp parallel for
// REWRITE-NEXT:     for (int i = 0; i < n; i++)
// REWRITE-NEXT:       printf("%g\n", b(i));
// REWRITE-NEXT:     }
  // A statement asking for its team keeps a region of its own even when
  // every loop of the region moves: run once, outside any region,
  // omp_get_num_threads() answers 1 (Rodinia's hotspot3D prints its
  // threads so). The declaration the moving statement uses goes with it.
#pragma omp parallel
  {
    int steps = 0;
#pragma omp master
    printf("%d threads\n", omp_get_num_threads());
    do {
#pragma omp for
      for (int i = 0; i < n; i++)
        b[i] += 1;
      steps++;
    } while (steps < 2);
  }
// DIAG: host_threads.cpp:[[@LINE-12]]:1: remark: 'omp parallel' split around its statements whose loops all moved (line [[#@LINE-7]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-6]]:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// LIST: "line": [[#@LINE-7]],
// LIST: "left_region": [[#@LINE-15]]
// REWRITE: {{^}}  {{{$}}
// REWRITE-NEXT:     int steps = 0;
// REWRITE-NEXT:     #pragma omp parallel
// REWRITE-NEXT:     {
// REWRITE-NEXT: #pragma omp master
// REWRITE-NEXT:     printf("%d threads\n", omp_get_num_threads());
// REWRITE-NEXT:     }
// REWRITE-NEXT:     do {
// REWRITE-NEXT:       dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &b) {
  // Its answer feeding a loop keeps the region whole: the loop would
  // read another team size (before 2026-12-06 the region moved, and the
  // loop wrote i * 1).
#pragma omp parallel
  {
    const int team = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = i * team;
  }
// DIAG: host_threads.cpp:[[@LINE-4]]:1: warning: not converted: the statement at line [[#@LINE-5]] of the enclosing 'omp parallel' region calls 'omp_get_num_threads', whose answer depends on the region's threads, and the region cannot split to keep that statement in a region of its own, so the region stays and none of its loops moves [dp-migrate]
// REWRITE: {{^}}#pragma omp parallel{{$}}
// REWRITE-NEXT:   {
// REWRITE-NEXT:     const int team = omp_get_num_threads();
  // A statement that holds a loop and asks for its team stays, loop and
  // all; the region splits around the statement after it.
#pragma omp parallel
  {
    for (int k = 0; k < 2; k++) {
#pragma omp for
      for (int i = 0; i < n; i++)
        a[i] += k;
      if (omp_get_thread_num() == 0)
        printf("step %d\n", k);
    }
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] = a[i];
  }
// DIAG: host_threads.cpp:[[@LINE-13]]:1: remark: 'omp parallel' split around its statements whose loops all moved (line [[#@LINE-3]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-11]]:1: warning: not converted: the statement of the enclosing 'omp parallel' region that holds it calls 'omp_get_thread_num', whose answer depends on the region's threads (line [[#@LINE-8]]), so it stays in the region, where a call-site would run once per thread [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:     #pragma omp parallel
// REWRITE-NEXT:     for (int k = 0; k < 2; k++) {
  // So does a statement each thread runs for its effect: a call to a
  // function with effects, an update of a variable the threads share
  // (`x += e`, or `x = x + e`).
  int arrivals = 0;
#pragma omp parallel num_threads(2)
  {
    puts("ready");
#pragma omp atomic
    arrivals++;
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] *= 2;
  }
// DIAG: host_threads.cpp:[[@LINE-9]]:1: remark: 'omp parallel' split around its statements whose loops all moved (line [[#@LINE-3]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-4]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: {{^}}  {{{$}}
// REWRITE-NEXT:     #pragma omp parallel num_threads(2)
// REWRITE-NEXT:     {
// REWRITE-NEXT:     puts("ready");
// REWRITE-NEXT: #pragma omp atomic
// REWRITE-NEXT:     arrivals++;
// REWRITE-NEXT:     }
#pragma omp parallel num_threads(2)
  {
#pragma omp critical
    arrivals = arrivals + 1;
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] -= 1;
  }
// DIAG: host_threads.cpp:[[@LINE-8]]:1: remark: 'omp parallel' split around its statements whose loops all moved (line [[#@LINE-3]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-4]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: {{^}}#pragma omp critical{{$}}
// REWRITE-NEXT:     arrivals = arrivals + 1;
// REWRITE-NEXT:     }
  // A call without effects (the math library's), an update of the
  // region's own variable, and an update under 'omp single' run once as
  // well as once per thread: the region moves whole.
#pragma omp parallel
  {
    const double scale = sqrt(2.0);
    int rounds = 0;
    rounds++;
#pragma omp single
    arrivals += rounds;
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] *= scale;
  }
// DIAG: host_threads.cpp:[[@LINE-3]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: {{^}}  {{{$}}
// REWRITE-NEXT:     const double scale = sqrt(2.0);
  // A variable a clause gives each thread is the one outside once the
  // region moves: a write to it would show after the region where it is
  // read there (before 2026-12-06 this moved, and 'offset' came out 2),
  // and a write to a reduction's variable would change what the region
  // combines. Its loops stay.
  double offset = 1;
#pragma omp parallel firstprivate(offset)
  {
    offset = offset + 1;
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] += offset;
  }
// DIAG: host_threads.cpp:[[@LINE-4]]:1: warning: not converted: the statement at line [[#@LINE-5]] of the enclosing 'omp parallel' region writes 'offset', which its 'firstprivate' clause gives each thread, and which is read after the region, and the region cannot split to keep that statement in a region of its own, so the region stays and none of its loops moves [dp-migrate]
  double total = offset;
#pragma omp parallel reduction(+ : total)
  {
    total = 0;
#pragma omp for
    for (int i = 0; i < n; i++)
      total += b[i];
  }
// DIAG: host_threads.cpp:[[@LINE-4]]:1: warning: not converted: the statement at line [[#@LINE-5]] of the enclosing 'omp parallel' region writes 'total', which its 'reduction' clause gives each thread to combine after it, and the region cannot split to keep that statement in a region of its own, so the region stays and none of its loops moves [dp-migrate]
  // Not read after the region, a private variable's last value does not
  // matter: the region moves whole.
  int k;
#pragma omp parallel private(k)
  {
    for (k = 0; k < 2; k++) {
#pragma omp for
      for (int i = 0; i < n; i++)
        a[i] += k;
    }
  }
// DIAG: host_threads.cpp:[[@LINE-4]]:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  // A counter each thread updates that the program never reads (NPB
  // CG's `callcount++;`): run once, it changes nothing the program can
  // print, so the region moves whole, with a note. Before 2026-12-07 it
  // kept the region, and its loops: the region cannot split, its threads
  // each holding `half` from one statement to the next.
  static int calls = 0;
  double sum = 0;
#pragma omp parallel
  {
    double half;
#pragma omp for reduction(+ : sum)
    for (int i = 0; i < n; i++)
      sum += a[i];
    half = sum / 2;
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] -= half;
    calls++;
  }
// DIAG: host_threads.cpp:[[@LINE-8]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-3]]:5: note: 'calls' is updated by each of the region's threads, and the program never reads it: its update runs once [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-6]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: {{^}}    half = sum / 2;{{$}}
// REWRITE-NEXT:     dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &a) {
// REWRITE-NEXT:       const int i = idx[0];
// REWRITE-NEXT:       a(i) -= half;
// REWRITE-NEXT:     }, a);
// REWRITE-NEXT:     calls++;
// REWRITE-NEXT:   }
  // Read anywhere else, even after the region, it keeps a region of its
  // own, where each thread updates it as before; the loop moves.
  static int visits = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] += 3;
    visits += 1;
  }
// DIAG: host_threads.cpp:[[@LINE-7]]:1: remark: 'omp parallel' split around its statements whose loops all moved (line [[#@LINE-4]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// DIAG: host_threads.cpp:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: {{^}}    }, a);{{$}}
// REWRITE-NEXT:     #pragma omp parallel
// REWRITE-NEXT:     visits += 1;
  printf("%g %g %g %d\n", offset, total, sum, visits);
  free(a);
  free(b);
}
// SUMMARY: migrated 15 of 28 loops (13 refused)
