// C arrays that start with values. One all zeros (`= {0}`, `= {}`)
// becomes a dp::field, whose elements start as zeros; a small table of
// the function (coefficients, weights) that a loop only reads stays as
// written and travels with the kernel, copied by its lambda; a constant
// table of the file or a static one, whose values are literals, is
// declared in the kernel as written; the others keep their loops, with
// the reason.
#include <stdio.h>

static const double global_w[3] = {0.25, 0.5, 0.25};
double scale[2] = {2.0, 4.0};

void tables(double *out, const double *in, int n) {
  int hist[8] = {0};
  double acc[2][4] = {{0.0}, {0}};
  const float c[2] = {1.5f, 2.5f};
  double w[3] = {0.25, 0.5, 0.25};
  double big[200] = {1.0};
  double wr[2] = {1, 2};
  double neg[2] = {-0.0};
  static const int odd[2] = {1, 3};
// REWRITE:      dp::field<1, int> hist{dp::grid<1>(8)};
// REWRITE-NEXT: dp::field<2, double> acc{dp::grid<2>(2, 4)};
// REWRITE-NEXT: const float c[2] = {1.5f, 2.5f};
// REWRITE-NEXT: double w[3] = {0.25, 0.5, 0.25};
// REWRITE-NEXT: double big[200] = {1.0};
  w[1] = 0.75;

  // A histogram whose bins start as zeros.
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    hist[(int)in[i] % 8]++;
  }
// DIAG: tables.c:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::atomic_add(hist((int)in(i) % 8), 1);

#pragma omp parallel for collapse(2)
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 4; k++)
      acc[r][k] = r + k;
// DIAG: tables.c:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]

  // Tables the loop reads: the lambda's copy, taken at the call-site
  // (after the host's write of w[1]).
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++)
    out[i] = c[i % 2] * (w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1]);
// DIAG: tables.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::forall(dp::grid<1>(dp::arithmetic_sequence(1, n - 1)), [=](dp::index<1> idx, dp::field<1, double> &out, const dp::field<1, const double> &in) {
// REWRITE:      out(i) = c[i % 2] * (w[0] * in(i - 1) + w[1] * in(i) + w[2] * in(i + 1));
// REWRITE-NEXT: }, dp_out, dp_in);

#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] += big[i % 200];
// DIAG: tables.c:[[@LINE-1]]:15: warning: not converted: 'big' cannot become a dp::field: it starts with the values '{1.0}' (a dp::field starts with zeros): fill it in a loop after its declaration (line 18); nor can its kernel take a copy: its 1600 bytes are more than the 1024 a kernel's arguments take [dp-migrate]

#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] += global_w[i % 3];
// DIAG: tables.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// The table crosses to a device as no argument: the kernel declares it.
// REWRITE:      {{.*}}[=](dp::index<1> idx, dp::field<1, double> &out) {
// REWRITE-NEXT: const int i = idx[0];
// REWRITE-NEXT: const double global_w[3] = {0.25, 0.5, 0.25};
// REWRITE-NEXT: out(i) += global_w[i % 3];
// REWRITE-NEXT: }, dp_out);

#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] += odd[i % 2];
// DIAG: tables.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: const int odd[2] = {1, 3};

  // A table of the file that is not constant: another function may
  // change it, so no kernel may take it as it was written; the call-site
  // borrows it whole, with the values it holds then.
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] += scale[i % 2];
// DIAG: tables.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, const double> dp_scale = dp::borrow_read(scale, dp::grid<1>(2), dp_out);
// REWRITE-NEXT: dp::forall({{.*}}, const dp::field<1, const double> &scale) {

  // A table the loop writes: a copy would lose the writes.
#pragma omp parallel for
  for (int i = 0; i < 2; i++)
    wr[i] = wr[i] * 2;
// DIAG: tables.c:[[@LINE-1]]:5: warning: not converted: 'wr' cannot become a dp::field: it starts with the values '{1, 2}' (a dp::field starts with zeros): fill it in a loop after its declaration (line 19); nor can its kernel take a copy: the loop writes it [dp-migrate]

  // -0.0 prints otherwise than a dp::field's 0.0.
#pragma omp parallel for
  for (int i = 0; i < 2; i++)
    neg[i] = neg[i] + in[i];
// DIAG: tables.c:[[@LINE-1]]:5: warning: not converted: 'neg' cannot become a dp::field: it starts with the values '{-0.0}' (a dp::field starts with zeros): fill it in a loop after its declaration (line 20); nor can its kernel take a copy: the loop writes it [dp-migrate]
  printf("%d %g %g %g\n", hist[1], acc[1][3], wr[1], neg[0]);
}
