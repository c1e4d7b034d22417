// c(i) = sum over k of A(k, i): each kernel sees a rank-1 partial
// projection of A with its trailing coordinate fixed (patent pseudocode 12).
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>

#include "check.hpp"

void sum_rows(double &c, const dp::field<1, double> &a) {
  double s = 0;
  for (std::int64_t k = 0; k < a.get_extent(0); ++k)
    s += a(k);
  c = s;
}

int main() {
  const int rows = 500, cols = 700;
  dp::field<2, double> A(dp::grid<2>(rows, cols));
  for (int k = 0; k < rows; ++k)
    for (int i = 0; i < cols; ++i)
      A(k, i) = 0.001 * k + i;
  dp::field<1, double> C{dp::grid<1>(cols)};

  dp::forall(C.get_grid(), sum_rows, C, A);

  double err = 0;
  for (int i = 0; i < cols; ++i) {
    double s = 0;
    for (int k = 0; k < rows; ++k)
      s += A(k, i);
    err = std::max(err, std::fabs(C(i) - s));
  }
  std::printf("c(0) = %g, c(%d) = %g\n", C(0), cols - 1, C(cols - 1));
  return report("sum_rows", err, 1e-9);
}
