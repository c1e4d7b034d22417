// What the host's row loops compile, per call-site: the test runs this
// program (its results checked below) and reads the sizes of its row
// functions (dp::rt::host::run_rows and the reductions' row folds) with nm
// (run_host_row_code.cmake).
//
// The row loops inline what they call (DP_FLATTEN), once per position type
// and row counter. Two costs hid there, both in compile time and code on
// every translated program, and both caught here by size:
// - a field's destructor reached a block's destruction, which the row
//   loops inlined at each field a stub holds (19 KB a row function for
//   `axpy` below; NPB SP's translation compiled for more than 14 minutes);
// - a kernel that loops itself was inlined into each of a rank-1 row's
//   nine loops (three functions of 3 to 4 KB for `row_sums`); its stub now
//   asks for one row loop per position type (dp::rt::looping).
// A third cost is the opposite one, caught by reading calls: a row loop
// that calls the kernel instead of inlining it. GCC 12's flatten stopped
// at the generated glue in NPB SP's large kernels (3 times as slow), so the
// glue is always-inline now: no stub body or stub lambda is left out of
// line anywhere, and no row function calls a kernel (`band_rows` below is
// such a kernel; this program is too small to make GCC fail inside rows,
// but its stub bodies were out of line in the emulated device's kernels).
#include <dp/dp.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "host_row_code: %s\n", what);
    ++failures;
  }
}

/// A kernel with no loop of its own over whole fields: inlined into rows.
void axpy(dp::field<1, double> &y, const dp::field<1, double> &x, double a) {
  dp::forall(y.get_grid(), [](dp::index<1> i, dp::field<1, double> &y, const dp::field<1, double> &x,
                              double a) { y[i] += a * x[i]; },
             y, x, a);
}

/// A kernel that loops itself: one row loop per position type.
void row_sums(const dp::field<2, double> &m, dp::field<1, double> &s) {
  dp::forall(s.get_grid(), [](dp::index<1> i, const dp::field<2, double> &m, dp::field<1, double> &s) {
    double t = 0;
    for (int j = 0; j < m.get_grid().extent(1); ++j)
      t += m(i[0], j);
    s[i] = t;
  }, m, s);
}

/// A map that loops itself, folded by a reduce.
double squares_of_sums(const dp::field<2, double> &m) {
  dp::scalar<double> total(0.0);
  dp::reduce(dp::grid<1>(m.get_grid().extent(0)), std::plus<>(), total,
             [](dp::index<1> i, const dp::field<2, double> &m) {
               double t = 0;
               for (int j = 0; j < m.get_grid().extent(1); ++j)
                 t += m(i[0], j);
               return t * t;
             },
             m);
  return total.get();
}

/// A large kernel, as a stencil code's sweeps are: coefficient rows of a
/// banded system from a point's neighbours.
void band_rows(const dp::field<2, double> &u, const dp::field<2, double> &rho, dp::field<3, double> &lhs,
               double c1, double c2, double dt) {
  dp::forall(dp::grid<2>(u.get_grid().extent(0) - 2, u.get_grid().extent(1) - 2),
             [](dp::index<2> p, const dp::field<2, double> &u, const dp::field<2, double> &rho,
                dp::field<3, double> &lhs, double c1, double c2, double dt) {
    const int i = p[0] + 1, j = p[1] + 1;
    const double ru_m = 1.0 / rho(i - 1, j), ru_0 = 1.0 / rho(i, j), ru_p = 1.0 / rho(i + 1, j);
    const double cv_m = u(i - 1, j) * ru_m, cv_0 = u(i, j) * ru_0, cv_p = u(i + 1, j) * ru_p;
    const double rh_m = c1 * ru_m + c2 * u(i - 1, j - 1), rh_0 = c1 * ru_0 + c2 * u(i, j - 1),
                 rh_p = c1 * ru_p + c2 * u(i + 1, j - 1);
    lhs(i, j, 0) = 0.0;
    lhs(i, j, 1) = -dt * cv_m - dt * rh_m + dt * c2 * u(i - 1, j + 1);
    lhs(i, j, 2) = 1.0 + 2.0 * dt * rh_0 + dt * c1 * (u(i, j + 1) - u(i, j - 1)) * ru_0;
    lhs(i, j, 3) = dt * cv_p - dt * rh_p + dt * c2 * u(i + 1, j + 1);
    lhs(i, j, 4) = dt * c1 * (cv_m - 2.0 * cv_0 + cv_p) * (rho(i - 1, j - 1) + rho(i + 1, j + 1));
    lhs(i, j, 5) = lhs(i, j, 2) * ru_p - lhs(i, j, 1) * ru_m + rho(i, j + 1) * rho(i, j - 1);
    lhs(i, j, 6) = (u(i - 1, j - 1) + u(i + 1, j - 1) + u(i - 1, j + 1) + u(i + 1, j + 1)) * c2 * dt;
  }, u, rho, lhs, c1, c2, dt);
}

