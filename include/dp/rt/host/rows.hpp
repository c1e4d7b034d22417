/// \file
/// The host executor's view of a generated stub: its body or map function
/// over the rows of a domain (the host reference's loops), with unit-
/// stride positions where every elemental projection allows, and a tiled
/// grid's threads along a row for kernels that cannot tell their tile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "../../detail/host_fold.hpp"
#include "../../detail/host_loop.hpp"
#include "../../extent.hpp"
#include "../../index.hpp"
#include "../domains.hpp"
#include "../positions.hpp"
#include "../task_queue.hpp"
#include "../../detail/completion.hpp"

namespace dp::rt {

/// A generated stub's map function as a host fold source: the value at
/// each position of a row segment, given as a Position (a
/// dp::detail::unit_row_index<N> when every elemental projection steps by
/// one element along the rows).
template <int N, class Map, class Position = dp::index<N>> struct map_source {
  const Map &map;
  template <class Consume>
  void segment(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1,
               Consume &&consume) const {
    const Map local = map; // a local: consume's stores cannot touch its members
    Position idx;
    for (int d = 0; d < N - 1; ++d)
      idx[d] = pos[d];
    for (std::int64_t j = j0; j < j1; ++j) {
      idx[N - 1] = j;
      consume(j, local(idx));
    }
  }
  template <class T, class R>
  T fold(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1, const R &r, T acc) const {
    const Map local = map; // a local: its members stay in registers across the loop
    Position idx;
    for (int d = 0; d < N - 1; ++d)
      idx[d] = pos[d];
    for (std::int64_t j = j0; j < j1; ++j) {
      idx[N - 1] = j;
      acc = static_cast<T>(r(acc, local(idx)));
    }
    return acc;
  }
};

/// Whether a tiled kernel can tell the tile it runs in: it takes a tile
/// token. One that cannot (no barrier, no tile memory, no tile index) runs
/// natively on the host as plain loops over the grid's rows, then once per
/// padding thread; on a GPU and emulated nothing changes.
enum class tile_sight { sees, blind };

/// The in-domain threads of a tiled grid along a row segment, as the stub's
/// tile_point: the tile and the place in it follow the position.
template <int N> struct tile_row {
  dp::extent<N> tile;

  void start(const std::int64_t (&pos)[N], std::int64_t j, tile_point<N> &at) const {
    for (int d = 0; d < N; ++d) {
      at.pos[d] = d == N - 1 ? j : pos[d];
      at.tile[d] = at.pos[d] / tile[d];
      at.local[d] = at.pos[d] % tile[d];
    }
    at.in_domain = true;
  }
  void next(tile_point<N> &at) const {
    ++at.pos[N - 1];
    if (++at.local[N - 1] == tile[N - 1]) {
      at.local[N - 1] = 0;
      ++at.tile[N - 1];
    }
  }
};

/// A tile-blind tiled stub's map function as a host fold source.
template <int N, class Map> struct tile_row_source {
  const Map &map;
  tile_row<N> row;
  template <class Consume>
  void segment(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1,
               Consume &&consume) const {
    tile_point<N> at;
    row.start(pos, j0, at);
    for (std::int64_t j = j0; j < j1; ++j, row.next(at))
      consume(j, map(at));
  }
  template <class T, class R>
  T fold(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1, const R &r, T acc) const {
    tile_point<N> at;
    row.start(pos, j0, at);
    for (std::int64_t j = j0; j < j1; ++j, row.next(at))
      acc = static_cast<T>(r(acc, map(at)));
    return acc;
  }
};

/// The host executor: every pattern of a generated stub run natively on
/// the host's threads (oneTBB), as the host reference runs the untranslated
/// call-site, in place on the host copies of the data; on the caller's
/// thread, or as a task of a named dp::queue (two queues' tasks run at the
/// same time). Its patterns are host/forall.hpp, host/reduce.hpp and
/// host/pencils.hpp.
struct host_executor {
  /// A named queue's host task queue: the call-site's work becomes its
  /// task; null: the work runs now, on the caller's thread.
  task_queue *queue = nullptr;
  /// Other queues' work that task waits for first.
  std::vector<dp::detail::pending> waits;

  /// Runs `work` now, or enqueues it behind what it waits for.
  template <class F> void run(const std::string &site, F &&work) {
    if (!queue) {
      work();
      return;
    }
    queue->enqueue(site, [waits = waits, work = std::forward<F>(work)]() {
      for (const dp::detail::pending &p : waits)
        p->wait_quietly(); // an error there belongs to its own queue
      work();
    });
  }
};

namespace host {

/// How a stub's body may walk the host's rows, as argument staging found.
struct row_layout {
  bool unit_rows = true;   ///< every elemental projection steps by one element along a row
  int merge_from = 0;      ///< every projection is contiguous from this dimension on
  bool positioned = false; ///< the body reads coordinates (indices, partial projections)
};

/// The extents a launch over a plain grid walks: when the body reads no
/// coordinate but through its elemental projections, the trailing
/// dimensions along which every projection is contiguous are folded into
/// the last one (a rank-4 forall over whole fields walks as a rank-1 one,
/// on the host's rows and in one direct GPU launch alike). The body's
/// positions then hold 0 in the folded dimensions and the run's offset in
/// the last, which every projection's steps address as the original point.
/// `e` itself when nothing folds.
template <int Rc> dp::extent<Rc> merged_extents(const dp::extent<Rc> &e, const row_layout &rows) {
  return rows.positioned ? e : dp::detail::fold_trailing(e, rows.merge_from);
}

/// f(source) with map as a host fold source over the rows, its positions
/// unit_row_index ones when every elemental projection allows.
template <int Rc, class Map, class F>
decltype(auto) with_rows(const row_layout &rows, const Map &map, F &&f) {
  if (rows.unit_rows)
    return f(map_source<Rc, Map, dp::detail::unit_row_index<Rc>>{map});
  return f(map_source<Rc, Map>{map});
}

} // namespace host
} // namespace dp::rt
