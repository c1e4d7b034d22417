/// \file
/// dp::rows<T>: a kernel's view of an array of rows (`float **a`, read as
/// a[i][j]), which dp::borrowed_rows::rows() gives a call-site, and
/// dp::rows<T, 3> of an array of such arrays (`double ***u`, read as
/// u[i][j][k]: NPB MG's grids). On the
/// host it indexes the caller's own rows, as the loop it came from did:
/// no copy, wherever the rows lie. On a device it indexes a table of
/// where each row lies in the device's copy (launch.hpp: rows of one
/// block, or rows gathered into one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "config.hpp"
#include "detail/storage.hpp"
#include "field.hpp"
#include "grid.hpp"
#include "index.hpp"
#include "reference/host_loop.hpp"

namespace dp {

namespace detail {
template <class V> struct rows_state;
struct rows_access;

/// A field over g whose elements the caller writes before anything
/// reads them (a copy of the caller's memory): not zeroed first.
template <class T, int N> field<N, T> field_for_overwrite(const grid<N> &g) {
  return field_access::over<T>(g, storage_ref(storage::create_for_overwrite<T>(static_cast<std::size_t>(g.size()))));
}
} // namespace detail

/// Rows i from first to before end, columns j from column_first to before
/// column_end, of an array of rows: `r(i, j)` is the element in row i,
/// column j, with the caller's own indices. Copies share the rows. A
/// kernel takes it as `const dp::rows<float> &w` (or `dp::rows<const
/// float>` for rows it only reads) and writes `w(i, j)` where the loop
/// wrote `w[i][j]`.
template <class T, int R = 2> class rows {
  static_assert(R == 2, "dp::rows: arrays of rows (rank 2) and arrays of them (rank 3)");

public:
  using element_type = T;

  rows() = default;
  /// Read-only rows from writable ones.
  template <class U, class = std::enable_if_t<std::is_same<const U, T>::value && !std::is_same<U, T>::value>>
  DP_HOST_DEVICE rows(const rows<U> &r)
      : table_(r.table_), first_(r.first_), column_(r.column_), source_(r.source_) {}

  /// The element in row i, column j.
  DP_HOST_DEVICE DP_INLINE T &operator()(std::int64_t i, std::int64_t j) const {
    return table_[i - first_][j - column_];
  }
  /// The element at (i, j).
  DP_HOST_DEVICE DP_INLINE T &operator[](const index<2> &ij) const { return (*this)(ij[0], ij[1]); }

private:
  template <class, int> friend class rows;
  friend struct detail::rows_access;
  DP_HOST_DEVICE rows(T *const *table, std::int64_t first, std::int64_t column,
                      detail::rows_state<std::remove_const_t<T>> *source)
      : table_(table), first_(first), column_(column), source_(source) {}

  /// Row i's element 0 (column_first) at table_[i - first_] (the caller's
  /// own table: first_ and column_ 0).
  T *const *table_ = nullptr;
  std::int64_t first_ = 0, column_ = 0;
  /// The handle's state, which a launch reads to move the rows (null in
  /// a launch's own view).
  detail::rows_state<std::remove_const_t<T>> *source_ = nullptr;
};

/// Planes i from first to before end, rows j from row_first to before
/// row_end, columns k of an array of arrays of rows (`double ***u`):
/// `u(i, j, k)` is `u[i][j][k]`, with the caller's own indices. It is an
/// array of rows over the planes' rows, one after another (row (i, j) at
/// `(i - first) * (row_end - row_first) + j - row_first`), which
/// dp::borrowed_rows<T, 3> lists once: a launch moves them as it moves
/// any array of rows. A kernel takes it as `const dp::rows<double, 3> &u`.
template <class T> class rows<T, 3> {
public:
  using element_type = T;

  rows() = default;
  /// Read-only planes from writable ones.
  template <class U, class = std::enable_if_t<std::is_same<const U, T>::value && !std::is_same<U, T>::value>>
  DP_HOST_DEVICE rows(const rows<U, 3> &r) : rows_(r.rows_), first_(r.first_), row_first_(r.row_first_), n_(r.n_) {}

  /// The element in plane i, row j, column k.
  DP_HOST_DEVICE DP_INLINE T &operator()(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return rows_((i - first_) * n_ + (j - row_first_), k);
  }
  /// The element at (i, j, k).
  DP_HOST_DEVICE DP_INLINE T &operator[](const index<3> &ijk) const { return (*this)(ijk[0], ijk[1], ijk[2]); }

private:
  template <class, int> friend class rows;
  friend struct detail::rows_access;
  DP_HOST_DEVICE rows(const rows<T> &listed, std::int64_t first, std::int64_t row_first, std::int64_t n)
      : rows_(listed), first_(first), row_first_(row_first), n_(n) {}

  /// The planes' rows, listed one after another.
  rows<T> rows_;
  std::int64_t first_ = 0, row_first_ = 0, n_ = 0;
};

namespace detail {

/// What a dp::borrowed_rows knows of its rows, and the copies it made of
/// them: the state its rows() views point to, so that a launch can move
/// them where it runs.
template <class V> struct rows_state {
  V *const *rows = nullptr;
  std::int64_t first = 0, end = 0, column = 0, m = 0;
  /// The rows do not lie in place: a device's copy (and get()) gathers
  /// them into `block` first.
  bool apart = false;
  /// `block` holds a copy gathered from the rows.
  bool gathered = false;
  /// A rows() view was handed out: the caller's rows are the data.
  bool viewed = false;
  /// Over the caller's rows where they lie in place; the gathered copy
  /// where they lie apart, once gathered.
  field<2, V> block;
  /// A device's table of rows: row first + k at table[k], in the copy of
  /// `block` at `table_for` (filled once for that copy). On the host,
  /// over rows apart, one element that the launches reading the caller's
  /// rows write, so that the handle's end waits for them.
  field<1, V *> table;
  V *table_for = nullptr;

  std::size_t row_bytes() const { return static_cast<std::size_t>(m) * sizeof(V); }
  std::size_t column_bytes() const { return static_cast<std::size_t>(column) * sizeof(V); }
  grid<2> domain() const { return grid<2>(arithmetic_sequence(first, end), arithmetic_sequence(column, column + m)); }

  /// The block a device's copy comes from: the rows apart gathered into
  /// a field of the runtime's, once.
  field<2, V> &gather() {
    if (!apart || gathered)
      return block;
    block = field_for_overwrite<V>(domain());
    V *to = block.data();
    each_row([&](std::int64_t i) {
      std::memcpy(static_cast<void *>(to + (i - first) * m), static_cast<const void *>(rows[i] + column),
                  row_bytes());
    });
    gathered = true;
    return block;
  }

  /// copy(i) for every row, on the host's threads where the rows hold
  /// enough to pay for them (a copy of a few rows takes less than a task).
  template <class Copy> void each_row(const Copy &copy) const {
    constexpr std::size_t parallel_bytes = std::size_t(1) << 20;
    const std::int64_t n = end - first;
    if (static_cast<std::size_t>(n) * row_bytes() < parallel_bytes || n < 2) {
      for (std::int64_t i = first; i < end; ++i)
        copy(i);
      return;
    }
    host_split(n, [&](std::int64_t begin, std::int64_t stop) {
      for (std::int64_t i = first + begin; i < first + stop; ++i)
        copy(i);
    });
  }
};

/// Builds and reads dp::rows views; the only place that does.
struct rows_access {
  template <class T>
  static rows<T> make(T *const *table, std::int64_t first, std::int64_t column,
                      rows_state<std::remove_const_t<T>> *source) {
    return rows<T>(table, first, column, source);
  }
  template <class T> static rows_state<std::remove_const_t<T>> *source(const rows<T> &r) { return r.source_; }
  /// Planes over `listed`, their rows one after another, n a plane.
  template <class T>
  static rows<T, 3> planes(const rows<T> &listed, std::int64_t first, std::int64_t row_first, std::int64_t n) {
    return rows<T, 3>(listed, first, row_first, n);
  }
  /// `like`'s planes over `listed` (its rows where a launch runs).
  template <class T> static rows<T, 3> planes(const rows<T> &listed, const rows<T, 3> &like) {
    return rows<T, 3>(listed, like.first_, like.row_first_, like.n_);
  }
  /// The planes' rows, listed one after another.
  template <class T> static const rows<T> &listed(const rows<T, 3> &r) { return r.rows_; }
};

} // namespace detail
} // namespace dp
