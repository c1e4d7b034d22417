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
#include "backend.hpp"
#include "dispatch.hpp"
#include "gpu.hpp"
#include "thread.hpp"

namespace dp::rt {

/// The stub instantiations of one call-site, by dispatch mode (1..7).
template <int Rc, class Params> struct stub_table {
  using stub = void (*)(launch_geometry<Rc>, Params);
  stub modes[8];
};

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

} // namespace dp::rt
