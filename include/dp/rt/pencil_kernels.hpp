/// \file
/// reduce<Dim> and scan<Dim> across the contiguous dimension: one thread per
/// pencil, neighbouring threads on neighbouring pencils, so every step along
/// the pencil is one coalesced row of loads with no staging copy. The
/// threads are laid out by the dispatch planner over the pencils' own
/// (rank N-1) domain and map to them exactly as a forall stub's threads do.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../config.hpp"
#include "../detail/projection.hpp"
#include "../index.hpp"
#include "dispatch.hpp"
#include "stub_run.hpp"
#include "thread.hpp"

namespace dp::rt {

/// The position of step k of the pencil at q (q has dimension Dim removed).
template <int Dim, int N>
DP_HOST_DEVICE dp::index<N> pencil_step(const dp::index<N - 1> &q, std::int64_t k) {
  dp::index<N> pos;
  for (int d = 0, j = 0; d < N; ++d)
    pos[d] = d == Dim ? k : q[j++];
  return pos;
}

/// What a pencil kernel needs: the map function, the operator, where the
/// results go (rank N-1 for a reduction, N for a scan) and the pencils'
/// length.
template <int N, int Dim, class T, class Op, class Map, int OutRank> struct pencil_job {
  static constexpr int rank = N;
  static constexpr int dim = Dim;
  static constexpr int pencil_rank = N - 1;
  using value_type = T;
  Map map;
  Op op;
  dp::detail::affine_projection<T, OutRank> out;
  std::int64_t length;
};

/// reduce<Dim>, one thread per pencil: out(q) = r(out(q), fold of the pencil).
template <int Mode, class Job>
DP_GLOBAL void fold_pencils_strided(const launch_geometry<Job::pencil_rank> geometry, const Job job) {
  using T = typename Job::value_type;
  dp::index<Job::pencil_rank> q;
  const thread_ids thread = this_thread();
  if (!map_thread<Mode>(geometry, thread.group, thread.local, q))
    return; // surplus threads map to no pencil
  T acc = static_cast<T>(job.map(pencil_step<Job::dim, Job::rank>(q, 0)));
  for (std::int64_t k = 1; k < job.length; ++k)
    acc = static_cast<T>(job.op(acc, job.map(pencil_step<Job::dim, Job::rank>(q, k))));
  T &c = job.out[q];
  c = static_cast<T>(job.op(c, acc));
}

/// scan<Dim>, one thread per pencil: every step writes the running fold.
template <int Mode, class Job>
DP_GLOBAL void scan_pencils_strided(const launch_geometry<Job::pencil_rank> geometry, const Job job) {
  using T = typename Job::value_type;
  dp::index<Job::pencil_rank> q;
  const thread_ids thread = this_thread();
  if (!map_thread<Mode>(geometry, thread.group, thread.local, q))
    return;
  dp::index<Job::rank> pos = pencil_step<Job::dim, Job::rank>(q, 0);
  T acc = static_cast<T>(job.map(pos));
  job.out[pos] = acc;
  for (std::int64_t k = 1; k < job.length; ++k) {
    pos[Job::dim] = k;
    acc = static_cast<T>(job.op(acc, job.map(pos)));
    job.out[pos] = acc;
  }
}

/// The per-mode instantiations of a pencil kernel, for the planner to pick.
template <class Job, bool Scan> const stub_table<Job::pencil_rank, Job> &pencil_stubs() {
  constexpr int R = Job::pencil_rank;
  static const stub_table<R, Job> table = [] {
    stub_table<R, Job> t{};
    if constexpr (Scan) {
      t.modes[R < 3 ? R : 3] = &scan_pencils_strided<R < 3 ? R : 3, Job>;
      if constexpr (R == 3) {
        t.modes[4] = &scan_pencils_strided<4, Job>;
        t.modes[5] = &scan_pencils_strided<5, Job>;
        t.modes[6] = &scan_pencils_strided<6, Job>;
      }
      t.modes[7] = &scan_pencils_strided<7, Job>;
    } else {
      t.modes[R < 3 ? R : 3] = &fold_pencils_strided<R < 3 ? R : 3, Job>;
      if constexpr (R == 3) {
        t.modes[4] = &fold_pencils_strided<4, Job>;
        t.modes[5] = &fold_pencils_strided<5, Job>;
        t.modes[6] = &fold_pencils_strided<6, Job>;
      }
      t.modes[7] = &fold_pencils_strided<7, Job>;
    }
    return t;
  }();
  return table;
}

} // namespace dp::rt
