/// \file
/// The launch path of generated stubs: one launch_context per call-site
/// prepares each argument where the launch runs (the host's copy of its
/// data, or the device's, made current only when stale), picks the
/// executor once (executors.hpp) and hands the call-site's pattern to it:
/// the host's threads (host/patterns.hpp) or a device (device/*.hpp, over
/// the GPU's or the emulated device's layer). On a device the call-site
/// returns once its work is enqueued: every block it touched records the
/// work's completion (as its writer or a reader), and host access waits for
/// exactly that.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "../config.hpp"
#include "../detail/aliasing.hpp"
#include "../detail/call_info.hpp"
#include "../detail/capture.hpp"
#include "../detail/host_tiles.hpp"
#include "../detail/pencils.hpp"
#include "../detail/projection.hpp"
#include "../field.hpp"
#include "../grid.hpp"
#include "../index.hpp"
#include "../options.hpp"
#include "../scalar.hpp"
#include "backend.hpp"
#include "counters.hpp"
#include "device/forall.hpp"
#include "device/pencils.hpp"
#include "device/reduce.hpp"
#include "dispatch.hpp"
#include "domains.hpp"
#include "executors.hpp"
#include "host/forall.hpp"
#include "host/pencils.hpp"
#include "host/reduce.hpp"
#include "pencil_kernels.hpp"
#include "regions.hpp"
#include "positions.hpp"
#include "profile.hpp"
#include "stub_run.hpp"
#include "stub_types.hpp"
#include "thread.hpp"
#include "tile_fold.hpp"

namespace dp::rt {

/// Prepares and runs one call-site's launch. Domain is the call-site's
/// compute domain: a grid, a tiled grid, a dp::where or a triangle.
template <int Rc, class Domain = dp::grid<Rc>>
class launch_context final : private dp::detail::capture_scope {
public:
  launch_context(const char *kind, const char *location, const Domain &domain,
                 const exec_options *options = nullptr)
      : call_{kind, location}, domain_(domain), grid_(bounds_of(domain)), site_(call_.name()),
        start_(counters()), backend_(process_backend()),
        executor_(backend_, backend_ == backend::host ? process_host_mode() : host_mode::native,
                  checked(site_, options, is_tiled<Domain>::value), options) {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
    if (executor_.on_device())
      range_.emplace(site_); // the name messages use: no string built per launch
#endif
    if (profile::on())
      begin_profile();
  }
  /// A call-site with execution options (dp::on(q), .when(c),
  /// dp::group_size(...), .max_groups(n)).
  launch_context(const exec_options &options, const char *kind, const char *location,
                 const Domain &domain)
      : launch_context(kind, location, domain, &options) {}

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
    return dp::detail::field_access::make<R>(unowned, data, dims);
  }

  /// The compute grid's index values.
  index_values<Rc> indices() {
    rows_.positioned = true;
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
  /// threads call directly (it inlines). The stubs are over the domain's
  /// launch positions: the grid's (a dp::where's stub filters them), or a
  /// triangle's point numbers.
  template <int K, class Params, class Body>
  void run(const stub_table<K, Params> &stubs, const Params &params, Body &&body) {
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!grid_.empty())
      executor_.with(overloaded{
          [&](host_executor &host) {
            host.run(site_, [domain = domain_, grid = grid_, rows = rows_, body, params] {
              host::forall<Rc>(domain, grid, rows, body, params);
            });
          },
          [&](auto &device) { device::forall(device, launch_extent(), stubs, params); }});
    finish();
  }

