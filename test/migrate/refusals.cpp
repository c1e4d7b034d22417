// Loops --migrate leaves as they are, each with one warning naming the
// construct that stops it (or the two accesses and their distance), at
// its place. Nothing is converted here, so the source stays as written.
#include <cstdio>
#include <array>
#include <cstdlib>
#include <vector>
#include "refusals_loops.h"
// DIAG: refusals_loops.h:7:3: warning: not converted: the loop is in 'refusals_loops.h', which this file includes; --migrate converts the loops of the file it is given, so run it on 'refusals_loops.h' [dp-migrate]

double lookup(double x);     // defined in another file
void consume(double (*rows)[4]); // defined in another file, wants rows
struct Grid {
  double *cells;
  int n;
};
static int calls = 0;

void refusals(int n, double *a, double *b, int *idx, Grid &g) {
  double last = 0, carry = 0, shared = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0)
      break;
// DIAG: refusals.cpp:[[@LINE-1]]:7: warning: not converted: a 'break' leaves the loop early, and the iterations of a call-site all run [dp-migrate]
    b[i] = a[i];
  }

#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    b[i] = lookup(a[i]);
// DIAG: refusals.cpp:[[@LINE-1]]:12: warning: not converted: the loop calls 'lookup', which is defined in another file and not declared for the device (`#pragma acc routine` or `omp declare target` at its declaration) [dp-migrate]

#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    printf("%f\n", a[i]);
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: the loop calls 'printf', a library function with no device version [dp-migrate]

#pragma omp parallel for
  for (int i = 1; i < n; i *= 2)
    b[i] = a[i];
// DIAG: refusals.cpp:[[@LINE-2]]:3: warning: not converted: the loop's step is not a value the loop keeps, added to 'i' [dp-migrate]

  // A step the loop itself changes, or one read through a pointer (which
  // anything may change), is not one step of a grid. (A variable the
  // function sets before the loop is: loops.cpp's run-time tiles.)
  int stride = 2;
#pragma omp parallel for
  for (int i = 0; i < n; i += stride)
    b[i] = a[stride++];
// DIAG: refusals.cpp:[[@LINE-2]]:3: warning: not converted: the loop's step is not a value the loop keeps, added to 'i' [dp-migrate]
  const int *step = &stride;
#pragma omp parallel for
  for (int i = 0; i < n; i += *step)
    b[i] = a[i];
// DIAG: refusals.cpp:[[@LINE-2]]:3: warning: not converted: the loop's step is not a value the loop keeps, added to 'i' [dp-migrate]
  // With '!=', a step of more than one may pass the bound.
  const int by = n / 4;
#pragma omp parallel for
  for (int i = 0; i != n; i += by)
    b[i] = a[i];
// DIAG: refusals.cpp:[[@LINE-2]]:3: warning: not converted: the loop compares 'i' with '!=' and steps by 'by', which may step over its bound [dp-migrate]

#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i / 2; ++j)
      b[i * n + j] = a[i * n + j];
// DIAG: refusals.cpp:[[@LINE-2]]:25: warning: not converted: the bounds of 'j' depend on 'i' (the nest is not rectangular, so it is not a grid) [dp-migrate]

// A dependence the tool proves: the directive would change what the
// program computes.
#pragma omp parallel for
  for (int i = 1; i < n; ++i)
    b[i] = b[i - 1] + a[i];
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: 'b[i]' and 'b[i - 1]' touch the same element from iterations (1) apart, so they must run in order [dp-migrate]
// DIAG: refusals.cpp:[[@LINE-2]]:12: note: the other access

#pragma acc parallel loop
  for (int i = 0; i < n; ++i) {
    carry = carry * 0.5 + a[i];
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: 'carry' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]
    b[i] = carry;
  }

// A private copy is the thread's: an iteration that may read it before
// writing it sees what the thread's previous iteration left (Rodinia's
// hotspot), which no kernel's iteration has.
  double delta;
#pragma omp parallel for private(delta)
  for (int i = 0; i < n; ++i) {
    if (a[i] > 0)
      delta = a[i];
    b[i] = delta;
// DIAG: refusals.cpp:[[@LINE-1]]:12: warning: not converted: 'delta' is read before it is written in an iteration, so it carries a value from one iteration to the next [dp-migrate]
  }

// A private copy starts with no value: a loop that only reads it reads
// whatever the copy holds (NeoRodinia's stencil names the enclosing
// loop's variable so), where a kernel would read the value before it.
  for (int j = 0; j < n; ++j) {
#pragma omp parallel for private(j)
    for (int i = 0; i < n; ++i)
      b[i] += a[i] * j;
// DIAG: refusals.cpp:[[@LINE-1]]:22: warning: not converted: 'j' is private, but the loop only reads it: each thread's copy starts with no value; firstprivate(j) would start it from the value before the loop [dp-migrate]
  }

