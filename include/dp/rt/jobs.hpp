/// \file
/// What a call-site asks an executor to do, as values: one job type per
/// pattern (forall, a tiled forall, the full reduce, a tiled full reduce,
/// reduce<Dim>, scan<Dim>, sort<Dim>), holding the stub's parameter block,
/// its body or map and where its data is. Each executor runs each job by a
/// free overload in its own folder (Kokkos' ParallelFor<..., Space>):
///
///     execute(host_executor &, const forall_job<...> &)       host/forall.hpp
///     execute(device_launch<D> &, const forall_job<...> &)    device/forall.hpp
///
/// so launch_context (launch.hpp) only stages arguments and submits.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../extent.hpp"
#include "../grid.hpp"
#include "../reference/projection.hpp"
#include "../scalar.hpp"
#include "stub/table.hpp"
#include "stub/tile_sight.hpp"
#include "stub/types.hpp"

namespace dp::rt {

/// How a stub's body may walk the domain, as argument staging found.
struct row_layout {
  /// Every elemental projection steps by one element along a row, and every
  /// broadcast field is dense (index stride 1, rows contiguous): the body
  /// gets unit_row_index positions.
  bool unit_rows = true;
  /// Besides, every broadcast field starts at index 0 and the compute grid
  /// steps by 1: unit rows get origin_row_index positions.
  bool origin = true;
  int merge_from = 0;      ///< every projection is contiguous from this dimension on
  bool positioned = false; ///< the body reads coordinates (indices, partial projections)
};

/// Which positions a host body gets on rows laid out as `rows`: plain
/// indices, unit rows (a projection's element is `base[lead + j]`), or
/// origin rows (besides, handles start at 0 and indices step by 1).
enum class row_position_kind { index, unit, origin };
inline row_position_kind positions_of(const row_layout &rows) {
  if (!rows.unit_rows)
    return row_position_kind::index;
  return rows.origin ? row_position_kind::origin : row_position_kind::unit;
}

/// A forall stub's body that loops itself (dpstub says so: a loop in the
/// kernel or in a function of the user's it calls). The host's rows
/// inline what they run into each row loop they keep: one per position
/// type (which lets element access know a field is dense: matvec's row
/// sums ran 30 % slower at plain indices) and, for a rank-1 forall, per
/// row counter, and a forall over a plain grid merges its trailing
/// dimensions when it can. For such a body the position types are enough:
/// one 64-bit counter and the domain as it is (three row loops where there
/// were up to nine), as an element's own loops dwarf what the others save.
template <class F> struct looping_body {
  F f;
  template <class Pos, class Params> DP_INLINE void operator()(const Pos &pos, const Params &p) const {
    f(pos, p);
  }
};
/// A forall stub's body that loops itself: `looping(body)`.
template <class F> looping_body<F> looping(F f) { return {f}; }
/// Whether a host body came through looping().
template <class Body> struct loops_itself : std::false_type {};
template <class F> struct loops_itself<looping_body<F>> : std::true_type {};

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

/// Dimension Dim, as a value: how pencil patterns name the dimension their
/// pencils run along to a device's algorithms (free functions, found by
/// their launch's type).
template <int Dim> using dim_tag = std::integral_constant<int, Dim>;

/// No map of a domain: a plain grid's.
struct no_domain_map {};

/// forall: the stub (K: its rank, 1 for a triangle's point numbers) over
/// every point of the domain; `body(pos, params)` is the stub's projection
/// and kernel call at one position, which the host calls directly.
template <int Rc, class Domain, int K, class Params, class Body> struct forall_job {
  const stub_table<K, Params> *stubs;
  Params params;
  Body body;
  Domain domain;
  dp::grid<Rc> grid;
  row_layout rows;

  /// The extents the stub is planned over: a triangle's point numbers,
  /// else the grid's positions, merged where every projection allows.
  dp::extent<K> launch_extent() const {
    if constexpr (is_triangle<Domain>::value)
      return dp::extent<1>(domain.size());
    else if constexpr (std::is_same<Domain, dp::grid<Rc>>::value)
      return merged_extents(grid.extents(), rows);
    else
      return grid.extents();
  }
};

/// forall on a tiled grid: one group per tile, `tile_bytes` of tile memory
/// per tile; `body(point, params)` runs one thread of a tile.
template <int Rc, class Params, tile_sight Sight, class Body> struct forall_tiles_job {
  const stub_table<Rc, Params> *stubs;
  Params params;
  Body body;
  dp::grid<Rc> grid;
  dp::extent<Rc> tile;
  std::size_t tile_bytes;
  row_layout rows;
};

/// The full reduce: result = r(result, fold of map over the domain).
/// DomainMap: a dp::where's filter or a triangle's raise (domain_map_t),
/// no_domain_map for a grid.
template <int Rc, class Domain, class T, class Op, class Map, class DomainMap = no_domain_map>
struct reduce_job {
  dp::scalar<T> *result;
  Op op;
  Map map;
  Domain domain;
  dp::grid<Rc> grid;
  row_layout rows;
  DomainMap domain_map;
};

/// The full reduce over a tiled grid: `map(point)` runs one thread of a
/// tile, padding included; TileBytes of tile memory hold the kernel's
/// dp::tile_static objects.
template <int Rc, std::size_t TileBytes, class T, class Op, class Map, class Tiling, tile_sight Sight>
struct reduce_tiles_job {
  dp::scalar<T> *result;
  Op op;
  Map map;
  dp::grid<Rc> grid;
  dp::extent<Rc> tile;
  Tiling tiling;
  row_layout rows;
};

/// reduce<Dim>: out(q) = r(out(q), fold of map over the pencil at q).
template <int Dim, int N, class T, class Op, class Map> struct fold_pencils_job {
  dp::extent<N> extent;
  Op op;
  Map map;
  projection<T, N - 1> out;
  row_layout rows;
};

/// scan<Dim>: out(p) = the r-fold of map over p's pencil up to p.
template <int Dim, int N, class T, class Op, class Map> struct scan_pencils_job {
  dp::extent<N> extent;
  Op op;
  Map map;
  projection<T, N> out;
  row_layout rows;
};

/// sort<Dim>: each pencil of `data` sorted with `less`.
template <int Dim, int N, class T, class Less> struct sort_pencils_job {
  dp::extent<N> extent;
  Less less;
  sort_order order;
  projection<T, N> data;
};

} // namespace dp::rt
