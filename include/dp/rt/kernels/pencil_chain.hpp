/// \file
/// scan<Dim> across the contiguous dimension in one pass over the data
/// when each pencil is split among several groups: a chained scan with
/// decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix
/// Scan with Decoupled Look-back", the scheme of CUB's DeviceScan), one
/// chain per column of lanes.
///
/// A group is `lanes` neighbouring pencils (on x: a warp reads a coalesced
/// row) by `walkers` threads each (on y), every walker holding
/// `chain_steps<T>` consecutive steps of its pencil in registers: a tile of
/// walkers * steps rows, so a pencil of 8192 floats is 64 tiles chained,
/// not 512. Over dense rows of arithmetic elements a lane takes V
/// neighbouring pencils (4 floats, 2 doubles) and loads and stores their
/// elements as one 16-byte vector a step, holding chain_steps<T> / V steps
/// of each: as many values in registers, a tile as many rows. The group
/// folds each walker's steps, scans the walkers' folds in tile memory, and publishes the tile's aggregate before it reads any
/// predecessor's. It then looks back along its column a window of
/// `chain_window` splits at once, a thread a split: once every split of
/// the window has published something, the nearest that has published its
/// inclusive prefix ends the look-back, and each lane folds that prefix
/// and the aggregates after it, all loaded at once; a window without a
/// prefix folds its aggregates and the next window is read. It publishes
/// its own prefix, then each walker writes its steps from its carry. The
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

/// Steps of its pencil a walker of a chained scan holds in registers
/// (CUB's items per thread, for values of T).
template <class T>
inline constexpr std::int64_t chain_steps = sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 8
                                           : sizeof(T) <= 32                    ? 4
                                                                                : 1;

/// Splits a chained scan's group looks back over at once (a warp's worth).
inline constexpr std::int64_t chain_window = 32;
/// Neighbouring pencils of a chained scan's group, at most (a warp's row).
inline constexpr std::int64_t chain_max_lanes = 32;

/// Steps of each of its V pencils a walker holds (as many values as one
/// pencil's chain_steps).
template <class T, int V>
inline constexpr std::int64_t chain_vector_steps = chain_steps<T> / V > 0 ? chain_steps<T> / V : 1;

/// The cut of a chained scan of `last` neighbouring pencils of `length`
/// steps of T: lanes on a row (V pencils each, a warp's row of pencils at
/// most), then walkers down the pencils, steps each, up to `max_threads`
/// threads (the device's threads per group).
template <class T, int V = 1>
constexpr pencil_tiling chain_tiling_for(std::int64_t last, std::int64_t length,
                                         std::int64_t max_threads = pencil_group_threads) {
  constexpr std::int64_t steps = chain_vector_steps<T, V>;
  pencil_tiling t;
  const std::int64_t threads = std::max<std::int64_t>(1, std::min(pencil_group_threads, max_threads));
  std::int64_t group = 1; // the most threads, a power of two
  while (group * 2 <= threads)
    group *= 2;
  t.vector = V;
  t.lanes = detail::pow2_at_least((last + V - 1) / V, std::min(chain_max_lanes / V, group));
  t.walkers = detail::pow2_at_least((length + steps - 1) / steps, group / t.lanes);
  t.chunk = t.walkers * steps;
  t.splits = length > 0 ? (length + t.chunk - 1) / t.chunk : 1;
  return t;
}

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

namespace detail {
constexpr std::size_t tile_aligned(std::size_t n) {
  return (n + dp::detail::tile_memory_alignment - 1) / dp::detail::tile_memory_alignment *
         dp::detail::tile_memory_alignment;
}
} // namespace detail

/// A chained scan's tile memory: the walkers' folds, then their exclusive
/// scans ([walker][lane][pencil of the lane]); the lanes' pencils' carries;
/// the window's statuses and the ticket.
template <class T, int V = 1>
inline constexpr std::size_t chain_folds_bytes =
    detail::tile_aligned(pencil_group_threads * V * sizeof(T));
template <class T>
inline constexpr std::size_t chain_carries_bytes = detail::tile_aligned(chain_max_lanes * sizeof(T));
template <class T, int V = 1>
inline constexpr std::size_t chain_shared_bytes =
    chain_folds_bytes<T, V> + chain_carries_bytes<T> +
    detail::tile_aligned((chain_window + 1) * sizeof(unsigned));

/// Whether a chained scan of T, V pencils a lane, fits a group's tile
/// memory (else each pencil is one thread's walk: pencil_kernels.hpp).
template <class T, int V = 1>
inline constexpr bool chain_tiles_fit =
    pencil_tiles_fit<T> && chain_shared_bytes<T, V> <= dp::max_tile_static_bytes;

