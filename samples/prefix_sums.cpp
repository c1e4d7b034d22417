// Row and column prefix sums of a matrix: scan<1> runs along each row (the
// contiguous dimension: a scan by key on a GPU), scan<0> down each column
// (one thread per column, coalesced). Then the sum over any rectangle is
// four lookups: the summed-area table of image processing.
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

#include "check.hpp"

int main() {
  const int rows = 300, cols = 500;
  const dp::grid<2> g(rows, cols);
  dp::field<2, double> image(g), along_rows(g), table(g);
  dp::forall(g, [](dp::index<2> i, double &x) { x = double((i[0] * 7 + i[1] * 13) % 17); }, image);

  dp::scan<1>(g, std::plus<>(), along_rows, [](double x) { return x; }, image);
  dp::scan<0>(g, std::plus<>(), table, [](double x) { return x; }, along_rows);

  double err = 0;
  for (int i = 0; i < rows; ++i) {
    double row = 0;
    for (int j = 0; j < cols; ++j) {
      row += image(i, j);
      err = std::max(err, std::fabs(along_rows(i, j) - row));
    }
  }
  for (int j = 0; j < cols; ++j) {
    double column = 0;
    for (int i = 0; i < rows; ++i) {
      column += along_rows(i, j);
      err = std::max(err, std::fabs(table(i, j) - column));
    }
  }
  std::printf("sum of the whole image = %g, of rows 100..199 x columns 200..299 = %g\n",
              table(rows - 1, cols - 1),
              table(199, 299) - table(99, 299) - table(199, 199) + table(99, 199));
  return report("prefix_sums", err, 1e-9);
}
