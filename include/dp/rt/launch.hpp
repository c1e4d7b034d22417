/// \file
/// The launch path of generated stubs: one launch_context per call, which
/// picks the backend, prepares each argument where the launch runs (moving
/// field data only when the other copy is stale), and runs the call-site's
/// pattern natively, emulated, or on the GPU: forall stubs, and the
/// reductions, scans and sorts built on the stub's map function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "../config.hpp"
#include "../detail/aliasing.hpp"
#include "../detail/call_info.hpp"
#include "../detail/capture.hpp"
#include "../detail/host_fold.hpp"
#include "../detail/host_loop.hpp"
#include "../detail/domain_walk.hpp"
#include "../detail/host_tiles.hpp"
#include "../detail/pencils.hpp"
#include "../detail/projection.hpp"
#include "../field.hpp"
#include "../grid.hpp"
#include "../index.hpp"
#include "../scalar.hpp"
#include "../tiled_grid.hpp"
#include "../triangle.hpp"
#include "../where.hpp"
#include "backend.hpp"
#include "device_patterns.hpp"
#include "dispatch.hpp"
#include "domains.hpp"
#include "gpu.hpp"
#include "host_patterns.hpp"
#include "pencil_kernels.hpp"
#include "positions.hpp"
#include "stub_run.hpp"
#include "thread.hpp"
#include "tile_fold.hpp"

namespace dp::rt {

/// Elemental projection argument: the element at compute positions p is
/// `base[sum p[d] * step[d]]`; read-only ones hold a `const T* __restrict__`.
template <class T, int Rc> using projection = dp::detail::affine_projection<T, Rc>;

/// Partial projection argument: a rank-Rf view with the trailing Rc
/// coordinates fixed to the current point.
template <int Rf, class T, int Rc> struct partial_projection {
  projection<T, Rc> trailing;
  dp::detail::dim_layout leading[Rf];

  DP_HOST_DEVICE dp::field<Rf, T> view(const dp::index<Rc> &pos) const {
    dp::field<Rf, T> unowned;
    return dp::detail::field_access::make<Rf>(unowned, &trailing[pos], leading);
  }
};

/// A read-only view handed to a `const field<R,T>&` (or by-value) formal:
/// the kernel can only read through it.
template <int R, class T>
DP_HOST_DEVICE dp::field<R, T> formal_view(const dp::field<R, const T> &f) {
  return dp::detail::field_access::strip_const(f);
}
template <int R, class T> DP_HOST_DEVICE dp::field<R, T> formal_view(const dp::field<R, T> &f) {
  return dp::field<R, T>(f);
}

/// The parameter block's kernel slot for free-function kernels, which are
/// called by name.
struct no_kernel_object {};

/// The element type of a field argument, without const: what a stub in a
/// template names the element types that vary between instantiations.
template <class A> using element_t = std::remove_const_t<typename std::decay_t<A>::element_type>;

/// The I-th type of a launcher's argument pack.
template <std::size_t I, class... A> using arg_t = std::tuple_element_t<I, std::tuple<A...>>;

/// A copy of a mutable lambda to call: every call starts from the captured
/// state, as every iteration of the host reference does.
template <class K> DP_HOST_DEVICE K mutable_copy(const K &kernel) { return kernel; }

/// How a stub uses a field argument.
enum class access {
  read,     ///< read-only: copied in when stale, never back
  write,    ///< read-write: the launch's copy becomes current
  may_write ///< a generic kernel parameter that may write: as `write`, but not
            ///< an aliasing error (the host reference cannot see it either)
};

/// How a sort's comparator orders arithmetic keys, as dpstub saw it: a
/// natural order sorts by radix on a GPU.
enum class sort_order { custom, ascending, descending };

/// The grid a domain's arguments are projected on.
template <int N> const dp::grid<N> &bounds_of(const dp::grid<N> &g) { return g; }
template <class D> auto bounds_of(const D &d) -> decltype(d.domain()) { return d.domain(); }

/// What a stub's parameter block holds of a domain that is not a grid: a
/// dp::where's filter, a triangle's raise.
template <class D> struct domain_map {};
template <int N, class P> struct domain_map<dp::where_domain<N, P>> {
  using type = where_filter<N, P>;
};
template <dp::triangle_part Part> struct domain_map<dp::triangle_domain<Part>> {
  using type = triangle_points<Part>;
};
template <class D> using domain_map_t = typename domain_map<std::decay_t<D>>::type;

template <class D> struct tiling_of {};
template <int N, int... T> struct tiling_of<dp::tiled_grid<N, T...>> {
  using type = tiling<N, T...>;
};
template <class D> using tiling_t = typename tiling_of<std::decay_t<D>>::type;

template <class D> struct is_where : std::false_type {};
template <int N, class P> struct is_where<dp::where_domain<N, P>> : std::true_type {};
template <class D> struct is_triangle : std::false_type {};
template <dp::triangle_part P> struct is_triangle<dp::triangle_domain<P>> : std::true_type {};
template <class D> struct is_tiled : std::false_type {};
template <int N, int... T> struct is_tiled<dp::tiled_grid<N, T...>> : std::true_type {};

/// A dp::where's kept values as maybe<T>: a filtered point is absent.
template <class T, class Map, class Filter> struct kept_values {
  Map map;
  Filter filter;
  template <int N> DP_HOST_DEVICE maybe<T> operator()(const dp::index<N> &pos) const {
    if (filter.keep(pos))
      return some(static_cast<T>(map(pos)));
    return none<T>();
  }
};

/// Prepares and runs one call-site's launch. Domain is the call-site's
/// compute domain: a grid, a tiled grid, a dp::where or a triangle.
template <int Rc, class Domain = dp::grid<Rc>>
class launch_context final : private dp::detail::capture_scope {
public:
  launch_context(const char *kind, const char *location, const Domain &domain)
      : call_{kind, location}, domain_(domain), grid_(bounds_of(domain)), site_(call_.name()) {
    backend_ = selected_backend(compiled_device_backend(), device_present());
    mode_ = backend_ == backend::host ? selected_host_mode() : host_mode::native;
  }

