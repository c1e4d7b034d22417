/* A solver's state in a header of the user's (NPB SP's header.h): the
   call-sites borrow these arrays whole. */
#define NX 8
static double lhs[5][NX][NX][NX];
static double rho[NX][NX][NX];
static double cv[NX], rhon[NX];
static int bounds[3] = {NX, NX, NX};