#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    shared = shared * 2 + a[i];
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: every iteration writes the shared variable 'shared' (a race in the original); list it in private() or reduction() [dp-migrate]

#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    last = a[i] * 2;
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: 'last' is written in the loop and read after it, which needs the last iteration's value [dp-migrate]
    b[i] = last;
  }
  printf("%f\n", last);

#pragma omp parallel for lastprivate(last)
// DIAG: refusals.cpp:[[@LINE-1]]:1: warning: not converted: 'lastprivate(last)' has no counterpart in a dp call-site [dp-migrate]
  for (int i = 0; i < n; ++i)
    last = a[i];

// (`g.cells[i]` alone converts: the call-site borrows it, paths.c.)
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    Grid own = g;
    own.cells[i] = 0;
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: 'own.cells[i]' cannot become a dp::field: its array is reached through 'own', a variable of the loop's own, and a kernel cannot follow its pointer into host memory [dp-migrate]
  }

#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    g.n += g.cells[i] > 0;
// DIAG: refusals.cpp:[[@LINE-1]]:7: warning: not converted: 'g.n' is a member of another object, which the loop writes; copy it into a local variable and back [dp-migrate]

#define CELL(grid, i) (grid).cells[i]
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    CELL(g, i) = 1;
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: 'g.cells' cannot become a dp::field: it is indexed inside a macro, where the kernel cannot take it as a parameter [dp-migrate]

// The access inside a macro's text (meschach's m_set_val): still named.
#define SET_CELL(grid, i, v) ((grid).cells[i] = (v))
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    Grid own = g;
    SET_CELL(own, i, 0);
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: '(own).cells[i]' cannot become a dp::field: its array is reached through 'own', a variable of the loop's own, and a kernel cannot follow its pointer into host memory [dp-migrate]
// DIAG: refusals.cpp:[[@LINE-6]]:31: note: expanded from macro 'SET_CELL'
  }

#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    b[0] += a[i];
// An atomic addition to an element is dp::atomic_add's, but this 'b' is
// an array dpstub does not follow.
// DIAG: refusals.cpp:[[@LINE-3]]:5: warning: not converted: 'b' cannot become a dp::field: '{a, b}' uses it in a way dpstub does not follow (line {{[0-9]+}}) [dp-migrate]
  }


// A region moves whole, or splits around the statements that move: here
// its second loop stays, and the region declares a variable both loops
// read, which a split would put out of one's reach (a declaration only
// the moving loops use goes with them); so its first loop stays too (a
// call-site left inside a parallel region would run once per thread).
#pragma omp parallel
  {
    const int half = n / 2;
#pragma omp for
// DIAG: refusals.cpp:[[@LINE-1]]:1: warning: not converted: another loop of the enclosing 'omp parallel' region stays a loop, so the region stays and none of its loops moves [dp-migrate]
    for (int i = 0; i < n; ++i)
      b[i] = half;
#pragma omp for
    for (int i = 0; i < n; ++i) {
      calls++;
// DIAG: refusals.cpp:[[@LINE-1]]:7: warning: not converted: 'calls' is reduced into a namespace-scope variable; reduce into a local and assign it [dp-migrate]
      b[i] += half;
    }
  }

// A pointer into the array kept beyond its statement (main's `tail`,
// which moves: a pointer only indexed would be an offset, see
// offset_pointers.c): the array cannot become a field. Written only under a condition, the
// loop does not show how far it reaches, so it cannot borrow it either.
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    if (a[i] > 0)
      idx[i] = n - 1 - i;
// DIAG: refusals.cpp:[[@LINE-1]]:7: warning: not converted: 'idx' cannot become a dp::field: 'idx + 1' uses it as a pointer (line [[#@LINE+81]]) [dp-migrate]
// DIAG: refusals.cpp:[[@LINE-2]]:7: note: the call-site could borrow 'idx', but the loop's accesses do not show how far it reaches

// A 2-D C array handed whole to a function that wants its rows: a field
// has elements, not rows, so it stays an array.
  double m[4][4];
#pragma omp parallel for
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      m[i][j] = i + j;
// DIAG: refusals.cpp:[[@LINE-1]]:7: warning: not converted: 'm' cannot become a dp::field: it is handed whole to 'consume', which expects a C array (line [[#@LINE+1]]) [dp-migrate]
  consume(m);
}

// A function template of several instances: one text cannot take a
// field of each element type, so its pointers stay; and one instance's
// elements are pointers, so its text cannot borrow them either.
template <typename T> void zero(T *p, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    p[i] = 0;
}
// DIAG: refusals.cpp:[[@LINE-2]]:5: warning: not converted: 'p' cannot become a dp::field: 'zero' has 3 instances, and one text cannot take the fields of each (line [[#@LINE-5]]) [dp-migrate]

