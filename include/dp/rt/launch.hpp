/// \file
/// The launch path of generated stubs: one launch_context per call-site
/// stages each argument where its executor runs (executors.hpp: the host's
/// copy of the data, or a device's, made current only when stale), checks
/// the aliasing rules, and submits the call-site's pattern as a job
/// (jobs.hpp) to that executor. On a device the call-site returns once its
/// work is enqueued: every block it touched records the work's completion
/// (as its writer or a reader), and host access waits for exactly that.
///
/// What stubs see is stub/; the launch configuration plan/; the device
/// kernels of the runtime kernels/; the executors host/ and device/, the
/// latter over the GPU's layer (gpu/) or the emulated device's (emulated/).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "../config.hpp"
#include "../detail/call_info.hpp"
#include "../detail/capture.hpp"
#include "../detail/small_vector.hpp"
#include "../field.hpp"
#include "../grid.hpp"
#include "../index.hpp"
#include "../options.hpp"
#include "../rows.hpp"
#include "../reference/aliasing.hpp"
#include "../reference/pencils.hpp"
#include "../reference/projection.hpp"
#include "../scalar.hpp"
#include "counters.hpp"
#include "executors.hpp"
#include "jobs.hpp"
#include "kernels/tile_fold.hpp"
#include "profile.hpp"
#include "regions.hpp"
#include "stub/dispatch.hpp"
#include "stub/domains.hpp"
#include "stub/positions.hpp"
#include "stub/table.hpp"
#include "stub/thread.hpp"
#include "stub/tile_sight.hpp"
#include "stub/types.hpp"

namespace dp::rt {

/// Prepares and runs one call-site's launch. Domain is the call-site's
/// compute domain: a grid, a tiled grid, a dp::where or a triangle.
template <int Rc, class Domain = dp::grid<Rc>>
class launch_context final : private dp::detail::capture_scope {
public:
  launch_context(const char *kind, const char *location, const Domain &domain,
                 const exec_options *options = nullptr)
      : call_{kind, location}, domain_(domain), grid_(bounds_of(domain)), site_(site_name(kind, location)),
        start_(watched() ? counters() : counts{}), executor_(checked(site_, options, is_tiled<Domain>::value), options),
        span_(site_, executor_) {}
  /// A call-site with execution options (dp::on(q), .when(c),
  /// dp::group_size(...), .max_groups(n)).
  launch_context(const exec_options &options, const char *kind, const char *location,
                 const Domain &domain)
      : launch_context(kind, location, domain, &options) {}

  /// Where this launch runs.
  backend where() const { return executor_.where(); }

  /// An elemental projection of f on the domain, as element type U (const
  /// for read-only); a dp::error when an index value of the domain is not
  /// one of f's.
  template <class U, int Ra, class T>
  projection<U, Rc> project(const dp::field<Ra, T> &f, int position, access how) {
    note_use(f, position, how);
    const auto p = dp::detail::project_on<Rc>(f, grid_, call_, position);
    projection<U, Rc> moved;
    moved.base = relocate<U>(f, p.base, how != access::read);
    for (int d = 0; d < Rc; ++d)
      moved.step[d] = p.step[d];
    rows_.unit_rows = rows_.unit_rows && moved.step[Rc - 1] == 1;
    // The trailing dimensions along which this projection is contiguous.
    const int first = dp::detail::contiguous_from(moved, grid_.extents());
    rows_.merge_from = first > rows_.merge_from ? first : rows_.merge_from;
    return moved;
  }

  /// A partial projection: the trailing Rc dimensions of f fixed per point.
  template <int Rf, class U, int Ra, class T>
  partial_projection<Rf, U, Rc> project_partial(const dp::field<Ra, T> &f, int position,
                                                access how) {
    static_assert(Ra == Rf + Rc, "partial projection needs rank Rf + Rc");
    note_use(f, position, how);
    partial_projection<Rf, U, Rc> pp;
    rows_.positioned = true; // the view at each point depends on every coordinate
    const auto p = dp::detail::project_on<Rc>(f, grid_, call_, position);
    pp.trailing.base = relocate<U>(f, p.base, how != access::read);
    for (int d = 0; d < Rc; ++d)
      pp.trailing.step[d] = p.step[d];
    for (int d = 0; d < Rf; ++d)
      pp.leading[d] = dp::detail::field_access::dim(f, d);
    return pp;
  }

