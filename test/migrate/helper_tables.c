// A small table of numbers at namespace scope that the functions a loop
// calls read (NPB's `ce[5][13]`, filled by set_constants, read by
// exact_solution): a device cannot read the host's copy, so each helper
// takes the table as a parameter, a reference to const defaulted to the
// table (host calls stay as they were), and the call-site copies the
// table into a local array of its name, which the kernel's lambda
// copies and passes on.
static double ce[3][4];
static double big[200][2];

static void set_constants(void) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      ce[i][j] = 1.0 + 0.5 * i + j;
}

static double term(int m, double x) { return ce[m][1] + x * ce[m][2]; }
// REWRITE: static double term(int m, double x, const double (&ce)[3][4] = ::ce) { return ce[m][1] + x * ce[m][2]; }

static double exact(int m, double x) { return ce[m][0] + x * term(m, x); }
// REWRITE: static double exact(int m, double x, const double (&ce)[3][4] = ::ce) { return ce[m][0] + x * term(m, x, ce); }

static double heavy(int i) { return big[i][0]; }
static void bump(int m) { ce[m][3] += 1.0; }

void fill(double *u, int n) {
  set_constants();
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    u[i] = exact(i % 3, i * 0.1);
// DIAG: helper_tables.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      // the tables its helpers read: the kernel's copies, taken now
// REWRITE-NEXT: double ce[3][4]; std::memcpy(ce, ::ce, sizeof ce);
// REWRITE-NEXT: dp::forall({{.*}}) {
// REWRITE:      u(i) = exact(i % 3, i * 0.1, ce);
  u[0] = exact(0, 1.0);
// REWRITE: u[0] = exact(0, 1.0);

  // A table larger than a kernel's arguments take.
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    u[i] += heavy(i);
// DIAG: helper_tables.c:[[@LINE-1]]:13: warning: not converted: the loop calls 'heavy', which reads the namespace-scope 'big', which is not a plain value [dp-migrate]

  // A helper that writes the table.
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    bump(i % 3);
// DIAG: helper_tables.c:[[@LINE-1]]:5: warning: not converted: the loop calls 'bump', which writes the namespace-scope 'ce' [dp-migrate]
}
