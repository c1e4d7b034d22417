// A C source: parsed as C (gnu99, as a makefile builds it), its loops
// migrated as any; what comes out is C++, so the C around them that C++
// rejects is made C++ too, and no more than that.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
// dp's header first, then the header of a library function the file
// calls undeclared (strlen, time and omp_get_max_threads, below), then
// the file's own.
// REWRITE: #include <dp/dp.hpp>
// REWRITE-NEXT: #include <fcntl.h>
// REWRITE-NEXT: #include <omp.h>
// REWRITE-NEXT: #include <string.h>
// REWRITE-NEXT: #include <time.h>
// REWRITE-NEXT: #include <unistd.h>
// REWRITE-NEXT: #include <math.h>

enum mode { PLAIN, SCALED };

// `restrict` is C's; a parameter that becomes a field drops it with the
// pointer, one that stays keeps its meaning as `__restrict`.
static void scale(float *restrict out, const float *restrict in, int n, float k) {
// REWRITE: static void scale(dp::field<1, float> out, dp::field<1, const float> in, int n, float k) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    out[i] = k * in[i];
// DIAG: c_source.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
}

static int letters(const char *restrict s) {
// REWRITE: static int letters(const char *__restrict s) {
  int k = 0;
  while (s[k])
    ++k;
  return k;
}

// K&R definitions (old codes, Rodinia's backprop) get the prototype C++
// needs: the types C gave the parameters, an undeclared one int, the
// comments kept after it.
static float squash(x)
float x;
{
  return 1.0f / (1.0f + expf(-x));
}
// REWRITE: static float squash(float x) {

static void weigh(w, n, k) /* the weights */
float *w; /* n of them */
{
  for (int i = 0; i < n; ++i)
    w[i] = squash(w[i] * k);
}
// REWRITE: static void weigh(float *w, int n, int k) /* the weights */ /* n of them */ {

static long
twice(x)
  register long x; // a register
{
  return 2 * x;
}
// REWRITE: twice(long x) // a register
// REWRITE-NEXT: {

// C89's implicit int; a local named by a keyword of C++, renamed with its
// every use (a macro's argument too); POSIX functions called with no
// declaration get their headers (fcntl.h, unistd.h above).
#define COPY(to, from) ((to) = (from))
static counted(const char *path)
{
  int fd = open(path, 0), class = 0;
  char c;
  while (read(fd, &c, 1) == 1)
    COPY(class, class + 1);
  close(fd);
  return class;
}
// REWRITE: static int counted(const char *path)
// REWRITE: int fd = open(path, 0), class_ = 0;
// REWRITE: COPY(class_, class_ + 1);
// REWRITE: return class_;

// A function that returns a value and may end without one, which C
// allows where callers ignore the value: C++ compilers take such an end
// as one no run reaches (g++ -O2 runs on into whatever code follows), so
// it ends with a return. One whose every path returns stays as it is.
static clamp(v, n)
float *v;
{
  for (int i = 0; i < n; ++i)
    if (v[i] > 1)
      v[i] = 1;
}
// REWRITE: static int clamp(float *v, int n) {
// REWRITE: if (v[i] > 1)
// REWRITE-NEXT: v[i] = 1;
// REWRITE-NEXT: return {}; // C left this value unset; C++ may not end without one
// REWRITE-NEXT: {{^}}}
static int sign(int x) {
  if (x < 0)
    return -1;
  else
    return 1;
} /* sign ends */
// REWRITE: static int sign(int x) {
// REWRITE-NOT: {{^ *}}return {};
// REWRITE: } /* sign ends */
static int forever(int x) {
  while (1)
    if (x++ > 3)
      return x;
} /* forever ends */
// REWRITE-NOT: {{^ *}}return {};
// REWRITE: } /* forever ends */
static int fails(int x) {
  if (x)
    return x;
  abort();
} /* fails ends */
// REWRITE-NOT: {{^ *}}return {};
// REWRITE: } /* fails ends */

// Declarations without their parameters, called with them before the
// definition gives them: C++ reads `()` as taking none and rejects the
// calls, so each gets the parameters of its definition, K&R or not (and
// C linkage with it, where other files may call it).
static void halve();
double total();
// REWRITE: static void halve(float *v, int n);
// REWRITE: extern "C" double total(const float *v, int n);
// The same for a function handed on, not called: qsort's comparator.
static int descending();
// REWRITE: static int descending(const void *x, const void *y);

int main(void) {
  int n = 1000;
  // malloc's `void *` converts implicitly in C: an allocation that becomes
  // a field needs no cast, one that stays a pointer gets the one C++ needs.
  float *a = malloc(n * sizeof(float));
  float *b = malloc(sizeof(float) * n);
  char *name = malloc(16);
  enum mode m = 1;
// REWRITE: dp::field<1, float> a{dp::grid<1>(n)};
// REWRITE: dp::field<1, float> b{dp::grid<1>(n)};
// REWRITE: char *name = (char *)malloc(16);
// REWRITE: enum mode m = (enum mode)1;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = 0.5f * i;
// DIAG: c_source.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  scale(b, a, n, m == SCALED ? 2.0f : 1.0f);
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += b[i];
// DIAG: c_source.c:[[@LINE-2]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
  // C++ overloads C's math functions: a float into sqrt, a double into
  // abs, would pick another function; the conversion C makes is written.
  float h = 0.75f;
  double d = -2.5;
  printf("%.12f %d\n", sqrt(h * h + 1), abs(d));
  // <math.h>'s HUGE_VAL and INFINITY call the compiler's builtins, which
  // C++ declares too: nothing to include, nothing to report.
  printf("%d %d\n", d < HUGE_VAL, h < INFINITY);
// REWRITE: printf("%.12f %d\n", sqrt((double)(h * h + 1)), abs((int)d));
  sprintf(name, "sum");
  // A library function called with no declaration, which C allows (with
  // a warning): the migration includes its header.
  printf("%s %d %.1f %zu %d\n", name, (int)m, s, strlen(name), letters(name));
  // Functions of POSIX and of OpenMP's runtime, also called undeclared
  // (Rodinia's particlefilter and hotspot3D), have their headers too.
  printf("%d %d\n", time(NULL) > 0, omp_get_max_threads() > 0);
  float w[4] = {1, 2, 3, 4};
  halve(w, 4);
  clamp(w, 4);
  printf("%d %d %d\n", sign(-3), forever(0), fails(2));
  printf("%.2f\n", total(w, 4));
  qsort(w, 4, sizeof w[0], descending);
  printf("%.2f\n", w[0]);
  free(a);
  free(b);
  free(name);
  return 0;
}

static void halve(v, n)
float *v;
int n;
{
  for (int i = 0; i < n; ++i)
    v[i] *= 0.5f;
}

double total(const float *v, int n) {
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += v[i];
  return t;
}

static int descending(const void *x, const void *y) {
  const float u = *(const float *)x, v = *(const float *)y;
  return (u < v) - (u > v);
}
// SUMMARY: migrated 3 of 3 loops (0 refused)
