// dp::mpi's costs, as ratios within one run of `mpirun -np 2 mpi_bench`
// (every rank runs one host thread, so that one rank and two ranks get the
// same compute each):
//
//   - weak scaling 1 -> 2 ranks: a Jacobi step over n x n points per rank,
//     on rank 0 alone (a communicator of one) and then on both ranks;
//     efficiency = time alone / time on two (goal >= 0.9);
//   - one halo exchange against the stencil step it serves;
//   - the overlap's gain: a plain step (exchange, then every point) against
//     an overlapped one (exchange_begin, interior_of, exchange_end,
//     boundary_of).
//
//   mpirun -np 2 mpi_bench [n = 1536] [steps = 40]
#include <dp/dp.hpp>
#include <dp/mpi.hpp>

#include <tbb/global_control.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct jacobi {
  void operator()(dp::index<2> i, double &next, const dp::field<2, double> &t) const {
    next = 0.25 * (t(i[0] - 1, i[1]) + t(i[0] + 1, i[1]) + t(i[0], i[1] - 1) + t(i[0], i[1] + 1));
  }
};

dp::grid<2> shrink(const dp::grid<2> &g, std::int64_t r) {
  auto in = [r](const dp::arithmetic_sequence &s) {
    return dp::arithmetic_sequence::from_extent(s.lb + r, std::max<std::int64_t>(0, s.extent - 2 * r));
  };
  return dp::grid<2>(in(g.dimension(0)), in(g.dimension(1)));
}

enum class what { plain, overlapped, exchange_only };

/// Median seconds per step over `reps` timings of `steps` steps.
double per_step(dp::mpi::decomposition<2> &d, what w, int steps, int reps) {
  dp::field<2, double> t(d.with_halo(), 1.0), next(d.with_halo(), 1.0);
  const dp::grid<2> inside = shrink(d.global(), 1);
  const dp::grid<2> inner = d.owned_in(inside), early = d.interior_of(inside);
  const std::vector<dp::grid<2>> late = d.boundary_of(inside);
  std::vector<double> times;
  for (int r = 0; r <= reps; ++r) { // the first is a warm-up
    MPI_Barrier(d.comm());
    const double start = MPI_Wtime();
    for (int s = 0; s < steps; ++s) {
      if (w == what::exchange_only) {
        d.exchange(t);
      } else if (w == what::plain) {
        d.exchange(t);
        dp::forall(inner, jacobi(), dp::_index, next, t);
        std::swap(t, next);
      } else {
        d.exchange_begin(t);
        dp::forall(early, jacobi(), dp::_index, next, t);
        d.exchange_end(t);
        for (const dp::grid<2> &strip : late)
          dp::forall(strip, jacobi(), dp::_index, next, t);
        std::swap(t, next);
      }
    }
    (void)t.data(); // the last step is done
    const double mine = (MPI_Wtime() - start) / steps;
    const double slowest = d.all_reduce(mine, [](double a, double b) { return a > b ? a : b; });
    if (r > 0)
      times.push_back(slowest);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  dp::mpi::context world(argc, argv);
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 1536;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 40, reps = 5;
  const int p = world.size();

  // Rank 0 alone: the one-rank time of the same n x n points.
  double alone = 0;
  MPI_Comm solo_comm;
  MPI_Comm_split(world.comm(), world.rank() == 0 ? 0 : MPI_UNDEFINED, 0, &solo_comm);
  if (solo_comm != MPI_COMM_NULL) {
    dp::mpi::context solo(solo_comm);
    auto d = dp::mpi::decompose(solo, dp::grid<2>(n, n), 1);
    alone = per_step(d, what::plain, steps, reps);
  }
  if (solo_comm != MPI_COMM_NULL)
    MPI_Comm_free(&solo_comm);

  // Every rank: n x n points each, split along rows.
  auto d = dp::mpi::decompose(world, dp::grid<2>(n * p, n), 1, {p, 1});
  const double plain = per_step(d, what::plain, steps, reps);
  const double overlapped = per_step(d, what::overlapped, steps, reps);
  const double exchange = per_step(d, what::exchange_only, steps, reps);
  if (world.rank() == 0) {
    std::printf("dp::mpi, %d ranks of one thread, %lld x %lld points per rank, %d steps, median "
                "of %d\n\n",
                p, (long long)n, (long long)n, steps, reps);
    std::printf("| measurement | value | goal |\n|---|---|---|\n");
    std::printf("| step on 1 rank (ms) | %.3f | |\n", alone * 1e3);
    std::printf("| step on %d ranks, plain / overlapped (ms) | %.3f / %.3f | |\n", p,
                plain * 1e3, overlapped * 1e3);
    const double eff = alone / std::min(plain, overlapped);
    std::printf("| weak-scaling efficiency 1 -> %d ranks | %.3f | >= 0.90%s |\n", p, eff,
                eff >= 0.9 ? "" : " (missed)");
    std::printf("| one halo exchange (us) / the plain step | %.1f / %.5f | |\n", exchange * 1e6,
                exchange / plain);
    std::printf("| overlap's gain: plain step / overlapped step | %.3f | |\n", plain / overlapped);
  }
  return 0;
}