// A call whose function depends on the template's parameters (miniBUDE's
// `fasten_main<PPWI>(...)` in a class template): its callee is known in
// each instance alone, not in the text dpstub rewrites.
template <int W> double weigh(double x) { return W * x; }
template <int W> void weigh_all(double *a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = weigh<W>(a[i]);
}
// DIAG: refusals.cpp:[[@LINE-2]]:12: warning: not converted: the loop calls 'weigh<W>', whose function depends on the template's parameters: dpstub reads the template, not its instances [dp-migrate]

// Containers of another object that a call-site cannot borrow: a
// std::array member (the object holds its elements: the warning says what
// converts), and a std::vector member read through 'at' (members.cpp
// borrows one indexed with brackets).
struct Mesh {
  int n;
  std::vector<double> u, v;
  std::array<double, 8> w;
};
void relax(Mesh &m, const Mesh &old, double *out) {
#pragma acc parallel loop
  for (int i = 0; i < m.n; ++i)
    m.w[i] = 0.5 * m.u[i];
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: 'm.w[i]' cannot become a dp::field: its array is a std::array member of another object ('m.w'); dpstub follows std::vector variables and parameters, and pointers: take a pointer to its elements before the loop ('double *m_w = m.w.data();') and index that [dp-migrate]
#pragma acc parallel loop
  for (int i = 0; i < m.n; ++i)
    out[i] = old.v.at(i);
// DIAG: refusals.cpp:[[@LINE-1]]:14: warning: not converted: 'old.v.at(i)' cannot become a dp::field: its array is a std::vector member of another object ('old.v'), which a call-site borrows where the loop indexes it with brackets ('old.v[...]'); 'at' has no dp::field counterpart [dp-migrate]
}

// An orphaned construct in a function main calls through a pointer: it
// may run on any team (team_functions.c).
void clear(double *b, int n) {
#pragma omp for
// DIAG: refusals.cpp:[[@LINE-1]]:1: warning: not converted: 'omp for' is outside any compute region in this function (an orphaned construct, whose region is in a caller) [dp-migrate]
  for (int i = 0; i < n; ++i)
    b[i] = 0;
}

int main() {
  int n = 8;
  double *a = (double *)malloc(n * n * sizeof(double));
  double *b = (double *)malloc(n * n * sizeof(double));
  int *idx = (int *)malloc(n * sizeof(int));
  Grid g{(double *)malloc(n * sizeof(double)), n};
  for (int i = 0; i < n * n; ++i)
    a[i] = i;
  refusals(n, a, b, idx, g);
  void (*cleared)(double *, int) = clear;
  cleared(b, n);
  Mesh m{n, std::vector<double>(n, 1.0), std::vector<double>(n), {}};
  relax(m, m, b);
  zero(b, n);
  zero(idx, n);
  double *rows[2] = {a, b};
  zero(rows, 2);
  int *tail = idx + 1;
  ++tail;
  printf("%f %f %d\n", a[1], b[1], tail[0]);
  free(a);
  free(b);
  free(idx);
  free(g.cells);
}

// An array each thread holds its own copy of (NPB EP's `x`, given to its
// threads by `copyin(x)`), whose values outlive the loop: one dp::field
// cannot stand for it (made one, its declaration stood where
// `threadprivate` names it, which g++ -fopenmp rejects, and its threads
// shared one array), nor can a kernel's own array.
static double seeds[16];
#pragma omp threadprivate(seeds)
void reseed(int n) {
#pragma omp parallel for
  for (int i = 0; i < 16; i++)
    seeds[i] = n + i;
// DIAG: refusals.cpp:[[@LINE-1]]:5: warning: not converted: 'seeds' is threadprivate (line [[@LINE-5]]), and the program also uses it outside the loops that make it each iteration's own (line [[@LINE+2]]); declare it in the loop [dp-migrate]
}
double seed(int k) { return seeds[k]; }
// REWRITE: static double seeds[16];
// SUMMARY: migrated 0 of 31 loops (31 refused)
// LIST: "file": "refusals_loops.h",
// LIST-NEXT: "line": 7,
// LIST-NEXT: "column": 3,
// LIST-NEXT: "construct": "omp parallel for",
// LIST-NEXT: "verdict": "refused",
// LIST-NEXT: "reason": "not converted: the loop is in 'refusals_loops.h', which this file includes; --migrate converts the loops of the file it is given, so run it on 'refusals_loops.h' [dp-migrate]",
// LIST-NEXT: "diagnostic": "migrateInHeader"
// LIST: "construct": "omp parallel for",
// LIST-NEXT: "verdict": "refused",
// LIST-NEXT: "reason": "not converted: a 'break' leaves the loop early, and the iterations of a call-site all run [dp-migrate]",
// LIST-NEXT: "diagnostic": "migrateEarlyExit"
