// Locals a loop hands to helpers by reference (miniWeather's
// `thermal(x, z, r, u, w, t, hr, ht)`, whose `double &r` parameters are
// its results): each iteration's own, declared in the kernel and bound
// there as in the loop, when the helper's body shows it only reads and
// writes them. A helper that reads one before writing it, keeps its
// address, or has no body in view leaves the loop as it was.
#include <cmath>
#include <cstdio>

const double grav = 9.8, theta0 = 300.;
constexpr int specCollision = 1, specThermal = 2, spec = specThermal;

void hydro(double z, double &r, double &t) {
  const double exner = 1. - grav * z / (1004. * theta0);
  t = theta0;
  r = std::pow(exner, 2.5) / t;
}

void thermal(double x, double z, double &r, double &t, double &hr, double &ht) {
  hydro(z, hr, ht);
  r = 0.;
  t = 0.;
  if (x > 0.5)
    t = t + 1.;
}

void accumulate(double v, double &sum) { sum += v; }

void maybe(double v, double &r) {
  if (v > 2)
    r = v;
}

void early(double v, double &r) {
  if (v < 0)
    return;
  r = v;
}

void keep(double &r) {
  double *p = &r;
  *p = 1.;
}

#pragma omp declare target
void external(double &r);
#pragma omp end declare target

// Helpers that are members: a static one, and a const one called on an
// object the kernel copies; a member that is not const cannot be called
// on that copy.
struct Eos {
  double gamma;
  static void split(double v, double &hi, double &lo) {
    hi = v * 2;
    lo = v - 1;
  }
  void pressure(double rho, double &p) const { p = gamma * rho; }
  double scaled(double rho) { return gamma * rho; }
};

void init(double *state, double *hy, int nx, int nz, double dx, double dz) {
  double x, z, r, t, hr, ht;
#pragma omp parallel for private(x, z, r, t, hr, ht) collapse(2)
  for (int k = 0; k < nz; k++)
    for (int i = 0; i < nx; i++) {
      x = (i + 0.5) * dx;
      z = (k + 0.5) * dz;
      thermal(x, z, r, t, hr, ht);
      state[k * nx + i] = r + hr * (t + ht);
    }
// DIAG: out_parameters.cpp:[[@LINE-7]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// The kernel's own variables, bound to the helper's references; only
// the field and the helpers' constants are its arguments.
// REWRITE:      {{.*}}[=](dp::index<2> idx, dp::field<1, double> &state, double grav, double theta0) {
// REWRITE:      double x;
// REWRITE:      thermal(x, z, r, t, hr, ht, grav, theta0);
// REWRITE:      }, state, grav, theta0);
#pragma omp parallel for private(z, r, t)
  for (int k = 0; k < nz; k++) {
    z = (k + 0.5) * dz;
    hydro(z, r, t);
    hy[k] = r * t;
  }
// DIAG: out_parameters.cpp:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// A constant selects the helper (miniWeather's `if (data_spec_int ==
// DATA_SPEC_THERMAL)` over a constexpr): the branch taken is the only
// path, so the helper it calls writes r and t on every path.
#pragma omp parallel for private(z, r, t)
  for (int k = 0; k < nz; k++) {
    z = (k + 0.5) * dz;
    if (spec == specCollision) { hydro(z + 1., r, t); }
    if (spec == specThermal) { hydro(z, r, t); }
    hy[k] += r * t;
  }
// DIAG: out_parameters.cpp:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

void equation(double *a, int n) {
  const Eos eos{1.4};
  Eos loose{1.2};
  double hi, lo, p;
#pragma omp parallel for private(hi, lo, p)
  for (int i = 0; i < n; i++) {
    Eos::split(a[i], hi, lo);
    eos.pressure(hi, p);
    a[i] = hi + lo + p;
  }
// DIAG: out_parameters.cpp:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      {{.*}}[=](dp::index<1> idx, dp::field<1, double> &a) {
// REWRITE:      {{ *}}double p;
// REWRITE-NEXT: {{ *}}Eos::split(a(i), hi, lo);
// REWRITE-NEXT: {{ *}}eos.pressure(hi, p);
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = loose.scaled(a[i]);
// DIAG: out_parameters.cpp:[[@LINE-1]]:12: warning: not converted: the loop calls 'scaled', not a const member function, on 'loose', of which each iteration of a kernel holds a copy it cannot change (a change would be a race between iterations); make 'scaled' const if it changes nothing [dp-migrate]
}

double refused(double *a, int n) {
  double s = 0, r = 0;
#pragma omp parallel for private(s)
  for (int i = 0; i < n; i++) {
    accumulate(a[i], s);
    a[i] = s;
  }
// DIAG: out_parameters.cpp:[[@LINE-3]]:22: warning: not converted: 's' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]
#pragma omp parallel for private(r)
  for (int i = 0; i < n; i++) {
    maybe(a[i], r);
    a[i] = r;
  }
// DIAG: out_parameters.cpp:[[@LINE-2]]:12: warning: not converted: 'r' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]
// A selector known only when the program runs: the other path keeps r.
#pragma omp parallel for private(r)
  for (int i = 0; i < n; i++) {
    if (n > 2)
      hydro(a[i], r, s);
    a[i] = r;
  }
// DIAG: out_parameters.cpp:[[@LINE-2]]:12: warning: not converted: 'r' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]
#pragma omp parallel for private(r)
  for (int i = 0; i < n; i++) {
    early(a[i], r);
    a[i] = r;
  }
// DIAG: out_parameters.cpp:[[@LINE-2]]:12: warning: not converted: 'r' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]
#pragma omp parallel for private(r)
  for (int i = 0; i < n; i++) {
    keep(r);
    a[i] = r;
  }
// DIAG: out_parameters.cpp:[[@LINE-3]]:10: warning: not converted: 'r' is bound to a reference parameter of 'keep', which takes its address or binds another reference to it [dp-migrate]
#pragma omp parallel for private(r)
  for (int i = 0; i < n; i++) {
    external(r);
    a[i] = r;
  }
// DIAG: out_parameters.cpp:[[@LINE-3]]:14: warning: not converted: 'r' is bound to a reference parameter of 'external', whose body is not in view [dp-migrate]
  return a[0];
}


int main() {
  const int nx = 4, nz = 3;
  double state[nx * nz], hy[nz], a[5] = {1, 2, 3, 4, 5};
  init(state, hy, nx, nz, 1. / nx, 1000.);
  for (int k = 0; k < nz; k++)
    std::printf("%.6f %.6f %.6f\n", state[k * nx], state[k * nx + nx - 1], hy[k]);
  std::printf("%g\n", refused(a, 5));
  equation(a, 5);
  std::printf("%g %g\n", a[0], a[4]);
  return 0;
}
