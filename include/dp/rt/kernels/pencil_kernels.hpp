/// \file
/// reduce<Dim> and scan<Dim> across the contiguous dimension: one thread per
/// pencil, neighbouring threads on neighbouring pencils, so every step along
/// the pencil is one coalesced row of loads with no staging copy. The
/// threads are laid out by the dispatch planner over the pencils' own
/// (rank N-1) domain and map to them exactly as a forall stub's threads do.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../../config.hpp"
#include "../../reference/projection.hpp"
#include "../../index.hpp"
#include "../stub/dispatch.hpp"
#include "../stub/table.hpp"
#include "../stub/thread.hpp"

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

/// A pencil kernel, by mode (stub_modes).
template <class Job, bool Scan> struct pencil_kernel {
  template <int Mode> static auto at() {
    if constexpr (Scan)
      return &scan_pencils_strided<Mode, Job>;
    else
      return &fold_pencils_strided<Mode, Job>;
  }
};

/// The per-mode instantiations of a pencil kernel, for the planner to pick.
template <class Job, bool Scan> const stub_table<Job::pencil_rank, Job> &pencil_stubs() {
  return stub_modes<Job::pencil_rank, Job, pencil_kernel<Job, Scan>>();
}

} // namespace dp::rt
