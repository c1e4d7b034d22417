/* A block solver's state, as NPB BT's header.h keeps it: 5x5 blocks of
   a banded system in the innermost dimensions, and temporaries every
   loop sets before it uses them, shared by the original's threads. */
#define NB 6
static double lhs[NB][NB][3][5][5];
static double rhs[NB][NB][5];
static double u[NB][NB][5];
static double tmp1, tmp2, last_value;
