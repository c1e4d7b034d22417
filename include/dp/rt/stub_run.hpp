/// \file
/// The per-mode instantiations of a stub, the plans that pick one, and the
/// walk of a plan's physical threads on the CPU that the emulated device's
/// launches run. Shared by forall stubs and the runtime's own kernels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <tbb/parallel_for.h>

#include "../config.hpp"
#include "../error.hpp"
#include "../extent.hpp"
#include "../detail/host_tiles.hpp"
#include "backend.hpp"
#include "counters.hpp"
#include "dispatch.hpp"
#include "modes.hpp"
#include "profile.hpp"
#include "domains.hpp"
#include "thread.hpp"

namespace dp::rt {

/// The stub instantiations of one call-site, by dispatch mode (1..7).
template <int Rc, class Params> struct stub_table {
  using stub = void (*)(launch_geometry<Rc>, Params);
  stub modes[8];
};

/// The stub table of a kernel template of the runtime itself, made once:
/// `Kernel::template at<Mode>()` for each mode a rank-Rc plan may pick
/// (rank_uses_mode).
template <int Rc, class Params, class Kernel> const stub_table<Rc, Params> &stub_modes() {
  static const stub_table<Rc, Params> table = [] {
    stub_table<Rc, Params> t{};
    t.modes[direct_mode_of_rank(Rc)] = Kernel::template at<direct_mode_of_rank(Rc)>();
    if constexpr (rank_uses_mode(Rc, 4)) {
      t.modes[4] = Kernel::template at<4>();
      t.modes[5] = Kernel::template at<5>();
      t.modes[6] = Kernel::template at<6>();
    }
    t.modes[7] = Kernel::template at<7>();
    return t;
  }();
  return table;
}

/// A call-site's launch-shape hints (dp::group_size, .max_groups): zeros
/// where it gave none.
struct launch_hints {
  triple group{0, 0, 0};
  std::int64_t max_groups = 0;
};

/// The device's limits narrowed to at most n groups per launch: the
/// product of the per-dimension limits stays within n, the groups a direct
/// layout of `e` needs taken first (x, then y, then z), so that a direct
/// plan keeps fitting where it can.
template <int R>
device_limits limit_groups(device_limits limits, std::int64_t n, const dp::extent<R> &e,
                           const triple &shape) {
  if (n <= 0)
    return limits;
  std::int64_t budget = n;
  for (int k = 0; k < 3; ++k) {
    const int d = R - 1 - k;
    const std::int64_t direct = d >= 0 ? (e[d] + shape[k] - 1) / shape[k] : 1;
    std::int64_t take = std::min({limits.max_groups[k], budget, std::max<std::int64_t>(direct, 1)});
    if (k == 2)
      take = std::min(limits.max_groups[k], budget);
    limits.max_groups[k] = std::max<std::int64_t>(take, 1);
    budget = std::max<std::int64_t>(budget / limits.max_groups[k], 1);
  }
  return limits;
}

/// The launch plan for a domain, in the call-site's group shape (or
/// DP_EMULATE_GROUP's, or 256 threads) and within its group budget; a
/// dp::error naming the call-site when no plan fits the limits.
template <int R>
dispatch_plan<R> plan_for(const std::string &site, const dp::extent<R> &e,
                          const device_limits &limits, const launch_hints &hints = {}) {
  const triple shape = hints.group[0] > 0 ? hints.group : launch_group_shape();
  try {
    return plan_dispatch(e, limit_groups(limits, hints.max_groups, e, shape), launch_policy(),
                         shape);
  } catch (const dp::error &err) {
    throw dp::error(site + ": " + err.what());
  }
}

/// DP_TRACE_DISPATCH=1: one line per launch plan on stderr (tests use it to
/// prove which dispatch modes ran).
template <int R> void trace_plan(const std::string &site, const dispatch_plan<R> &p) {
  if (profile::on()) { // the call-site's profile record shows its plan
    profile::plan_note &note = profile::current_plan();
    note.mode = p.mode;
    note.launches += static_cast<std::int64_t>(p.pieces.size());
    for (const dispatch_piece<R> &piece : p.pieces)
      note.groups += piece.groups[0] * piece.groups[1] * piece.groups[2];
  }
  if (detail::tracing())
    std::fprintf(stderr, "dp-dispatch: %s: mode %d, %zu launch%s\n", site.c_str(), p.mode,
                 p.pieces.size(), p.pieces.size() == 1 ? "" : "es");
}

/// Walks every physical thread of a plan through the stub, on the CPU: the
/// mapping code a GPU runs, run here (the emulated device's launch).
template <int R, class Params>
void walk_plan(const dispatch_plan<R> &p, const stub_table<R, Params> &stubs, const Params &params) {
  const auto stub = stubs.modes[p.mode];
  for (const dispatch_piece<R> &piece : p.pieces) {
    const launch_geometry<R> geo = make_geometry(p, piece);
    const std::int64_t groups = piece.groups[0] * piece.groups[1] * piece.groups[2];
    tbb::parallel_for(std::int64_t(0), groups, [&](std::int64_t g) {
      thread_ids &ids = detail::emulated_thread();
      ids.group[0] = g % piece.groups[0];
      ids.group[1] = g / piece.groups[0] % piece.groups[1];
      ids.group[2] = g / piece.groups[0] / piece.groups[1];
      for (ids.local[2] = 0; ids.local[2] < p.group_shape[2]; ++ids.local[2])
        for (ids.local[1] = 0; ids.local[1] < p.group_shape[1]; ++ids.local[1])
          for (ids.local[0] = 0; ids.local[0] < p.group_shape[0]; ++ids.local[0])
            stub(geo, params);
    });
  }
}

/// The launches of `groups` (a rank-N domain of groups) with `shape`
/// threads each: the groups laid out as the points of a plan with one
/// thread per group, so the planner's modes and its several launches with
/// origins apply with origins in group units. A dp::error when the shape
/// does not fit the device's groups. Tiled grids and the runtime's tiled
/// kernels (pencil_tiles.hpp) launch this way.
template <int N>
dispatch_plan<N> plan_groups(const std::string &site, const dp::extent<N> &groups,
                             const triple &shape, const device_limits &limits,
                             const launch_hints &hints = {}) {
  dp::detail::check_tile_volume(site, shape[0] * shape[1] * shape[2], limits.max_threads_per_group);
  for (int k = 0; k < 3; ++k)
    if (shape[k] > limits.max_group_extent[k])
      throw dp::error(site + ": the tile puts " + std::to_string(shape[k]) + " threads on the " +
                      "xyz"[k] + " dimension of a group, but the device allows " +
                      std::to_string(limits.max_group_extent[k]));
  device_limits per_group = limit_groups(limits, hints.max_groups, groups, {1, 1, 1});
  per_group.max_threads_per_group = 1;
  try {
    return plan_dispatch(groups, per_group, launch_policy(), {1, 1, 1});
  } catch (const dp::error &err) {
    throw dp::error(site + ": " + err.what());
  }
}

/// The launches of a tiled grid (approach 6 of docs/runtime.md): one group
/// per tile (plan_groups).
template <int N>
dispatch_plan<N> plan_tiles(const std::string &site, const dp::extent<N> &tiles,
                            const dp::extent<N> &tile, const device_limits &limits,
                            const launch_hints &hints = {}) {
  dp::detail::check_tile_volume(site, tile.size(), limits.max_threads_per_group);
  return plan_groups(site, tiles, tile_group_shape(tile), limits, hints);
}

/// Tiles per dimension: extents divided by the tile's, rounded up.
template <int N> dp::extent<N> tile_counts(const dp::extent<N> &e, const dp::extent<N> &tile) {
  dp::extent<N> t;
  for (int d = 0; d < N; ++d)
    t[d] = (e[d] + tile[d] - 1) / tile[d];
  return t;
}

/// Walks every physical thread of a tiled plan through the stub on the
/// CPU: groups in parallel, the threads of a group cooperatively (so their
/// barriers synchronise), each group with `arena_bytes` of tile memory.
template <int N, class Params>
void walk_tiles(const std::string &site, const dispatch_plan<N> &p, const triple &shape,
                std::size_t arena_bytes, const stub_table<N, Params> &stubs, const Params &params) {
  const auto stub = stubs.modes[p.mode];
  struct group_job {
    const triple &shape;
    const launch_geometry<N> &geo;
    const Params &params;
    void (*stub)(launch_geometry<N>, Params);
    thread_ids ids;
    static void run(void *ctx, std::int64_t k) {
      group_job &job = *static_cast<group_job *>(ctx);
      thread_ids &ids = detail::emulated_thread();
      ids = job.ids;
      ids.local[0] = k % job.shape[0];
      ids.local[1] = k / job.shape[0] % job.shape[1];
      ids.local[2] = k / job.shape[0] / job.shape[1];
      job.stub(job.geo, job.params); // reads its ids before any barrier
    }
  };
  for (const dispatch_piece<N> &piece : p.pieces) {
    const launch_geometry<N> geo = make_geometry(p, piece);
    const std::int64_t groups = piece.groups[0] * piece.groups[1] * piece.groups[2];
    tbb::parallel_for(std::int64_t(0), groups, [&](std::int64_t g) {
      group_job job{shape, geo, params, stub, {}};
      job.ids.group[0] = g % piece.groups[0];
      job.ids.group[1] = g / piece.groups[0] % piece.groups[1];
      job.ids.group[2] = g / piece.groups[0] / piece.groups[1];
      try {
        dp::detail::run_tile_threads({shape[0] * shape[1] * shape[2], &group_job::run, &job},
                                     arena_bytes);
      } catch (const dp::error &err) {
        throw dp::error(site + ": group (" + std::to_string(job.ids.group[0]) + ", " +
                        std::to_string(job.ids.group[1]) + ", " +
                        std::to_string(job.ids.group[2]) + "): " + err.what());
      }
    });
  }
}

} // namespace dp::rt
