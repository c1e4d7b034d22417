/* The solver's state, as the NAS Parallel Benchmarks keep it: static
   arrays of fixed extents in a header that one C file includes, sized by
   macros, with the problem's extents (grid_points) read in the loops'
   bounds. --migrate does not edit this header: the loops borrow the
   arrays whole, for each call-site. */
#ifndef GLOBALS_H
#define GLOBALS_H

#define IMAX 12
#define JMAX 11
#define KMAX 10

static int grid_points[3];
static double u[IMAX][JMAX][KMAX][5];
static double rhs[IMAX][JMAX][KMAX][5];
static double rho_i[IMAX][JMAX][KMAX];
/* A banded system's coefficients along i and its 1-D temporaries (NPB
   SP's lhs, cv and rhon). */
static double lhs[3][IMAX][JMAX][KMAX];
static double cv[IMAX], rhon[IMAX];
static double dt;
/* Coefficients of the exact solution, filled at run time (NPB's ce). */
static double ce[5][3];
/* The forcing term, and each thread's scratch rows for it (NPB BT's ue
   and buf: threadprivate, filled for a line of i before they are read). */
static double forcing[IMAX][JMAX][KMAX][5];
static double ue[IMAX][5], buf[IMAX][5];
#pragma omp threadprivate(ue, buf)
/* A block system along i: 5x5 blocks (NPB BT's lhs, its AA and BB
   blocks), its right-hand side, and temporaries every loop sets before
   it reads them, shared by the original's threads (BT's tmp1 and tmp2:
   a race in that version). */
#define AA 0
#define BB 1
static double blk[IMAX][JMAX][2][5][5];
static double brhs[IMAX][JMAX][5];
static double tmp1, tmp2;

#endif
