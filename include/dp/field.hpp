/// \file
/// dp::field<N,T>: N-dimensional data over a grid; a handle (copies share).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "config.hpp"
#include "detail/capture.hpp"
#include "detail/storage.hpp"
#include "error.hpp"
#include "grid.hpp"
#include "index.hpp"

namespace dp {

/// Extent of a dimension that accepts every index value (made by spread).
inline constexpr std::int64_t unbounded = std::numeric_limits<std::int64_t>::max();

namespace detail {
/// How one dimension of a field maps index values to memory.
struct dim_layout {
  std::int64_t lb = 0;         ///< first index value
  std::int64_t extent = 0;     ///< number of values; `unbounded` for spread
  std::int64_t stride = 1;     ///< distance between index values
  std::int64_t mem_stride = 0; ///< elements between consecutive positions

  /// Position (0-based) of index value v.
  DP_HOST_DEVICE constexpr std::int64_t position(std::int64_t v) const {
    const std::int64_t off = v - lb;
    if (DP_LIKELY(stride == 1))
      return off; // not a ternary: see DP_LIKELY
    return off / stride;
  }
  DP_HOST_DEVICE constexpr bool is_spread() const { return extent == unbounded; }
  /// True when v is a valid index value of this dimension.
  DP_HOST_DEVICE constexpr bool contains(std::int64_t v) const {
    if (is_spread())
      return true;
    const std::int64_t off = v - lb;
    return off % stride == 0 && off / stride >= 0 && off / stride < extent;
  }
};
struct field_access;

/// to = from, dimension by dimension, unrolled (DP_UNROLL): every copy of
/// a field's layout, so that the handles a kernel call builds are held in
/// registers, not in memory.
template <int N>
DP_HOST_DEVICE DP_INLINE void copy_dims(dim_layout (&to)[N], const dim_layout (&from)[N]) {
  DP_UNROLL
  for (int d = 0; d < N; ++d)
    to[d] = from[d];
}
} // namespace detail

/// N-dimensional data of element type T over a dp::grid<N>.
///
/// A field is a handle: copies share the data (use clone() for a deep copy).
/// Elements are addressed by the grid's index *values*, so a field over
/// `grid<1>(arithmetic_sequence(1, n + 1))` is indexed 1..n. A const field
/// gives const element access only; `field<N, const T>` is a read-only view.
/// Element access works in host and device code.
///
///     dp::field<2, float> A(dp::grid<2>(3, 4), 1.0f);
///     A(2, 3) = 5.0f;
///     dp::field<2, float> B = A;      // shares A's data
///     dp::field<2, float> C = A.clone();
template <int N, class T> class field {
  static_assert(N >= 1, "dp::field<N,T> needs N >= 1");

public:
  static constexpr int rank = N;
  using element_type = T;
  using value_type = std::remove_const_t<T>;

  /// An empty field over an empty grid.
  DP_HOST_DEVICE field() : data_(nullptr), dims_{} {}

  /// Value-initialised data over g.
  explicit field(const grid<N> &g) : field(g, value_type()) {}

  /// Data over g, every element a copy of init.
  field(const grid<N> &g, const value_type &init) : dims_{} {
    const std::int64_t mem = lay_out(g);
    owner_ = detail::storage_ref(
        detail::storage::create<value_type>(static_cast<std::size_t>(mem), init));
    data_ = static_cast<T *>(owner_.get()->host_data());
  }

  /// Copies share the data. Inside a launch's capture scope (a kernel
  /// object being prepared for a device) the copy refers to the device data
  /// and owns nothing.
  DP_HOST_DEVICE DP_INLINE field(field &o) : field(o, share_tag{}) {}
  DP_HOST_DEVICE field(field &&o) noexcept
      : data_(o.data_), owner_(static_cast<detail::storage_ref &&>(o.owner_)) {
    detail::copy_dims(dims_, o.dims_);
  }
  /// `const` protects the data: copy-initialising a writable field from a
  /// const one (`dp::field<1, float> b = constA;`, passing it by value,
  /// returning it from a const method) does not compile; take a read-only
  /// view (`dp::read_only(a)`, `dp::field<N, const T>`) instead. Direct
  /// initialisation (what a class's implicit copy constructor and a lambda's
  /// by-value capture use) still shares the data.
  DP_HOST_DEVICE DP_INLINE explicit field(const field &o) : field(o, share_tag{}) {}
  template <class Same, std::enable_if_t<std::is_same<Same, field>::value, int> = 0>
  DP_HOST_DEVICE DP_INLINE field(const Same &o) : field(o, share_tag{}) {
    static_assert(std::is_const<T>::value || !std::is_same<Same, field>::value,
                  "dp::field: a copy of a const dp::field would give write access to its "
                  "data; copy it into a read-only view (dp::read_only(f) or "
                  "dp::field<N, const T>) or take a clone()");
  }
  DP_HOST_DEVICE field &operator=(const field &o) {
    data_ = o.data_;
    owner_ = o.owner_;
    detail::copy_dims(dims_, o.dims_);
    return *this;
  }
  DP_HOST_DEVICE field &operator=(field &&o) noexcept {
    data_ = o.data_;
    owner_ = static_cast<detail::storage_ref &&>(o.owner_);
    detail::copy_dims(dims_, o.dims_);
    return *this;
  }

  /// A read-only view of a writable field shares its data.
  template <class U, std::enable_if_t<std::is_same<const U, T>::value &&
                                          !std::is_same<U, T>::value,
                                      int> = 0>
  DP_HOST_DEVICE DP_INLINE field(const field<N, U> &o)
      : data_(o.data_), owner_(o.owner_) {
    detail::copy_dims(dims_, o.dims_);
  }

  /// Element at an index of values.
  DP_HOST_DEVICE DP_INLINE T &operator[](const index<N> &idx) {
#if !DP_DEVICE_COMPILE
    if (std::is_const<T>::value)
      sync_for_host_read();
    else
      sync_for_host_write();
#endif
    return *address(idx);
  }
  DP_HOST_DEVICE DP_INLINE const T &operator[](const index<N> &idx) const {
#if !DP_DEVICE_COMPILE
    sync_for_host_read();
#endif
    return *address(idx);
  }

  /// Element at N index values: `A(i, j)`.
  template <class... I,
            std::enable_if_t<sizeof...(I) == N && (std::is_integral<I>::value && ...),
                             int> = 0>
  DP_HOST_DEVICE DP_INLINE T &operator()(I... i) {
    return (*this)[index<N>(i...)];
  }
  template <class... I,
            std::enable_if_t<sizeof...(I) == N && (std::is_integral<I>::value && ...),
                             int> = 0>
  DP_HOST_DEVICE DP_INLINE const T &operator()(I... i) const {
    return (*this)[index<N>(i...)];
  }

  /// Bounds-checked element access (host only): a dp::error names the index
  /// and the grid when idx is not one of the field's index values.
  T &at(const index<N> &idx) {
    check(idx);
    return (*this)[idx];
  }
  const T &at(const index<N> &idx) const {
    check(idx);
    return (*this)[idx];
  }

  /// The grid of index values (spread dimensions report `unbounded`).
  grid<N> get_grid() const {
    std::array<arithmetic_sequence, N> s;
    for (int d = 0; d < N; ++d)
      s[d] = arithmetic_sequence::from_extent(dims_[d].lb, dims_[d].extent,
                                              dims_[d].stride);
    return grid<N>(s);
  }
  /// Number of index values of dimension d.
  DP_HOST_DEVICE std::int64_t get_extent(int d) const { return dims_[d].extent; }
  /// Number of elements (spread dimensions count once).
  DP_HOST_DEVICE std::int64_t size() const {
    std::int64_t s = 1;
    for (int d = 0; d < N; ++d)
      s *= dims_[d].is_spread() ? 1 : dims_[d].extent;
    return s;
  }

  /// Address of the element at the first index value of every dimension.
  /// The elements are contiguous, row-major, for a field made from a grid.
  T *data() {
    sync_for_host_write();
    return data_;
  }
  const T *data() const {
    sync_for_host_read();
    return data_;
  }

  /// A deep copy over the same grid, contiguous and row-major: made on
  /// the device where the device holds the only current copy of the
  /// whole block (clone_on_device), else on the host.
  field<N, value_type> clone() const {
    for (int d = 0; d < N; ++d)
      if (dims_[d].is_spread())
        detail::fail("dp::field::clone: dimension " + std::to_string(d) +
                     " is a spread (unbounded) dimension");
    field<N, value_type> c;
    if (clone_on_device(c))
      return c;
    c = field<N, value_type>(get_grid());
    const grid<N> g = get_grid();
    const std::int64_t n = g.size();
    for (std::int64_t k = 0; k < n; ++k) {
      const index<N> idx = g.map_index(k);
      c[idx] = (*this)[idx];
    }
    return c;
  }

  /// True when both handles refer to the same data block.
  bool shares_data_with(const void *storage_block) const {
    return owner_.get() == storage_block;
  }

private:
  template <int, class> friend class field;
  friend struct detail::field_access;

  /// clone() made on the device, where the device holds the only current
  /// copy of a field laid out as a new field over its grid is (its
  /// block's elements from the first, row-major, none left out): no
  /// transfer either way (storage::copy_on_device_into). False, with
  /// nothing done, otherwise.
  bool clone_on_device(field<N, value_type> &out) const {
    if constexpr (!std::is_trivially_copyable<value_type>::value) {
      (void)out;
      return false;
    } else {
      detail::storage *from = owner_.get();
      if (!from || !from->mirror() || from->host_current() ||
          static_cast<const void *>(data_) != from->host_data())
        return false;
      std::int64_t n = 1;
      for (int d = N - 1; d >= 0; --d) {
        if (dims_[d].mem_stride != n)
          return false;
        n *= dims_[d].extent;
      }
      if (static_cast<std::size_t>(n) * sizeof(T) != from->bytes())
        return false;
      detail::storage_ref block(detail::storage::create_for_overwrite<value_type>(static_cast<std::size_t>(n)));
      if (!from->copy_on_device_into(*block.get()))
        return false;
      out = field<N, value_type>(get_grid(), std::move(block));
      return true;
    }
  }

  /// The layout of g's elements, row-major; returns their number.
  std::int64_t lay_out(const grid<N> &g) {
    std::int64_t mem = 1;
    for (int d = N - 1; d >= 0; --d) {
      const auto &s = g.dimension(d);
      dims_[d] = detail::dim_layout{s.lb, s.extent, s.stride, mem};
      mem *= s.extent;
    }
    return mem;
  }
  /// Over a block made elsewhere (dp::borrow), which holds g's elements.
  field(const grid<N> &g, detail::storage_ref owner) : dims_{}, owner_(std::move(owner)) {
    lay_out(g);
    data_ = static_cast<T *>(owner_.get()->host_data());
  }

  struct share_tag {};
  DP_HOST_DEVICE DP_INLINE field(const field &o, share_tag) : data_(o.data_), owner_(o.owner_) {
    detail::copy_dims(dims_, o.dims_);
#if !DP_DEVICE_COMPILE
    // Unowned views (the host loops make many) skip the thread-local read.
    if (owner_.get())
      if (detail::capture_scope *scope = detail::capture_scope::current())
        refer_to_launch_copy(*scope);
#endif
  }
  /// Inside a launch's capture scope: the launch's copy of the data, owning
  /// nothing. Out of line: a host row loop inlines everything it reaches
  /// (DP_FLATTEN), and this path reaches the executor's whole placement.
  DP_NOINLINE void refer_to_launch_copy(detail::capture_scope &scope) {
    data_ = static_cast<T *>(
        scope.translate(owner_.get(), const_cast<void *>(static_cast<const void *>(data_))));
    owner_ = detail::storage_ref::none();
  }

  /// One test a call, not one a dimension: whether every index stride is
  /// 1. It reads the same strides at every element of a kernel's loop,
  /// so GCC hoists their loads and the loop runs the unit-stride sum; GCC
  /// 12 at -O2 does not unswitch loops, and a test in each dimension's
  /// position took NPB BT's back-substitution loop to 37 instructions an
  /// element, 11 with one (BT class W: 0.79 of OpenMP's speed, 0.90;
  /// 2026-12-07).
  DP_HOST_DEVICE DP_INLINE T *address(const index<N> &idx) const {
    constexpr auto dims = std::make_integer_sequence<int, N>();
    if (DP_LIKELY(unit_strides(dims)))
      return data_ + unit_offset(idx, dims);
    return data_ + offset(idx, dims);
  }
  /// True when every index stride is 1 (strides are never 0).
  template <int... D>
  DP_HOST_DEVICE DP_INLINE bool unit_strides(std::integer_sequence<int, D...>) const {
    return (dims_[D].stride | ...) == 1;
  }
  template <int... D>
  DP_HOST_DEVICE DP_INLINE std::int64_t unit_offset(const index<N> &idx,
                                                    std::integer_sequence<int, D...>) const {
    return (std::int64_t(0) + ... + ((idx[D] - dims_[D].lb) * dims_[D].mem_stride));
  }
  /// A sum over the dimensions written out, not a loop: in a large kernel
  /// GCC at -O2 leaves a loop over d un-unrolled, one per element access
  /// (NPB SP class W: 40 steps took 3.08 s, 2.09 written out; 2026-12-07).
  template <int... D>
  DP_HOST_DEVICE DP_INLINE std::int64_t offset(const index<N> &idx,
                                               std::integer_sequence<int, D...>) const {
    return (std::int64_t(0) + ... + (dims_[D].position(idx[D]) * dims_[D].mem_stride));
  }

  DP_INLINE void sync_for_host_read() const {
    if (detail::storage *s = owner_.get())
      s->ready_for_host_read();
  }
  DP_INLINE void sync_for_host_write() const {
    if (detail::storage *s = owner_.get())
      s->ready_for_host_write();
  }

  void check(const index<N> &idx) const {
    for (int d = 0; d < N; ++d)
      if (!dims_[d].contains(idx[d]))
        detail::fail("dp::field: index value " + std::to_string(idx[d]) +
                     " of dimension " + std::to_string(d) +
                     " is outside the field's grid " + get_grid().to_string());
  }

  T *data_;
  detail::dim_layout dims_[N];
  detail::storage_ref owner_;
};

/// A read-only view: only const element access.
template <int N, class T> using read_only_field = field<N, const T>;

namespace detail {
/// Builds views from a field's parts; the only place that does.
struct field_access {
  template <int N, class T> DP_HOST_DEVICE static T *data(const field<N, T> &f) {
    return f.data_;
  }
  template <int N, class T>
  DP_HOST_DEVICE static const dim_layout &dim(const field<N, T> &f, int d) {
    return f.dims_[d];
  }
  template <int N, class T> static storage *owner(const field<N, T> &f) {
    return f.owner_.get();
  }
  /// A field over g's elements in a block made elsewhere (dp::borrow).
  template <class T, int N> static field<N, T> over(const grid<N> &g, storage_ref owner) {
    return field<N, T>(g, std::move(owner));
  }
  /// A field of rank M over the same data with the given layout.
  template <int M, class T, int N, class U>
  DP_HOST_DEVICE static field<M, T> make(const field<N, U> &from, T *data,
                                         const dim_layout (&dims)[M]) {
    field<M, T> f;
    f.data_ = data;
    f.owner_ = from.owner_;
    copy_dims(f.dims_, dims);
    return f;
  }
  /// A non-owning handle on the same data, element type U (T or const T).
  /// Dense: the caller checked that f's index strides are 1 and its rows
  /// contiguous; AtOrigin: that its lower bounds are 0. The handle says so
  /// in constants the compiler sees.
  template <class U, bool Dense, bool AtOrigin = false, int N, class T>
  DP_HOST_DEVICE DP_INLINE static field<N, U> unowned(const field<N, T> &f) {
    field<N, U> r;
    r.data_ = f.data_;
    // One unrolled loop that copies and sets: copy_dims, then a loop
    // setting the constants over the copy, left the handle in memory
    // again, and NPB SP five times as slow (18.7-19.0 s a run).
    DP_UNROLL
    for (int d = 0; d < N; ++d) {
      r.dims_[d] = f.dims_[d];
      if (Dense)
        r.dims_[d].stride = 1;
      if (AtOrigin)
        r.dims_[d].lb = 0;
    }
    if (Dense)
      r.dims_[N - 1].mem_stride = 1;
    return r;
  }
  /// A non-owning writable-typed handle on read-only data, for a kernel
  /// formal `const field<N,T>&` that can only read it.
  template <int N, class T>
  DP_HOST_DEVICE static field<N, T> strip_const(const field<N, const T> &f) {
    field<N, T> r;
    r.data_ = const_cast<T *>(f.data_);
    copy_dims(r.dims_, f.dims_);
    return r;
  }
  /// The same field with a different data address (a device copy).
  template <int N, class T>
  DP_HOST_DEVICE static field<N, T> rebased(const field<N, T> &f, T *data) {
    field<N, T> r;
    r.data_ = data;
    copy_dims(r.dims_, f.dims_);
    return r;
  }
};
} // namespace detail

} // namespace dp
