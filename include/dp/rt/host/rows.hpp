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

#include "../../reference/host_fold.hpp"
#include "../../reference/host_loop.hpp"
#include "../../extent.hpp"
#include "../../index.hpp"
#include "../jobs.hpp"
#include "../stub/domains.hpp"
#include "../stub/positions.hpp"

namespace dp::rt {

/// A generated stub's map function as a host fold source: the value at
/// each position of a row segment, given as a Position (a
/// dp::detail::unit_row_index<N> when every elemental projection steps by
/// one element along the rows).
template <int N, class Map, class Position = dp::index<N>> struct map_source {
  const Map &map;
  template <class Consume>
  DP_FLATTEN void segment(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1,
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
  DP_NOINLINE DP_FLATTEN T fold(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1, const R &r,
                    T acc) const {
    // A reference, not a copy: the loop stores nothing, so the map's
    // members stay in registers anyway, and a copy's destructor (a field's
    // release, never taken here) would keep the accumulator in memory.
    const Map &local = map;
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

namespace host {

/// f(Position()) with the position type positions_of(rows) names.
template <int Rc, class F> decltype(auto) with_row_positions(const row_layout &rows, F &&f) {
  switch (positions_of(rows)) {
  case row_position_kind::origin:
    return f(dp::detail::origin_row_index<Rc>());
  case row_position_kind::unit:
    return f(dp::detail::unit_row_index<Rc>());
  default:
    return f(dp::index<Rc>());
  }
}

/// f(source) with map as a host fold source over the rows, its positions
/// the ones the rows allow (with_row_positions).
template <int Rc, class Map, class F>
decltype(auto) with_rows(const row_layout &rows, const Map &map, F &&f) {
  return with_row_positions<Rc>(rows, [&](auto pos) -> decltype(auto) {
    return f(map_source<Rc, Map, decltype(pos)>{map});
  });
}

} // namespace host
} // namespace dp::rt
