/// \file
/// The launch path of generated stubs: one launch_context per call, which
/// picks the backend, plans the dispatch, prepares each argument where the
/// launch runs (moving field data only when the other copy is stale), and
/// runs the stub natively, emulated, or on the GPU.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../config.hpp"
#include "../detail/aliasing.hpp"
#include "../detail/call_info.hpp"
#include "../detail/capture.hpp"
#include "../detail/host_loop.hpp"
#include "../detail/projection.hpp"
#include "../field.hpp"
#include "../grid.hpp"
#include "../index.hpp"
#include "backend.hpp"
#include "dispatch.hpp"
#include "gpu.hpp"
#include "thread.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

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
  return f;
}

/// The parameter block's kernel slot for free-function kernels, which are
/// called by name.
struct no_kernel_object {};

/// Index values of the compute grid, for `_index` and the implicit index.
template <int Rc> struct index_values {
  std::int64_t lb[Rc], stride[Rc];
  DP_HOST_DEVICE dp::index<Rc> operator[](const dp::index<Rc> &pos) const {
    dp::index<Rc> v;
    for (int d = 0; d < Rc; ++d)
      v[d] = lb[d] + pos[d] * stride[d];
    return v;
  }
};

/// The stub instantiations of one call-site, by dispatch mode (1..7).
template <int Rc, class Params> struct stub_table {
  using stub = void (*)(launch_geometry<Rc>, Params);
  stub modes[8];
};