  /// A whole field, broadcast: a non-owning handle on the launch's copy,
  /// element type U (a read_only view reaches a `const field<R,U>&` formal).
  template <class U, int R, class T>
  dp::field<R, U> whole(const dp::field<R, T> &f, int position, access how) {
    note_use(f, position, how);
    U *data = relocate<U>(f, dp::detail::field_access::data(f), how != access::read);
    dp::field<R, U> unowned;
    dp::detail::dim_layout dims[R];
    for (int d = 0; d < R; ++d)
      dims[d] = dp::detail::field_access::dim(f, d);
    rows_.unit_rows = rows_.unit_rows && dense(dims);
    for (int d = 0; d < R; ++d)
      rows_.origin = rows_.origin && dims[d].lb == 0;
    return dp::detail::field_access::make<R>(unowned, data, dims);
  }

  /// An array of rows (dp::borrowed_rows::rows()): on the host, the
  /// caller's own rows (a block over them in place made current there);
  /// on a device, a table of where each row lies in the device's copy of
  /// their block (rows lying apart gathered into one first), filled once
  /// for that copy and moved there as any field.
  template <class T> dp::rows<T> rows(const dp::rows<T> &r, int position, access how) {
    using V = std::remove_const_t<T>;
    dp::detail::rows_state<V> *s = dp::detail::rows_access::source(r);
    if (!s || s->end == s->first || s->m == 0)
      return r;
    const bool writes = how != access::read;
    if (!executor_.on_device()) {
      if (!s->apart) {
        note_use(s->block, position, how);
        relocate<V>(s->block, dp::detail::field_access::data(s->block), writes);
      } else {
        // The caller's rows themselves: the launch writes the handle's
        // token, whose end waits for it before the caller's code goes on.
        if (s->table.get_grid().size() == 0)
          s->table = dp::detail::field_for_overwrite<V *>(dp::grid<1>(1));
        relocate<V *>(s->table, dp::detail::field_access::data(s->table), true);
      }
      return r;
    }
    dp::field<2, V> &block = s->gather();
    note_use(block, position, how);
    V *first = relocate<V>(block, dp::detail::field_access::data(block), writes);
    if (first != s->table_for) {
      const std::int64_t n = s->end - s->first, pitch = dp::detail::field_access::dim(block, 0).mem_stride;
      if (s->table.get_grid().size() != n)
        s->table = dp::detail::field_for_overwrite<V *>(dp::grid<1>(n));
      V **rows = s->table.data();
      for (std::int64_t k = 0; k < n; ++k)
        rows[k] = first + k * pitch;
      s->table_for = first;
    }
    V *const *table = relocate<V *>(s->table, dp::detail::field_access::data(s->table), false);
    return dp::detail::rows_access::make<T>(table, s->first, s->column, nullptr);
  }

  /// An array of arrays of rows (dp::borrowed_rows<T, 3>::rows()): its
  /// rows, listed one after another, moved as an array of rows.
  template <class T> dp::rows<T, 3> rows(const dp::rows<T, 3> &r, int position, access how) {
    return dp::detail::rows_access::planes(rows(dp::detail::rows_access::listed(r), position, how), r);
  }

  /// Index stride 1 in every dimension and contiguous rows: what a stub's
  /// handle on a broadcast field may state in constants (launch_handle).
  template <int R> static bool dense(const dp::detail::dim_layout (&dims)[R]) {
    for (int d = 0; d < R; ++d)
      if (dims[d].stride != 1)
        return false;
    return dims[R - 1].mem_stride == 1;
  }

  /// The compute grid's index values.
  index_values<Rc> indices() {
    rows_.positioned = true;
    index_values<Rc> v;
    for (int d = 0; d < Rc; ++d) {
      v.lb[d] = grid_.dimension(d).lb, v.stride[d] = grid_.dimension(d).stride;
      rows_.origin = rows_.origin && v.stride[d] == 1;
    }
    return v;
  }

