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

// A layer of a network in backprop's style: the weights an array of rows
// (`double **w`, read as w[k][j]), which the migration borrows for each
// call as dp::borrowed_rows, the kernel reading them through a dp::rows
// view: on the host the caller's rows themselves, wherever they lie. A
// device's copy (not measured here) borrows them in place where they lie
// one after another in one block, or evenly spaced with a few bytes
// between them, and gathers them where they lie in another order.
void lib_layer(int n1, int n2, const double *x, double *y, double **w) {
#pragma omp parallel for
  for (int j = 0; j < n2; ++j) {
    double sum = 0;
    for (int k = 0; k < n1; ++k)
      sum += w[k][j] * x[k];
    y[j] = sum;
  }
}

// Backprop's weight update over the same rows: written through the view,
// on the host in the caller's rows; a device's copy is borrowed in place
// only where they lie evenly spaced a few bytes apart (the rows alone
// come back), else gathered and written back.
void lib_adjust(int n1, int n2, const double *delta, const double *x, double **w) {
#pragma omp parallel for
  for (int j = 0; j < n2; ++j)
    for (int k = 0; k < n1; ++k)
      w[k][j] += 0.001 * delta[j] * x[k];
}
