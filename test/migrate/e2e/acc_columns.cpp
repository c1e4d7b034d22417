// An OpenACC program in the style of atmosphere and ocean codes, for
// dpstub --migrate's end-to-end test: raw pointers with linearised
// indices through an index helper, sizes in namespace-scope variables,
// collapse(3) over variables x levels x columns, private scalars, halo
// updates, a data region with an async queue, a two-variable reduction,
// and a sweep down the levels that a directive wrongly calls parallel (it
// runs in order on the host, around its columns' call-site), and column
// integrals that reduce into one element of an array per variable, and
// winds set through helpers (free functions and members) that return
// their results by reference.
// Every value is a small dyadic number, so every order of summation gives
// the same bits: the migrated program must print exactly this program's
// output (built with its directives ignored).
#include <cstdio>
#include <cstdlib>

static int NV, NK, NI; // variables, levels, columns (with one halo column each side)

static int at(int v, int k, int i) { return (v * NK + k) * NI + i; }

/// One explicit step of an upwind-like update on the interior columns.
static void step(double *q, double *tend, const double *wind, double dt) {
#pragma acc parallel loop collapse(3) present(q, tend, wind) async(1)
  for (int v = 0; v < NV; ++v)
    for (int k = 0; k < NK; ++k)
      for (int i = 1; i < NI - 1; ++i) {
        double left, right;
        const double w = wind[k * NI + i];
        left = q[at(v, k, i - 1)];
        right = q[at(v, k, i + 1)];
        if (w > 0)
          tend[at(v, k, i)] = w * (q[at(v, k, i)] - left);
        else
          tend[at(v, k, i)] = w * (right - q[at(v, k, i)]);
      }
#pragma acc parallel loop collapse(3) present(q, tend) async(1)
  for (int v = 0; v < NV; ++v)
    for (int k = 0; k < NK; ++k)
      for (int i = 1; i < NI - 1; ++i)
        q[at(v, k, i)] -= dt * tend[at(v, k, i)];
}

/// Periodic halo columns.
static void halo(double *q) {
#pragma acc parallel loop collapse(2) present(q) async(1)
  for (int v = 0; v < NV; ++v)
    for (int k = 0; k < NK; ++k) {
      q[at(v, k, 0)] = q[at(v, k, NI - 2)];
      q[at(v, k, NI - 1)] = q[at(v, k, 1)];
    }
}

/// An implicit sweep down each column: level k needs level k - 1, so the
/// levels run in order, whatever the directive says; the columns of a
/// level are independent.
static void sweep(double *q) {
#pragma acc parallel loop present(q)
  for (int k = 1; k < NK; ++k) {
#pragma acc loop
    for (int i = 1; i < NI - 1; ++i)
      q[at(0, k, i)] += 0.5 * q[at(0, k - 1, i)];
  }
}

/// Each interface's value, interpolated from the four columns around it
/// for every variable: the stencil and the values are arrays private to
/// each iteration (as miniWeather's fluxes), declared once outside.
static constexpr int MaxVars = 4;
static void interfaces(const double *q, double *flux) {
  double stencil[4], vals[MaxVars];
#pragma acc parallel loop collapse(2) private(stencil, vals) present(q, flux)
  for (int k = 0; k < NK; ++k)
    for (int i = 2; i < NI - 1; ++i) {
      for (int v = 0; v < NV; ++v) {
        for (int s = 0; s < 4; ++s)
          stencil[s] = q[at(v, k, i - 2 + s)];
        vals[v] = (-stencil[0] + 9 * stencil[1] + 9 * stencil[2] - stencil[3]) / 16;
      }
      flux[k * NI + i] = vals[0] - 0.5 * vals[NV - 1];
    }
}

/// A level's wind and a column's gust, returned through references (as
/// miniWeather's `thermal(x, z, r, u, w, t, hr, ht)`), one helper calling
/// the other.
static void level_wind(int k, double &w) { w = (k % 2) ? 0.5 : -0.25; }
static void column_wind(int k, int i, double &w, double &gust) {
  level_wind(k, w);
  gust = 0;
  if (i % 5 == 0)
    gust = 0.125;
}

