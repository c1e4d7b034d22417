/// \file
/// reduce<Dim>, scan<Dim> and sort<Dim> on the host executor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "../../detail/domain_walk.hpp"
#include "../../detail/host_fold.hpp"
#include "../../detail/host_loop.hpp"
#include "../../detail/host_tiles.hpp"
#include "../../detail/pencils.hpp"
#include "../../detail/projection.hpp"
#include "../../extent.hpp"
#include "../../grid.hpp"
#include "../../scalar.hpp"
#include "../counters.hpp"
#include "../positions.hpp"
#include "rows.hpp"

namespace dp::rt::host {

/// reduce<Dim>: out(q) = r(out(q), fold of map over the pencil at q).
template <int Dim, int N, class T, class Op, class Map>
void fold_pencils(const row_layout &rows, const dp::extent<N> &e, const Op &op, const Map &map,
                  const dp::detail::affine_projection<T, N - 1> &out) {
  count(counter::launches);
  with_rows<N>(rows, map,
               [&](const auto &source) { dp::detail::fold_pencils<Dim, T>(e, op, source, out); });
}

/// scan<Dim>: out(p) = the r-fold of map over p's pencil up to p.
template <int Dim, int N, class T, class Op, class Map>
void scan_pencils(const row_layout &rows, const dp::extent<N> &e, const Op &op, const Map &map,
                  const dp::detail::affine_projection<T, N> &out) {
  count(counter::launches);
  with_rows<N>(rows, map,
               [&](const auto &source) { dp::detail::scan_pencils<Dim, T>(e, op, source, out); });
}

/// sort<Dim>: every pencil sorted with `less`.
template <int Dim, int N, class T, class Less>
void sort_pencils(const dp::extent<N> &e, const Less &less,
                  const dp::detail::affine_projection<T, N> &data) {
  count(counter::launches);
  dp::detail::sort_pencils<Dim, T>(e, less, data);
}

} // namespace dp::rt::host
