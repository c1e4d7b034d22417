/// \file
/// Running the per-mode instantiations of a stub over a domain: planned
/// and launched on a GPU, or every physical thread of the plan walked on the
/// CPU (dispatch emulation). Shared by forall stubs and by the pencil
/// kernels of reduce<Dim> and scan<Dim>.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include <tbb/parallel_for.h>

#include "../config.hpp"
#include "../error.hpp"
#include "../extent.hpp"
#include "../detail/host_tiles.hpp"
#include "backend.hpp"
#include "dispatch.hpp"
#include "domains.hpp"
#include "gpu.hpp"
#include "thread.hpp"

namespace dp::rt {

/// The stub instantiations of one call-site, by dispatch mode (1..7).
template <int Rc, class Params> struct stub_table {
  using stub = void (*)(launch_geometry<Rc>, Params);
  stub modes[8];
};

/// The stub table of a kernel template of the runtime itself:
/// `Kernel::template at<Mode>()` for each mode a rank-Rc plan may pick (the
/// rank's own, 3 above rank 3; the 3-d modes 4-6 at rank 3; flat 7 always).
template <int Rc, class Params, class Kernel> stub_table<Rc, Params> stub_modes() {
  constexpr int Own = Rc < 3 ? Rc : 3;
  stub_table<Rc, Params> t{};
  t.modes[Own] = Kernel::template at<Own>();
  if constexpr (Rc == 3) {
    t.modes[4] = Kernel::template at<4>();
    t.modes[5] = Kernel::template at<5>();
    t.modes[6] = Kernel::template at<6>();
  }
  t.modes[7] = Kernel::template at<7>();
  return t;
}

/// The launch plan for a domain; a dp::error naming the call-site when no
/// plan fits the limits.
template <int R>
dispatch_plan<R> plan_for(const std::string &site, const dp::extent<R> &e,
                          const device_limits &limits) {
  try {
    return plan_dispatch(e, limits, launch_policy(), launch_group_shape());
  } catch (const dp::error &err) {
    throw dp::error(site + ": " + err.what());
  }
}

/// DP_TRACE_DISPATCH=1: one line per launch plan on stderr (tests use it to
/// prove which dispatch modes ran).
template <int R> void trace_plan(const std::string &site, const dispatch_plan<R> &p) {
  static const bool enabled = [] {
    const char *env = std::getenv("DP_TRACE_DISPATCH");
    return env && *env && std::string(env) != "0";
  }();
  if (enabled)
    std::fprintf(stderr, "dp-dispatch: %s: mode %d, %zu launch%s\n", site.c_str(), p.mode,
                 p.pieces.size(), p.pieces.size() == 1 ? "" : "es");
}

/// Walks every physical thread of the emulated device's plan through the
/// stub: the mapping code a GPU runs, run on the CPU.
template <int R, class Params>
void run_emulated(const std::string &site, const dp::extent<R> &e,
                  const stub_table<R, Params> &stubs, const Params &params) {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
  (void)e, (void)stubs, (void)params;
  throw dp::error(site + ": DP_HOST_MODE=emulate needs a program built by a host compiler");
#else
  const dispatch_plan<R> p = plan_for(site, e, emulated_limits());
  trace_plan(site, p);
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
#endif
}

/// Plans for the device's limits and launches the stub once per piece.
template <int R, class Params>
void run_on_device(const std::string &site, const dp::extent<R> &e,
                   const stub_table<R, Params> &stubs, const Params &params) {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
  static const device_limits limits = gpu::query_limits();
  const dispatch_plan<R> p = plan_for(site, e, limits);
  trace_plan(site, p);
  for (const dispatch_piece<R> &piece : p.pieces)
    gpu::launch(site.c_str(), stubs.modes[p.mode], piece.groups, p.group_shape,
                make_geometry(p, piece), params);
  gpu::synchronize(site.c_str());
#else
  (void)site, (void)e, (void)stubs, (void)params;
#endif
}

/// The launches of a tiled grid (approach 6 of docs/runtime.md): one group
/// per tile, the tiles laid out as the points of a plan with one thread per
/// group, so the planner's modes and its several launches with origins
/// apply with origins in tile units. A dp::error when the tile does not fit
/// the device's groups.
template <int N>
dispatch_plan<N> plan_tiles(const std::string &site, const dp::extent<N> &tiles,
                            const dp::extent<N> &tile, const device_limits &limits) {
  const triple shape = tile_group_shape(tile);
  dp::detail::check_tile_volume(site, tile.size(), limits.max_threads_per_group);
  for (int k = 0; k < 3; ++k)
    if (shape[k] > limits.max_group_extent[k])
      throw dp::error(site + ": the tile puts " + std::to_string(shape[k]) + " threads on the " +
                      "xyz"[k] + " dimension of a group, but the device allows " +
                      std::to_string(limits.max_group_extent[k]));
  device_limits per_tile = limits;
  per_tile.max_threads_per_group = 1;
  try {
    return plan_dispatch(tiles, per_tile, launch_policy(), {1, 1, 1});
  } catch (const dp::error &err) {
    throw dp::error(site + ": " + err.what());
  }
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
void run_tiled_emulated(const std::string &site, const dp::extent<N> &e,
                        const dp::extent<N> &tile, std::size_t arena_bytes,
                        const stub_table<N, Params> &stubs, const Params &params) {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
  (void)e, (void)tile, (void)arena_bytes, (void)stubs, (void)params;
  throw dp::error(site + ": DP_HOST_MODE=emulate needs a program built by a host compiler");
#else
  const dispatch_plan<N> p = plan_tiles(site, tile_counts(e, tile), tile, emulated_limits());
  trace_plan(site, p);
  const triple shape = tile_group_shape(tile);
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
#endif
}

/// Plans the tiles for the device's limits and launches one group per tile.
template <int N, class Params>
void run_tiled_on_device(const std::string &site, const dp::extent<N> &e,
                         const dp::extent<N> &tile, const stub_table<N, Params> &stubs,
                         const Params &params) {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
  static const device_limits limits = gpu::query_limits();
  const dispatch_plan<N> p = plan_tiles(site, tile_counts(e, tile), tile, limits);
  trace_plan(site, p);
  const triple shape = tile_group_shape(tile);
  for (const dispatch_piece<N> &piece : p.pieces)
    gpu::launch(site.c_str(), stubs.modes[p.mode], piece.groups, shape, make_geometry(p, piece),
                params);
  gpu::synchronize(site.c_str());
#else
  (void)site, (void)e, (void)tile, (void)stubs, (void)params;
#endif
}

} // namespace dp::rt
