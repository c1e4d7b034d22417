/// \file
/// The full reduce on a device: the vendor's reduction over the map
/// function's values (read through an iterator that raises point numbers to
/// positions, so no temporary holds them), its result left in device memory
/// and read back behind the call-site: dp::scalar::get() waits for it. A
/// dp::where's filtered points are absent values (maybe<T>); a tiled grid's
/// tiles fold their values in tile memory first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "../../detail/completion.hpp"
#include "../../extent.hpp"
#include "../../scalar.hpp"
#include "../stub/domains.hpp"
#include "../stub/iterators.hpp"
#include "../kernels/tile_fold.hpp"
#include "../jobs.hpp"
#include "executor.hpp"
#include "forall.hpp"
#include "algorithms.hpp"
#include "identity.hpp"
#include "recorder.hpp"

namespace dp::rt {
namespace device {

/// Whether a read-back cell holds a value: a maybe<T> may not.
template <class T> bool holds_value(const maybe<T> &cell) { return cell.present; }
template <class T> bool holds_value(const T &) { return true; }
template <class T> const T &value_of(const maybe<T> &cell) { return cell.value; }
template <class T> const T &value_of(const T &cell) { return cell; }

/// A reduction's result read back from the device into `cell` (a T or a
/// maybe<T>), then combined into the scalar's value at `into` when
/// present: folded with `op` (a replay's, or a reduce's behind earlier
/// ones still coming: `before`, which delivers first), or stored
/// (store_value).
template <class Cell, class T, class Op> struct read_back_into {
  Cell cell;
  T *into;
  Op op;
  dp::detail::pending before;
  void operator()() const {
    if (before) // done: this read-back follows it on its queue, whose wait
      before->wait_quietly(); // has reported any error of the work before
    if (holds_value(cell))
      *into = static_cast<T>(op(*into, value_of(cell)));
  }
};
/// The combination of a read-back that stores what it read.
struct store_value {
  template <class T> const T &operator()(const T &, const T &read) const { return read; }
};

/// The completion of reading a `Cell` (a T or a maybe<T>) back from
/// `slot` behind L's work, then `combine` into `into`, after `before`.
template <class Device, class Cell, class T, class Op>
dp::detail::pending read_back_then(device_launch<Device> &L, const Cell *slot, T *into,
                                   const Op &combine, dp::detail::pending before = nullptr) {
  using back_t = read_back_into<Cell, T, Op>;
  return dp::detail::then_after_start(back_t{Cell{}, into, combine, std::move(before)},
                                      [&](back_t &back) {
                                        return L.read_back(&back.cell, slot, sizeof(Cell));
                                      });
}

/// A recorded full reduce (dp::record): the fold of values that may be
/// absent starts from none (the scalar's value is the replay's, not the
/// recording's); each replay reads the graph's result back behind it and
/// combines it into the value the scalar has then: result = r(result, fold).
template <class Device, class T, class Op, class MaybeValues, class Positions>
void recorded_reduce_into(device_recorder<Device> &L, dp::scalar<T> &result, std::int64_t n,
                          const Positions &positions, const Op &op, const MaybeValues &values) {
  maybe<T> *slot = L.template scratch_of<maybe<T>>(1);
  vendor_reduce(L, n, positions, maybe_op<T, Op>{op}, values, none<T>(), slot);
  T *into = dp::detail::scalar_access::value_slot(result);
  L.deliver_to(result, [slot, into, op](device_launch<Device> &replay) {
    return read_back_then(replay, slot, into, op);
  });
}
/// reduce_into and reduce_kept_into on a recorder.
template <class Device, class T, class Op, class Values, class Positions>
void reduce_into(device_recorder<Device> &L, dp::scalar<T> &result, std::int64_t n,
                 const Positions &positions, const Op &op, const Values &values) {
  recorded_reduce_into(L, result, n, positions, op, present_map<T, Values>{values});
}
template <class Device, class T, class Op, class Values, class Positions>
void reduce_kept_into(device_recorder<Device> &L, dp::scalar<T> &result, std::int64_t n,
                      const Positions &positions, const Op &op, const Values &values) {
  recorded_reduce_into(L, result, n, positions, op, values);
}

/// Whether the result `s` still waits for comes from L's queue, so that a
/// reduce into it can fold behind that one with no host wait.
template <class Device, class T>
bool behind_on_queue(device_launch<Device> &L, const dp::scalar<T> &s) {
  return dp::detail::scalar_access::pending_queue(s) == static_cast<const void *>(&L.queue());
}

/// A reduce into a scalar whose earlier result is still coming on L's
/// queue: the host does not wait for it. The vendor folds the values from
/// the operator's identity where it has one (the same vendor call as from
/// the scalar's value), else from no value (maybe<T>, as a recording
/// does); the read-back then combines the fold into the scalar's value
/// once the earlier result has delivered its own.
template <class Device, class T, class Op, class Values, class Positions>
void reduce_behind_into(device_launch<Device> &L, dp::scalar<T> &result, std::int64_t n,
                        const Positions &positions, const Op &op, const Values &values) {
  T *into = dp::detail::scalar_access::value_slot(result);
  dp::detail::scalar_access::after(result, [&](dp::detail::pending before) {
    if constexpr (has_identity<Op, T>::value) {
      T *slot = L.template scratch_of<T>(1);
      vendor_reduce(L, n, positions, op, values, has_identity<Op, T>::value_of(), slot);
      return read_back_then(L, slot, into, op, std::move(before));
    } else {
      maybe<T> *slot = L.template scratch_of<maybe<T>>(1);
      vendor_reduce(L, n, positions, maybe_op<T, Op>{op}, present_map<T, Values>{values},
                    none<T>(), slot);
      return read_back_then(L, slot, into, op, std::move(before));
    }
  });
}

/// result = r(result, values at point numbers 0..n-1 folded).
template <class Device, class T, class Op, class Values, class Positions>
void reduce_into(device_launch<Device> &L, dp::scalar<T> &result, std::int64_t n,
                 const Positions &positions, const Op &op, const Values &values) {
  if (behind_on_queue(L, result))
    return reduce_behind_into(L, result, n, positions, op, values);
  const T prior = result.get(); // waits for a reduction on another queue
  T *slot = L.template scratch_of<T>(1);
  vendor_reduce(L, n, positions, op, values, prior, slot);
  T *into = dp::detail::scalar_access::slot(result);
  dp::detail::scalar_access::later(result, L.read_back(into, slot, sizeof(T)));
}

/// As reduce_into, over values that may be absent (a dp::where's).
template <class Device, class T, class Op, class Values, class Positions>
void reduce_kept_into(device_launch<Device> &L, dp::scalar<T> &result, std::int64_t n,
                      const Positions &positions, const Op &op, const Values &values) {
  if (behind_on_queue(L, result)) {
    T *into = dp::detail::scalar_access::value_slot(result);
    return dp::detail::scalar_access::after(result, [&](dp::detail::pending before) {
      maybe<T> *slot = L.template scratch_of<maybe<T>>(1);
      vendor_reduce(L, n, positions, maybe_op<T, Op>{op}, values, none<T>(), slot);
      return read_back_then(L, slot, into, op, std::move(before));
    });
  }
  const maybe<T> prior = some(result.get()); // waits for a reduction on another queue
  maybe<T> *slot = L.template scratch_of<maybe<T>>(1);
  vendor_reduce(L, n, positions, maybe_op<T, Op>{op}, values, prior, slot);
  T *into = dp::detail::scalar_access::slot(result);
  dp::detail::scalar_access::later(result, read_back_then(L, slot, into, store_value{}));
}

/// A grid's full reduce over the extents its launch walks: over a row (a
/// launch merged into its last dimension) the elements' pointer when the
/// map reads one argument's dense elements alone, else the row's positions
/// (no division); linear positions otherwise.
template <class Launch, int Rc, class T, class Op, class Map>
void reduce_grid_into(Launch &L, dp::scalar<T> &result, const dp::extent<Rc> &e, const Op &op,
                      const Map &map) {
  if constexpr (reads_one_element<Map>::value) {
    const auto &elements = map.elements();
    using element_t = std::remove_reference_t<decltype(*elements.base)>;
    if (is_row(e) && elements.step[Rc - 1] == 1)
      return reduce_into(L, result, e.size(), dense_elements<element_t>{elements.base}, op,
                         element_map<Rc, Map>{map});
  }
  if (is_row(e))
    reduce_into(L, result, e.size(), row_positions<Rc>{}, op, map);
  else
    reduce_into(L, result, e.size(), linear_positions<Rc>::of(e), op, map);
}

/// A tiled grid's full reduce: each group folds the in-domain values of
/// its run of tiles (by warps where they have no padding, else in tile
/// memory: tile_fold.hpp), then the vendor reduces the groups' folds from
/// their pointer.
template <class Job, class Launch, class T, int N>
void reduce_tiles_into(Launch &L, dp::scalar<T> &result, const dp::extent<N> &e,
                       const dp::extent<N> &tile, Job job) {
  const dp::extent<N> tiles = tile_counts(e, tile);
  for (int d = 0; d < N; ++d) {
    job.tiles[d] = tiles[d];
    job.whole[d] = e[d] / tile[d];
  }
  job.run = tile_fold_run(Job::threads, tiles[N - 1], Job::pack);
  dp::extent<N> groups;
  for (int d = 0; d < N; ++d)
    groups[d] = fold_groups(job, d);
  job.folds = L.template scratch_of<T>(static_cast<std::size_t>(groups.size()));
  // A group is a tile shaped as a tiled forall's, or Pack tiles flat on x.
  const triple shape = Job::pack == 1 ? tile_group_shape(tile) : triple{Job::threads, 1, 1};
  const launch_plan<N> p = plan_groups(L.site(), groups, shape, L.device().limits(), L.hints());
  kernel_notes notes;
  notes.tiles_per_group = Job::pack;
  launch_groups(L, p, shape, Job::shared_bytes, tile_fold_stubs<Job>(), job, tile_fold_name(job),
                e.size(), notes);
  reduce_into(L, result, groups.size(), dense_elements<T>{job.folds}, job.op,
              element_map<1, tile_folds<T>>{{job.folds}});
}

/// The full reduce on a device: a dp::where's filtered points are absent
/// values, a triangle's point numbers are raised to (i, j), a grid's
/// positions are those of its launch (merged where projections allow).
/// Launch: a device_launch, or a device_recorder (whose reductions read
/// their result back at each replay).
template <class Launch, int Rc, class Domain, class T, class Op, class Map, class DomainMap>
void reduce_job_into(Launch &L, const reduce_job<Rc, Domain, T, Op, Map, DomainMap> &job) {
  if constexpr (is_where<Domain>::value)
    device::reduce_kept_into(L, *job.result, job.grid.size(),
                             linear_positions<Rc>::of(job.grid.extents()), job.op,
                             kept_values<T, Map, DomainMap>{job.map, job.domain_map});
  else if constexpr (is_triangle<Domain>::value)
    device::reduce_into(L, *job.result, job.domain.size(), job.domain_map, job.op, job.map);
  else
    device::reduce_grid_into(L, *job.result, merged_extents(job.grid.extents(), job.rows), job.op,
                             job.map);
}

/// The full reduce over a tiled grid on a device: each group folds the
/// values of its run of tiles, then the groups' folds are reduced; a kernel
/// blind to its tile, over tiles that divide the grid, reduces as over the
/// plain grid.
template <class Launch, int Rc, std::size_t TileBytes, class T, class Op, class Map, class Tiling,
          tile_sight Sight>
void reduce_job_into(Launch &L,
                     const reduce_tiles_job<Rc, TileBytes, T, Op, Map, Tiling, Sight> &job) {
  if constexpr (Sight == tile_sight::blind) {
    // A kernel that cannot tell its tile, over tiles that leave no padding
    // (whose threads would run the kernel too), folds as over the plain
    // grid: no tile memory, no second pass over the groups' folds.
    if (tiles_divide(job.grid.extents(), job.tile)) {
      dp::detail::check_tile_volume(L.site(), job.tile.size(),
                                    L.device().limits().max_threads_per_group);
      return device::reduce_grid_into(L, *job.result, merged_extents(job.grid.extents(), job.rows),
                                      job.op, at_row_point<Map>{job.map});
    }
  }
  // A kernel that sees only its place in the tile neither waits for nor
  // shares with the tile's other threads: small tiles go side by side.
  constexpr std::int64_t pack =
      tile_fold_pack(Tiling::volume, Sight == tile_sight::sees_place && TileBytes == 0);
  if constexpr (pack > 1) {
    if (pack * Tiling::volume <= L.device().limits().max_threads_per_group) {
      using packed_t = tile_fold_job<Rc, T, Op, Map, Tiling, TileBytes, pack>;
      return device::reduce_tiles_into(L, *job.result, job.grid.extents(), job.tile,
                                       packed_t{job.map, job.op, job.tiling, nullptr, {}});
    }
  }
  using fold_t = tile_fold_job<Rc, T, Op, Map, Tiling, TileBytes>;
  device::reduce_tiles_into(L, *job.result, job.grid.extents(), job.tile,
                            fold_t{job.map, job.op, job.tiling, nullptr, {}});
}

} // namespace device

/// The full reduces on a device launch and on a device recorder.
template <class Device, int Rc, class Domain, class T, class Op, class Map, class DomainMap>
void execute(device_launch<Device> &L, const reduce_job<Rc, Domain, T, Op, Map, DomainMap> &job) {
  device::reduce_job_into(L, job);
}
template <class Device, int Rc, class Domain, class T, class Op, class Map, class DomainMap>
void execute(device_recorder<Device> &L, const reduce_job<Rc, Domain, T, Op, Map, DomainMap> &job) {
  device::reduce_job_into(L, job);
}
template <class Device, int Rc, std::size_t TileBytes, class T, class Op, class Map, class Tiling,
          tile_sight Sight>
void execute(device_launch<Device> &L,
             const reduce_tiles_job<Rc, TileBytes, T, Op, Map, Tiling, Sight> &job) {
  device::reduce_job_into(L, job);
}
template <class Device, int Rc, std::size_t TileBytes, class T, class Op, class Map, class Tiling,
          tile_sight Sight>
void execute(device_recorder<Device> &L,
             const reduce_tiles_job<Rc, TileBytes, T, Op, Map, Tiling, Sight> &job) {
  device::reduce_job_into(L, job);
}

} // namespace dp::rt
