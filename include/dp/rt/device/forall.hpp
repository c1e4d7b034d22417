/// \file
/// forall on a device (the GPU or the emulated device): the stub's per-mode
/// instantiations over a plan made for the device's limits, enqueued on the
/// call-site's queue. A tiled grid gets one group per tile.
#pragma once

#include <cstddef>

#include "../../extent.hpp"
#include "../stub/dispatch.hpp"
#include "../stub/domains.hpp"
#include "../plan/plan.hpp"
#include "../jobs.hpp"
#include "../stub/table.hpp"
#include "executor.hpp"
#include "requests.hpp"

namespace dp::rt {
namespace device {

/// The stub over every position of `e`; `kernel` names it and
/// `data_points` is how many points of the call-site's data it reads
/// (requests.hpp).
template <class Device, int R, class Params>
void forall(device_launch<Device> &L, const dp::extent<R> &e, const stub_table<R, Params> &stubs,
            const Params &params, const char *kernel, std::int64_t data_points) {
  const launch_plan<R> &p = plan_for(L.site(), e, L.device().limits(), L.hints());
  trace_plan(L.site(), p);
  note_kernel<R>(L.site(), kernel, p, p.group_shape, data_points);
  L.device().launch(L.queue(), L.site(), p, stubs, params);
}

/// A kernel over a plan's groups of `shape` threads sharing `tile_bytes`
/// of tile memory each (a tiled grid's, a pencil kernel's): traced,
/// recorded and launched; `kernel` names it and `data_points` is how many
/// points of the call-site's data it reads; `notes`, what else the
/// request log shows of it.
template <class Device, int N, class Params>
void launch_groups(device_launch<Device> &L, const launch_plan<N> &p, const triple &shape,
                   std::size_t tile_bytes, const stub_table<N, Params> &stubs,
                   const Params &params, const char *kernel, std::int64_t data_points,
                   const kernel_notes &notes = {}) {
  trace_plan(L.site(), p);
  note_kernel<N>(L.site(), kernel, p, shape, data_points, notes);
  L.device().launch_tiles(L.queue(), L.site(), p, shape, tile_bytes, stubs, params);
}

/// A kernel over `groups` of a tile's threads each, `tile_bytes` of tile
/// memory each (a tiled forall's tiles, a tiled reduce's runs of tiles);
/// `data_points` is how many points of the call-site's data it reads.
template <class Device, int N, class Params>
void launch_tile_groups(device_launch<Device> &L, const dp::extent<N> &groups,
                        const dp::extent<N> &tile, std::size_t tile_bytes,
                        const stub_table<N, Params> &stubs, const Params &params,
                        const char *kernel, std::int64_t data_points) {
  const launch_plan<N> p = plan_tiles(L.site(), groups, tile, L.device().limits(), L.hints());
  launch_groups(L, p, tile_group_shape(tile), tile_bytes, stubs, params, kernel, data_points);
}

/// The stub over a grid of extents `e` cut in tiles of `tile`: one group
/// per tile, `tile_bytes` of tile memory each.
template <class Device, int N, class Params>
void forall_tiles(device_launch<Device> &L, const dp::extent<N> &e, const dp::extent<N> &tile,
                  std::size_t tile_bytes, const stub_table<N, Params> &stubs, const Params &params,
                  const char *kernel) {
  launch_tile_groups(L, tile_counts(e, tile), tile, tile_bytes, stubs, params, kernel, e.size());
}

} // namespace device

/// forall on a device.
template <class Device, int Rc, class Domain, int K, class Params, class Body>
void execute(device_launch<Device> &L, const forall_job<Rc, Domain, K, Params, Body> &job) {
  const dp::extent<K> e = job.launch_extent();
  device::forall(L, e, *job.stubs, job.params, "stub", e.size());
}

/// A tiled forall on a device: one group per tile.
template <class Device, int Rc, class Params, tile_sight Sight, class Body>
void execute(device_launch<Device> &L, const forall_tiles_job<Rc, Params, Sight, Body> &job) {
  device::forall_tiles(L, job.grid.extents(), job.tile, job.tile_bytes, *job.stubs, job.params,
                       "tiled stub");
}

} // namespace dp::rt