  /// Where this launch runs.
  backend where() const { return backend_; }

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
    unit_rows_ = unit_rows_ && moved.step[Rc - 1] == 1;
    // The trailing dimensions along which this projection is contiguous.
    const dp::extent<Rc> e = grid_.extents();
    int first = Rc - 1;
    for (std::int64_t span = e[Rc - 1]; first > 0 && moved.step[first - 1] == span; --first)
      span *= e[first - 1];
    merge_from_ = first > merge_from_ ? first : merge_from_;
    return moved;
  }

  /// A partial projection: the trailing Rc dimensions of f fixed per point.
  template <int Rf, class U, int Ra, class T>
  partial_projection<Rf, U, Rc> project_partial(const dp::field<Ra, T> &f, int position,
                                                access how) {
    static_assert(Ra == Rf + Rc, "partial projection needs rank Rf + Rc");
    note_use(f, position, how);
    partial_projection<Rf, U, Rc> pp;
    positioned_ = true; // the view at each point depends on every coordinate
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
    return dp::detail::field_access::make<R>(unowned, data, dims);
  }

  /// The compute grid's index values.
  index_values<Rc> indices() {
    positioned_ = true;
    index_values<Rc> v;
    for (int d = 0; d < Rc; ++d)
      v.lb[d] = grid_.dimension(d).lb, v.stride[d] = grid_.dimension(d).stride;
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

  /// forall: runs the stub over the whole domain. `body(pos, params)` is the
  /// stub's projection and kernel call at one position: the native host
  /// path calls it directly (a callable, so it inlines). The stubs are over
  /// the domain's launch positions: the grid's (a dp::where's stub filters
  /// them), or a triangle's point numbers.
  template <int K, class Params, class Body>
  void run(const stub_table<K, Params> &stubs, const Params &params, Body &&body) {
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!grid_.empty()) {
      if (backend_ != backend::host)
        run_on_device(site_, launch_extent(), stubs, params);
      else if (mode_ == host_mode::emulate)
        run_emulated(site_, launch_extent(), stubs, params);
      else
        run_native(body, params);
    }
    finish();
  }

