/// \file
/// Binders: for each call-site argument, an object that yields what the
/// kernel receives at a compute position. The host loop walks rows (all
/// dimensions fixed but the last) and asks each binder for element j.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "../field.hpp"
#include "../grid.hpp"
#include "../index.hpp"
#include "../tile_group.hpp"
#include "../tokens.hpp"
#include "../detail/call_info.hpp"
#include "classify.hpp"
#include "projection.hpp"
#include "tile_point.hpp"

namespace dp {
/// A rank-Rf view of a user indexable type A (rank Rf+Rc) with its trailing
/// Rc coordinates fixed: what partial projection gives for actuals that are
/// not fields. A kernel takes it as `const dp::partial_view<A, Rf, Rc>&`.
template <class A, int Rf, int Rc> class partial_view {
public:
  static constexpr int rank = Rf;
  partial_view(A *actual, const index<Rc> &tail) : actual_(actual), tail_(tail) {}
  decltype(auto) operator[](const index<Rf> &lead) const {
    index<Rf + Rc> full;
    for (int d = 0; d < Rf; ++d)
      full[d] = lead[d];
    for (int d = 0; d < Rc; ++d)
      full[Rf + d] = tail_[d];
    return (*actual_)[full];
  }

private:
  A *actual_;
  index<Rc> tail_;
};

} // namespace dp

