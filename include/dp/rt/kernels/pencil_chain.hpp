/// \file
/// scan<Dim> across the contiguous dimension in one pass over the data
/// when each pencil is split among several groups: a chained scan with
/// decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix
/// Scan with Decoupled Look-back", the scheme of CUB's DeviceScan), one
/// chain per column of lanes.
///
/// A group holds `chain_steps<T>` steps of `lanes` neighbouring pencils, a
/// thread's steps in registers (every step one coalesced row of a warp's
/// loads). It folds them, publishes the fold as its split's aggregate,
/// then looks back along its column: the splits before it, nearest first,
/// each adding its aggregate until one has published its inclusive prefix.
/// It publishes its own prefix, then writes its steps from the carry. The
/// data is read once and written once; the splits' folds and prefixes are
/// (split, pencil) arrays and a status word per (split, column).
///
/// A group waits only for groups that started before it: it takes its
/// split and column from a ticket (an atomic counter, split-major), not
/// from where the launch placed it, so neither the hardware's order of
/// groups nor the planner's launches and modes can deadlock the chain. A
/// reset kernel zeroes the tickets and statuses first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if !DP_DEVICE_COMPILE
#include <thread>
#endif

#include "../../config.hpp"
#include "../../reference/projection.hpp"
#include "../../index.hpp"
#include "../stub/dispatch.hpp"
#include "../stub/domains.hpp"
#include "../stub/table.hpp"
#include "../stub/thread.hpp"
#include "pencil_tiles.hpp"
#include "raw_values.hpp"
#include "tile_fold.hpp"