/// A drag law whose helpers are members: a static one and a const one,
/// called on an object the kernel copies.
struct Drag {
  double coefficient;
  static void split(double v, double &up, double &down) {
    up = v > 0 ? v : 0;
    down = v > 0 ? 0 : v;
  }
  void apply(double up, double down, double &out) const { out = coefficient * up + down; }
};

static void winds(double *wind) {
  double w, gust, up, down;
  const Drag drag{0.75};
#pragma acc parallel loop collapse(2) private(w, gust, up, down) copyout(wind[0:NK*NI])
  for (int k = 0; k < NK; ++k)
    for (int i = 0; i < NI; ++i) {
      column_wind(k, i, w, gust);
      Drag::split(w, up, down);
      drag.apply(up, down, w);
      wind[k * NI + i] = w + gust;
    }
}

/// Total mass and the largest value of variable 0.
static void diagnose(const double *q, double *mass, double *peak) {
  double m = 0, p = -1;
#pragma acc parallel loop collapse(2) present(q) reduction(+:m) reduction(max:p)
  for (int k = 0; k < NK; ++k)
    for (int i = 1; i < NI - 1; ++i) {
      m += q[at(0, k, i)];
      if (q[at(0, k, i)] > p)
        p = q[at(0, k, i)];
    }
  *mass = m;
  *peak = p;
}

/// The integral of each variable: the loop over the levels and columns
/// sums into tot[v], one element the host's loop over v fixes.
static void integrate(const double *q, double *tot) {
  for (int v = 0; v < NV; ++v) {
    tot[v] = v;
#pragma acc parallel loop collapse(2) present(q)
    for (int k = 0; k < NK; ++k)
      for (int i = 1; i < NI - 1; ++i)
        tot[v] += q[at(v, k, i)] * (k + 1);
  }
}

int main() {
  NV = 3, NK = 5, NI = 34;
  const int n = NV * NK * NI;
  double *q = (double *)malloc(n * sizeof(double));
  double *tend = (double *)calloc(n, sizeof(double));
  double *wind = (double *)malloc(NK * NI * sizeof(double));
  double *tot = (double *)malloc(NV * sizeof(double));
  double *flux = (double *)calloc(NK * NI, sizeof(double));
  for (int v = 0; v < NV; ++v)
    for (int k = 0; k < NK; ++k)
      for (int i = 0; i < NI; ++i)
        q[at(v, k, i)] = (i % 7 == 3) ? 4.0 * (v + 1) : 0.0;
  winds(wind);

  double mass = 0, peak = 0;
#pragma acc data copy(q[0:n], flux[0:NK*NI]) create(tend[0:n]) copyin(wind[0:NK*NI])
  {
    for (int t = 0; t < 6; ++t) {
      halo(q);
      step(q, tend, wind, 0.5);
    }
#pragma acc wait(1)
    sweep(q);
    diagnose(q, &mass, &peak);
    integrate(q, tot);
    interfaces(q, flux);
#pragma acc update host(q[0:n])
  }
  printf("mass %.17g peak %.17g\n", mass, peak);
  for (int v = 0; v < NV; ++v)
    printf("integral %d: %.17g\n", v, tot[v]);
  for (int v = 0; v < NV; ++v) {
    double s = 0;
    for (int k = 0; k < NK; ++k)
      for (int i = 1; i < NI - 1; ++i)
        s += q[at(v, k, i)] * (i + k);
    printf("variable %d: %.17g\n", v, s);
  }
  double f = 0;
  for (int k = 0; k < NK; ++k)
    for (int i = 2; i < NI - 1; ++i)
      f += flux[k * NI + i] * (i + 1);
  printf("interfaces: %.17g\n", f);
  free(flux);
  free(q);
  free(tend);
  free(wind);
  free(tot);
  return 0;
}