namespace dp::detail {

/// The index values (or, on a tiled domain, the tile or local position) of
/// the current point.
template <int Rc> struct index_binder {
  std::int64_t lb[Rc], stride[Rc];
  index_kind kind = index_kind::global;
  index<Rc> row;

  index_binder(const grid<Rc> &g, index_kind k) : kind(k) {
    for (int d = 0; d < Rc; ++d)
      lb[d] = g.dimension(d).lb, stride[d] = g.dimension(d).stride;
  }
  void begin_row(const std::int64_t (&pos)[Rc]) {
    for (int d = 0; d < Rc - 1; ++d)
      row[d] = lb[d] + pos[d] * stride[d];
  }
  template <bool Unit> index<Rc> at(std::int64_t j) const {
    index<Rc> r = row;
    r[Rc - 1] = lb[Rc - 1] + j * stride[Rc - 1];
    return r;
  }
  bool unit() const { return true; }
  /// On a tiled domain, in or out of the grid alike.
  index<Rc> in_tile(const tile_point<Rc> &p, const tile_group<Rc> &t) const {
    return kind == index_kind::tile ? p.tile : kind == index_kind::local ? p.local : t.global();
  }
  index<Rc> padding(const tile_point<Rc> &p, const tile_group<Rc> &t) const { return in_tile(p, t); }
};

/// dp::_tile: the thread's tile_group.
template <int Rc> struct tile_group_binder {
  void begin_row(const std::int64_t (&)[Rc]) {}
  bool unit() const { return true; }
  const tile_group<Rc> &in_tile(const tile_point<Rc> &, const tile_group<Rc> &t) const { return t; }
  const tile_group<Rc> &padding(const tile_point<Rc> &, const tile_group<Rc> &t) const { return t; }
};

/// A thread of a tiled domain: what binder b gives it, at its position in
/// the grid (rows begun at it) or, for a padding thread, b.padding().
template <int Rc, class B>
decltype(auto) tile_argument(const B &b, const tile_point<Rc> &p, const tile_group<Rc> &t) {
  if constexpr (std::is_same<B, index_binder<Rc>>::value || std::is_same<B, tile_group_binder<Rc>>::value)
    return b.in_tile(p, t);
  else
    return b.template at<false>(p.pos[Rc - 1]);
}

/// Elemental projection of a field: the element itself.
template <class T, int Rc> struct elemental_field_binder {
  affine_projection<T, Rc> proj;
  T *row = nullptr;

  void begin_row(const std::int64_t (&pos)[Rc]) {
    row = proj.base;
    for (int d = 0; d < Rc - 1; ++d)
      row += pos[d] * proj.step[d];
  }
  template <bool Unit> T &at(std::int64_t j) const {
    return Unit ? row[j] : row[j * proj.step[Rc - 1]];
  }
  bool unit() const { return proj.step[Rc - 1] == 1; }
  /// A padding thread reads a value-initialised element; its writes are dropped.
  std::remove_const_t<T> padding(const tile_point<Rc> &, const tile_group<Rc> &) const { return {}; }
};

/// Elemental projection of a user indexable type: `actual[idx]`.
template <class A, int Rc> struct elemental_indexable_binder {
  A *actual;
  index_binder<Rc> idx;
  void begin_row(const std::int64_t (&pos)[Rc]) { idx.begin_row(pos); }
  template <bool Unit> decltype(auto) at(std::int64_t j) const {
    return (*actual)[idx.template at<Unit>(j)];
  }
  bool unit() const { return true; }
  auto padding(const tile_point<Rc> &, const tile_group<Rc> &) const {
    return std::decay_t<decltype((*actual)[index<Rc>()])>();
  }
};

/// Partial projection of a field: a rank-Rf view whose trailing Rc
/// coordinates are fixed to the current point. The view does not own the
/// data (the actual outlives the call) so making it costs no atomics.
template <int Rf, class T, int Rc> struct partial_field_binder {
  affine_projection<T, Rc> proj;
  dim_layout leading[Rf];
  T *row = nullptr;

  void begin_row(const std::int64_t (&pos)[Rc]) {
    row = proj.base;
    for (int d = 0; d < Rc - 1; ++d)
      row += pos[d] * proj.step[d];
  }
  template <bool Unit> field<Rf, T> at(std::int64_t j) const {
    field<Rf, T> unowned;
    return field_access::make<Rf>(unowned, row + j * proj.step[Rc - 1], leading);
  }
  bool unit() const { return true; }
  /// A padding thread's view is empty.
  field<Rf, T> padding(const tile_point<Rc> &, const tile_group<Rc> &) const { return {}; }
};

template <class A, int Rf, int Rc> struct partial_indexable_binder {
  A *actual;
  index_binder<Rc> idx;
  void begin_row(const std::int64_t (&pos)[Rc]) { idx.begin_row(pos); }
  template <bool Unit> partial_view<A, Rf, Rc> at(std::int64_t j) const {
    return partial_view<A, Rf, Rc>(actual, idx.template at<Unit>(j));
  }
  bool unit() const { return true; }
  /// A padding thread's view names index values past the grid: test
  /// in_domain() before reading it.
  partial_view<A, Rf, Rc> padding(const tile_point<Rc> &, const tile_group<Rc> &t) const {
    index<Rc> tail = t.global();
    return partial_view<A, Rf, Rc>(actual, tail);
  }
};

/// Broadcast: the same object at every point.
template <class A, int Rc> struct broadcast_binder {
  A *actual;
  void begin_row(const std::int64_t (&)[Rc]) {}
  template <bool Unit> A &at(std::int64_t) const { return *actual; }
  bool unit() const { return true; }
  A &padding(const tile_point<Rc> &, const tile_group<Rc> &) const { return *actual; }
};

/// Broadcast of an arithmetic value to a declared by-value parameter: the value
/// itself, copied with the binder into each row segment, so that it stays
/// in a register where a pointer to the caller's variable would be read
/// again after every store the kernel makes.
template <class V, int Rc> struct broadcast_value_binder {
  V value;
  void begin_row(const std::int64_t (&)[Rc]) {}
  template <bool Unit> const V &at(std::int64_t) const { return value; }
  bool unit() const { return true; }
  const V &padding(const tile_point<Rc> &, const tile_group<Rc> &) const { return value; }
};

/// The first dimension from which a binder's argument can be walked as one
/// row over extents e (dimensions folded as fold_trailing does): an
/// elemental field where it is contiguous, a broadcast anywhere; the rest
/// (index values, views per point, user indexables) need each point's own
/// coordinates.
template <class B, int Rc> int merge_from(const B &, const dp::extent<Rc> &) { return Rc - 1; }
template <class T, int Rc>
int merge_from(const elemental_field_binder<T, Rc> &b, const dp::extent<Rc> &e) {
  return contiguous_from(b.proj, e);
}
template <class A, int Rc> int merge_from(const broadcast_binder<A, Rc> &, const dp::extent<Rc> &) {
  return 0;
}
template <class V, int Rc>
int merge_from(const broadcast_value_binder<V, Rc> &, const dp::extent<Rc> &) {
  return 0;
}

/// Makes host data current before a host loop touches it through raw
/// pointers: read-only arguments only need the host copy current; writable
/// ones also make any device copy stale.
template <int N, class T> void prepare_on_host(const field<N, T> &f, bool writes) {
  if (storage *s = field_access::owner(f)) {
    if (writes)
      s->ready_for_host_write();
    else
      s->ready_for_host_read();
  }
}

template <class Formal, class Actual, int Rc, int Position>
void static_check_argument() {
  using c = classify<Actual, Formal, Rc>;
  if constexpr (c::value == conversion::invalid) {
    static_assert(dependent_false<Actual>,
                  "dp: an argument's rank does not fit its kernel parameter; "
                  "see argument_rank_mismatch<argument position, actual rank, "
                  "formal rank, compute rank> in the next error");
    (void)sizeof(argument_rank_mismatch<Position + 1, c::Ra, c::Rf, Rc>);
  } else if constexpr (c::value == conversion::special_index && c::formal_known &&
                       std::is_same<std::decay_t<Actual>, tile_token>::value) {
    static_assert(std::is_same<typename c::formal, tile_group<Rc>>::value && !c::formal_writable,
                  "dp: dp::_tile is bound to a kernel parameter that is not a dp::tile_group "
                  "of the compute rank taken by value or const&");
  } else if constexpr (c::value == conversion::special_index && c::formal_known) {
    static_assert(std::is_same<typename c::formal, index<Rc>>::value,
                  "dp: an index token (dp::_index, dp::_tile_index, dp::_local_index) is "
                  "bound to a kernel parameter that is not a dp::index of the compute rank");
  } else if constexpr (c::value == conversion::broadcast_scalar && c::formal_known) {
    static_assert(!c::formal_writable,
                  "dp: a scalar argument is broadcast to every point but bound to a "
                  "non-const reference parameter; take it by value or const&");
  } else if constexpr (c::formal_known && c::formal_writable) {
    static_assert(!c::actual_read_only,
                  "dp: a read-only argument (a read_only view, a const field or const "
                  "elements) is bound to a writable (non-const reference) parameter");
  }
}

/// The binder for one argument.
template <class Formal, int Rc, int Position, class Actual>
auto make_binder(Actual &actual, const grid<Rc> &g, const call_info &call) {
  static_check_argument<Formal, Actual, Rc, Position>();
  using c = classify<Actual, Formal, Rc>;
  using actual_t = std::remove_reference_t<Actual>;
  constexpr conversion conv = c::value;
  if constexpr (conv == conversion::special_index &&
                std::is_same<std::decay_t<Actual>, tile_token>::value) {
    return tile_group_binder<Rc>();
  } else if constexpr (conv == conversion::special_index) {
    return index_binder<Rc>(g, std::decay_t<Actual>::kind);
  } else if constexpr (conv == conversion::elemental_projection) {
    if constexpr (is_field_v<Actual>) {
      prepare_on_host(actual, c::read_write);
      return elemental_field_binder<typename std::decay_t<Actual>::element_type, Rc>{
          project_on<Rc>(actual, g, call, Position)};
    } else {
      return elemental_indexable_binder<actual_t, Rc>{&actual,
                                                      index_binder<Rc>(g, index_kind::global)};
    }
  } else if constexpr (conv == conversion::partial_projection) {
    constexpr int Rf = c::Rf;
    if constexpr (is_field_v<Actual>) {
      prepare_on_host(actual, c::read_write);
      partial_field_binder<Rf, typename std::decay_t<Actual>::element_type, Rc> b;
      b.proj = project_on<Rc>(actual, g, call, Position);
      for (int d = 0; d < Rf; ++d)
        b.leading[d] = field_access::dim(actual, d);
      return b;
    } else {
      // The view names the plain type; a const& formal keeps it read-only.
      using plain = std::decay_t<Actual>;
      return partial_indexable_binder<plain, Rf, Rc>{const_cast<plain *>(&actual),
                                                     index_binder<Rc>(g, index_kind::global)};
    }
  } else if constexpr (std::is_arithmetic<std::remove_cv_t<actual_t>>::value &&
                       !std::is_reference<Formal>::value &&
                       !std::is_same<Formal, unknown_formal>::value) {
    return broadcast_value_binder<std::remove_cv_t<actual_t>, Rc>{actual};
  } else {
    if constexpr (is_field_v<Actual>)
      prepare_on_host(actual, c::read_write);
    return broadcast_binder<actual_t, Rc>{&actual};
  }
}

/// Turns what a binder yields into what the formal accepts: a read-only
/// view reaches a `const field<N,T>&` formal as a field<N,T> that the kernel
/// can only read.
template <class V> struct is_read_only_field : std::false_type {};
template <int N, class T> struct is_read_only_field<field<N, const T>> : std::true_type {};

template <class Formal, class V> decltype(auto) adapt(V &&v) {
  using value = std::decay_t<V>;
  using formal = std::remove_cv_t<std::remove_reference_t<Formal>>;
  if constexpr (is_read_only_field<value>::value && is_field_v<formal> &&
                !std::is_same<value, formal>::value) {
    return field_access::strip_const(v);
  } else {
    return std::forward<V>(v);
  }
}

/// Lets a temporary bind to a non-const reference parameter for the length
/// of the kernel call (a partial projection bound to `field<1,T>&`).
template <class T> T &as_lvalue(T &&t) { return t; }
template <class T> T &as_lvalue(T &t) { return t; }

} // namespace dp::detail
