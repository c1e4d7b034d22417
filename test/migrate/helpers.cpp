// What real codes do around their loops: sizes in namespace-scope
// variables read by index helpers, several arrays in one declaration,
// brackets inside a macro, a declaration a macro makes, a triangular
// inner loop whose dependence only a witness shows.
#include <cmath>
#include <cstdlib>

#define cell(x, j) std::sqrt(x[j])
// Brackets spelled in a macro are rewritten in the macro, once (u is
// converted, and every array indexed through cell goes with it).
// REWRITE: #define cell(x, j) std::sqrt(x(j))
#define DECLARE(v, n) double v[n];
int NI, NJ;
double u[64], w[64], z[64];
// Declared together: each its own declaration, a field where a loop
// moved (z's loop stays, so z stays as it was).
// REWRITE: dp::field<1, double> u{dp::grid<1>(64)};
// REWRITE-NEXT: dp::field<1, double> w{dp::grid<1>(64)};
// REWRITE-NEXT: double z[64];
static int at(int i, int j) { return i * NJ + j; }
// A helper reading sizes at namespace scope takes them, defaulted to them.
// REWRITE: static int at(int i, int j, int NJ = ::NJ) { return i * NJ + j; }

void fill(double *a) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      a[at(i, j)] = i + j;
// DIAG: helpers.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// The kernel's call passes them on; the kernel receives them as values.
// REWRITE: dp::forall(dp::grid<2>(dp::arithmetic_sequence(0, NI), dp::arithmetic_sequence(0, NJ)), [=](dp::index<2> idx, dp::field<1, double> &a, int NJ) {
// REWRITE: a(at(i, j, NJ)) = i + j;
// REWRITE-NEXT: }, a, NJ);
}

void roots(int n) {
#pragma omp parallel for
  for (int j = 0; j < n; ++j)
    w[j] = cell(u, j);
// DIAG: helpers.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

// Brackets written whole in a macro's argument are rewritten where the
// argument is written (the macro's body uses them twice: one edit).
#define MIN(a, b) ((a) <= (b) ? (a) : (b))
void smallest(int n) {
#pragma omp parallel for
  for (int j = 0; j < n - 1; ++j)
    w[j] = MIN(u[j], u[j + 1]);
// DIAG: helpers.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: w(j) = MIN(u(j), u(j + 1));
}

void solve(int n, const double *c) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    z[i] = c[i];
// DIAG: helpers.cpp:[[@LINE-1]]:5: warning: not converted: 'z[i]' and 'z[j]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
    for (int j = 0; j < i; j++)
      z[i] -= c[j] * z[j];
// DIAG: helpers.cpp:[[@LINE-1]]:22: note: the other access
// DIAG: helpers.cpp:[[@LINE-6]]:3: note: its directive goes: the loop runs in order on the host, as 'c' is now a dp::field, which no device directive can map [dp-migrate]
  }
}
// REWRITE: void solve(int n, dp::field<1, const double> c) {
// REWRITE-NEXT:   for (int i = 0; i < n; i++) {

// An array handed whole to a function of the file, inside the loop
// (Rodinia's particlefilter: randn(seed, x)): the function's parameter
// becomes a field with it, and the kernel passes its field on. A helper
// calling another that reads namespace-scope variables passes them on,
// and both take them.
int MULT = 75;
static double uniform(int *seed, int k) {
  seed[k] = (MULT * seed[k] + 74) % 65537;
  return seed[k] / 65537.0;
}
// REWRITE: static double uniform(dp::field<1, int> seed, int k, int MULT = ::MULT) {
static double pair(int *seed, int k) { return uniform(seed, k) + uniform(seed, k); }
// REWRITE: static double pair(dp::field<1, int> seed, int k, int MULT = ::MULT) { return uniform(seed, k, MULT) + uniform(seed, k, MULT); }
static double first(const double *v) { return v[0]; }
// REWRITE: static double first(dp::field<1, const double> v) { return v(0); }

double jitter(int n) {
  int *seed = (int *)malloc(n * sizeof(int));
  double *x = (double *)malloc(n * sizeof(double));
  double *base = (double *)malloc(sizeof(double));
  base[0] = 0.5;
  for (int i = 0; i < n; ++i)
    seed[i] = i;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    x[i] = first(base) + pair(seed, i);
// DIAG: helpers.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// A pointer to const elements: read-only in the kernel.
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &x, dp::field<1, int> &seed, const dp::field<1, double> &base, int MULT) {
// REWRITE: x(i) = first(base) + pair(seed, i, MULT);
  const double last = x[n - 1];
  free(seed);
  free(x);
  free(base);
  return last;
}

// Constant tables of the file: one of literals and constants a device
// can use is declared in the kernel as written; one with a host
// variable's value is not (the kernel could not read that variable):
// the call-site borrows it whole, read-only.
constexpr int Taps = 3;
const double taps[Taps] = {0.25, 0.5, 0.25};
const double shifted[2] = {1.0, NI * 0.5};
double smooth(const double *v, double *s, int n) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; ++i)
    s[i] = taps[0] * v[i - 1] + taps[1] * v[i] + taps[2] * v[i + 1];
// DIAG: helpers.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const double taps[Taps] = {0.25, 0.5, 0.25};
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    s[i] += shifted[i % 2];
// DIAG: helpers.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, const double> dp_shifted = dp::borrow_read(shifted, dp::grid<1>(2), dp_s);
// REWRITE-NEXT: dp::forall({{.*}}, const dp::field<1, const double> &shifted) {
  return s[1];
}

int main() {
  NI = 4, NJ = 8;
  DECLARE(a, 32)
// A declaration a macro makes alone is replaced whole.
// REWRITE: dp::field<1, double> a{dp::grid<1>(32)};
  fill(a);
  for (int k = 0; k < 64; ++k)
    u[k] = k;
  roots(64);
  solve(8, u);
  jitter(16);
  return a[5] + w[4] > 0 ? 0 : 1;
}
// SUMMARY: migrated 6 of 7 loops (1 refused)
