/// \file
/// reduce<Dim> and scan<Dim> on a device: the tiled pencil kernels
/// (pencil_tiles.hpp) wherever the values fit tile memory, a scan whose
/// pencils are split chained across the splits (pencil_chain.hpp), except
/// a scan along the contiguous dimension, which is the vendor's scan by key,
/// and a reduction along it over long dense rows, the vendor's segmented
/// reduce of their pointer (fold_plan.hpp).
/// Values that do not fit fall back to the vendor's segmented reduction
/// along it and to one thread per pencil across it (pencil_kernels.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "../../error.hpp"
#include "../../reference/projection.hpp"
#include "../../extent.hpp"
#include "../kernels/pencil_chain.hpp"
#include "../kernels/pencil_kernels.hpp"
#include "../kernels/pencil_tiles.hpp"
#include "../jobs.hpp"
#include "algorithms.hpp"
#include "executor.hpp"
#include "fold_plan.hpp"
#include "forall.hpp"
#include "requests.hpp"

namespace dp::rt {
namespace device {

/// The pencils of e (e less dimension Dim): the domain of a pencil kernel.
template <int Dim, int N> dp::extent<N - 1> pencil_extent(const dp::extent<N> &e) {
  dp::extent<N - 1> p;
  for (int d = 0, k = 0; d < N; ++d)
    if (d != Dim)
      p[k++] = e[d];
  return p;
}

/// Bytes a lane of a tiled pencil kernel loads at once, when it loads V
/// elements of Map's argument as a vector (0: the map loads, one by one):
/// V neighbouring pencils' across the rows, V steps of one along them.
template <int V, class Map> constexpr std::size_t pencil_load_bytes() {
  if constexpr (V > 1)
    return V * sizeof(*std::declval<const Map &>().elements().base);
  else
    return 0;
}

/// A tiled pencil kernel over e's pencils q, cut as t (V: t.vector across
/// the rows; along them, steps a lane loads at once, t's chunk in runs of V).
template <int Dim, bool Scan, int V = 1, class Device, int N, class T, class Op, class Map,
          int OutRank>
void launch_pencil_tiles(device_launch<Device> &L, const dp::extent<N> &e,
                         const dp::extent<N - 1> &q, const pencil_tiling &t, const Op &op,
                         const Map &map, const dp::detail::affine_projection<T, OutRank> &out,
                         const dp::detail::affine_projection<T, N> &partials) {
  using job_t = pencil_tile_job<N, Dim, T, Op, Map, OutRank, V>;
  const job_t job{map,     op,        out,     partials, e[Dim] / job_t::run,
                  t.lanes, t.walkers, t.chunk, q[N - 2]};
  const triple shape = job_t::along ? triple{t.walkers, t.lanes, 1} : triple{t.lanes, t.walkers, 1};
  const launch_plan<N> p =
      plan_groups(L.site(), pencil_groups<N>(q, t), shape, L.device().limits(), L.hints());
  launch_groups(L, p, shape, Scan ? 0 : job_t::shared_bytes, pencil_tile_stubs<job_t, Scan>(), job,
                Scan ? "pencil tiles scan" : "pencil tiles fold", e.size(),
                kernel_notes{0, 0, pencil_load_bytes<V, Map>()});
}

/// scan<Dim> across the contiguous dimension with e's pencils q split:
/// the chained scan (pencil_chain.hpp), tiles of chain_tiling_for's rows
/// chained along each column of lanes, after a reset of their statuses;
/// V pencils a lane, loaded and stored as vectors (V > 1: dense rows).
/// One read and one write of the data.
template <int Dim, int V, class Device, int N, class T, class Op, class Map>
void chain_scan_pencils(device_launch<Device> &L, const dp::extent<N> &e,
                        const dp::extent<N - 1> &q, const Op &op, const Map &map,
                        const dp::detail::affine_projection<T, N> &out) {
  using job_t = pencil_chain_job<N, Dim, T, Op, Map, V>;
  const pencil_tiling t =
      chain_tiling_for<T, V>(q[N - 2], e[Dim], L.device().limits().max_threads_per_group);
  const dp::extent<N> groups = pencil_groups<N>(q, t);
  if (groups.size() >= 0xffffffffLL)
    throw dp::error(L.site() + ": scan of " + std::to_string(e.size()) +
                    " points needs more than 2^32 - 1 groups");
  const std::int64_t words = 1 + groups.size(), slots = t.splits * q.size();
  unsigned *status = L.template scratch_of<unsigned>(static_cast<std::size_t>(words));
  T *values = L.template scratch_of<T>(static_cast<std::size_t>(2 * slots));
  job_t job{map,    op,     out,       partials_projection<T, N>(values, t.splits, q),
            partials_projection<T, N>(values + slots, t.splits, q),
            status, e[Dim], t.lanes,   t.walkers,
            q[N - 2], {}};
  for (int d = 0; d < N; ++d)
    job.groups[d] = groups[d];
  device::forall(L, dp::extent<1>(words), chain_reset_stubs(), chain_reset_job{status},
                 "chain reset", 0);
  const triple shape{t.lanes, t.walkers, 1};
  const launch_plan<N> p = plan_groups(L.site(), groups, shape, L.device().limits(), L.hints());
  launch_groups(L, p, shape, job_t::shared_bytes, chain_scan_stubs<job_t>(), job,
                "pencil chain scan", e.size(),
                kernel_notes{t.splits, job_t::window, pencil_load_bytes<V, Map>()});
}

/// The cut of e's pencils q along Dim for this device, `vector` pencils a
/// lane.
template <int Dim, bool Scan, class Device, int N>
pencil_tiling device_pencil_tiling(device_launch<Device> &L, const dp::extent<N> &e,
                                   const dp::extent<N - 1> &q, std::int64_t vector = 1) {
  const device_limits &limits = L.device().limits();
  return pencil_tiling_for(Dim == N - 1, Scan, q.size(), q[N - 2], e[Dim],
                           limits.max_threads_per_group, vector,
                           pencil_target_for(limits.resident_threads));
}

/// out(q) = r(out(q), fold of map over the pencil at q) by the tiled
/// kernel, V elements a lane loads at once (V pencils across the rows, V
/// steps along them): one pass when each pencil is one split, else each
/// split's fold to partials, then the splits folded into out.
template <int Dim, int V, class Device, int N, class T, class Op, class Map>
void fold_pencil_tiles(device_launch<Device> &L, const dp::extent<N> &e, const Op &op,
                       const Map &map, const dp::detail::affine_projection<T, N - 1> &out) {
  const dp::extent<N - 1> q = pencil_extent<Dim>(e);
  constexpr bool runs = Dim == N - 1 && V > 1; // the walkers' steps in runs of V
  dp::extent<N> units = e;
  units[Dim] = runs ? e[Dim] / V : e[Dim];
  const pencil_tiling t = device_pencil_tiling<Dim, false>(L, units, q, runs ? 1 : V);
  if (t.splits == 1)
    return launch_pencil_tiles<Dim, false, V>(L, e, q, t, op, map, out, {});
  const auto partials = partials_projection<T, N>(
      L.template scratch_of<T>(static_cast<std::size_t>(t.splits * q.size())), t.splits, q);
  launch_pencil_tiles<Dim, false, V>(L, e, q, t, op, map, out, partials);
  using job_t = pencil_job<N, 0, T, Op, partials_map<T, N>, N - 1>;
  device::forall(L, q, pencil_stubs<job_t, false>(), job_t{{partials}, op, out, t.splits},
                 "split folds fold", 0);
}

/// out(q) = r(out(q), fold of map over the pencil at q).
template <int Dim, class Device, int N, class T, class Op, class Map>
void fold_pencils(device_launch<Device> &L, const dp::extent<N> &e, const Op &op, const Map &map,
                  const dp::detail::affine_projection<T, N - 1> &out) {
  if (e.size() == 0)
    return; // no pencil, or empty ones: out keeps its values
  if constexpr (vendor_row_fold_types<Dim, N, T, Op, Map>) {
    if (dense_fold_elements<Dim, T, Op>(map, e)) // long dense rows: the vendor's own call
      return vendor_fold_segments(L, dim_tag<Dim>(), e, op, map, out);
  }
  if constexpr (pencil_tiles_fit<T>) {
    constexpr int V = pencil_vector_of<Dim, N, T, Map>();
    if constexpr (V > 1) {
      if (loads_vectors<V>(map, e)) // dense rows: 16-byte loads (V pencils, or V steps)
        return fold_pencil_tiles<Dim, V>(L, e, op, map, out);
    }
    fold_pencil_tiles<Dim, 1>(L, e, op, map, out);
  } else if constexpr (Dim == N - 1) {
    vendor_fold_segments(L, dim_tag<Dim>(), e, op, map, out);
  } else {
    using job_t = pencil_job<N, Dim, T, Op, Map, N - 1>;
    device::forall(L, pencil_extent<Dim>(e), pencil_stubs<job_t, false>(),
                   job_t{map, op, out, e[Dim]}, "pencil walk fold", e.size());
  }
}

/// out(p) = the r-fold of map over p's pencil up to p, across the
/// contiguous dimension by the tiled kernels, V pencils a lane (V > 1: the
/// rows are dense and aligned for vectors): each pencil one thread's walk
/// when there are enough of them to fill the device, else split and chained.
template <int Dim, int V, class Device, int N, class T, class Op, class Map>
void scan_pencil_tiles(device_launch<Device> &L, const dp::extent<N> &e, const Op &op,
                       const Map &map, const dp::detail::affine_projection<T, N> &out) {
  const dp::extent<N - 1> q = pencil_extent<Dim>(e);
  pencil_tiling t = device_pencil_tiling<Dim, true>(L, e, q, V);
  if constexpr (chain_tiles_fit<T, V>) {
    if (t.splits > 1) // too few pencils to fill the device: split and chained
      return chain_scan_pencils<Dim, V>(L, e, q, op, map, out);
  } else if constexpr (chain_tiles_fit<T>) {
    if (t.splits > 1)
      return chain_scan_pencils<Dim, 1>(L, e, q, op, map, out);
  }
  t.splits = 1, t.chunk = e[Dim]; // each pencil one thread's walk
  launch_pencil_tiles<Dim, true, V>(L, e, q, t, op, map, out, {});
}

/// out(p) = the r-fold of map over p's pencil up to p.
template <int Dim, class Device, int N, class T, class Op, class Map>
void scan_pencils(device_launch<Device> &L, const dp::extent<N> &e, const Op &op, const Map &map,
                  const dp::detail::affine_projection<T, N> &out) {
  if (e.size() == 0)
    return;
  if constexpr (Dim == N - 1) {
    vendor_scan_segments(L, dim_tag<Dim>(), e, op, map, out);
  } else if constexpr (pencil_tiles_fit<T>) {
    constexpr int V = pencil_vector_of<Dim, N, T, Map>();
    if constexpr (V > 1) {
      if (loads_vectors<V>(map, e) && stores_vectors<V>(out, e)) // dense rows: 16-byte vectors
        return scan_pencil_tiles<Dim, V>(L, e, op, map, out);
    }
    scan_pencil_tiles<Dim, 1>(L, e, op, map, out);
  } else {
    using job_t = pencil_job<N, Dim, T, Op, Map, N>;
    device::forall(L, pencil_extent<Dim>(e), pencil_stubs<job_t, true>(),
                   job_t{map, op, out, e[Dim]}, "pencil walk scan", e.size());
  }
}

/// Every pencil of the sort field along Dim sorted with `less`: by radix
/// for a natural order of arithmetic keys, else merged with the comparator.
template <int Dim, class Device, int N, class T, class Less>
void sort_pencils(device_launch<Device> &L, const dp::extent<N> &e, const Less &less,
                  bool natural_order, bool descending,
                  const dp::detail::affine_projection<T, N> &data) {
  vendor_sort(L, dim_tag<Dim>(), e, less, natural_order, descending, data);
}

} // namespace device

/// reduce<Dim> on a device.
template <class Device, int Dim, int N, class T, class Op, class Map>
void execute(device_launch<Device> &L, const fold_pencils_job<Dim, N, T, Op, Map> &job) {
  device::fold_pencils<Dim>(L, job.extent, job.op, job.map, job.out);
}

/// scan<Dim> on a device.
template <class Device, int Dim, int N, class T, class Op, class Map>
void execute(device_launch<Device> &L, const scan_pencils_job<Dim, N, T, Op, Map> &job) {
  device::scan_pencils<Dim>(L, job.extent, job.op, job.map, job.out);
}

/// sort<Dim> on a device: by radix for a natural order of arithmetic
/// keys, else merged with the comparator.
template <class Device, int Dim, int N, class T, class Less>
void execute(device_launch<Device> &L, const sort_pencils_job<Dim, N, T, Less> &job) {
  device::sort_pencils<Dim>(L, job.extent, job.less, job.order != sort_order::custom,
                            job.order == sort_order::descending, job.data);
}

} // namespace dp::rt