namespace dp::rt {

/// Steps of its pencil a thread of a chained scan holds in registers
/// (CUB's items per thread, for values of T).
template <class T>
inline constexpr std::int64_t chain_steps = sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 8
                                           : sizeof(T) <= 32                    ? 4
                                                                                : 1;

/// What a split has published: nothing yet, its aggregate, its inclusive
/// prefix (the fold of its column's splits up to it).
enum chain_status : unsigned { chain_empty = 0, chain_aggregate = 1, chain_prefix = 2 };

/// The next ticket of a counter (a split and column, in start order).
DP_HOST_DEVICE inline unsigned chain_take_ticket(unsigned *counter) {
#if DP_DEVICE_COMPILE
  return atomicAdd(counter, 1u);
#else
  return __atomic_fetch_add(counter, 1u, __ATOMIC_ACQ_REL);
#endif
}

/// Makes this thread's writes visible to every group before a status
/// published after the group's next barrier.
DP_HOST_DEVICE inline void chain_fence() {
#if DP_DEVICE_COMPILE
  __threadfence();
#else
  __atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}

/// Publishes a status (after chain_fence and a barrier of the writers).
DP_HOST_DEVICE inline void chain_publish(unsigned *status, unsigned what) {
#if DP_DEVICE_COMPILE
  __threadfence();
  atomicExch(status, what);
#else
  __atomic_store_n(status, what, __ATOMIC_RELEASE);
#endif
}

/// Waits until a split has published something; returns what.
DP_HOST_DEVICE inline unsigned chain_wait(const unsigned *status) {
  unsigned s;
#if DP_DEVICE_COMPILE
  while ((s = *static_cast<const volatile unsigned *>(status)) == chain_empty) {
  }
  __threadfence();
#else
  while ((s = __atomic_load_n(status, __ATOMIC_ACQUIRE)) == chain_empty)
    std::this_thread::yield(); // the split before runs in another group's thread
#endif
  return s;
}

/// A value another group published: read past the non-coherent caches (a
/// line may have been cached before it was written).
template <class T> DP_HOST_DEVICE T chain_read(const T *p) {
#if DP_DEVICE_COMPILE
  if constexpr (std::is_arithmetic<T>::value) {
    return *static_cast<const volatile T *>(p);
  } else {
    raw_values<T, 1> out;
    const volatile unsigned char *from = reinterpret_cast<const volatile unsigned char *>(p);
    unsigned char *to = reinterpret_cast<unsigned char *>(&out.v[0]);
    for (std::size_t i = 0; i < sizeof(T); ++i)
      to[i] = from[i];
    return out.v[0];
  }
#else
  return *p;
#endif
}

/// What a chained pencil scan needs: the tiled pencil job's fields (one
/// walker a pencil, `chain_steps<T>` steps a split), the splits' statuses
/// and their (split, pencil) aggregates and prefixes.
template <int N, int Dim, class T, class Op, class Map> struct pencil_chain_job {
  static constexpr int rank = N;
  static constexpr int dim = Dim;
  static constexpr bool along = false; // across: lanes on x
  static constexpr std::int64_t steps = chain_steps<T>;
  using value_type = T;
  static constexpr std::size_t shared_bytes = dp::detail::tile_memory_alignment; // the ticket

  Map map;
  Op op;
  dp::detail::affine_projection<T, N> out;
  dp::detail::affine_projection<T, N> aggregates; ///< (split, pencil)
  dp::detail::affine_projection<T, N> prefixes;   ///< (split, pencil)
  unsigned *status; ///< [0]: the tickets; [1 + split * columns() + column]
  std::int64_t length;
  std::int64_t lanes, last;
  std::int64_t groups[N]; ///< (splits, the pencils' leading dimensions, lane groups)

  /// Groups per split.
  DP_HOST_DEVICE std::int64_t columns() const {
    std::int64_t c = 1;
    for (int d = 1; d < N; ++d)
      c *= groups[d];
    return c;
  }
};

/// The look-back of the thread at `at` in split `split` > 0 of column
/// `column`: the fold of its pencil's splits before it.
template <class Job>
DP_HOST_DEVICE typename Job::value_type
chain_look_back(const Job &job, const pencil_place<Job::rank> &at, std::int64_t split,
                std::int64_t column) {
  using T = typename Job::value_type;
  const std::int64_t columns = job.columns();
  const auto status_of = [&](std::int64_t s) { return job.status + 1 + s * columns + column; };
  const auto published = [&](std::int64_t s, unsigned what) {
    return chain_read(&(what == chain_prefix ? job.prefixes : job.aggregates)[at.slot(s)]);
  };
  std::int64_t s = split - 1;
  unsigned what = chain_wait(status_of(s));
  T carry = published(s, what);
  while (what != chain_prefix) {
    what = chain_wait(status_of(--s));
    carry = static_cast<T>(job.op(published(s, what), carry));
  }
  return carry;
}

/// A chained pencil scan's group: its split and column from a ticket, its
/// steps read once, the carry looked back for, its steps written once.
template <int Mode, class Job>
DP_GLOBAL void chain_scan_pencil_tiles(const launch_geometry<Job::rank> geometry, const Job job) {
  using T = typename Job::value_type;
  constexpr int N = Job::rank;
  pencil_place<N> at;
  if (!place_pencil_thread<Mode>(geometry, job, this_thread(), at))
    return; // a surplus group (all of it): it takes no ticket
  unsigned *ticket = reinterpret_cast<unsigned *>(tile_shared<Job::shared_bytes>());
  if (at.lane == 0)
    *ticket = chain_take_ticket(job.status);
  tile_fold_barrier();
  const std::int64_t columns = job.columns();
  const std::int64_t split = *ticket / columns, column = *ticket % columns;
  for (std::int64_t c = column, d = N - 1; d >= 1; --d) {
    at.g[d] = c % job.groups[d];
    c /= job.groups[d];
  }
  at.g[0] = split;
  at.place_in_group(job.lanes, job.last);

  const std::int64_t begin = split * Job::steps;
  const std::int64_t n = job.length - begin < Job::steps ? job.length - begin : Job::steps;
  raw_values<T, Job::steps> v;
  dp::index<N> pos = at.template step<Job::dim>(begin);
  if (at.in_domain) {
    for (std::int64_t k = 0; k < Job::steps; ++k)
      if (k < n) {
        pos[Job::dim] = begin + k;
        v.v[k] = static_cast<T>(job.map(pos));
      }
    raw_values<T, 1> fold;
    fold.v[0] = v.v[0];
    for (std::int64_t k = 1; k < Job::steps; ++k)
      if (k < n)
        fold.v[0] = static_cast<T>(job.op(fold.v[0], v.v[k]));
    (split == 0 ? job.prefixes : job.aggregates)[at.slot(split)] = fold.v[0];
    chain_fence();
  }
  tile_fold_barrier();
  if (at.lane == 0)
    chain_publish(job.status + 1 + *ticket, split == 0 ? chain_prefix : chain_aggregate);
  if (split > 0) {
    if (at.in_domain) {
      const T carry = chain_look_back(job, at, split, column);
      job.prefixes[at.slot(split)] =
          static_cast<T>(job.op(carry, job.aggregates[at.slot(split)]));
      chain_fence();
      v.v[0] = static_cast<T>(job.op(carry, v.v[0])); // the walk below starts from the carry
    }
    tile_fold_barrier();
    if (at.lane == 0)
      chain_publish(job.status + 1 + *ticket, chain_prefix);
  }
  if (!at.in_domain)
    return;
  T acc = v.v[0];
  pos[Job::dim] = begin;
  job.out[pos] = acc;
  for (std::int64_t k = 1; k < Job::steps; ++k)
    if (k < n) {
      acc = static_cast<T>(job.op(acc, v.v[k]));
      pos[Job::dim] = begin + k;
      job.out[pos] = acc;
    }
}

/// The chained scan's kernel, by mode (stub_modes).
template <class Job> struct chain_scan_kernel {
  template <int Mode> static auto at() { return &chain_scan_pencil_tiles<Mode, Job>; }
};
template <class Job> const stub_table<Job::rank, Job> &chain_scan_stubs() {
  return stub_modes<Job::rank, Job, chain_scan_kernel<Job>>();
}

/// Zeroes a chained scan's tickets and statuses: a thread a word.
struct chain_reset_job {
  unsigned *status;
};
template <int Mode>
DP_GLOBAL void reset_chain(const launch_geometry<1> geometry, const chain_reset_job job) {
  dp::index<1> i;
  const thread_ids thread = this_thread();
  if (map_thread<Mode>(geometry, thread.group, thread.local, i))
    job.status[i[0]] = chain_empty;
}
struct chain_reset_kernel {
  template <int Mode> static auto at() { return &reset_chain<Mode>; }
};
inline const stub_table<1, chain_reset_job> &chain_reset_stubs() {
  return stub_modes<1, chain_reset_job, chain_reset_kernel>();
}

} // namespace dp::rt