  /// A copy of a kernel object (or operator, or comparator) whose captured
  /// fields refer to the data where the launch runs; `writes` for a mutable
  /// lambda.
  template <class K> K capture(const K &kernel, bool writes) {
    capture_writes_ = writes;
    dp::detail::capture_guard guard(this);
    return K(kernel);
  }

  /// The stub's view of a dp::where or a triangle (domain_map_t).
  template <class D = Domain> domain_map_t<D> domain_map() {
    if constexpr (is_where<D>::value)
      return {indices(), capture(domain_.predicate(), false)};
    else
      return {domain_.order()};
  }

  /// A tiled stub's view of its domain: the grid's extents (for the padding
  /// test) and the tile's.
  template <class D = Domain> tiling_t<D> tiling() const {
    tiling_t<D> t;
    for (int d = 0; d < Rc; ++d)
      t.extent[d] = grid_.extent(d);
    return t;
  }

  /// forall: the stub over the whole domain. `body(pos, params)` is the
  /// stub's projection and kernel call at one position, which the host's
  /// threads call directly (it inlines).
  template <int K, class Params, class Body>
  void run(const stub_table<K, Params> &stubs, const Params &params, Body &&body) {
    submit(forall_job<Rc, Domain, K, Params, std::decay_t<Body>>{&stubs, params, body, domain_,
                                                                 grid_, rows_});
  }

  /// forall on a tiled grid: one group per tile, `tile_bytes` of tile
  /// memory per tile. `body(point, params)` runs one thread of a tile (on
  /// the host, a row_point when the kernel is blind to its tile).
  template <class Params, tile_sight Sight, class Body>
  void run_tiled(const stub_table<Rc, Params> &stubs, const Params &params,
                 std::size_t tile_bytes, tile_sight_is<Sight>, Body &&body) {
    static_assert(is_tiled<Domain>::value, "run_tiled is for tiled domains");
    submit(forall_tiles_job<Rc, Params, Sight, std::decay_t<Body>>{
        &stubs, params, body, grid_, Domain::tile_extents(), tile_bytes, rows_});
  }

  /// Full reduce: result = r(result, fold of map over the domain).
  template <class T, class Op, class Map> void reduce(dp::scalar<T> &result, const Op &op, const Map &map) {
    if constexpr (is_where<Domain>::value || is_triangle<Domain>::value)
      submit(reduce_job<Rc, Domain, T, Op, Map, domain_map_t<Domain>>{
          &result, op, map, domain_, grid_, rows_, domain_map()});
    else
      submit(reduce_job<Rc, Domain, T, Op, Map>{&result, op, map, domain_, grid_, rows_, {}});
  }

  /// Full reduce over a tiled grid: result = r(result, fold of map over the
  /// grid's points). `map(point)` runs one thread of a tile, padding
  /// included (its value is dropped); TileBytes of tile memory hold the
  /// kernel's dp::tile_static objects. On a device each tile folds its
  /// values in tile memory (kernels/tile_fold.hpp); on the host a kernel
  /// blind to its tile folds row_point positions.
  template <std::size_t TileBytes, class T, class Op, class Map, tile_sight Sight>
  void reduce_tiled(dp::scalar<T> &result, const Op &op, const Map &map, tile_sight_is<Sight>) {
    static_assert(is_tiled<Domain>::value, "reduce_tiled is for tiled domains");
    submit(reduce_tiles_job<Rc, TileBytes, T, Op, Map, tiling_t<Domain>, Sight>{
        &result, op, map, grid_, Domain::tile_extents(), tiling(), rows_});
  }

  /// reduce<Dim>: result(q) = r(result(q), fold of map over the pencil at q).
  template <int Dim, int M, class T, class Op, class Map>
  void reduce_pencils(dp::field<M, T> &result, const Op &op, const Map &map) {
    static_assert(M == Rc - 1, "a reduce<Dim> result has the compute rank less one");
    const projection<T, M> out = place_result(result, dp::detail::without_dimension(grid_, Dim),
                                              dp::detail::result_position);
    submit(fold_pencils_job<Dim, Rc, T, Op, Map>{grid_.extents(), op, map, out, rows_});
  }

