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
// DIAG: private_arrays.c:[[@LINE-3]]:5: warning: not converted: 'w' is named private, and the program also uses it outside the loops that make it each iteration's own (line [[@LINE-6]]); declare it in the loop [dp-migrate]
}

// Handed to a helper that only writes it (NPB's `exact_solution(xi, eta,
// zeta, dtemp)`): the call writes the kernel's own array, handed on as
// written, and the helper's parameter stays a pointer.
static void fill(double *p, int i) { p[0] = i; p[1] = -i; }
// REWRITE: static void fill(double *p, int i) { p[0] = i; p[1] = -i; }
void handed(double *out, int n) {
  double t[2];
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    fill(t, i);
    out[i] = t[0] + t[1];
  }
// DIAG: private_arrays.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      const int i = idx[0];
// REWRITE-NEXT: double t[2];
// REWRITE-NEXT: fill(t, i);
// REWRITE-NEXT: out(i) = t[0] + t[1];
// REWRITE-NEXT: }, dp_out);
}

// A helper that also reads it: the value the thread's previous
// iteration left.
static void add(double *p, int i) { p[0] += i; }
void handedRead(double *out, int n) {
  double t[1];
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    add(t, i);
    out[i] = t[0];
  }
// DIAG: private_arrays.c:[[@LINE-3]]:9: warning: not converted: 't' is named private, and the loop uses it whole ('t'), where a kernel's own copy is used by its elements or handed to a helper that only writes it [dp-migrate]
}

// Written first under a condition, in the block that holds every other
// use (NPB LU's `if (...) { exact(0, jglob, k, ue_1jk); ... ue_1jk[m]
// ... }`): every pass through the block writes it before reading it.
void guarded(double *out, const double *in, int n) {
  double t[2];
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    out[i] = 0;
    if (in[i] > 0) {
      fill(t, i);
      out[i] = t[0] * t[1];
    }
  }
// DIAG: private_arrays.c:[[@LINE-7]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      fill(t, i);
// REWRITE-NEXT: out(i) = t[0] * t[1];
}

// Declared in the `omp parallel` region around an `omp for`: each
// thread's own in the original (NPB BT's `exact_rhs`), as a clause would
// make it; rows of it handed to the helper by address (BT's
// `&Pface[ix][0][0]`).
void region(double *out, int n) {
#pragma omp parallel
  {
    double face[2][2];
    int ix;
#pragma omp for
    for (int i = 0; i < n; i++) {
      for (ix = 0; ix < 2; ix++)
        fill(&face[ix][0], i + ix);
      out[i] = face[0][0] * face[1][1];
    }
// DIAG: private_arrays.c:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      double face[2][2];
// REWRITE:      fill(&face[ix][0], i + ix);
// REWRITE-NEXT: out(i) = face[0][0] * face[1][1];
  }
}

// Read in the region after the loop: each thread's last values, which
// no iteration of a kernel holds. (Before, the array became one
// dp::field every iteration wrote.)
void regionAfter(double *out, int n) {
#pragma omp parallel
  {
    double last[1];
#pragma omp for
    for (int i = 0; i < n; i++) {
      last[0] = i;
      out[i] = last[0];
    }
// DIAG: private_arrays.c:[[@LINE-3]]:7: warning: not converted: 'last' is each thread's own in the original (declared in its 'omp parallel' region, or a local of the function its team runs), and the program also uses it outside the loops that make it each iteration's own (line [[@LINE+2]]); declare it in the loop [dp-migrate]
#pragma omp critical
    out[0] += last[0];
  }
}

// Only read by its elements: a table each thread of the original holds
// the same values of; the kernel copies it, as any table the loop reads.
void weights(double *out, int n) {
#pragma omp parallel
  {
    double w[3] = {0.25, 0.5, 0.25};
#pragma omp for
    for (int i = 0; i < n; i++)
      out[i] = w[i % 3] * i;
// DIAG: private_arrays.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: out(i) = w[i % 3] * i;
  }
}

// Threadprivate scratch every iteration writes first (NPB BT's `ue` and
// `buf`): the kernel's own, as each thread's copy was.
static double row[8];
#pragma omp threadprivate(row)
void scratch(double *out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 8; k++)
      row[k] = i * k;
    out[i] = row[7] - row[1];
  }
// DIAG: private_arrays.c:[[@LINE-5]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      double row[8];
// REWRITE:      out(i) = row[7] - row[1];
}

// A helper handed an iteration's own array by one loop and a dp::field
// by another: its parameter cannot be both, so the first loop stays.
static void fill2(double *p, int i) { p[0] = i; p[1] = -i; }
// REWRITE: static void fill2(dp::field<1, double> p, int i) { p(0) = i; p(1) = -i; }
void both(double *out, double *dst, int n) {
  double t[2];
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    fill2(t, i);
    out[i] = t[0];
  }
// DIAG: private_arrays.c:[[@LINE-4]]:3: warning: not converted: 'p' cannot become a dp::field: the loop hands 'fill2' an array of each iteration's own for it, and another loop a dp::field [dp-migrate]
#pragma omp parallel for
  for (int i = 0; i < 1; i++)
    fill2(dst, i);
// DIAG: private_arrays.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
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