  /// forall on a tiled grid: one group per tile, `tile_bytes` of tile
  /// memory per tile. `body(point, params)` runs one thread of a tile.
  template <class Params, class Body>
  void run_tiled(const stub_table<Rc, Params> &stubs, const Params &params,
                 std::size_t tile_bytes, tile_sight sight, Body &&body) {
    static_assert(is_tiled<Domain>::value, "run_tiled is for tiled domains");
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!grid_.empty()) {
      const dp::extent<Rc> tile = Domain::tile_extents();
      if (backend_ != backend::host)
        run_tiled_on_device(site_, grid_.extents(), tile, stubs, params);
      else if (mode_ == host_mode::emulate)
        run_tiled_emulated(site_, grid_.extents(), tile, tile_bytes, stubs, params);
      else if (sight == tile_sight::sees)
        dp::detail::for_each_tile_thread(site_, grid_.extents(), tile, tile_bytes,
                                         [&](const tile_point<Rc> &p) { body(p, params); });
      else
        run_tile_blind(tile, [&](const tile_point<Rc> &p) { body(p, params); });
    }
    finish();
  }

  /// A tiled forall whose kernel cannot tell its tile, natively on the
  /// host: each padding thread, then the grid's points as plain loops.
  template <class Thread> void run_tile_blind(const dp::extent<Rc> &tile, const Thread &thread) {
    dp::detail::for_each_padding_thread(site_, grid_.extents(), tile, thread);
    const tile_row<Rc> row{tile};
    dp::detail::parallel_walk(dp::detail::walk_of(grid_),
                              [&](const std::int64_t(&pos)[Rc], std::int64_t j0, std::int64_t j1) {
                                tile_point<Rc> at;
                                row.start(pos, j0, at);
                                for (std::int64_t j = j0; j < j1; ++j, row.next(at))
                                  thread(at);
                              });
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

  /// Full reduce: result = r(result, fold of map over the domain).
  template <class T, class Op, class Map> void reduce(dp::scalar<T> &result, const Op &op, const Map &map) {
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!grid_.empty()) {
      if (backend_ == backend::host && mode_ == host_mode::native) {
        const auto walk = dp::detail::walk_of(domain_);
        const std::optional<T> total = with_rows(map, [&](const auto &source) {
          return dp::detail::fold_walk<T>(walk, op, source);
        });
        if (total)
          result.set(static_cast<T>(op(result.get(), *total)));
      } else if constexpr (is_where<Domain>::value) {
        // Filtered points are absent values: r needs no identity.
        const kept_values<T, Map, domain_map_t<Domain>> values{map, domain_map()};
        const maybe<T> total = fold_launch(some(result.get()), maybe_op<T, Op>{op},
                                           values, linear_positions<Rc>::of(grid_.extents()),
                                           point_count());
        result.set(total.value);
      } else if constexpr (is_triangle<Domain>::value) {
        result.set(fold_launch(result.get(), op, map, domain_map(), point_count()));
      } else {
        result.set(fold_launch(result.get(), op, map, linear_positions<Rc>::of(grid_.extents()),
                               point_count()));
      }
    }
    finish();
  }

  /// Full reduce over a tiled grid: result = r(result, fold of map over the
  /// grid's points). `map(point)` runs one thread of a tile, padding
  /// included (its value is dropped); TileBytes of tile memory hold the
  /// kernel's dp::tile_static objects. Emulated and on a GPU each tile
  /// folds its values in tile memory (tile_fold.hpp).
  template <std::size_t TileBytes, class T, class Op, class Map>
  void reduce_tiled(dp::scalar<T> &result, const Op &op, const Map &map, tile_sight sight) {
    static_assert(is_tiled<Domain>::value, "reduce_tiled is for tiled domains");
    using job_t = tile_fold_job<Rc, T, Op, Map, tiling_t<Domain>, TileBytes>;
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!grid_.empty()) {
      const dp::extent<Rc> e = grid_.extents(), tile = Domain::tile_extents();
      const dp::extent<Rc> tiles = tile_counts(e, tile);
      if (backend_ == backend::host && mode_ == host_mode::native) {
        std::optional<T> total;
        if (sight == tile_sight::sees) {
          total = dp::detail::fold_tile_values<T>(site_, e, tile, TileBytes, op, map);
        } else {
          dp::detail::for_each_padding_thread(site_, e, tile,
                                              [&](const tile_point<Rc> &p) { (void)map(p); });
          total = dp::detail::fold_walk<T>(dp::detail::walk_of(grid_), op,
                                           tile_row_source<Rc, Map>{map, {tile}});
        }
        if (total)
          result.set(static_cast<T>(op(result.get(), *total)));
      } else {
        job_t job{map, op, tiling(), nullptr, {}};
        for (int d = 0; d < Rc; ++d)
          job.tiles[d] = tiles[d];
        const auto numbers = linear_positions<1>::of(dp::extent<1>(tiles.size()));
        if (backend_ == backend::host) {
          std::vector<T> folds(static_cast<std::size_t>(tiles.size()));
          job.folds = folds.data();
          run_tiled_emulated(site_, e, tile, job_t::shared_bytes, tile_fold_stubs<job_t>(), job);
          result.set(fold_launch(result.get(), op, tile_folds<T>{job.folds}, numbers, tiles.size()));
        } else {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
          gpu::buffer folds(site_.c_str(), sizeof(T) * static_cast<std::size_t>(tiles.size()));
          job.folds = folds.as<T>();
          run_tiled_on_device(site_, e, tile, tile_fold_stubs<job_t>(), job);
          result.set(fold_launch(result.get(), op, tile_folds<T>{job.folds}, numbers, tiles.size()));
#endif
        }
      }
    }
    finish();
  }

  /// reduce<Dim>: result(q) = r(result(q), fold of map over the pencil at q).
  template <int Dim, int M, class T, class Op, class Map>
  void reduce_pencils(dp::field<M, T> &result, const Op &op, const Map &map) {
    static_assert(M == Rc - 1, "a reduce<Dim> result has the compute rank less one");
    const projection<T, M> out = place_result(result, dp::detail::without_dimension(grid_, Dim),
                                              dp::detail::result_position);
    if (!grid_.empty()) {
      const dp::extent<Rc> e = grid_.extents();
      using job_t = pencil_job<Rc, Dim, T, Op, Map, Rc - 1>;
      if (backend_ == backend::host && mode_ == host_mode::native) {
        with_rows(map, [&](const auto &source) { dp::detail::fold_pencils<Dim, T>(e, op, source, out); });
      } else if constexpr (Dim == Rc - 1) { // along the contiguous dimension: segmented
        if (backend_ == backend::host)
          host::fold_segments_emulated<Dim>(e, op, map, out);
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
        else
          device::fold_segments<Dim>(site_.c_str(), e, op, map, out);
#endif
      } else { // across it: one thread per pencil, coalesced
        run_pencils(host::pencil_extent<Dim>(e), pencil_stubs<job_t, false>(),
                    job_t{map, op, out, e[Dim]});
      }
    }
    finish();
  }

  /// scan<Dim>: result(p) = the r-fold of map over p's pencil up to p.
  template <int Dim, class T, class Op, class Map>
  void scan(dp::field<Rc, T> &result, const Op &op, const Map &map) {
    const projection<T, Rc> out = place_result(result, grid_, dp::detail::result_position);
    if (!grid_.empty()) {
      const dp::extent<Rc> e = grid_.extents();
      using job_t = pencil_job<Rc, Dim, T, Op, Map, Rc>;
      if (backend_ == backend::host && mode_ == host_mode::native) {
        with_rows(map, [&](const auto &source) { dp::detail::scan_pencils<Dim, T>(e, op, source, out); });
      } else if constexpr (Dim == Rc - 1) { // along the contiguous dimension: by key
        if (backend_ == backend::host)
          host::scan_segments_emulated<Dim>(e, op, map, out);
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
        else
          device::scan_segments<Dim>(site_.c_str(), e, op, map, out);
#endif
      } else { // across it: one thread per pencil, coalesced
        run_pencils(host::pencil_extent<Dim>(e), pencil_stubs<job_t, true>(),
                    job_t{map, op, out, e[Dim]});
      }
    }
    finish();
  }

  /// sort<Dim>: each pencil of the sort field sorted with `less`.
  template <int Dim, class T, class Less>
  void sort(dp::field<Rc, T> &sort_field, const Less &less, sort_order order) {
    const projection<T, Rc> data =
        place_result(sort_field, grid_, dp::detail::sort_field_position);
    if (!grid_.empty()) {
      const dp::extent<Rc> e = grid_.extents();
      if (backend_ == backend::host && mode_ == host_mode::native) {
        dp::detail::sort_pencils<Dim, T>(e, less, data);
      } else if (backend_ == backend::host) {
        host::sort_emulated<Dim>(e, less, data);
      } else {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
        device::sort<Dim>(site_.c_str(), e, less, order != sort_order::custom,
                          order == sort_order::descending, data);
#endif
      }
    }
    (void)order;
    finish();
  }