/// Prepares and runs one launch of a generated stub.
template <int Rc> class launch_context final : private dp::detail::capture_scope {
public:
  launch_context(const char *kind, const char *location, const dp::grid<Rc> &domain)
      : call_{kind, location}, domain_(domain), site_(call_.name()) {
    backend_ = selected_backend(compiled_device_backend(), device_present());
    mode_ = backend_ == backend::host ? selected_host_mode() : host_mode::native;
  }

  /// Where this launch runs.
  backend where() const { return backend_; }

  /// An elemental projection of f on the domain, as element type U (const
  /// for read-only); a dp::error when an index value of the domain is not
  /// one of f's.
  template <class U, int Ra, class T>
  projection<U, Rc> project(const dp::field<Ra, T> &f, int position, bool writes) {
    note_use(f, position, writes);
    const auto p = dp::detail::project_on<Rc>(f, domain_, call_, position);
    projection<U, Rc> moved;
    moved.base = relocate<U>(f, p.base, writes);
    for (int d = 0; d < Rc; ++d)
      moved.step[d] = p.step[d];
    return moved;
  }

  /// A partial projection: the trailing Rc dimensions of f fixed per point.
  template <int Rf, class U, int Ra, class T>
  partial_projection<Rf, U, Rc> project_partial(const dp::field<Ra, T> &f, int position,
                                                bool writes) {
    static_assert(Ra == Rf + Rc, "partial projection needs rank Rf + Rc");
    note_use(f, position, writes);
    partial_projection<Rf, U, Rc> pp;
    const auto p = dp::detail::project_on<Rc>(f, domain_, call_, position);
    pp.trailing.base = relocate<U>(f, p.base, writes);
    for (int d = 0; d < Rc; ++d)
      pp.trailing.step[d] = p.step[d];
    for (int d = 0; d < Rf; ++d)
      pp.leading[d] = dp::detail::field_access::dim(f, d);
    return pp;
  }

  /// A whole field, broadcast: a non-owning handle on the launch's copy,
  /// element type U (a read_only view reaches a `const field<R,U>&` formal).
  template <class U, int R, class T>
  dp::field<R, U> whole(const dp::field<R, T> &f, int position, bool writes) {
    note_use(f, position, writes);
    U *data = relocate<U>(f, dp::detail::field_access::data(f), writes);
    dp::field<R, U> unowned;
    dp::detail::dim_layout dims[R];
    for (int d = 0; d < R; ++d)
      dims[d] = dp::detail::field_access::dim(f, d);
    return dp::detail::field_access::make<R>(unowned, data, dims);
  }

  /// The compute grid's index values.
  index_values<Rc> indices() const {
    index_values<Rc> v;
    for (int d = 0; d < Rc; ++d)
      v.lb[d] = domain_.dimension(d).lb, v.stride[d] = domain_.dimension(d).stride;
    return v;
  }

  /// A copy of the kernel object whose captured fields refer to the data
  /// where the launch runs; `writes` for a mutable lambda.
  template <class K> K capture(const K &kernel, bool writes) {
    capture_writes_ = writes;
    dp::detail::capture_guard guard(this);
    return K(kernel);
  }

  /// Runs the stub over the whole domain; marks what it wrote. `body(pos,
  /// params)` is the stub's projection and kernel call at one position: the
  /// native host path calls it directly (a callable, so it inlines).
  template <class Params, class Body>
  void run(const stub_table<Rc, Params> &stubs, const Params &params, Body &&body) {
    dp::detail::check_aliasing(call_, uses_.data(), uses_.size());
    if (!domain_.empty()) {
      if (backend_ != backend::host)
        run_device(stubs, params);
      else if (mode_ == host_mode::emulate)
        run_emulated(stubs, params);
      else
        run_native(body, params);
    }
    for (dp::detail::storage *s : written_) // filled by device launches only
      s->device_wrote();
  }

private:
  /// Records which block argument `position` reaches, for the aliasing rule.
  template <int R, class T> void note_use(const dp::field<R, T> &f, int position, bool writes) {
    if (uses_.size() <= static_cast<std::size_t>(position))
      uses_.resize(static_cast<std::size_t>(position) + 1);
    uses_[static_cast<std::size_t>(position)] = {dp::detail::field_access::owner(f), writes};
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

  template <class Params, class Body> void run_native(const Body &body, const Params &params) {
    const dp::grid<Rc> positions(domain_.extents());
    dp::detail::parallel_segments(
        positions, [&](const std::int64_t (&pos)[Rc], std::int64_t j0, std::int64_t j1) {
          dp::index<Rc> idx;
          for (int d = 0; d < Rc - 1; ++d)
            idx[d] = pos[d];
          for (std::int64_t j = j0; j < j1; ++j) {
            idx[Rc - 1] = j;
            body(idx, params);
          }
        });
  }

  dispatch_plan<Rc> plan(const device_limits &limits) const {
    try {
      return plan_dispatch(domain_.extents(), limits, launch_policy(), launch_group_shape());
    } catch (const dp::error &e) {
      throw dp::error(site_ + ": " + e.what());
    }
  }

  /// DP_TRACE_DISPATCH=1: one line per launch plan on stderr (tests use it
  /// to prove which dispatch modes ran).
  void trace(const dispatch_plan<Rc> &p) const {
    static const bool enabled = [] {
      const char *env = std::getenv("DP_TRACE_DISPATCH");
      return env && *env && std::string(env) != "0";
    }();
    if (enabled)
      std::fprintf(stderr, "dp-dispatch: %s: mode %d, %zu launch%s\n", site_.c_str(), p.mode,
                   p.pieces.size(), p.pieces.size() == 1 ? "" : "es");
  }

  template <class Params>
  void run_emulated(const stub_table<Rc, Params> &stubs, const Params &params) {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
    (void)stubs, (void)params;
    throw dp::error(site_ + ": DP_HOST_MODE=emulate needs a program built by a host compiler");
#else
    const dispatch_plan<Rc> p = plan(emulated_limits());
    trace(p);
    const auto stub = stubs.modes[p.mode];
    for (const dispatch_piece<Rc> &piece : p.pieces) {
      const launch_geometry<Rc> geo = make_geometry(p, piece);
      const std::int64_t groups = piece.groups[0] * piece.groups[1] * piece.groups[2];
      tbb::parallel_for(std::int64_t(0), groups, [&](std::int64_t g) {
        thread_ids &ids = detail::emulated_thread();
        ids.group[0] = g % piece.groups[0];
        ids.group[1] = g / piece.groups[0] % piece.groups[1];
        ids.group[2] = g / piece.groups[0] / piece.groups[1];
        for (ids.local[2] = 0; ids.local[2] < p.group_shape[2]; ++ids.local[2])
          for (ids.local[1] = 0; ids.local[1] < p.group_shape[1]; ++ids.local[1])
            for (ids.local[0] = 0; ids.local[0] < p.group_shape[0]; ++ids.local[0])
              stub(geo, params);
      });
    }
#endif
  }

  template <class Params>
  void run_device(const stub_table<Rc, Params> &stubs, const Params &params) {
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
    static const device_limits limits = gpu::query_limits();
    const dispatch_plan<Rc> p = plan(limits);
    trace(p);
    for (const dispatch_piece<Rc> &piece : p.pieces)
      gpu::launch(site_.c_str(), stubs.modes[p.mode], piece.groups, p.group_shape,
                  make_geometry(p, piece), params);
    gpu::synchronize(site_.c_str());
#else
    (void)stubs, (void)params;
#endif
  }

  dp::detail::call_info call_;
  dp::grid<Rc> domain_;
  std::string site_;
  backend backend_ = backend::host;
  host_mode mode_ = host_mode::native;
  bool capture_writes_ = false;
  std::vector<dp::detail::storage *> written_;
  std::vector<dp::detail::argument_use> uses_;
};

} // namespace dp::rt
