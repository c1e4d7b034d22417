/// \file
/// dp::borrow: a field over memory the caller owns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <type_traits>
#include <vector>

#include "detail/reused_vector.hpp"
#include "detail/storage.hpp"
#include "field.hpp"
#include "grid.hpp"
#include "options.hpp"
#include "reference/host_loop.hpp"
#include "rows.hpp"

namespace dp {

namespace detail {
/// The block over the `bytes` at p: the live borrowed block that holds
/// them all (shared, as OpenMP's present table serves a section of a
/// mapped range), else a new one. Throws dp::error when the range
/// overlaps a live borrowed block otherwise. runtime/borrow.cpp.
storage *borrow_block(void *p, std::size_t bytes);
/// borrow_block's block, or null where it would refuse the range (a live
/// borrowed block overlaps it otherwise), in one look at the registry.
/// runtime/borrow.cpp.
storage *borrow_block_if_free(void *p, std::size_t bytes);
/// borrow_block_if_free for rows `row_bytes` long, `pitch` bytes apart,
/// from p to the last one's end (`bytes`): a new block holds the rows
/// alone (storage::set_rows; pitch 0: all its bytes), so no copy from a
/// device writes the bytes between them, and no other borrow shares it.
/// A live block over the whole span serves it as it is.
/// runtime/borrow.cpp.
storage *borrow_rows_block_if_free(void *p, std::size_t bytes, std::size_t row_bytes, std::size_t pitch);
/// Keeps the block over the `bytes` at p (borrow_block's) until
/// exit_borrowed(p): one more hold on it. runtime/borrow.cpp.
void enter_borrowed(void *p, std::size_t bytes);
/// Drops one hold enter_borrowed took on the block starting at p (none
/// held: nothing to do); the last handle on it writes the data back.
/// runtime/borrow.cpp.
void exit_borrowed(const void *p);
/// Records the `row_bytes` from `offset` bytes into each of rows[first ..
/// end) that a written dp::borrowed_rows gathered, to write back; throws
/// dp::error when one lies in memory a live field borrowed or another
/// such handle (or this one, at another row) holds. runtime/borrow.cpp.
void hold_gathered_rows(const void *const *rows, std::int64_t first, std::int64_t end, std::size_t offset,
                        std::size_t row_bytes);
/// Forgets what hold_gathered_rows recorded. runtime/borrow.cpp.
void release_gathered_rows(const void *const *rows, std::int64_t first, std::int64_t end,
                           std::size_t offset) noexcept;
/// dp::update_host and dp::update_device over the `bytes` at p: every live
/// borrowed block overlapping them, on q (null: now). runtime/borrow.cpp.
void update_host_over(const void *p, std::size_t bytes, queue_state *q);
void update_device_over(const void *p, std::size_t bytes, queue_state *q);
/// Brings the host copy of every live borrowed block overlapping the
/// `bytes` at p up to date (their writers waited for, device copies
/// copied back). runtime/borrow.cpp.
void host_current_over(const void *p, std::size_t bytes);
/// host_current_over for the `row_bytes` from `offset` bytes into each of
/// rows[first .. end), with one look at the registry where no live block
/// lies near them. runtime/borrow.cpp.
void host_current_over_rows(const void *const *rows, std::int64_t first, std::int64_t end, std::size_t offset,
                            std::size_t row_bytes);
/// A field over g's elements at p, which `block` holds (from its start or
/// further in).
template <int N, class T> field<N, T> over_borrowed(T *p, const grid<N> &g, storage *block) {
  field<N, T> f = field_access::over<T>(g, storage_ref(block));
  if (static_cast<const void *>(p) == block->host_data())
    return f;
  dim_layout dims[N];
  for (int d = 0; d < N; ++d)
    dims[d] = field_access::dim(f, d);
  return field_access::make<N>(f, p, dims);
}
/// Bytes between rows (a heap's headers, a block's last few columns)
/// that a dp::borrowed_rows still borrows in place, with them, whatever
/// the rows' length.
inline constexpr std::size_t row_gap_in_place = 64;
/// The smallest page a system maps: a gap between rows that holds none
/// of its pages whole lies in pages that hold rows, which are there.
inline constexpr std::size_t smallest_page = 4096;
/// Whether rows `row_bytes` long with `gap` bytes between each and the
/// next are borrowed in place, as one span: the gap under
/// row_gap_in_place, or no more than a sixteenth of a row (a device copy
/// of the span carries the gaps too: a heap's rows too large for its
/// arena, each mapped alone, lie a page's rounding apart).
constexpr bool rows_in_place(std::size_t row_bytes, std::size_t gap) {
  return gap < row_gap_in_place || gap <= row_bytes / 16;
}
/// Whether one of the `rows - 1` gaps between rows `row_bytes` long,
/// `pitch` bytes apart from the one at `low` on, holds a whole page
/// (smallest_page): memory that may not be mapped, which a copy of the
/// span would read.
inline bool gaps_hold_a_page(std::uintptr_t low, std::size_t pitch, std::size_t row_bytes, std::int64_t rows) {
  const std::size_t gap = pitch - row_bytes;
  if (gap < smallest_page)
    return false;
  for (std::int64_t k = 0; k + 1 < rows; ++k) {
    const std::uintptr_t from = low + static_cast<std::uintptr_t>(k) * pitch + row_bytes;
    const std::uintptr_t page = (from + smallest_page - 1) / smallest_page * smallest_page;
    if (page + smallest_page <= from + gap)
      return true;
  }
  return false;
}
/// A rank-2 field over g's elements, its first row at p, which `block`
/// holds: each row `spacing` elements after the one before (before it,
/// where spacing is negative: rows a heap mapped one by one, each below
/// the one before).
template <class T> field<2, T> over_borrowed_rows(T *p, const grid<2> &g, std::int64_t spacing, storage *block) {
  field<2, T> f = field_access::over<T>(g, storage_ref(block));
  dim_layout dims[2] = {field_access::dim(f, 0), field_access::dim(f, 1)};
  dims[0].mem_stride = spacing;
  return field_access::make<2>(f, p, dims);
}
/// True when f's block lies over none of the `bytes` at p.
template <int N, class T> bool apart(const void *p, std::size_t bytes, const field<N, T> &f) {
  const storage *s = field_access::owner(f);
  if (!s || bytes == 0 || s->bytes() == 0)
    return true;
  const auto *at = static_cast<const char *>(p);
  const auto *block = static_cast<const char *>(s->host_data());
  return at + bytes <= block || block + s->bytes() <= at;
}
} // namespace detail

/// A field over g's elements at p, memory the caller owns and keeps
/// (row-major, g.size() elements): call-sites use it as any field, on
/// every backend; the host's memory at p is current again once the last
/// handle on it is gone (its device copy written back, the launches using
/// it done). For data whose allocation dpstub cannot see, such as an
/// external function's pointer parameters:
///
///     void axpy(int n, float a, float *y, const float *x) {
///       dp::field<1, float> dp_y = dp::borrow(y, n);
///       dp::field<1, const float> dp_x = dp::borrow(x, n);
///       dp::forall(dp::grid<1>(n), kernel, dp_y, dp_x);
///     } // y holds the results here
///
/// Borrowing the same memory again while a handle on it lives gives the
/// same data (a range lying inside a live one: one block, one device
/// copy); a range overlapping a live one otherwise is a dp::error. The
/// memory must outlive every handle; host access to it through p while a
/// handle lives sees what dp's coherence gives the field's host copy.
template <int N, class T> field<N, T> borrow(T *p, const grid<N> &g) {
  using value = std::remove_const_t<T>;
  static_assert(std::is_trivially_copyable<value>::value,
                "dp::borrow: the elements cross to a device as bytes, so they must be trivially copyable");
  const std::size_t bytes = static_cast<std::size_t>(g.size()) * sizeof(value);
  return detail::over_borrowed(p, g, detail::borrow_block(const_cast<value *>(p), bytes));
}
/// A field over the n elements at p (dp::borrow(p, dp::grid<1>(n))).
template <class T> field<1, T> borrow(T *p, std::int64_t n) { return borrow(p, grid<1>(n)); }

/// g's elements at p (g.size() of them, as dp::borrow) for a call-site
/// that only reads them while it writes `written` (fields over other
/// memory of the caller's): the memory itself (dp::borrow) when it lies
/// apart from theirs, else a copy of it taken now. C lets a caller pass one array as two pointers
/// (`axpy(n, a, y, y)`), and a field written by a call-site cannot also be
/// one of its arguments; with the copy, the loop reads the values from
/// before it, as an iteration that reads an element before it writes it
/// does. --migrate writes it only for such loops:
///
///     dp::field<1, float> dp_y = dp::borrow(y, n);
///     dp::field<1, const float> dp_x = dp::borrow_read(x, n, dp_y);
///
/// Of any rank, as dp::borrow: a C array of static storage a call-site
/// reads whole (`dp::borrow_read(&u[0][0][0][0], dp::grid<4>(...))`).
template <int N, class T, class... Written>
field<N, const T> borrow_read(const T *p, const grid<N> &g, const Written &...written) {
  static_assert(std::is_trivially_copyable<T>::value,
                "dp::borrow_read: the elements cross to a device as bytes, so they must be trivially copyable");
  const std::size_t bytes = static_cast<std::size_t>(g.size()) * sizeof(T);
  if ((detail::apart(p, bytes, written) && ...))
    if (detail::storage *s = detail::borrow_block_if_free(const_cast<T *>(p), bytes))
      return detail::over_borrowed(p, g, s);
  detail::host_current_over(p, bytes); // what the writers left there
  field<N, std::remove_const_t<T>> copy = detail::field_for_overwrite<std::remove_const_t<T>>(g);
  if (bytes > 0)
    std::memcpy(static_cast<void *>(copy.data()), static_cast<const void *>(p), bytes);
  return field<N, const T>(copy);
}
/// dp::borrow_read over the n elements at p.
template <class T, class... Written>
field<1, const T> borrow_read(const T *p, std::int64_t n, const Written &...written) {
  return borrow_read(p, grid<1>(n > 0 ? n : 0), written...);
}

/// f for a call-site that only reads it while it writes `written`: f
/// itself when its data is apart from theirs, else a copy of it taken now
/// (a field's dp::borrow_read; clone()'s, made on the device where a
/// kernel there wrote f last). C lets a caller pass one array to two
/// parameters (`step(state, state)`), and --migrate makes both parameters
/// fields; with the copy, the loop reads the values from before it, as an
/// iteration that reads an element before it writes it does:
///
///     dp::field<1, const double> dp_in = dp::read_apart(in, out);
template <int N, class T, class... Written>
field<N, const T> read_apart(const field<N, T> &f, const Written &...written) {
  if (((detail::field_access::owner(f) != detail::field_access::owner(written)) && ...))
    return field<N, const T>(f);
  return field<N, const T>(f.clone());
}

/// Rows of an array of rows (`float **a`, read as a[i][j]) for one
/// call-site, the first m elements of each (or those from `column_first`
/// to before `column_end`), rows i from `first` to before `end` (from 0
/// to before n). --migrate writes it for loops over such arrays:
///
///     {
///       dp::borrowed_rows<float> dp_w(w, n, m);
///       dp::forall(dp::grid<2>(n, m), kernel, dp_w.rows());  // w(i, j) in the kernel
///     } // w's rows hold the results here
///
/// rows() is a dp::rows view: on the host the kernel indexes the caller's
/// own rows, wherever they lie (no copy); on a device a table of where
/// each row lies in the device's copy. get() is a field over the rows
/// instead (`get()(i, j)` is `rows[i][j]`), for kernels that take a
/// dp::field.
///
/// Rows laid out one after another (`a[i] = a[0] + i * m`, the usual
/// single allocation) are borrowed in place, as dp::borrow does, one
/// block of the caller's memory. So are rows spaced evenly, each after the
/// one before or each before it, with fewer than 64 bytes between them or
/// no more than a sixteenth of a row: rows a C heap gave one after another
/// (its headers between them; rows too large for its arena, each mapped
/// alone, lie a page's rounding apart, each below the one before), or all
/// but a few columns of one block's rows. A device copy of such rows
/// carries the bytes between them too, but only the rows come back (a 2D
/// copy), so those bytes stay as the host has them; while a written
/// handle lives, no other borrow may share them. Others (rows in any
/// other order, further apart, or with a whole page between two) are
/// apart: a device's copy, or get(), gathers them into a field of the
/// runtime's, written back row by row when the handle goes (the launches
/// that wrote them waited for), unless T is const. Where the rows lie
/// apart, one handle serves rows() or get(), not both (a dp::error): the
/// one reads the caller's rows, the other a copy of them.
///
/// Written rows lying apart (T not const) borrowed otherwise meanwhile (by
/// dp::borrow, or another written dp::borrowed_rows: one array passed as
/// two) are a dp::error, where the contiguous path's shared block gives
/// the error of two fields over one block; read-only rows gathered read
/// the values from when they were gathered.
///
/// dp::borrowed_rows<T, 3> (below) borrows an array of such arrays.
template <class T, int R = 2> class borrowed_rows {
  static_assert(R == 2, "dp::borrowed_rows: arrays of rows (rank 2) and arrays of them (rank 3)");
  using value = std::remove_const_t<T>;

public:
  borrowed_rows(T *const *rows, std::int64_t n, std::int64_t m) : borrowed_rows(rows, 0, n, 0, m) {}
  borrowed_rows(T *const *rows, std::int64_t first, std::int64_t end, std::int64_t m)
      : borrowed_rows(rows, first, end, 0, m) {}
  borrowed_rows(T *const *rows, std::int64_t first, std::int64_t end, std::int64_t column_first,
                std::int64_t column_end) {
    static_assert(std::is_trivially_copyable<value>::value,
                  "dp::borrowed_rows: the elements cross to a device as bytes, so they must be trivially copyable");
    s_.rows = const_cast<value *const *>(rows);
    s_.first = first;
    s_.end = end > first ? end : first;
    s_.column = column_first;
    s_.m = column_end > column_first ? column_end - column_first : 0;
    const grid<2> g = s_.domain();
    if (s_.end == s_.first || s_.m == 0) {
      s_.block = field<2, value>(g);
      return;
    }
    value *const *r = s_.rows;
    const std::int64_t spacing = row_spacing();
    if (spacing == s_.m) {
      s_.block = borrow(r[s_.first] + s_.column, g);
      return;
    }
    const std::int64_t pitch = spacing < 0 ? -spacing : spacing;
    // The lowest row: the first, or the last where each lies below the
    // one before.
    value *low = spacing == 0 ? nullptr : r[spacing > 0 ? s_.first : s_.end - 1] + s_.column;
    if (spacing != 0 && detail::rows_in_place(s_.row_bytes(), static_cast<std::size_t>(pitch - s_.m) * sizeof(value)) &&
        !detail::gaps_hold_a_page(reinterpret_cast<std::uintptr_t>(low), pitch * sizeof(value), s_.row_bytes(),
                                  s_.end - s_.first)) {
      // Rows spaced evenly, a few bytes apart (rows a C heap gave one
      // after another, or all but a few columns of one block's rows), in
      // either order: used in place, the span from the lowest row to the
      // highest one's end one block. Read-only, it is dp::borrow's (a
      // device copy of the span never comes back); written, it holds the
      // rows alone, which alone come back from a device. A block of the
      // caller's over part of the span already: apart, as below.
      const std::size_t span = static_cast<std::size_t>((s_.end - s_.first - 1) * pitch + s_.m) * sizeof(value);
      detail::storage *block =
          std::is_const<T>::value
              ? detail::borrow_block_if_free(low, span)
              : detail::borrow_rows_block_if_free(low, span, s_.row_bytes(), pitch * sizeof(value));
      if (block) {
        s_.block = detail::over_borrowed_rows(r[s_.first] + s_.column, g, spacing, block);
        return;
      }
    }
    s_.apart = true;
    // What borrowing writers left there.
    detail::host_current_over_rows(reinterpret_cast<const void *const *>(r), s_.first, s_.end, s_.column_bytes(),
                                   s_.row_bytes());
    // Rows it will write (in place or back): no other handle may hold
    // them meanwhile.
    if constexpr (!std::is_const<T>::value)
      detail::hold_gathered_rows(reinterpret_cast<const void *const *>(r), s_.first, s_.end, s_.column_bytes(),
                                 s_.row_bytes());
  }
  borrowed_rows(const borrowed_rows &) = delete;
  borrowed_rows &operator=(const borrowed_rows &) = delete;
  ~borrowed_rows() {
    if (s_.apart && !s_.gathered && s_.table.get_grid().size() != 0) {
      // The host's launches over the caller's rows, waited for.
      try {
        static_cast<const field<1, value *> &>(s_.table).data();
      } catch (const std::exception &e) {
        if constexpr (!std::is_const<T>::value)
          detail::release_gathered_rows(reinterpret_cast<const void *const *>(s_.rows), s_.first, s_.end,
                                        s_.column_bytes());
        if (std::uncaught_exceptions() > 0)
          return;
        detail::borrowed_results_lost(s_.rows[s_.first] + s_.column, s_.row_bytes(), e.what());
      }
    }
    if constexpr (!std::is_const<T>::value)
      if (s_.apart) {
        const void *const *r = reinterpret_cast<const void *const *>(s_.rows);
        if (s_.gathered) {
          const value *from = nullptr;
          try {
            from = static_cast<const field<2, value> &>(s_.block).data(); // the launches waited for
          } catch (const std::exception &e) {
            detail::release_gathered_rows(r, s_.first, s_.end, s_.column_bytes());
            if (std::uncaught_exceptions() > 0)
              return; // an error on its way out is the report
            detail::borrowed_results_lost(s_.rows[s_.first] + s_.column, s_.row_bytes(), e.what());
          }
          s_.each_row([&](std::int64_t i) {
            std::memcpy(static_cast<void *>(s_.rows[i] + s_.column),
                        static_cast<const void *>(from + (i - s_.first) * s_.m), s_.row_bytes());
          });
        }
        detail::release_gathered_rows(r, s_.first, s_.end, s_.column_bytes());
      }
  }

  /// The rows for a call-site's kernel (a `const dp::rows<T> &` formal):
  /// the caller's own on the host, a device's copy on a device.
  dp::rows<T> rows() {
    if (s_.apart && s_.gathered)
      detail::fail("dp::borrowed_rows: rows() after get() gathered these rows (they lie apart): a handle "
                   "serves one of them");
    s_.viewed = true;
    return detail::rows_access::make<T>(const_cast<T *const *>(s_.rows), 0, 0, &s_);
  }
  /// A field over the rows (gathered now where they lie apart), for a
  /// call-site whose kernel takes a dp::field.
  field<2, value> &get() {
    if (s_.apart && s_.viewed)
      detail::fail("dp::borrowed_rows: get() after rows() on these rows (they lie apart): a handle serves "
                   "one of them");
    return s_.gather();
  }
  /// True when the rows lie apart (not in place): a device's copy, or
  /// get(), gathers them into a field of the runtime's; false when a
  /// field over the caller's rows serves (no copy).
  bool gathered() const { return s_.apart; }

private:
  /// Elements from each row's start to the next's when the rows lie
  /// evenly spaced and at least m apart (m for rows one after another):
  /// positive where each lies after the one before, negative where each
  /// lies before it; else 0.
  std::int64_t row_spacing() const {
    const std::int64_t first = s_.first, end = s_.end;
    if (end - first < 2)
      return s_.m;
    // As addresses: the rows may be separate allocations.
    const auto at = [&](std::int64_t i) { return reinterpret_cast<std::uintptr_t>(s_.rows[i]); };
    const bool down = at(first + 1) < at(first);
    const std::uintptr_t bytes = down ? at(first) - at(first + 1) : at(first + 1) - at(first);
    if (bytes % sizeof(value) != 0 || bytes / sizeof(value) < std::uintptr_t(s_.m))
      return 0;
    for (std::int64_t i = first + 2; i < end; ++i)
      if ((at(i) < at(i - 1)) != down || (down ? at(i - 1) - at(i) : at(i) - at(i - 1)) != bytes)
        return 0;
    const auto elements = static_cast<std::int64_t>(bytes / sizeof(value));
    return down ? -elements : elements;
  }

  detail::rows_state<value> s_;
};
template <class T> borrowed_rows(T **, std::int64_t, std::int64_t) -> borrowed_rows<T>;
template <class T> borrowed_rows(T **, std::int64_t, std::int64_t, std::int64_t) -> borrowed_rows<T>;
template <class T>
borrowed_rows(T **, std::int64_t, std::int64_t, std::int64_t, std::int64_t) -> borrowed_rows<T>;

/// Planes i from `first` to before `end`, rows j from `row_first` to
/// before `row_end`, columns k from `column_first` to before `column_end`
/// of an array of arrays of rows (`double ***u`, read as u[i][j][k]: NPB
/// MG's grids) for one call-site. --migrate writes it for loops over
/// such arrays:
///
///     {
///       dp::borrowed_rows<double, 3> dp_u(u, 1, n3 - 1, 1, n2 - 1, 0, n1);
///       dp::forall(grid, kernel, dp_u.rows());  // u(i3, i2, i1) in the kernel
///     } // u's rows hold the results here
///
/// It lists the planes' rows once, one after another, and borrows that
/// list as dp::borrowed_rows<T> does, with all it says: the kernel indexes
/// the caller's rows on the host (no copy); a device's copy takes them in
/// place where they lie evenly spaced, else gathers them (written back at
/// the handle's end unless T is const); written rows another borrow holds
/// are a dp::error, read-only ones read the values of when they were
/// gathered. The list is the handle's: it lives until the launches that
/// read it are done.
template <class T> class borrowed_rows<T, 3> {
  using value = std::remove_const_t<T>;

public:
  borrowed_rows(T *const *const *planes, std::int64_t n, std::int64_t m, std::int64_t columns)
      : borrowed_rows(planes, 0, n, 0, m, 0, columns) {}
  borrowed_rows(T *const *const *planes, std::int64_t first, std::int64_t end, std::int64_t row_first,
                std::int64_t row_end, std::int64_t column_first, std::int64_t column_end)
      : first_(first), row_first_(row_first), n_(row_end > row_first ? row_end - row_first : 0),
        list_(listed(planes, first, end > first ? end : first, row_first, n_)),
        rows_(list_->data(), 0, static_cast<std::int64_t>(list_->size()), column_first, column_end) {}
  borrowed_rows(const borrowed_rows &) = delete;
  borrowed_rows &operator=(const borrowed_rows &) = delete;

  /// The planes for a call-site's kernel (a `const dp::rows<T, 3> &`
  /// formal): the caller's own rows on the host, a device's copy on a
  /// device.
  dp::rows<T, 3> rows() { return detail::rows_access::planes(rows_.rows(), first_, row_first_, n_); }
  /// True when the rows lie apart (not in place): a device's copy gathers
  /// them into a field of the runtime's.
  bool gathered() const { return rows_.gathered(); }

private:
  /// Rows (i, j) of planes[first .. end), j from row_first, n a plane,
  /// one after another (in memory an earlier call-site's list left).
  static detail::reused_vector<T *> listed(T *const *const *planes, std::int64_t first, std::int64_t end,
                                           std::int64_t row_first, std::int64_t n) {
    detail::reused_vector<T *> list(static_cast<std::size_t>((end - first) * n));
    for (std::int64_t i = first; i < end; ++i)
      for (std::int64_t j = row_first; j < row_first + n; ++j)
        list->push_back(planes[i][j]);
    return list;
  }

  std::int64_t first_, row_first_, n_;
  /// Declared before rows_: it outlives the handle on it, whose end waits
  /// for the launches reading it.
  detail::reused_vector<T *> list_;
  borrowed_rows<T> rows_;
};
template <class T>
borrowed_rows(T ***, std::int64_t, std::int64_t, std::int64_t) -> borrowed_rows<T, 3>;
template <class T>
borrowed_rows(T ***, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t)
    -> borrowed_rows<T, 3>;

/// OpenACC's `enter data` (OpenMP's `target enter data`) over memory the
/// caller owns: the n elements at p stay borrowed until dp::exit_data(p),
/// so that call-sites borrowing them meanwhile (dp::borrow(p, m), m <= n:
/// --migrate's borrows of pointer parameters and members) share one
/// block, and on a device its copy stays there between them instead of
/// crossing at each. Between the two, as OpenACC says, host code reading
/// or writing through p sees the host copy: dp::update_host(p, n) brings
/// the device's results to it, dp::update_device(p, n) sends its own
/// writes. A range overlapping a live borrow otherwise is a dp::error.
/// Entered twice, it stays until the second dp::exit_data.
///
///     Stream(long n) : n(n), a(new double[n]) { dp::enter_data(a, n); }
///     ~Stream() { dp::exit_data(a); delete[] a; }
template <class T> void enter_data(T *p, std::int64_t n) {
  using value = std::remove_const_t<T>;
  static_assert(std::is_trivially_copyable<value>::value,
                "dp::enter_data: the elements cross to a device as bytes, so they must be trivially copyable");
  if (n > 0)
    detail::enter_borrowed(const_cast<value *>(p), static_cast<std::size_t>(n) * sizeof(value));
}
/// OpenACC's `exit data` (OpenMP's `target exit data`): ends one
/// dp::enter_data(p, n). When no other handle is left, the host memory at
/// p holds the data again (the device's results copied back: dp keeps it
/// coherent whatever the clause, `copyout` or `delete`). Memory not
/// entered: nothing to do, as OpenACC says.
inline void exit_data(const void *p) { detail::exit_borrowed(p); }

/// The host memory of the n elements at p current (OpenACC's `update
/// host`) where a live borrow (dp::enter_data) holds them: a transfer
/// only where the device holds newer data. Nothing to do otherwise.
template <class T> void update_host(const T *p, std::int64_t n) {
  if (n > 0)
    detail::update_host_over(p, static_cast<std::size_t>(n) * sizeof(T), nullptr);
}
/// The same, asynchronously on q: host access through dp waits for it.
template <class T> void update_host(const queue &q, const T *p, std::int64_t n) {
  if (n > 0)
    detail::update_host_over(p, static_cast<std::size_t>(n) * sizeof(T), q.state().get());
}
/// The host's writes through p to the n elements there, made while a live
/// borrow holds them, sent to the device (OpenACC's `update device`):
/// those elements are the data from now on.
template <class T> void update_device(const T *p, std::int64_t n) {
  if (n > 0)
    detail::update_device_over(p, static_cast<std::size_t>(n) * sizeof(T), nullptr);
}
/// The same, on q: launches on other queues that use them wait for it.
template <class T> void update_device(const queue &q, const T *p, std::int64_t n) {
  if (n > 0)
    detail::update_device_over(p, static_cast<std::size_t>(n) * sizeof(T), q.state().get());
}

} // namespace dp
