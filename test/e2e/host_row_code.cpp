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
#include <dp/dp.hpp>

#include <cstdio>

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
  if (failures == 0)
    std::printf("host_row_code: results right\n");
  return failures == 0 ? 0 : 1;
}