/// What a chained pencil scan needs: the tiled pencil job's fields
/// (`walkers` threads a pencil, `chain_vector_steps<T, V>` steps each),
/// the splits' statuses and their (split, pencil) aggregates and prefixes.
/// V > 1: a lane's V neighbouring pencils, their elements loaded and the
/// results stored as one vector a step (the caller checked that the rows
/// are dense and aligned for it: loads_vectors and stores_vectors).
template <int N, int Dim, class T, class Op, class Map, int V = 1> struct pencil_chain_job {
  static constexpr int rank = N;
  static constexpr int dim = Dim;
  static constexpr bool along = false; // across: lanes on x, walkers on y
  static constexpr int vector = V;     // pencils a lane
  static constexpr int run = 1;        // steps of a pencil a lane loads at once
  static constexpr std::int64_t steps = chain_vector_steps<T, V>;
  static constexpr std::int64_t window = chain_window;
  using value_type = T;
  static constexpr std::size_t folds_bytes = chain_folds_bytes<T, V>;
  static constexpr std::size_t carries_bytes = chain_carries_bytes<T>;
  static constexpr std::size_t shared_bytes = chain_shared_bytes<T, V>;

  Map map;
  Op op;
  dp::detail::affine_projection<T, N> out;
  dp::detail::affine_projection<T, N> aggregates; ///< (split, pencil)
  dp::detail::affine_projection<T, N> prefixes;   ///< (split, pencil)
  unsigned *status; ///< [0]: the tickets; [1 + split * columns() + column]
  std::int64_t length;
  std::int64_t lanes, walkers, last;
  std::int64_t groups[N]; ///< (splits, the pencils' leading dimensions, lane groups)

  /// Groups per split.
  DP_HOST_DEVICE std::int64_t columns() const {
    std::int64_t c = 1;
    for (int d = 1; d < N; ++d)
      c *= groups[d];
    return c;
  }
  /// Rows of a tile (steps of a split).
  DP_HOST_DEVICE std::int64_t rows() const { return walkers * steps; }
  /// The status word of split s in column c.
  DP_HOST_DEVICE unsigned *status_of(std::int64_t s, std::int64_t c) const {
    return status + 1 + s * columns() + c;
  }
};

/// Where a chained scan's group keeps its tile memory.
template <class T> struct chain_memory {
  T *folds;           ///< [(walker * lanes + lane) * V + pencil of the lane]
  T *carries;         ///< [lane * V + pencil of the lane]
  unsigned *statuses; ///< [window]: what the window's splits published
  unsigned *ticket;
};
template <class Job> DP_HOST_DEVICE chain_memory<typename Job::value_type> chain_tile_memory() {
  using T = typename Job::value_type;
  unsigned char *shared = tile_shared<Job::shared_bytes>();
  unsigned *statuses = reinterpret_cast<unsigned *>(shared + Job::folds_bytes + Job::carries_bytes);
  return {reinterpret_cast<T *>(shared), reinterpret_cast<T *>(shared + Job::folds_bytes), statuses,
          statuses + Job::window};
}

/// Of a window of statuses read for splits base, base - 1, ... (`count`
/// of them): the nearest that has published its inclusive prefix, or -1.
DP_HOST_DEVICE inline std::int64_t chain_nearest_prefix(const unsigned *statuses,
                                                        std::int64_t count) {
  for (std::int64_t t = 0; t < count; ++t)
    if (statuses[t] == chain_prefix)
      return t;
  return -1;
}

/// Values of a window a look-back loads at once.
inline constexpr std::int64_t chain_loads = 8;

/// The fold, in the splits' order, of splits base - j .. base of the
/// pencil at `at`: split base - j as it has published (statuses[j]), the
/// others' aggregates, loaded `chain_loads` at a time before they are
/// folded.
template <class Job>
DP_HOST_DEVICE typename Job::value_type
chain_window_fold(const Job &job, const pencil_place<Job::rank> &at, std::int64_t base,
                  const unsigned *statuses, std::int64_t j) {
  using T = typename Job::value_type;
  const std::int64_t s = base - j;
  raw_values<T> acc;
  acc.v[0] = chain_read(&(statuses[j] == chain_prefix ? job.prefixes : job.aggregates)[at.slot(s)]);
  for (std::int64_t from = 1; from <= j; from += chain_loads) {
    raw_values<T, chain_loads> v;
    for (std::int64_t k = 0; k < chain_loads; ++k)
      if (from + k <= j)
        v.v[k] = chain_read(&job.aggregates[at.slot(s + from + k)]);
    for (std::int64_t k = 0; k < chain_loads; ++k)
      if (from + k <= j)
        acc.v[0] = static_cast<T>(job.op(acc.v[0], v.v[k]));
  }
  return acc.v[0];
}

