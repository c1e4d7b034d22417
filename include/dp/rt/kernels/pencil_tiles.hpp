/// \file
/// reduce<Dim> and scan<Dim> on a device with every thread busy, however
/// the pencils are shaped: a group covers `lanes` neighbouring pencils with
/// `walkers` threads each, and `splits` groups share a pencil's steps.
///
/// * Across the contiguous dimension (Dim < N-1) the lanes are on x: at
///   every step a warp reads neighbouring pencils' elements, one coalesced
///   row, and the walkers on y take consecutive stretches of the steps.
/// * Along it (Dim == N-1) the walkers are on x, interleaved, so a warp
///   reads consecutive elements of one pencil, and the lanes are on y.
///
/// A reduction folds each walker's values, then the group's walkers in tile
/// memory; with one split the lane's first walker combines the fold into
/// the result, else it writes the split's fold to a partials array of
/// (splits, pencils) that a second launch folds into the result. A scan
/// has one walker per pencil; unsplit, each walks its pencil here, split,
/// the splits are chained in one pass (pencil_chain.hpp).
///
/// How a shape is cut is one pure function, pencil_tiling_for; the
/// launches go through the planner like a tiled grid's (plan_groups), so
/// every dispatch mode and several launches with origins apply to the
/// groups, on the GPU and on the emulated device alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../../config.hpp"
#include "../../reference/projection.hpp"
#include "../../extent.hpp"
#include "../../index.hpp"
#include "../../tile_group.hpp"
#include "../stub/dispatch.hpp"
#include "../stub/domains.hpp"
#include "../stub/table.hpp"
#include "../stub/thread.hpp"
#include "raw_values.hpp"
#include "tile_fold.hpp"

