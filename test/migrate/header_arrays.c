// Arrays of static storage a header declares: --migrate cannot make them
// fields (their declarations are the header's), so each call-site
// borrows the ones its loop uses whole, over the grid of their extents
// (the type's, as numbers: a header's names for them may not reach the
// call-site). The host's code, the parallel levels' bounds included,
// keeps them as arrays.
#include "header_arrays_state.h"

void step(double dt) {
  int i, j, k;
#pragma omp parallel for private(j, k)
  for (i = 0; i < extents[0]; i++)
    for (j = 0; j < extents[1]; j++)
      for (k = 0; k < 3; k++)
        q[i][j][k] = q[i][j][k] + dt * flux[i * 4 + j];
// DIAG: header_arrays.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, int> dp_extents = dp::borrow(extents, dp::grid<1>(2));
// REWRITE-NEXT: dp::field<3, double> dp_q = dp::borrow(&q[0][0][0], dp::grid<3>(6, 4, 3));
// REWRITE-NEXT: dp::field<1, double> dp_flux = dp::borrow(flux, dp::grid<1>(24));
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, extents[0])), [=](dp::index<1> idx, const dp::field<1, int> &extents, dp::field<3, double> &q, const dp::field<1, double> &flux) {
// REWRITE:      for (j = 0; j < extents(1); j++)
// REWRITE:      q(i, j, k) = q(i, j, k) + dt * flux(i * 4 + j);
}

// A header's array of no known extent: nothing tells how much to borrow.
double weigh(void) {
  int i;
#pragma omp parallel for
  for (i = 0; i < NX * 4; i++)
    flux[i] = flux[i] * weights[i];
// DIAG: header_arrays.c:[[@LINE-1]]:25: warning: not converted: 'weights' cannot become a dp::field: it is not declared in this file [dp-migrate]
  return flux[0];
}
// SUMMARY: migrated 1 of 2 loops (1 refused)
