/// \file
/// reduce<Dim>, scan<Dim> and sort<Dim> on the host executor.
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
#include "rows.hpp"

namespace dp::rt {
namespace host {

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

} // namespace host

/// reduce<Dim> on the host executor.
template <int Dim, int N, class T, class Op, class Map>
void execute(host_executor &host, const fold_pencils_job<Dim, N, T, Op, Map> &job) {
  host.run([job] { host::fold_pencils<Dim>(job.rows, job.extent, job.op, job.map, job.out); });
}

/// scan<Dim> on the host executor.
template <int Dim, int N, class T, class Op, class Map>
void execute(host_executor &host, const scan_pencils_job<Dim, N, T, Op, Map> &job) {
  host.run([job] { host::scan_pencils<Dim>(job.rows, job.extent, job.op, job.map, job.out); });
}

/// sort<Dim> on the host executor.
template <int Dim, int N, class T, class Less>
void execute(host_executor &host, const sort_pencils_job<Dim, N, T, Less> &job) {
  host.run([job] { host::sort_pencils<Dim>(job.extent, job.less, job.data); });
}

} // namespace dp::rt
