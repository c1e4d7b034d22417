/// \file
/// The full reduce on the host executor, over plain and tiled grids.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "../../reference/domain_walk.hpp"
#include "../../reference/host_fold.hpp"
#include "../../reference/host_loop.hpp"
#include "../../reference/host_tiles.hpp"
#include "../../reference/pencils.hpp"
#include "../../reference/projection.hpp"
#include "../../extent.hpp"
#include "../../grid.hpp"
#include "../../scalar.hpp"
#include "../counters.hpp"
#include "../jobs.hpp"
#include "../stub/positions.hpp"
#include "executor.hpp"
#include "recorder.hpp"
#include "rows.hpp"

namespace dp::rt {
namespace host {

/// The fold of map over the domain's rows (none for no point), with
/// unit-stride positions where every elemental projection allows.
template <class T, int Rc, class Domain, class Op, class Map>
std::optional<T> fold_rows(const Domain &domain, const row_layout &rows, const Op &op,
                           const Map &map) {
  const auto walk = dp::detail::walk_of(domain);
  return with_rows<Rc>(rows, map, [&](const auto &source) {
    return dp::detail::fold_walk<T>(walk, op, source);
  });
}

/// Full reduce: the fold of map over the domain (none for no point).
template <class T, int Rc, class Domain, class Op, class Map>
std::optional<T> reduce(const Domain &domain, const row_layout &rows, const Op &op,
                        const Map &map) {
  count(counter::launches);
  return fold_rows<T, Rc>(domain, rows, op, map);
}

/// Full reduce over a tiled grid, its fold: a kernel that sees its tile folds each
/// tile's values (its threads together); one that cannot runs the padding
/// threads, then folds the grid's points as the untiled reduce does.
template <std::size_t TileBytes, class T, int Rc, tile_sight Sight, class Op, class Map>
std::optional<T> reduce_tiles(const std::string &site, const dp::grid<Rc> &grid,
                              const dp::extent<Rc> &tile, tile_sight_is<Sight>,
                              const row_layout &rows, const Op &op, const Map &map) {
  count(counter::launches);
  const dp::extent<Rc> e = grid.extents();
  if constexpr (sees_its_tile(Sight)) {
    return dp::detail::fold_tile_values<T>(site, e, tile, TileBytes, op, map);
  } else {
    dp::detail::for_each_padding_thread(site, e, tile, [&](const tile_point<Rc> &p) { (void)map(p); });
    return fold_rows<T, Rc>(grid, rows, op, at_row_point{map});
  }
}

/// The full reduce: the fold of the values into the scalar's value, as
/// the executor delivers it (Host: the host executor, now or as its
/// queue's task; or the host recorder, at each replay).
template <class Host, int Rc, class Domain, class T, class Op, class Map, class DomainMap>
void reduce_job_into(Host &host, const reduce_job<Rc, Domain, T, Op, Map, DomainMap> &job) {
  host.deliver(*job.result, [op = job.op, domain = job.domain, rows = job.rows,
                             map = job.map](const T &prior) {
    const std::optional<T> total = host::reduce<T, Rc>(domain, rows, op, map);
    return total ? static_cast<T>(op(prior, *total)) : prior;
  });
}

/// The full reduce over a tiled grid.
template <class Host, int Rc, std::size_t TileBytes, class T, class Op, class Map, class Tiling,
          tile_sight Sight>
void reduce_job_into(Host &host,
                     const reduce_tiles_job<Rc, TileBytes, T, Op, Map, Tiling, Sight> &job) {
  host.deliver(*job.result, [site = host.site(), job](const T &prior) {
    const std::optional<T> total = host::reduce_tiles<TileBytes, T>(
        site, job.grid, job.tile, tile_sight_is<Sight>(), job.rows, job.op, job.map);
    return total ? static_cast<T>(job.op(prior, *total)) : prior;
  });
}

} // namespace host

/// The full reduces on the host executor and on the host recorder.
template <int Rc, class Domain, class T, class Op, class Map, class DomainMap>
void execute(host_executor &host, const reduce_job<Rc, Domain, T, Op, Map, DomainMap> &job) {
  host::reduce_job_into(host, job);
}
template <int Rc, class Domain, class T, class Op, class Map, class DomainMap>
void execute(host_recorder &host, const reduce_job<Rc, Domain, T, Op, Map, DomainMap> &job) {
  host::reduce_job_into(host, job);
}
template <int Rc, std::size_t TileBytes, class T, class Op, class Map, class Tiling, tile_sight Sight>
void execute(host_executor &host,
             const reduce_tiles_job<Rc, TileBytes, T, Op, Map, Tiling, Sight> &job) {
  host::reduce_job_into(host, job);
}
template <int Rc, std::size_t TileBytes, class T, class Op, class Map, class Tiling, tile_sight Sight>
void execute(host_recorder &host,
             const reduce_tiles_job<Rc, TileBytes, T, Op, Map, Tiling, Sight> &job) {
  host::reduce_job_into(host, job);
}

} // namespace dp::rt