namespace dp::rt {

/// How the pencils of a reduce<Dim> or scan<Dim> are cut into groups.
struct pencil_tiling {
  std::int64_t lanes = 1;   ///< neighbouring pencils per group
  std::int64_t walkers = 1; ///< threads per pencil in a group
  std::int64_t splits = 1;  ///< groups along each pencil
  std::int64_t chunk = 0;   ///< steps per split (the last may have fewer)
  std::int64_t vector = 1;  ///< neighbouring pencils a lane folds, loaded as one vector
};

/// The threads of a tiled pencil kernel's group, at most.
inline constexpr std::int64_t pencil_group_threads = 256;
/// Groups enough to fill a GPU of 128 multiprocessors twice over (an H100
/// runs 132 x 8 groups of 256 at once): pencils are split until there are
/// this many, unless the device says how many it runs (pencil_target_for).
inline constexpr std::int64_t pencil_target_groups = 2048;
/// A split gives each walker at least this many steps.
inline constexpr std::int64_t pencil_min_steps = 16;

namespace detail {
/// The least power of two >= n (n >= 1), at most `cap`.
constexpr std::int64_t pow2_at_least(std::int64_t n, std::int64_t cap) {
  std::int64_t p = 1;
  while (p < n && p < cap)
    p *= 2;
  return p;
}
} // namespace detail

/// The cut of `pencils` pencils of `length` steps, `last` of them
/// neighbours along the pencils' last dimension; `along`: the steps are
/// the contiguous dimension; `scan`: one walker per pencil (a scan's
/// walkers would each need the carry of those before). `max_threads`: the
/// device's threads per group; `vector`: neighbouring pencils a lane of a
/// reduction or scan across takes (pencil_vector_of), else 1.
constexpr pencil_tiling pencil_tiling_for(bool along, bool scan, std::int64_t pencils,
                                          std::int64_t last, std::int64_t length,
                                          std::int64_t max_threads = pencil_group_threads,
                                          std::int64_t vector = 1,
                                          std::int64_t target_groups = pencil_target_groups) {
  pencil_tiling t;
  const std::int64_t threads = std::max<std::int64_t>(1, std::min(pencil_group_threads, max_threads));
  std::int64_t group = 1; // the most threads, a power of two
  while (group * 2 <= threads)
    group *= 2;
  if (scan) {
    t.walkers = 1;
    t.vector = vector;
    t.lanes = detail::pow2_at_least((last + vector - 1) / vector, group);
  } else if (along) {
    t.walkers = detail::pow2_at_least(length, group);
    t.lanes = detail::pow2_at_least(last, group / t.walkers);
  } else {
    t.vector = vector;
    t.lanes = detail::pow2_at_least((last + vector - 1) / vector, std::min<std::int64_t>(32, group));
    t.walkers = detail::pow2_at_least(length, group / t.lanes);
  }
  const std::int64_t rows = last > 0 ? pencils / last : 0;
  const std::int64_t across = t.lanes * t.vector; // pencils a group covers
  const std::int64_t groups = rows * ((last + across - 1) / across);
  const std::int64_t most = std::max<std::int64_t>(1, length / (t.walkers * pencil_min_steps));
  std::int64_t splits = groups > 0 ? (target_groups + groups - 1) / groups : 1;
  splits = std::max<std::int64_t>(1, std::min(splits, most));
  t.chunk = length > 0 ? (length + splits - 1) / splits : 0;
  t.splits = t.chunk > 0 ? (length + t.chunk - 1) / t.chunk : 1; // none empty
  return t;
}

/// The groups of pencil_group_threads a tiled pencil kernel aims for on a
/// device that runs `resident_threads` at once: two waves of them (2112
/// for 132 multiprocessors of 2048 threads, an H100's), as CUB sizes its
/// grids from the multiprocessors and their occupancy.
constexpr std::int64_t pencil_target_for(std::int64_t resident_threads) {
  const std::int64_t groups = 2 * resident_threads / pencil_group_threads;
  return groups > 0 ? groups : 1;
}

/// Whether T's values can be folded in tile memory (else the one thread
/// per pencil kernels of pencil_kernels.hpp run).
template <class T>
inline constexpr bool pencil_tiles_fit =
    std::is_trivially_copyable<T>::value && alignof(T) <= dp::detail::tile_memory_alignment &&
    pencil_group_threads * (sizeof(T) + 1) + dp::detail::tile_memory_alignment <=
        dp::max_tile_static_bytes;

/// The groups of a cut as a rank-N domain: (splits, the pencils' leading
/// dimensions, lane groups along their last).
template <int N>
dp::extent<N> pencil_groups(const dp::extent<N - 1> &pencils, const pencil_tiling &t) {
  dp::extent<N> g;
  g[0] = t.splits;
  for (int d = 0; d + 1 < N - 1; ++d)
    g[d + 1] = pencils[d];
  g[N - 1] = (pencils[N - 2] + t.lanes * t.vector - 1) / (t.lanes * t.vector);
  return g;
}

/// What a tiled pencil kernel needs. Out: the result (rank N-1 for a
/// reduction, N for a scan); partials: (split, pencil) folds, rank N. V:
/// elements a lane loads as one vector over dense rows (pencil_vector_of),
/// else 1: across the contiguous dimension V neighbouring pencils a lane
/// folds (`vector`), along it V consecutive steps of its pencil (`run`;
/// `length` and `chunk` then count runs, not steps).
template <int N, int Dim, class T, class Op, class Map, int OutRank, int V = 1>
struct pencil_tile_job {
  static constexpr int rank = N;
  static constexpr int dim = Dim;
  static constexpr bool along = Dim == N - 1;
  static constexpr int out_rank = OutRank;
  static constexpr int vector = along ? 1 : V;
  static constexpr int run = along ? V : 1;
  using value_type = T;
  static constexpr std::size_t values_bytes =
      (pencil_group_threads * vector * sizeof(T) + dp::detail::tile_memory_alignment - 1) /
      dp::detail::tile_memory_alignment * dp::detail::tile_memory_alignment;
  static constexpr std::size_t shared_bytes = values_bytes + pencil_group_threads;

