// Call-sites in serial loops (NPB SP's lhsx: `omp for` loops inside
// loops over j and k, sharing 1-D temporaries): where the serial loops
// hold nothing but such call-sites, the arrays they borrow whole are
// borrowed once, in a block around the outermost serial loop, instead of
// at every call-site on every iteration. What they wrote is there at that
// block's end, as it was at each call-site's: no host code between the
// call-sites reads it.
#include "hoisted_borrows_state.h"

void lhs_x(double dt) {
  int i, j, k;
  for (j = 1; j < NX - 1; j++) {
    for (k = 1; k < NX - 1; k++) {
#pragma omp parallel for
      for (i = 0; i < NX; i++) {
        cv[i] = rho[i][j][k] * 2.0;
        rhon[i] = rho[i][j][k] + dt;
      }
// DIAG: hoisted_borrows.c:[[@LINE-4]]:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp parallel for
      for (i = 1; i < NX - 1; i++) {
        lhs[0][i][j][k] = 0.0;
        lhs[1][i][j][k] = -dt * cv[i - 1] - rhon[i - 1];
        lhs[2][i][j][k] = 1.0 + 2.0 * rhon[i];
        lhs[3][i][j][k] = dt * cv[i + 1] - rhon[i + 1];
      }
// DIAG: hoisted_borrows.c:[[@LINE-6]]:7: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
    }
  }
}
// REWRITE:      extern "C" void lhs_x(double dt) {
// REWRITE-NEXT:   int i, j, k;
// REWRITE-NEXT:   {
// REWRITE-NEXT:     // pointers borrowed for the loops below: what they wrote is there at the '}'
// REWRITE-NEXT:     dp::field<1, double> dp_cv = dp::borrow(cv, dp::grid<1>(8));
// REWRITE-NEXT:     dp::field<3, double> dp_rho = dp::borrow(&rho[0][0][0], dp::grid<3>(8, 8, 8));
// REWRITE-NEXT:     dp::field<1, double> dp_rhon = dp::borrow(rhon, dp::grid<1>(8));
// REWRITE-NEXT:     dp::field<4, double> dp_lhs = dp::borrow(&lhs[0][0][0][0], dp::grid<4>(5, 8, 8, 8));
// REWRITE-NEXT:   for (j = 1; j < NX - 1; j++) {
// REWRITE-NEXT:     for (k = 1; k < NX - 1; k++) {
// REWRITE-NEXT:       dp::forall(dp::grid<1>(NX), [=](dp::index<1> idx, dp::field<1, double> &cv, const dp::field<3, double> &rho, dp::field<1, double> &rhon) {
// REWRITE:            }, dp_cv, dp_rho, dp_rhon);
// REWRITE:            dp::forall(dp::grid<1>(dp::arithmetic_sequence(1, NX - 1)), [=](dp::index<1> idx, dp::field<4, double> &lhs, const dp::field<1, double> &cv, const dp::field<1, double> &rhon) {
// REWRITE:            }, dp_lhs, dp_cv, dp_rhon);
// REWRITE:          }
// REWRITE-NEXT:   }
// REWRITE-NEXT:   }
// REWRITE-NEXT: }

// A host statement between the call-sites reads what one wrote: each
// call-site keeps its own block, written back at its end.
double lhs_y(double dt) {
  int i, k;
  double seen = 0.0;
  for (k = 1; k < NX - 1; k++) {
#pragma omp parallel for
    for (i = 0; i < NX; i++)
      cv[i] = rho[i][1][k] * dt;
// DIAG: hoisted_borrows.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
    seen += cv[2];
  }
  return seen;
}
// REWRITE:      extern "C" double lhs_y(double dt) {
// REWRITE-NEXT:   int i, k;
// REWRITE-NEXT:   double seen = 0.0;
// REWRITE-NEXT:   for (k = 1; k < NX - 1; k++) {
// REWRITE-NEXT:     {
// REWRITE-NEXT:       // pointers borrowed for this call-site: what the loop wrote is there at the '}'

// A serial loop's header reads an array the call-sites only read (NPB
// BT's back-substitution, `for (i = grid_points[0] - 2; ...)`): the host's
// copy still holds it, and the borrows move around the loop.
void lhs_z(void) {
  int i, k;
  for (k = 1; k < bounds[2] - 1; k++) {
#pragma omp parallel for
    for (i = 0; i < NX; i++)
      rhon[i] = bounds[0] * rho[i][1][k];
// DIAG: hoisted_borrows.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  }
}
// REWRITE:      extern "C" void lhs_z(void) {
// REWRITE-NEXT:   int i, k;
// REWRITE-NEXT:   {
// REWRITE-NEXT:     // pointers borrowed for the loops below: what they wrote is there at the '}'
// REWRITE-NEXT:     dp::field<1, double> dp_rhon = dp::borrow(rhon, dp::grid<1>(8));
// REWRITE-NEXT:     dp::field<1, const int> dp_bounds = dp::borrow_read(bounds, dp::grid<1>(3), dp_rhon);
// REWRITE-NEXT:     dp::field<3, const double> dp_rho = dp::borrow_read(&rho[0][0][0], dp::grid<3>(8, 8, 8), dp_rhon);
// REWRITE-NEXT:   for (k = 1; k < bounds[2] - 1; k++) {

// The header reads what a call-site writes: the host reads it between
// the call-sites, so the borrows stay at each call-site.
void lhs_w(void) {
  int i, k;
  for (k = 1; k < rhon[2] + NX; k++) {
#pragma omp parallel for
    for (i = 0; i < NX; i++)
      rhon[i] = bounds[0] * rho[i][1][k % NX];
// DIAG: hoisted_borrows.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  }
}
// REWRITE:      extern "C" void lhs_w(void) {
// REWRITE-NEXT:   int i, k;
// REWRITE-NEXT:   for (k = 1; k < rhon[2] + NX; k++) {
// REWRITE-NEXT:     {
// REWRITE-NEXT:       // pointers borrowed for this call-site: what the loop wrote is there at the '}'

// A call-site's bound reads what another call-site in the loops wrote:
// the host reads it before that call-site launches, so the borrows stay
// at each call-site.
void bounded(void) {
  int i, k;
  for (k = 0; k < 2; k++) {
#pragma omp parallel for
    for (i = 0; i < 3; i++)
      bounds[i] = NX - k;
// DIAG: hoisted_borrows.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
#pragma omp parallel for
    for (i = 0; i < bounds[0]; i++)
      cv[i] = bounds[1] * 0.5;
// DIAG: hoisted_borrows.c:[[@LINE-2]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  }
}
// REWRITE:      extern "C" void bounded(void) {
// REWRITE-NEXT:   int i, k;
// REWRITE-NEXT:   for (k = 0; k < 2; k++) {
// REWRITE-NEXT:     {
// REWRITE-NEXT:       // pointers borrowed for this call-site: what the loop wrote is there at the '}'
// SUMMARY: migrated 7 of 7 loops (0 refused)
