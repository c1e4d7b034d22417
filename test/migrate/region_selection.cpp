// The editor's action on one loop of an `omp parallel` region: the
// selected loop leaves the region as a call-site, and the region's other
// loop, which the selection left out, keeps a region of its own (before
// 2026-12-05 the region's directive went and that loop, its `omp for`
// orphaned, ran on one thread). The loop left out calls a function of
// another file, so migrating the output again, without the selection,
// changes nothing.
// FLAGS: -fopenmp
// SELECTION: 19:1-21:1
double seed(int i);

void fill(int n, double *a, double *b) {
#pragma omp parallel num_threads(4)
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      b[i] = seed(i);
#pragma omp for
    for (int i = 0; i < n; ++i)
      a[i] = 2 * i;
  }
}
// DIAG: region_selection.cpp:[[@LINE-10]]:1: remark: 'omp parallel' split around its statements whose loops all moved (line [[#@LINE-4]]), which now run once; the statements between them keep 'omp parallel' regions of their own [dp-migrate]
// DIAG: region_selection.cpp:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: {{^}}  {{{$}}
// REWRITE-NEXT: #pragma omp parallel num_threads(4)
// REWRITE-NEXT: #pragma omp for
// REWRITE-NEXT:     for (int i = 0; i < n; ++i)
// REWRITE-NEXT:       b[i] = seed(i);
// REWRITE-NEXT:     {
// REWRITE-NEXT:       // pointers borrowed for this call-site: what the loop wrote is there at the '}'
// SUMMARY: migrated 1 of 1 loop (0 refused)
