/// \file
/// The emulated device's launches: every physical thread of a plan walked
/// through the stub on the CPU, running the mapping code a GPU runs; a
/// tiled plan's groups in parallel, the threads of a group cooperatively
/// (so their barriers synchronise) over their tile memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "../../detail/host_threads.hpp"
#include "../../error.hpp"
#include "../../reference/host_tiles.hpp"
#include "../stub/dispatch.hpp"
#include "../stub/table.hpp"
#include "../stub/thread.hpp"

namespace dp::rt {

/// Walks every physical thread of a plan through the stub, on the CPU: the
/// mapping code a GPU runs, run here (the emulated device's launch).
template <int R, class Params>
void walk_plan(const launch_plan<R> &p, const stub_table<R, Params> &stubs, const Params &params) {
  const auto stub = stubs.modes[p.mode];
  for (const dispatch_piece<R> &piece : p.pieces) {
    const launch_geometry<R> geo = make_geometry(p, piece);
    const std::int64_t groups = piece.groups[0] * piece.groups[1] * piece.groups[2];
    dp::detail::host_for_each(groups, [&](std::int64_t g) {
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

/// Walks every physical thread of a tiled plan through the stub on the
/// CPU: groups in parallel, the threads of a group cooperatively (so their
/// barriers synchronise), each group with `arena_bytes` of tile memory.
template <int N, class Params>
void walk_tiles(const std::string &site, const launch_plan<N> &p, const triple &shape,
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
    dp::detail::host_for_each(groups, [&](std::int64_t g) {
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
