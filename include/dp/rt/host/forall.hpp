/// \file
/// forall on the host executor: the stub's body over the domain's rows,
/// and a tiled grid's threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

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
#include "rows.hpp"

namespace dp::rt {
namespace host {

/// Whether a stub's parameters carry the compute grid's index values
/// (`indices`, position -> index value), as every forall's do.
template <class P, class = void> struct has_index_values : std::false_type {};
template <class P>
struct has_index_values<P, std::void_t<decltype(std::declval<const P &>().indices.lb[0])>> : std::true_type {};

/// The body over every position of `walked`'s rows, as Position values:
/// on the calling thread when they are few and cheap
/// (walk_on_calling_thread), else on the host's threads.
template <class Position, int Rc, class Walked, class Params, class Body>
void run_rows(const Walked &walked, const Body &body, const Params &params) {
  const auto row = [&](const std::int64_t (&pos)[Rc], std::int64_t j0, std::int64_t j1) DP_FLATTEN {
    const Params local = params; // a local: the body's stores cannot touch it
    Position idx;
    for (int d = 0; d < Rc - 1; ++d)
      idx[d] = pos[d];
    auto along = [&](auto first, auto end) DP_FLATTEN {
      for (auto j = first; j < end; ++j) {
        idx[Rc - 1] = j;
        body(idx, local);
      }
    };
    // A rank-1 row whose index values step by one within int's range
    // counts those values with an int, the position being the value less
    // the first: the kernel's `const int i = idx[0]` (every migrated
    // loop's) is then the counter itself, which the compiler widens once.
    // Counting positions, `i` was a 64-bit sum truncated, added in 32 bits
    // and sign-extended again at each element: 9 instructions an element
    // for an axpy against OpenMP's 7, 30 % slower over data in cache
    // (docs/migrate.md). (Rank 2 and up keep the 64-bit counter: with a
    // narrower one, a Jacobi sweep ran 7-11 % slower.) (A body that loops
    // itself keeps one counter.)
    constexpr bool one_loop = loops_itself<Body>::value;
    if constexpr (Rc == 1 && !one_loop && has_index_values<Params>::value) {
      const std::int64_t lb = local.indices.lb[0];
      if (local.indices.stride[0] == 1 && lb + j0 >= INT32_MIN && lb + j1 <= INT32_MAX) {
        const std::int32_t end = static_cast<std::int32_t>(lb + j1);
        for (std::int32_t v = static_cast<std::int32_t>(lb + j0); v < end; ++v) {
          idx[0] = static_cast<std::int64_t>(v) - lb;
          body(idx, local);
        }
        return;
      }
    }
    if constexpr (Rc == 1 && !one_loop)
      if (j0 >= INT32_MIN && j1 <= INT32_MAX) {
        along(static_cast<std::int32_t>(j0), static_cast<std::int32_t>(j1));
        return;
      }
    along(j0, j1);
  };
  const auto walk = dp::detail::walk_of(walked);
  const std::int64_t n = walk.size();
  if (n == 0)
    return;
  if (dp::detail::walk_on_calling_thread(n, !loops_itself<Body>::value))
    walk.segments(0, n, row);
  else {
    count(counter::host_forks);
    dp::detail::parallel_walk(walk, row);
  }
}

/// The body over `walked`'s rows, with the positions the rows allow
/// (with_row_positions).
template <int Rc, class Walked, class Params, class Body>
void run_on_rows(const Walked &walked, const row_layout &rows, const Body &body,
                 const Params &params) {
  with_row_positions<Rc>(rows, [&](auto pos) { run_rows<decltype(pos), Rc>(walked, body, params); });
}

/// forall: the stub body over the domain's rows. When every elemental
/// projection steps by one element along a row, the body gets
/// unit_row_index positions, so its loop is a unit-stride one. A forall
/// over a plain grid whose body reads no coordinate but through its
/// elemental projections runs the trailing dimensions along which every
/// projection is contiguous as one row: a rank-4 forall over whole fields
/// walks as a rank-1 one. A body that loops itself walks the domain as it
/// is, one row loop per position type (loops_itself).
template <int Rc, class Domain, class Params, class Body>
void forall(const Domain &domain, const dp::grid<Rc> &grid, const row_layout &rows,
            const Body &body, const Params &params) {
  count(counter::launches);
  if constexpr (std::is_same<Domain, dp::grid<Rc>>::value && Rc > 1 && !loops_itself<Body>::value) {
    if (rows.unit_rows && !rows.positioned && rows.merge_from < Rc - 1) {
      run_on_rows<Rc>(dp::grid<Rc>(merged_extents(grid.extents(), rows)), rows, body, params);
      return;
    }
  }
  run_on_rows<Rc>(domain, rows, body, params);
}

/// A tiled forall. A kernel that takes a tile token runs a tile's threads
/// together (fibers meeting at barriers); one that cannot tell its tile
/// runs each padding thread, then the grid's points as the untiled forall
/// runs them: row_point positions along the rows, unit-stride ones where
/// every elemental projection allows.
template <int Rc, tile_sight Sight, class Params, class Body>
void forall_tiles(const std::string &site, const dp::grid<Rc> &grid, const dp::extent<Rc> &tile,
                  std::size_t tile_bytes, tile_sight_is<Sight>, const row_layout &rows,
                  const Body &body, const Params &params) {
  count(counter::launches);
  const auto thread = [&](const tile_point<Rc> &at) { body(at, params); };
  if constexpr (sees_its_tile(Sight)) {
    dp::detail::for_each_tile_thread(site, grid.extents(), tile, tile_bytes, thread);
  } else {
    dp::detail::for_each_padding_thread(site, grid.extents(), tile, thread);
    run_on_rows<Rc>(grid, rows, at_row_point{body}, params);
  }
}

} // namespace host

/// forall on the host executor.
template <int Rc, class Domain, int K, class Params, class Body>
void execute(host_executor &host, const forall_job<Rc, Domain, K, Params, Body> &job) {
  host.run([domain = job.domain, grid = job.grid, rows = job.rows, body = job.body,
            params = job.params] { host::forall<Rc>(domain, grid, rows, body, params); });
}

/// A tiled forall on the host executor.
template <int Rc, class Params, tile_sight Sight, class Body>
void execute(host_executor &host, const forall_tiles_job<Rc, Params, Sight, Body> &job) {
  host.run([site = host.site(), job] {
    host::forall_tiles(site, job.grid, job.tile, job.tile_bytes, tile_sight_is<Sight>(), job.rows,
                       job.body, job.params);
  });
}

} // namespace dp::rt
