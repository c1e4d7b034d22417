/* A program's state in a header of the user's (the NAS Parallel
   Benchmarks' header.h): --migrate edits only the file it is given. */
#define NX 6
static int extents[2];
static double q[NX][4][3];
static double flux[NX * 4];
extern double weights[];
