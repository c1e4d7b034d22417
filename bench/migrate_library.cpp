// The library half of the migrate benchmark (scripts/bench.sh migrate):
// kernels in a file without main, over pointers from their caller, as
// NeoRodinia's and most libraries' are. dpstub --migrate borrows the
// caller's memory at each call (dp::borrow, dp::borrow_read), so a row
// here measures what borrowing costs a call beside the loop itself.
void lib_axpy(int n, double a, double *y, const double *x) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

double lib_dot(int n, const double *x, const double *y) {
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i)
    sum += x[i] * y[i];
  return sum;
}
