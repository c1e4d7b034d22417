// Distances between every pair of n points in 3-d, computed once per
// pair: the lower triangle of the n x n grid launches exactly n(n+1)/2
// points, no thread wasted on the upper half. The kernel receives the two
// points of a pair through partial projections, which fix the trailing
// dimensions of a view: transpose(P) is 3 x n, and at (i, j)
// spread<2>(transpose(P)), seen as (k, i, *), gives point i, while
// spread<1>(transpose(P)), seen as (k, *, j), gives point j. A full reduce
// over the upper triangle sums the distances of the distinct pairs, again
// once per pair.
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

#include "check.hpp"

double distance(const dp::field<1, double> &p, const dp::field<1, double> &q) {
  double s = 0;
  for (std::int64_t k = 0; k < p.get_extent(0); ++k)
    s += (p(k) - q(k)) * (p(k) - q(k));
  return std::sqrt(s);
}

int main() {
  const int n = 300;
  dp::field<2, double> P(dp::grid<2>(n, 3)), D(dp::grid<2>(n, n), -1.0);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k)
      P(i, k) = std::sin(0.37 * i + k) * (1 + k);

  dp::forall(dp::lower_triangle(n),
             [](double &d, const dp::field<1, double> &p, const dp::field<1, double> &q) {
               d = distance(p, q);
             },
             D, dp::spread<2>(dp::transpose(P)), dp::spread<1>(dp::transpose(P)));

  dp::scalar<double> total(0.0);
  dp::reduce(dp::upper_triangle(n), std::plus<>(), total,
             [](dp::index<2> ij, const dp::field<1, double> &p, const dp::field<1, double> &q) {
               return ij[0] == ij[1] ? 0.0 : distance(p, q);
             },
             dp::_index, dp::spread<2>(dp::transpose(P)), dp::spread<1>(dp::transpose(P)));

  double err = 0, sum = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k)
        s += (P(i, k) - P(j, k)) * (P(i, k) - P(j, k));
      const double want = j <= i ? std::sqrt(s) : -1.0; // the upper half untouched
      err = std::max(err, std::fabs(D(i, j) - want));
      if (j > i)
        sum += std::sqrt(s);
    }
  err = std::max(err, std::fabs(total.get() - sum) / sum);
  std::printf("D(%d,0) = %g, sum over pairs = %g\n", n - 1, D(n - 1, 0), total.get());
  return report("pairwise_distances", err, 1e-9);
}
