// C arrays a private clause names (miniWeather's `private(stencil, vals,
// d3_vals)`): each iteration's own, declared in the kernel with the
// extents as written, so neither dp::fields nor shared between the
// iterations. An iteration must write such an array before it reads it
// (a private copy starts with what the thread's previous iteration
// left); an array used outside the loops that name it private stays an
// array as any other.
#include <stdio.h>

#define NUM_VARS 4
#define STEN 4

// As miniWeather's fluxes: a stencil gathered, then interpolated.
void fluxes(const double *state, double *flux, int nx, int nz) {
  double stencil[STEN], vals[NUM_VARS], d3_vals[NUM_VARS];
  int ll, s;
#pragma acc parallel loop collapse(2) private(stencil, vals, d3_vals)
  for (int k = 0; k < nz; k++) {
    for (int i = 0; i < nx; i++) {
      for (ll = 0; ll < NUM_VARS; ll++) {
        for (s = 0; s < STEN; s++)
          stencil[s] = state[(ll * nz + k) * (nx + 3) + i + s];
        vals[ll] = -stencil[0] / 12 + 7 * stencil[1] / 12 + 7 * stencil[2] / 12 - stencil[3] / 12;
        d3_vals[ll] = -stencil[0] + 3 * stencil[1] - 3 * stencil[2] + stencil[3];
      }
      flux[k * nx + i] = vals[0] * vals[1] - d3_vals[2] + vals[3];
    }
  }
// DIAG: private_arrays.c:[[@LINE-11]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// REWRITE:      const int i = idx[1];
// REWRITE-NEXT: double stencil[STEN];
// REWRITE-NEXT: double vals[NUM_VARS];
// REWRITE-NEXT: double d3_vals[NUM_VARS];
// REWRITE:      stencil[s] = state((ll * nz + k) * (nx + 3) + i + s);
// REWRITE:      flux(k * nx + i) = vals[0] * vals[1] - d3_vals[2] + vals[3];
// The kernel's own arrays are no arguments: nothing of them crosses to a
// device.
// REWRITE-NEXT: }, state, flux);

  // The same arrays private to a second loop of the function.
#pragma omp parallel for private(stencil, ll)
  for (int i = 0; i < nx; i++) {
    for (ll = 0; ll < STEN; ll++)
      stencil[ll] = state[i + ll];
    flux[i] += stencil[0] - stencil[3];
  }
// DIAG: private_arrays.c:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      double stencil[STEN];
// REWRITE-NEXT: int ll;
}

// Two dimensions, and a type of its own.
typedef float real;
void blocks(real *out, int n) {
  real m[2][3];
#pragma omp parallel for private(m)
  for (int i = 0; i < n; i++) {
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 3; c++)
        m[r][c] = (real)(i + r * c);
    out[i] = m[0][1] + m[1][2];
  }
// DIAG: private_arrays.c:[[@LINE-6]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      real m[2][3];
// REWRITE:      out(i) = m[0][1] + m[1][2];
}

// Read before written: the thread's previous iteration's value.
void stale(double *out, int n) {
  double t[2];
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    out[i] = t[0];
    t[0] = i;
  }
// DIAG: private_arrays.c:[[@LINE-3]]:14: warning: not converted: 't[0]' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]
}

// Written only under a condition first.
void maybe(double *out, const double *in, int n) {
  double t[1];
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    if (in[i] > 0)
      t[0] = in[i];
    out[i] = t[0];
  }
// DIAG: private_arrays.c:[[@LINE-3]]:7: warning: not converted: 't[0]' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]
}

// Used outside the loops that name it private: as a dp::field it would
// be shared by the iterations, so the loop stays.
void shared(double *out, int n) {
  double w[2];
  w[1] = 2.0;
#pragma omp parallel for private(w)
  for (int i = 0; i < n; i++) {
    w[0] = i;
    out[i] = w[0] * w[1];
  }
// DIAG: private_arrays.c:[[@LINE-3]]:5: warning: not converted: 'w' is named private, and the function also uses it outside the loops naming it private (line [[@LINE-6]]); declare it in the loop [dp-migrate]
}

// Handed whole to a function: a kernel's own copy is used by elements.
static void fill(double *p, int i) { p[0] = i; p[1] = -i; }
void handed(double *out, int n) {
  double t[2];
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    fill(t, i);
    out[i] = t[0] + t[1];
  }
// DIAG: private_arrays.c:[[@LINE-3]]:10: warning: not converted: 't' is named private, and the loop uses it whole ('t'), where a kernel's own copy is used by its elements [dp-migrate]
}

int main(void) {
  enum { NX = 6, NZ = 2 };
  double state[NUM_VARS * NZ * (NX + 3)], flux[NX * NZ];
  for (int k = 0; k < NUM_VARS * NZ * (NX + 3); k++)
    state[k] = k % 5;
  fluxes(state, flux, NX, NZ);
  real out[4];
  blocks(out, 4);
  printf("%g %g %g\n", flux[0], flux[NX * NZ - 1], out[3]);
  return 0;
}
