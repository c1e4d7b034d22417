// Parameters that become dp::fields with the arrays their callers pass,
// where a caller passes one array as two of them (miniWeather's
// semi_discrete_step(state, state_tmp, state, ...)): a call-site cannot
// take one field as a written argument and another, so a directive's
// loop that reads a parameter before it writes the other reads it
// through dp::read_apart, a copy when the two are one. `restrict`
// parameters are the caller's promise that they are not.
#include <stdio.h>
#include <stdlib.h>

void substep(const double *init, const double *forcing, double *out, double dt, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    out[i] = init[i] + dt * forcing[i];
// DIAG: aliased_fields.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      // a caller may pass one array as both: the loop then reads a copy
// REWRITE-NEXT: const dp::field<1, const double> dp_init = dp::read_apart(init, out);
// REWRITE-NEXT: const dp::field<1, const double> dp_forcing = dp::read_apart(forcing, out);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &out, const dp::field<1, const double> &init, const dp::field<1, const double> &forcing) {
// REWRITE:      }, out, dp_init, dp_forcing);
}

void promised(const double *restrict in, double *restrict out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = 2 * in[i];
// DIAG: aliased_fields.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: }, out, in);
}

int main(void) {
  int n = 16;
  double *state = malloc(sizeof(double) * n), *tmp = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    state[i] = tmp[i] = i;
  substep(state, state, tmp, 0.5, n);
  substep(state, tmp, tmp, 0.5, n);
  substep(state, tmp, state, 0.5, n);
  promised(state, tmp, n);
  printf("%g %g\n", state[n - 1], tmp[n - 1]);
  free(state);
  free(tmp);
  return 0;
}