  /// forall on a tiled grid: one group per tile, `tile_bytes` of tile
  /// memory per tile. `body(point, params)` runs one thread of a tile (on
  /// the host, a row_point when the kernel is blind to its tile).
  template <class Params, tile_sight Sight, class Body>
  void run_tiled(const stub_table<Rc, Params> &stubs, const Params &params,
                 std::size_t tile_bytes, tile_sight_is<Sight> sight, Body &&body) {
    static_assert(is_tiled<Domain>::value, "run_tiled is for tiled domains");
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!grid_.empty()) {
      const dp::extent<Rc> tile = Domain::tile_extents();
      executor_.with(overloaded{
          [&](host_executor &host) {
            host.run(site_, [site = site_, grid = grid_, tile, tile_bytes, sight, rows = rows_, body,
                             params] {
              host::forall_tiles(site, grid, tile, tile_bytes, sight, rows, body, params);
            });
          },
          [&](auto &device) {
            device::forall_tiles(device, grid_.extents(), tile, tile_bytes, stubs, params);
          }});
    }
    finish();
  }

  /// Full reduce: result = r(result, fold of map over the domain).
  template <class T, class Op, class Map> void reduce(dp::scalar<T> &result, const Op &op, const Map &map) {
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!grid_.empty())
      executor_.with(overloaded{
          [&](host_executor &host) {
            deliver(host, result, [op, domain = domain_, rows = rows_, map](const T &prior) {
              const std::optional<T> total = host::reduce<T, Rc>(domain, rows, op, map);
              return total ? static_cast<T>(op(prior, *total)) : prior;
            });
          },
          [&](auto &device) {
            if constexpr (is_where<Domain>::value) // filtered points are absent values
              device::reduce_kept_into(device, result, grid_.size(),
                                       linear_positions<Rc>::of(grid_.extents()), op,
                                       kept_values<T, Map, domain_map_t<Domain>>{map, domain_map()});
            else if constexpr (is_triangle<Domain>::value)
              device::reduce_into(device, result, domain_.size(), domain_map(), op, map);
            else
              device::reduce_into(device, result, grid_.size(),
                                  linear_positions<Rc>::of(launch_extent()), op, map);
          }});
    finish();
  }

  /// Full reduce over a tiled grid: result = r(result, fold of map over the
  /// grid's points). `map(point)` runs one thread of a tile, padding
  /// included (its value is dropped); TileBytes of tile memory hold the
  /// kernel's dp::tile_static objects. On a device each tile folds its
  /// values in tile memory (tile_fold.hpp); on the host a kernel blind to
  /// its tile folds row_point positions.
  template <std::size_t TileBytes, class T, class Op, class Map, tile_sight Sight>
  void reduce_tiled(dp::scalar<T> &result, const Op &op, const Map &map,
                    tile_sight_is<Sight> sight) {
    static_assert(is_tiled<Domain>::value, "reduce_tiled is for tiled domains");
    using job_t = tile_fold_job<Rc, T, Op, Map, tiling_t<Domain>, TileBytes>;
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!grid_.empty()) {
      const dp::extent<Rc> tile = Domain::tile_extents();
      executor_.with(overloaded{
          [&](host_executor &host) {
            deliver(host, result, [site = site_, grid = grid_, tile, sight, rows = rows_, op,
                                   map](const T &prior) {
              const std::optional<T> total =
                  host::reduce_tiles<TileBytes, T>(site, grid, tile, sight, rows, op, map);
              return total ? static_cast<T>(op(prior, *total)) : prior;
            });
          },
          [&](auto &device) {
            device::reduce_tiles_into(device, result, grid_.extents(), tile,
                                      job_t{map, op, tiling(), nullptr, {}});
          }});
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
      executor_.with(overloaded{
          [&](host_executor &host) {
            host.run(site_, [rows = rows_, e, op, map, out] { host::fold_pencils<Dim>(rows, e, op, map, out); });
          },
          [&](auto &device) { device::fold_pencils<Dim>(device, e, op, map, out); }});
    }
    finish();
  }

  /// scan<Dim>: result(p) = the r-fold of map over p's pencil up to p.
  template <int Dim, class T, class Op, class Map>
  void scan(dp::field<Rc, T> &result, const Op &op, const Map &map) {
    const projection<T, Rc> out = place_result(result, grid_, dp::detail::result_position);
    if (!grid_.empty()) {
      const dp::extent<Rc> e = grid_.extents();
      executor_.with(overloaded{
          [&](host_executor &host) {
            host.run(site_, [rows = rows_, e, op, map, out] { host::scan_pencils<Dim>(rows, e, op, map, out); });
          },
          [&](auto &device) { device::scan_pencils<Dim>(device, e, op, map, out); }});
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
      executor_.with(overloaded{
          [&](host_executor &host) {
            host.run(site_, [e, less, data] { host::sort_pencils<Dim>(e, less, data); });
          },
          [&](auto &device) {
            device::sort_pencils<Dim>(device, e, less, order != sort_order::custom,
                                      order == sort_order::descending, data);
          }});
    }
    finish();
  }

