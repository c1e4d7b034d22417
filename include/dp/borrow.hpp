/// \file
/// dp::borrow: a field over memory the caller owns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "detail/storage.hpp"
#include "field.hpp"
#include "grid.hpp"

namespace dp {

namespace detail {
/// The block over the `bytes` at p: the live borrowed block that starts
/// at p and is at least as long (shared, as OpenMP's present table shares
/// a mapped range), else a new one. Throws dp::error when the range
/// overlaps a live borrowed block otherwise. runtime/borrow.cpp.
storage *borrow_block(void *p, std::size_t bytes);
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
/// same data (a range starting where a live one starts and no longer than
/// it); a range overlapping a live one otherwise is a dp::error. The
/// memory must outlive every handle; host access to it through p while a
/// handle lives sees what dp's coherence gives the field's host copy.
template <int N, class T> field<N, T> borrow(T *p, const grid<N> &g) {
  using value = std::remove_const_t<T>;
  static_assert(std::is_trivially_copyable<value>::value,
                "dp::borrow: the elements cross to a device as bytes, so they must be trivially copyable");
  const std::size_t bytes = static_cast<std::size_t>(g.size()) * sizeof(value);
  detail::storage *s = detail::borrow_block(const_cast<value *>(p), bytes);
  return field<N, T>(g, detail::storage_ref(s));
}
/// A field over the n elements at p (dp::borrow(p, dp::grid<1>(n))).
template <class T> field<1, T> borrow(T *p, std::int64_t n) { return borrow(p, grid<1>(n)); }

} // namespace dp