private:
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

  /// A pencil kernel over the pencils' domain, emulated or on the device.
  template <int R, class Job>
  void run_pencils(const dp::extent<R> &pencils, const stub_table<R, Job> &stubs, const Job &job) {
    if (backend_ == backend::host)
      run_emulated(site_, pencils, stubs, job);
    else
      run_on_device(site_, pencils, stubs, job);
  }

  /// Marks what a device launch wrote: the host copy becomes stale.
  void finish() {
    for (dp::detail::storage *s : written_) // filled by device launches only
      s->device_wrote();
    written_.clear();
  }

  static bool device_present() {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
    return gpu::device_present();
#else
    return false;
#endif
  }

  /// The address of `at` (an element of f) in the copy the launch uses,
  /// made current there; writable blocks are remembered.
  template <class U, int R, class T>
  U *relocate(const dp::field<R, T> &f, T *at, bool writes) {
    void *moved = translate(dp::detail::field_access::owner(f),
                            const_cast<void *>(static_cast<const void *>(at)), writes);
    return static_cast<U *>(moved);
  }

  void *translate(dp::detail::storage *block, void *data) override {
    return translate(block, data, capture_writes_);
  }
  void *translate(dp::detail::storage *block, void *data, bool writes) {
    if (!block)
      return data; // an unowned view: already where it must be
    if (backend_ == backend::host) {
      block->make_host_current();
      if (writes)
        block->host_wrote();
      return data;
    }
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
    if (!block->mirror())
      block->attach_mirror(new gpu::mirror(block->bytes()));
    block->make_device_current(); // a copy only when the device copy is stale
    if (writes)
      written_.push_back(block);
    const std::ptrdiff_t offset =
        static_cast<char *>(data) - static_cast<char *>(block->host_data());
    return static_cast<char *>(block->mirror()->device_data()) + offset;
#else
    return data;
#endif
  }

  /// f(source) with map as a host fold source over the rows, its positions
  /// unit_row_index ones when every elemental projection allows.
  template <class Map, class F> decltype(auto) with_rows(const Map &map, F &&f) const {
    if (unit_rows_)
      return f(map_source<Rc, Map, dp::detail::unit_row_index<Rc>>{map});
    return f(map_source<Rc, Map>{map});
  }

  /// The stub body over the domain's rows on the host. When every
  /// elemental projection steps by one element along a row, the body gets
  /// unit_row_index positions, so its loop is a unit-stride one.
  ///
  /// A forall over a plain grid whose body reads no coordinate but through
  /// its elemental projections (no index, no partial projection) runs the
  /// trailing dimensions along which every projection is contiguous as one
  /// row: a rank-4 forall over whole fields walks as a rank-1 one.
  template <class Params, class Body> void run_native(const Body &body, const Params &params) {
    if (!unit_rows_) {
      run_rows<dp::index<Rc>>(domain_, body, params);
      return;
    }
    if constexpr (std::is_same<Domain, dp::grid<Rc>>::value && Rc > 1) {
      if (!positioned_ && merge_from_ < Rc - 1) {
        dp::extent<Rc> rows = grid_.extents();
        for (int d = Rc - 2; d >= merge_from_; --d)
          rows[Rc - 1] *= rows[d], rows[d] = 1;
        run_rows<dp::detail::unit_row_index<Rc>>(dp::grid<Rc>(rows), body, params);
        return;
      }
    }
    run_rows<dp::detail::unit_row_index<Rc>>(domain_, body, params);
  }
  template <class Position, class Walked, class Params, class Body>
  void run_rows(const Walked &walked, const Body &body, const Params &params) {
    dp::detail::parallel_walk(
        dp::detail::walk_of(walked),
        [&](const std::int64_t (&pos)[Rc], std::int64_t j0, std::int64_t j1) {
          Position idx;
          for (int d = 0; d < Rc - 1; ++d)
            idx[d] = pos[d];
          for (std::int64_t j = j0; j < j1; ++j) {
            idx[Rc - 1] = j;
            body(idx, params);
          }
        });
  }

  /// The extents a forall stub is planned over: a triangle's point numbers,
  /// else the grid's positions.
  auto launch_extent() const {
    if constexpr (is_triangle<Domain>::value)
      return dp::extent<1>(domain_.size());
    else
      return grid_.extents();
  }

  /// The points a full reduce folds: a triangle's, else the grid's.
  std::int64_t point_count() const {
    if constexpr (is_triangle<Domain>::value)
      return domain_.size();
    else
      return grid_.size();
  }

  /// prior r (the fold of values over `count` points), emulated or on the
  /// device; `positions` raises a point number to a position.
  template <class V, class Op, class Values, class Positions>
  V fold_launch(V prior, const Op &op, const Values &values, const Positions &positions,
                std::int64_t count) {
    if (backend_ != backend::host) {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
      device::reduce(site_.c_str(), count, positions, op, values, prior);
#endif
      return prior;
    }
    if (const std::optional<V> total = host::reduce_emulated<V>(count, positions, op, values))
      return static_cast<V>(op(prior, *total));
    return prior;
  }

  dp::detail::call_info call_;
  Domain domain_;
  dp::grid<Rc> grid_;
  std::string site_;
  backend backend_ = backend::host;
  host_mode mode_ = host_mode::native;
  bool capture_writes_ = false;
  bool unit_rows_ = true; ///< every elemental projection's last step is 1
  int merge_from_ = 0;     ///< every projection is contiguous from this dimension on
  bool positioned_ = false; ///< the body reads coordinates: indices, partial projections
  std::vector<dp::detail::storage *> written_;
  std::vector<dp::detail::argument_use> uses_;
};

} // namespace dp::rt
