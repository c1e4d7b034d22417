// Heat spreading through a square plate whose top edge is held at 100°,
// over as many MPI ranks as the program is started on:
//
//     ./heat_mpi                        one process
//     mpirun -np 4 ./heat_mpi           four ranks, the same result
//
// Each rank holds its part of the plate plus a halo of one cell, indexed by
// global index values, so the Jacobi step is the one-process call-site. A
// step exchanges the halo, overlapped with the cells that do not need it.
// Every 100 steps the largest change anywhere (all_reduce of a max: exact,
// so every rank count prints the same) says how far from settled it is.
// Rank 0 gathers the plate and checks it against a plain loop.
#include <dp/dp.hpp>
#include <dp/mpi.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.hpp"

/// One Jacobi step of the heat equation: the mean of the four neighbours.
struct jacobi {
  void operator()(dp::index<2> i, double &next, const dp::field<2, double> &t) const {
    next = 0.25 * (t(i[0] - 1, i[1]) + t(i[0] + 1, i[1]) + t(i[0], i[1] - 1) + t(i[0], i[1] + 1));
  }
};

/// The grid g without its outer `r` rows and columns.
dp::grid<2> shrink(const dp::grid<2> &g, std::int64_t r) {
  auto in = [r](const dp::arithmetic_sequence &s) {
    return dp::arithmetic_sequence::from_extent(s.lb + r, std::max<std::int64_t>(0, s.extent - 2 * r));
  };
  return dp::grid<2>(in(g.dimension(0)), in(g.dimension(1)));
}

int main(int argc, char **argv) {
  dp::mpi::context ctx(argc, argv);
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 192;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 400;

  const dp::grid<2> plate(n, n);
  auto d = dp::mpi::decompose(ctx, plate, 1);
  dp::field<2, double> t(d.with_halo(), 0.0), next(d.with_halo(), 0.0);
  dp::forall(d.owned(), [](dp::index<2> i, double &a, double &b) { a = b = i[0] == 0 ? 100.0 : 0.0; },
             dp::_index, t, next);

  const dp::grid<2> inside = shrink(plate, 1);           // the cells that change
  const dp::grid<2> inner = d.owned_in(inside);           // ... that this rank updates
  const dp::grid<2> early = d.interior_of(inside);        // ... without reading the halo
  const std::vector<dp::grid<2>> late = d.boundary_of(inside); // the rest, in strips
  for (int s = 1; s <= steps; ++s) {
    d.exchange_begin(t);
    dp::forall(early, jacobi(), dp::_index, next, t);
    d.exchange_end(t);
    for (const dp::grid<2> &strip : late)
      dp::forall(strip, jacobi(), dp::_index, next, t);
    if (s % 100 == 0) {
      dp::scalar<double> change(0.0);
      dp::reduce(inner, [](double a, double b) { return a > b ? a : b; }, change,
                 [](double a, double b) { return std::fabs(a - b); }, next, t);
      const double largest = d.all_reduce(change.get(), [](double a, double b) { return a > b ? a : b; });
      if (d.rank() == 0)
        std::printf("step %d: largest change %.6e\n", s, largest);
    }
    std::swap(t, next);
  }

  const dp::field<2, double> whole = d.gather(t, 0);
  if (d.rank() != 0)
    return 0;
  // The reference: the same steps over the whole plate, in plain loops.
  std::vector<double> a(n * n, 0.0), b;
  for (std::int64_t j = 0; j < n; ++j)
    a[j] = 100.0;
  b = a;
  for (int s = 0; s < steps; ++s) {
    for (std::int64_t i = 1; i + 1 < n; ++i)
      for (std::int64_t j = 1; j + 1 < n; ++j)
        b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
    std::swap(a, b);
  }
  double err = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      err = std::max(err, std::fabs(whole(i, j) - a[i * n + j]));
  std::printf("plate %lld x %lld, %d steps: %.6f at (%lld, %lld)\n", (long long)n, (long long)n,
              steps, whole(n / 16, n / 2), (long long)(n / 16), (long long)(n / 2));
  return report("heat_mpi", err, 1e-9);
}