/// A chained pencil scan's group: its split and column from a ticket, each
/// walker's steps read once, the tile's aggregate published, the carry
/// looked back for window by window, its prefix published, the steps
/// written once. Every thread reaches every barrier.
template <int Mode, class Job>
DP_GLOBAL void chain_scan_pencil_tiles(const launch_geometry<Job::rank> geometry, const Job job) {
  using T = typename Job::value_type;
  constexpr int N = Job::rank;
  constexpr int V = Job::vector;
  constexpr std::int64_t S = Job::steps;
  pencil_place<N> at;
  if (!place_pencil_thread<Mode>(geometry, job, this_thread(), at))
    return; // a surplus group (all of it): it takes no ticket
  const chain_memory<T> mem = chain_tile_memory<Job>();
  const std::int64_t me = at.walker * job.lanes + at.lane;
  if (me == 0)
    *mem.ticket = chain_take_ticket(job.status);
  tile_fold_barrier();
  const std::int64_t ticket = *mem.ticket, columns = job.columns();
  const std::int64_t split = ticket / columns, column = ticket % columns;
  for (std::int64_t c = column, d = N - 1; d >= 1; --d) {
    at.g[d] = c % job.groups[d];
    c /= job.groups[d];
  }
  at.g[0] = split;
  at.place_in_group(job.lanes, job.last, V);

  // 1. Each walker's steps of its lane's V pencils, folded.
  const std::int64_t first = split * job.rows(); // the tile's first row
  const std::int64_t begin = first + at.walker * S;
  const std::int64_t n = job.length - begin < S ? job.length - begin : S;
  const std::int64_t walking = (job.length - first + S - 1) / S; // walkers with steps
  raw_values<T, V> v[S];
  if (at.in_domain && n > 0) {
    for (std::int64_t k = 0; k < S; ++k)
      if (k < n)
        load_pencil_values(job, at, begin + k, v[k]);
    for (int i = 0; i < V; ++i) {
      T fold = v[0].v[i];
      for (std::int64_t k = 1; k < S; ++k)
        if (k < n)
          fold = static_cast<T>(job.op(fold, v[k].v[i]));
      mem.folds[me * V + i] = fold;
    }
  }
  tile_fold_barrier();
  // 2. Each lane's walkers scanned (exclusive), pencil by pencil, the
  // tile's aggregates kept as the lane's carries and published before any
  // look-back.
  if (at.walker == 0 && at.in_domain) {
    for (int i = 0; i < V; ++i) {
      T acc = mem.folds[at.lane * V + i];
      for (std::int64_t w = 1; w < job.walkers; ++w)
        if (w < walking) {
          T &slot = mem.folds[(w * job.lanes + at.lane) * V + i];
          const T next = slot;
          slot = acc;
          acc = static_cast<T>(job.op(acc, next));
        }
      (split == 0 ? job.prefixes : job.aggregates)[at.beside(i).slot(split)] = acc;
      mem.carries[at.lane * V + i] = acc;
    }
    chain_fence();
  }
  tile_fold_barrier();
  if (me == 0)
    chain_publish(job.status_of(split, column), split == 0 ? chain_prefix : chain_aggregate);
  // 3. The look-back, a window of splits at a time.
  if (split > 0) {
    const std::int64_t threads = job.lanes * job.walkers;
    const std::int64_t window = threads < Job::window ? threads : Job::window;
    raw_values<T, V> carry;
    bool carried = false;
    for (std::int64_t base = split - 1;; base -= window) {
      const std::int64_t count = base + 1 < window ? base + 1 : window;
      if (me < count)
        mem.statuses[me] = chain_wait(job.status_of(base - me, column));
      tile_fold_barrier();
      const std::int64_t j = chain_nearest_prefix(mem.statuses, count);
      if (at.walker == 0 && at.in_domain) {
        for (int i = 0; i < V; ++i) {
          const T w = chain_window_fold(job, at.beside(i), base, mem.statuses, j < 0 ? count - 1 : j);
          carry.v[i] = carried ? static_cast<T>(job.op(w, carry.v[i])) : w;
        }
        carried = true;
      }
      tile_fold_barrier(); // the statuses are read before the next window's
      if (j >= 0)
        break; // (split 0 has its prefix: every look-back ends)
    }
    if (at.walker == 0 && at.in_domain) {
      for (int i = 0; i < V; ++i) {
        T &lane_carry = mem.carries[at.lane * V + i];
        job.prefixes[at.beside(i).slot(split)] = static_cast<T>(job.op(carry.v[i], lane_carry));
        lane_carry = carry.v[i];
      }
      chain_fence();
    }
    tile_fold_barrier();
    if (me == 0)
      chain_publish(job.status_of(split, column), chain_prefix);
  }
  // 4. Each walker's steps written from its carries.
  if (!at.in_domain || n <= 0)
    return;
  raw_values<T, V> acc;
  for (int i = 0; i < V; ++i) {
    const T carry = mem.carries[at.lane * V + i], before = mem.folds[me * V + i];
    acc.v[i] = v[0].v[i];
    if (split > 0 && at.walker > 0)
      acc.v[i] = static_cast<T>(job.op(static_cast<T>(job.op(carry, before)), acc.v[i]));
    else if (split > 0)
      acc.v[i] = static_cast<T>(job.op(carry, acc.v[i]));
    else if (at.walker > 0)
      acc.v[i] = static_cast<T>(job.op(before, acc.v[i]));
  }
  dp::index<N> pos = at.template step<Job::dim>(begin);
  store_pencil_values(job, pos, acc);
  for (std::int64_t k = 1; k < S; ++k)
    if (k < n) {
      for (int i = 0; i < V; ++i)
        acc.v[i] = static_cast<T>(job.op(acc.v[i], v[k].v[i]));
      pos[Job::dim] = begin + k;
      store_pencil_values(job, pos, acc);
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