  /// scan<Dim>: result(p) = the r-fold of map over p's pencil up to p.
  template <int Dim, class T, class Op, class Map>
  void scan(dp::field<Rc, T> &result, const Op &op, const Map &map) {
    const projection<T, Rc> out = place_result(result, grid_, dp::detail::result_position);
    submit(scan_pencils_job<Dim, Rc, T, Op, Map>{grid_.extents(), op, map, out, rows_});
  }

  /// sort<Dim>: each pencil of the sort field sorted with `less`.
  template <int Dim, class T, class Less>
  void sort(dp::field<Rc, T> &sort_field, const Less &less, sort_order order) {
    const projection<T, Rc> data =
        place_result(sort_field, grid_, dp::detail::sort_field_position);
    submit(sort_pencils_job<Dim, Rc, T, Less>{grid_.extents(), less, order, data});
  }

private:
  /// The site's name, once its hints are checked (a dp::error naming it).
  static const std::string &checked(const std::string &site, const exec_options *options,
                                    bool tiled) {
    if (options && (options->has_group() || options->has_max_groups())) {
      const std::string problem = dp::detail::check_hints(*options, tiled);
      if (!problem.empty())
        throw dp::error(site + ": " + problem);
    }
    return site;
  }

  /// Runs `job` on the executor (nothing over an empty domain) and
  /// settles what it used once it is enqueued.
  template <class Job> void submit(const Job &job) {
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!grid_.empty())
      executor_.with([&](auto &executor) { execute(executor, job); });
    executor_.finish();
    if (!watched())
      return;
    const counts spent = counters() - start_;
    trace_counts(site_, spent);
    span_.end(spent[counter::launches]);
  }

  /// Whether anybody reads a call-site's share of the counters (the trace
  /// or the profile); otherwise a launch takes no snapshots of them.
  static bool watched() { return detail::tracing() || profile::on(); }

  /// Records which block argument `position` reaches, for the aliasing rule.
  template <int R, class T> void note_use(const dp::field<R, T> &f, int position, access how) {
    if (uses_.size() <= static_cast<std::size_t>(position))
      uses_.resize(static_cast<std::size_t>(position) + 1);
    uses_[static_cast<std::size_t>(position)] = {dp::detail::field_access::owner(f),
                                                 how == access::write};
  }

  /// The field a reduce<Dim>, scan or sort writes, projected on `g` and
  /// moved where the launch runs; a dp::error when an argument also reaches
  /// its data or when it does not hold g's index values.
  template <int M, class T>
  projection<T, M> place_result(const dp::field<M, T> &result, const dp::grid<M> &g, int position) {
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    const dp::detail::storage *block = dp::detail::field_access::owner(result);
    for (std::size_t i = 0; i < uses_.size(); ++i)
      if (block && uses_[i].block == block)
        dp::detail::fail(call_.name() + ": " + dp::detail::describe_argument(position) +
                         "'s data is also " + dp::detail::describe_argument(static_cast<int>(i)) +
                         "; pass a clone()");
    const auto p = dp::detail::project_on<M>(result, g, call_, position);
    projection<T, M> moved;
    moved.base = relocate<T>(result, p.base, true);
    for (int d = 0; d < M; ++d)
      moved.step[d] = p.step[d];
    return moved;
  }

  /// The address of `at` (an element of f) in the copy the launch uses,
  /// made current there.
  template <class U, int R, class T>
  U *relocate(const dp::field<R, T> &f, T *at, bool writes) {
    void *moved = executor_.place(dp::detail::field_access::owner(f),
                                  const_cast<void *>(static_cast<const void *>(at)), writes);
    return static_cast<U *>(moved);
  }
  /// A field copied inside capture(): its data where the launch runs.
  void *translate(dp::detail::storage *block, void *data) override {
    return executor_.place(block, data, capture_writes_);
  }

  dp::detail::call_info call_;
  Domain domain_;
  dp::grid<Rc> grid_;
  const std::string &site_; ///< the call-site's name, made once per call-site
  counts start_;
  executor_session executor_;
  profile::call_span<executor_session> span_; ///< DP_PROFILE's record of the call-site
  bool capture_writes_ = false;
  row_layout rows_;
  dp::detail::small_vector<dp::detail::argument_use, 16> uses_;
};

} // namespace dp::rt