  Map map;
  Op op;
  dp::detail::affine_projection<T, OutRank> out;
  dp::detail::affine_projection<T, N> partials; ///< base null: fold into out
  std::int64_t length;
  std::int64_t lanes, walkers, chunk;
  std::int64_t last; ///< the pencils' last extent
};

/// Where a thread of a tiled pencil kernel works.
template <int N> struct pencil_place {
  dp::index<N> g;       ///< its group: (split, pencil's leading dims, lane group)
  dp::index<N - 1> q;   ///< its pencil
  std::int64_t lane, walker;
  bool in_domain;
  /// Position of step k of its pencil along Dim.
  template <int Dim> DP_HOST_DEVICE dp::index<N> step(std::int64_t k) const {
    dp::index<N> pos;
    for (int d = 0, j = 0; d < N; ++d)
      pos[d] = d == Dim ? k : q[j++];
    return pos;
  }
  /// Its (first) pencil from its group g and lane; `lanes` per group of
  /// `vector` pencils each, `last` pencils along the pencils' last
  /// dimension.
  DP_HOST_DEVICE void place_in_group(std::int64_t lanes, std::int64_t last,
                                     std::int64_t vector = 1) {
    for (int d = 0; d + 1 < N - 1; ++d)
      q[d] = g[d + 1];
    q[N - 2] = (g[N - 1] * lanes + lane) * vector;
    in_domain = q[N - 2] < last;
  }
  /// The place of its i-th neighbouring pencil (a lane of vectors).
  DP_HOST_DEVICE pencil_place beside(std::int64_t i) const {
    pencil_place p = *this;
    p.q[N - 2] += i;
    return p;
  }
  /// Its (split, pencil) slot in a partials array.
  DP_HOST_DEVICE dp::index<N> slot(std::int64_t split) const {
    dp::index<N> s;
    s[0] = split;
    for (int d = 0; d < N - 1; ++d)
      s[d + 1] = q[d];
    return s;
  }
};

/// The place of a thread; false for a surplus group (all of it).
template <int Mode, class Job>
DP_HOST_DEVICE bool place_pencil_thread(const launch_geometry<Job::rank> &geometry, const Job &job,
                                        const thread_ids &thread, pencil_place<Job::rank> &at) {
  static constexpr std::int64_t first[3] = {0, 0, 0};
  if (!map_thread<Mode>(geometry, thread.group, first, at.g))
    return false;
  at.lane = Job::along ? thread.local[1] : thread.local[0];
  at.walker = Job::along ? thread.local[0] : thread.local[1];
  at.place_in_group(job.lanes, job.last, Job::vector);
  return true;
}

/// A vector of V elements, aligned as one load of V * sizeof(E) bytes.
template <class E, int V> struct alignas(V * sizeof(E)) element_vector {
  E v[V];
};

/// Values a lane of Job loads at once: its V neighbouring pencils' at a
/// step, or V consecutive steps of its pencil (a run).
template <class Job> inline constexpr int pencil_loaded = Job::vector * Job::run;

/// The V values at `pos` over dense rows: one vector load of their
/// elements from the map's argument and the map on each.
template <class Job, int V, class T = typename Job::value_type>
DP_HOST_DEVICE void load_element_vector(const Job &job, const dp::index<Job::rank> &pos,
                                        raw_values<T, V> &out) {
  const auto *first = &job.map.elements()[pos];
  using E = std::remove_const_t<std::remove_pointer_t<decltype(first)>>;
  const element_vector<E, V> x = *reinterpret_cast<const element_vector<E, V> *>(first);
  for (int i = 0; i < V; ++i)
    out.v[i] = static_cast<T>(job.map(dp::detail::element_at<Job::rank, E>{&x.v[i]}));
}

/// The values a lane loads at step k (k counts runs for a job with runs):
/// its pencils' by one map call each, or, over dense rows, one vector load.
template <class Job, class T = typename Job::value_type>
DP_HOST_DEVICE void load_pencil_values(const Job &job, const pencil_place<Job::rank> &at,
                                       std::int64_t k, raw_values<T, pencil_loaded<Job>> &out) {
  constexpr int L = pencil_loaded<Job>;
  const dp::index<Job::rank> pos = at.template step<Job::dim>(k * Job::run);
  if constexpr (L == 1)
    out.v[0] = static_cast<T>(job.map(pos));
  else
    load_element_vector<Job, L>(job, pos, out);
}

/// Stores the V results of a lane's pencils at step `pos`: one vector
/// store over dense rows (V > 1), else one element.
template <class Job, class T = typename Job::value_type>
DP_HOST_DEVICE void store_pencil_values(const Job &job, const dp::index<Job::rank> &pos,
                                        const raw_values<T, Job::vector> &values) {
  if constexpr (Job::vector == 1) {
    job.out[pos] = values.v[0];
  } else {
    element_vector<T, Job::vector> x;
    for (int i = 0; i < Job::vector; ++i)
      x.v[i] = values.v[i];
    *reinterpret_cast<element_vector<T, Job::vector> *>(&job.out[pos]) = x;
  }
}

/// A tiled reduce<Dim>: each (split, pencil) folded by the group's
/// walkers, a lane's V neighbouring pencils at once, or V consecutive
/// steps of its pencil at once (folded apart, then together: the operator
/// is commutative).
template <int Mode, class Job>
DP_GLOBAL void fold_pencil_tiles(const launch_geometry<Job::rank> geometry, const Job job) {
  using T = typename Job::value_type;
  constexpr int V = Job::vector;
  constexpr int L = pencil_loaded<Job>;
  pencil_place<Job::rank> at;
  if (!place_pencil_thread<Mode>(geometry, job, this_thread(), at))
    return; // the whole group
  const std::int64_t split = at.g[0];
  const std::int64_t begin = split * job.chunk;
  const std::int64_t end = begin + job.chunk < job.length ? begin + job.chunk : job.length;
  // Along: walkers interleave (a warp reads one stretch). Across: each
  // walker takes its own stretch of the split (a warp reads a row).
  std::int64_t k, stop, stride;
  if (Job::along) {
    k = begin + at.walker, stop = end, stride = job.walkers;
  } else {
    const std::int64_t per = (end - begin + job.walkers - 1) / job.walkers;
    k = begin + at.walker * per, stop = k + per < end ? k + per : end, stride = 1;
  }
  unsigned char *shared = tile_shared<Job::shared_bytes>();
  T *values = reinterpret_cast<T *>(shared);
  bool *present = reinterpret_cast<bool *>(shared + Job::values_bytes);
  const std::int64_t me = Job::along ? at.lane * job.walkers + at.walker
                                     : at.walker * job.lanes + at.lane;
  const std::int64_t apart = Job::along ? 1 : job.lanes; // the next walker's slot
  const bool has = at.in_domain && k < stop;
  if (has) {
    raw_values<T, L> acc, a, b, c, d;
    load_pencil_values(job, at, k, acc);
    for (k += stride; k + 3 * stride < stop; k += 4 * stride) { // four loads in flight
      load_pencil_values(job, at, k, a);
      load_pencil_values(job, at, k + stride, b);
      load_pencil_values(job, at, k + 2 * stride, c);
      load_pencil_values(job, at, k + 3 * stride, d);
      for (int i = 0; i < L; ++i) {
        acc.v[i] = static_cast<T>(job.op(acc.v[i], a.v[i]));
        acc.v[i] = static_cast<T>(job.op(acc.v[i], b.v[i]));
        acc.v[i] = static_cast<T>(job.op(acc.v[i], c.v[i]));
        acc.v[i] = static_cast<T>(job.op(acc.v[i], d.v[i]));
      }
    }
    for (; k < stop; k += stride) {
      load_pencil_values(job, at, k, a);
      for (int i = 0; i < L; ++i)
        acc.v[i] = static_cast<T>(job.op(acc.v[i], a.v[i]));
    }
    for (int i = 1; i < Job::run; ++i) // a run's steps folded apart, then together
      acc.v[0] = static_cast<T>(job.op(acc.v[0], acc.v[i]));
    for (int i = 0; i < V; ++i)
      values[me * V + i] = acc.v[i];
  }
  present[me] = has;
  for (std::int64_t half = job.walkers / 2; half > 0; half /= 2) {
    tile_fold_barrier();
    const std::int64_t other = me + half * apart;
    if (at.walker < half && present[other]) {
      for (int i = 0; i < V; ++i)
        values[me * V + i] =
            present[me] ? static_cast<T>(job.op(values[me * V + i], values[other * V + i]))
                        : values[other * V + i];
      present[me] = true;
    }
  }
  if (at.walker != 0 || !at.in_domain || !present[me])
    return;
  for (int i = 0; i < V; ++i) {
    const pencil_place<Job::rank> p = at.beside(i);
    if (p.q[Job::rank - 2] >= job.last)
      break;
    if (job.partials.base) {
      job.partials[p.slot(split)] = values[me * V + i];
    } else if constexpr (Job::out_rank == Job::rank - 1) {
      T &r = job.out[p.q];
      r = static_cast<T>(job.op(r, values[me * V + i]));
    }
  }
}

/// A tiled scan<Dim> whose pencils are not split: each thread walks its
/// pencil, or over dense rows a lane's V neighbouring pencils, loaded and
/// stored as one vector a step; four steps' loads in flight before they
/// are folded (split pencils chain their splits: pencil_chain.hpp).
template <int Mode, class Job>
DP_GLOBAL void scan_pencil_tiles(const launch_geometry<Job::rank> geometry, const Job job) {
  using T = typename Job::value_type;
  constexpr int V = Job::vector;
  static_assert(Job::run == 1, "a scan walks its pencils one step at a time");
  pencil_place<Job::rank> at;
  if (!place_pencil_thread<Mode>(geometry, job, this_thread(), at) || !at.in_domain)
    return; // no barriers here
  dp::index<Job::rank> pos = at.template step<Job::dim>(0);
  raw_values<T, V> acc, v[4];
  load_pencil_values(job, at, 0, acc);
  store_pencil_values(job, pos, acc);
  for (std::int64_t k = 1; k < job.length; k += 4) {
    const std::int64_t n = job.length - k < 4 ? job.length - k : 4;
    for (std::int64_t j = 0; j < n; ++j)
      load_pencil_values(job, at, k + j, v[j]);
    for (std::int64_t j = 0; j < n; ++j) {
      for (int i = 0; i < V; ++i)
        acc.v[i] = static_cast<T>(job.op(acc.v[i], v[j].v[i]));
      pos[Job::dim] = k + j;
      store_pencil_values(job, pos, acc);
    }
  }
}

/// A tiled pencil kernel, by mode (stub_modes).
template <class Job, bool Scan> struct pencil_tile_kernel {
  template <int Mode> static auto at() {
    if constexpr (Scan)
      return &scan_pencil_tiles<Mode, Job>;
    else
      return &fold_pencil_tiles<Mode, Job>;
  }
};

/// The per-mode instantiations of a tiled pencil kernel.
template <class Job, bool Scan> const stub_table<Job::rank, Job> &pencil_tile_stubs() {
  return stub_modes<Job::rank, Job, pencil_tile_kernel<Job, Scan>>();
}

/// A partials array read as a map function (the second pass's values).
template <class T, int N> struct partials_map {
  dp::detail::affine_projection<T, N> partials;
  DP_HOST_DEVICE T operator()(const dp::index<N> &pos) const { return partials[pos]; }
};

/// A row-major (splits, pencils) array at `base` as a projection.
template <class T, int N>
dp::detail::affine_projection<T, N> partials_projection(T *base, std::int64_t splits,
                                                        const dp::extent<N - 1> &pencils) {
  const dp::extent<N> e = [&] {
    dp::extent<N> x;
    x[0] = splits;
    for (int d = 0; d < N - 1; ++d)
      x[d + 1] = pencils[d];
    return x;
  }();
  dp::detail::affine_projection<T, N> p;
  p.base = base;
  std::int64_t step = 1;
  for (int d = N - 1; d >= 0; --d) {
    p.step[d] = step;
    step *= e[d];
  }
  return p;
}

} // namespace dp::rt