/// A kernel that loops itself over rank-4 fields, as NPB SP's solvers do
/// (planes n + 1 to n + 3 of lhs, a forward sweep along k). Its handles
/// must be registers: GCC 12 left the loop copying a rank-4 handle's
/// layout rolled, so the handle was built in memory at each call and
/// element access read its strides there (NPB SP on one CPU: 4.30-4.71 s,
/// 3.74-3.89 with them in registers); the test reads its row functions
/// for that (DP_UNROLL).
void plane_sweep(dp::field<4, double> &lhs, dp::field<4, double> &rhs, int n, int nk) {
  dp::forall(dp::grid<1>(dp::arithmetic_sequence(1, lhs.get_grid().extent(1) - 1)),
             [=](dp::index<1> idx, dp::field<4, double> &lhs, dp::field<4, double> &rhs) {
    const int i = idx[0];
    for (int k = 0; k + 1 < nk; ++k) {
      const double f = 1.0 / lhs(n + 2, i, 1, k);
      lhs(n + 3, i, 1, k) *= f;
      rhs(0, i, 1, k) *= f;
      lhs(n + 2, i, 1, k + 1) += 0.25 * lhs(n + 1, i, 1, k + 1) * lhs(n + 3, i, 1, k);
    }
  }, lhs, rhs);
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-12 * (1.0 + std::fabs(b)); }

} // namespace

int main() {
  const int rows = 37, cols = 5;
  dp::field<2, double> m(dp::grid<2>(rows, cols));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      m(i, j) = i + j;
  const dp::grid<1> g(rows);
  dp::field<1, double> s(g), x(g, 1.0);
  row_sums(m, s);
  axpy(s, x, 2.0);
  double expected = 0;
  for (int i = 0; i < rows; ++i) {
    const double sum = cols * i + cols * (cols - 1) / 2.0;
    expect(s(i) == sum + 2.0, "row_sums then axpy: a wrong element");
    expected += sum * sum;
  }
  expect(squares_of_sums(m) == expected, "squares_of_sums: a wrong total");

  // m(i, j) = i + j and rho = 2: cv = (i + j) / 2 along i, so the second
  // difference in lhs(., ., 4) vanishes.
  const double c1 = 0.5, c2 = 0.25, dt = 0.1;
  dp::field<2, double> rho(dp::grid<2>(rows, cols), 2.0);
  dp::field<3, double> lhs(dp::grid<3>(rows, cols, 7), -1.0);
  band_rows(m, rho, lhs, c1, c2, dt);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1) {
        expect(lhs(i, j, 2) == -1.0, "band_rows: wrote outside its grid");
        continue;
      }
      const double rh_0 = c1 * 0.5 + c2 * (i + j - 1);
      expect(near(lhs(i, j, 2), 1.0 + 2.0 * dt * rh_0 + dt * c1 * 2.0 * 0.5), "band_rows: a wrong lhs(., ., 2)");
      expect(near(lhs(i, j, 4), 0.0), "band_rows: a wrong lhs(., ., 4)");
      expect(near(lhs(i, j, 6), 4.0 * (i + j) * c2 * dt), "band_rows: a wrong lhs(., ., 6)");
    }
  // plane_sweep against the same loops over plain arrays.
  const int planes = 5, ni = 9, nj = 3, nk = 9;
  dp::field<4, double> sweep_lhs(dp::grid<4>(planes, ni, nj, nk)), sweep_rhs(dp::grid<4>(1, ni, nj, nk));
  std::vector<double> ref_lhs(planes * ni * nj * nk), ref_rhs(ni * nj * nk);
  const auto at = [&](int p, int i, int j, int k) { return ((p * ni + i) * nj + j) * nk + k; };
  for (int p = 0; p < planes; ++p)
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j)
        for (int k = 0; k < nk; ++k) {
          sweep_lhs(p, i, j, k) = ref_lhs[at(p, i, j, k)] = 1.0 + 0.125 * ((p + i + k) % 4);
          if (p == 0)
            sweep_rhs(0, i, j, k) = ref_rhs[at(0, i, j, k)] = 0.5 * (i + k);
        }
  for (int n = 0; n <= 1; ++n) {
    plane_sweep(sweep_lhs, sweep_rhs, n, nk);
    for (int i = 1; i < ni - 1; ++i)
      for (int k = 0; k + 1 < nk; ++k) {
        const double f = 1.0 / ref_lhs[at(n + 2, i, 1, k)];
        ref_lhs[at(n + 3, i, 1, k)] *= f;
        ref_rhs[at(0, i, 1, k)] *= f;
        ref_lhs[at(n + 2, i, 1, k + 1)] += 0.25 * ref_lhs[at(n + 1, i, 1, k + 1)] * ref_lhs[at(n + 3, i, 1, k)];
      }
  }
  for (int p = 0; p < planes; ++p)
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j)
        for (int k = 0; k < nk; ++k) {
          expect(near(sweep_lhs(p, i, j, k), ref_lhs[at(p, i, j, k)]), "plane_sweep: a wrong lhs element");
          if (p == 0)
            expect(near(sweep_rhs(0, i, j, k), ref_rhs[at(0, i, j, k)]), "plane_sweep: a wrong rhs element");
        }

  if (failures == 0)
    std::printf("host_row_code: results right\n");
  return failures == 0 ? 0 : 1;
}
