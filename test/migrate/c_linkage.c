// A C file others call: as C++, its functions would be linked by mangled
// names, which the C files calling them do not use. Each function the
// file defines for other files keeps C linkage: `extern "C"` on its
// declarations here, and the user's header that declares it, which says
// nothing of C++, included inside `extern "C" { }`.
#include <math.h>
#include "c_linkage_api.h"
// REWRITE: #include <math.h>
// REWRITE-NEXT: extern "C" {
// REWRITE-NEXT: #include "c_linkage_api.h"
// REWRITE-NEXT: }
// A header whose guards hold `total` but not `fill`: wrapped too (C++
// would read `fill` there with C++ linkage, then the definition's
// `extern "C"` as another's); the blocks nest.
#include "c_linkage_guarded.h"
// REWRITE: extern "C" {
// REWRITE-NEXT: #include "c_linkage_guarded.h"
// REWRITE-NEXT: }

// A header of the user's that declares only functions another file of
// the C program defines, which this file calls: wrapped too (as C++ the
// calls would name mangled symbols no C file defines); and so is a
// declaration of one written here.
#include "c_linkage_lib.h"
// REWRITE: extern "C" {
// REWRITE-NEXT: #include "c_linkage_lib.h"
// REWRITE-NEXT: }
extern float bias(int i);
// REWRITE: extern "C" float bias(int i);
float unused(int i);
// REWRITE: {{^}}float unused(int i);

extern void scale(int n, float k, float *x);
// REWRITE: extern "C" void scale(int n, float k, float *x);
static float sq(float v) { return v * v; }
// REWRITE: static float sq(float v) { return v * v; }
inline float half(float v) { return 0.5f * v; }
// REWRITE: inline float half(float v) { return 0.5f * v; }

void axpy(int n, float a, float *y, const float *x) {
// REWRITE: extern "C" void axpy(int n, float a, float *y, const float *x) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
// DIAG: c_linkage.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

double norm(int n, const float *x) {
// REWRITE: extern "C" double norm(int n, const float *x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sq(x[i]);
  return sqrt(s);
}

void scale(int n, float k, float *x) {
// REWRITE: extern "C" void scale(int n, float k, float *x) {
  for (int i = 0; i < n; ++i)
    x[i] = half(k) * x[i];
}
void fill(int n, float *x, float v) {
// REWRITE: extern "C" void fill(int n, float *x, float v) {
  for (int i = 0; i < n; ++i)
    x[i] = v * gain(i) + bias(i);
}

float total(int n, const float *x) {
// REWRITE: extern "C" float total(int n, const float *x) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}
// A type spelled by a macro starts the definition (NeoRodinia's REAL):
// `extern "C"` goes before it.
#define REAL float
REAL first(const REAL *x) { return x[0]; }
// REWRITE: extern "C" REAL first(const REAL *x) { return x[0]; }
// SUMMARY: migrated 1 of 1 loop (0 refused)