private:
  /// The site's name, once its hints are checked (a dp::error naming it).
  static const std::string &checked(const std::string &site, const exec_options *options,
                                    bool tiled) {
    if (options) {
      const std::string problem = dp::detail::check_hints(*options, tiled);
      if (!problem.empty())
        throw dp::error(site + ": " + problem);
    }
    return site;
  }

  /// A full reduce on the host: result = fold(prior), now or as the named
  /// queue's task (the scalar then waits for it).
  template <class T, class Fold> void deliver(host_executor &host, dp::scalar<T> &result, Fold fold) {
    const T prior = result.get(); // waits for a reduction still computing it
    T *slot = dp::detail::scalar_access::slot(result);
    host.run(site_, [slot, prior, fold] { *slot = fold(prior); });
    if (host.queue)
      after_enqueue_.push_back([&result](const dp::detail::pending &done) {
        dp::detail::scalar_access::later(result, done);
      });
  }

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

  /// Everything is enqueued: each block the launch touched records its
  /// completion, as its writer or as a reader.
  void finish() {
    if (const dp::detail::pending done = executor_.finish()) {
      for (const touch &t : touched_)
        if (t.writes)
          t.block->launch_writes(done, executor_.on_device());
        else
          t.block->launch_reads(done);
      for (const auto &then : after_enqueue_)
        then(done);
    }
    touched_.clear();
    after_enqueue_.clear();
    trace_counts(site_, counters() - start_);
    if (profiled_)
      end_profile();
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
    range_.reset();
#endif
  }

  /// DP_PROFILE: the call-site's record starts where its queue is now;
  /// the transfers and allocations the thread makes until finish() are
  /// charged to it.
  void begin_profile() {
    profiled_ = executor_.stamp();
    profile_scope_.emplace(&site_);
    profile::current_plan() = {};
  }
  void end_profile() {
    profile::record r;
    r.name = site_;
    r.queue = executor_.queue();
    r.queue_kind = executor_.queue_kind();
    r.begin = std::move(profiled_);
    r.end = executor_.stamp();
    r.backend = executor_.runs_on();
    r.mode = profile::current_plan().mode;
    r.groups = profile::current_plan().groups;
    r.launches = (counters() - start_)[counter::launches];
    profile::add(std::move(r));
    profile_scope_.reset();
  }

  /// The address of `at` (an element of f) in the copy the launch uses,
  /// made current there.
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
    if (executor_.on_host_queue()) {
      // A named queue's host task: data the device holds comes back now;
      // other queues' work on the block is waited for by the task.
      if (block->written_on_device() || (!block->host_current() && !block->writer()))
        block->make_host_current();
      executor_.wait_for(block->foreign_work(executor_.queue(), writes));
      note_touch(block, writes);
      return data;
    }
    if (!executor_.on_device()) {
      if (writes)
        block->host_wrote(); // waits for launches still reading it
      else
        block->make_host_current();
      return data;
    }
    executor_.wait_for(block->foreign_work(executor_.queue(), writes));
    if (!block->mirror())
      block->attach_mirror(executor_.new_mirror(block->bytes()));
    block->make_device_current(executor_.device_queue()); // a copy only when it is stale
    note_touch(block, writes);
    const std::ptrdiff_t offset =
        static_cast<char *>(data) - static_cast<char *>(block->host_data());
    return static_cast<char *>(block->mirror()->device_data()) + offset;
  }
  void note_touch(dp::detail::storage *block, bool writes) {
    for (touch &t : touched_)
      if (t.block == block) {
        t.writes = t.writes || writes;
        return;
      }
    touched_.push_back({block, writes});
  }

  /// The extents a forall stub is planned over: a triangle's point numbers,
  /// else the grid's positions, with the trailing dimensions every
  /// projection is contiguous along folded into the last (merged_extents).
  auto launch_extent() const {
    if constexpr (is_triangle<Domain>::value)
      return dp::extent<1>(domain_.size());
    else if constexpr (std::is_same<Domain, dp::grid<Rc>>::value)
      return host::merged_extents(grid_.extents(), rows_);
    else
      return grid_.extents();
  }

  /// A block the launch uses on a device, and whether it writes it.
  struct touch {
    dp::detail::storage *block;
    bool writes;
  };

  dp::detail::call_info call_;
  Domain domain_;
  dp::grid<Rc> grid_;
  std::string site_;
  counts start_;
  backend backend_;
  executor_session executor_;
  bool capture_writes_ = false;
  host::row_layout rows_;
  std::vector<touch> touched_;
  /// What finish() does with the completion of the enqueued work.
  std::vector<std::function<void(const dp::detail::pending &)>> after_enqueue_;
  std::vector<dp::detail::argument_use> uses_;
  profile::stamp_ptr profiled_;                        ///< DP_PROFILE: where the record starts
  std::optional<profile::site_scope> profile_scope_;   ///< DP_PROFILE: charges transfers here
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
  std::optional<gpu::profiler_range> range_;           ///< NVTX / roctx, on a GPU
#endif
};

} // namespace dp::rt
