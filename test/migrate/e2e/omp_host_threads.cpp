// An OpenMP program whose migration keeps one loop on the host's threads
// (it calls a helper with a static local) between loops that become
// call-sites, built with -fopenmp: the threads share a dp::field whose
// data a converted loop left on the device. Unless the field is brought
// to the host once before them, each thread's first access copies it from
// the device at once with the others, over another thread's writes: in
// dispatch emulation the sums came out wrong at every run (2026-12-05).
#include <cstdio>
#include <cstdlib>

extern "C" int omp_get_num_threads(void); // OpenMP's (omp.h)

static double shade(double x) {
  static const double half = 0.5;
  return x * half;
}

int main() {
  const int n = 1 << 16;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[i] = i;
    b[i] = 2 * i;
  }
  for (int rep = 0; rep < 4; rep++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = a[i] + b[i] + 1;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = shade(a[i]);
  }
  // A region whose first loop moves and whose other statements stay:
  // split, the loop a call-site before a region of the rest, whose
  // threads share the fields the call-site wrote.
  double last = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] = b[i] * 0.5 + a[i];
#pragma omp master
    last = b[n - 1];
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = shade(a[i]) + b[i];
  }
  // A statement asking for its team keeps a region of its own when every
  // loop of its region moves: run once, outside any region, it would
  // count one thread (before 2026-12-06 this printed "team 1"); so does
  // one that each thread runs for its effect (one "ready" each).
  int team = 0;
#pragma omp parallel num_threads(2)
  {
    int steps = 0;
#pragma omp master
    team = omp_get_num_threads();
    puts("ready"); // each thread's
    do {
#pragma omp for
      for (int i = 0; i < n; i++)
        b[i] = b[i] + 1;
      steps++;
    } while (steps < 2);
  }
  // A region whose threads' scratch (private(t)) each statement writes
  // before reading splits, the clause kept by the region left; one
  // whose copy of 'offset' changes, read after it, stays whole.
  double t = 0, offset = 1;
#pragma omp parallel private(t)
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = a[i] * 0.5;
#pragma omp for
    for (int i = 0; i < n; i++) {
      t = shade(a[i]);
      b[i] += t;
    }
  }
#pragma omp parallel firstprivate(offset)
  {
    offset = offset + 1;
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] += offset;
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += a[i] + b[i];
  printf("%.17g %.17g team %d offset %g\n", sum, last, team, offset);
  free(a);
  free(b);
  return 0;
}
