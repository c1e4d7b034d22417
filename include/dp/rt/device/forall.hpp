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

namespace dp::rt {
namespace device {

/// The stub over every position of `e`.
template <class Device, int R, class Params>
void forall(device_launch<Device> &L, const dp::extent<R> &e, const stub_table<R, Params> &stubs,
            const Params &params) {
  const launch_plan<R> p = plan_for(L.site(), e, L.device().limits(), L.hints());
  trace_plan(L.site(), p);
  L.device().launch(L.queue(), L.site(), p, stubs, params);
}

/// The stub over a grid of extents `e` cut in tiles of `tile`: one group
/// per tile, `tile_bytes` of tile memory each.
template <class Device, int N, class Params>
void forall_tiles(device_launch<Device> &L, const dp::extent<N> &e, const dp::extent<N> &tile,
                  std::size_t tile_bytes, const stub_table<N, Params> &stubs, const Params &params) {
  const launch_plan<N> p =
      plan_tiles(L.site(), tile_counts(e, tile), tile, L.device().limits(), L.hints());
  trace_plan(L.site(), p);
  L.device().launch_tiles(L.queue(), L.site(), p, tile_group_shape(tile), tile_bytes, stubs, params);
}

} // namespace device

/// forall on a device.
template <class Device, int Rc, class Domain, int K, class Params, class Body>
void execute(device_launch<Device> &L, const forall_job<Rc, Domain, K, Params, Body> &job) {
  device::forall(L, job.launch_extent(), *job.stubs, job.params);
}

/// A tiled forall on a device: one group per tile.
template <class Device, int Rc, class Params, tile_sight Sight, class Body>
void execute(device_launch<Device> &L, const forall_tiles_job<Rc, Params, Sight, Body> &job) {
  device::forall_tiles(L, job.grid.extents(), job.tile, job.tile_bytes, *job.stubs, job.params);
}

} // namespace dp::rt
