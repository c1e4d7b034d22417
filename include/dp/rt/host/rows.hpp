/// \file
/// The host executor's view of a generated stub: its body or map function
/// over the rows of a domain (the host reference's loops), with unit-
/// stride positions where every elemental projection allows, also for
/// the threads of a tiled grid whose kernel cannot tell its tile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
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
/// padding thread; on a GPU and emulated nothing changes. A stub names its
/// kernel's sight as a type (`sees_tile` or `blind_to_tile`), so the host
/// executor instantiates only the path the kernel takes: a blind kernel's
/// body is called with row_point positions, which have no tile.
enum class tile_sight { sees, blind };
template <tile_sight S> using tile_sight_is = std::integral_constant<tile_sight, S>;
inline constexpr tile_sight_is<tile_sight::sees> sees_tile{};
inline constexpr tile_sight_is<tile_sight::blind> blind_to_tile{};

/// An in-domain thread of a tiled grid whose kernel cannot tell its tile,
/// on the host's rows: its position (a dp::detail::unit_row_index<N> when
/// every elemental projection steps by one element along the rows), and
/// nothing of the tile, so the body runs as the untiled one does.
template <class Position> struct row_point {
  Position pos;
  static constexpr bool in_domain = true;
};

/// f(p) as a function of positions: what the rows of a tile-blind kernel
/// fold and run. Holds f by value, so each row segment's copy is local.
template <class F> struct at_row_point {
  F f;
  template <class Position, class... More>
  decltype(auto) operator()(const Position &pos, More &&...more) const {
    return f(row_point<Position>{pos}, std::forward<More>(more)...);
  }
};
template <class F> at_row_point(F) -> at_row_point<F>;

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
