/// \file
/// Communication operators: views of a field that share its data. A view of
/// a const field is read-only (its element type is const), like read_only.
#pragma once

#include <type_traits>

#include "field.hpp"
#include "indexable.hpp"

namespace dp {

/// A view of f that allows only const element access.
///
///     dp::forall(g, kernel, dp::read_only(A));   // A is never written
template <int N, class T> field<N, const T> read_only(const field<N, T> &f) {
  return field<N, const T>(f);
}
template <int N, class T> field<N, const T> read_only(const field<N, const T> &f) {
  return f;
}

namespace detail {
/// The element type of a view of `F`: const when F is a const field.
template <class F> struct view_element;
template <int N, class T> struct view_element<field<N, T> &> { using type = T; };
template <int N, class T> struct view_element<field<N, T>> { using type = T; };
template <int N, class T> struct view_element<const field<N, T> &> { using type = const T; };
template <int N, class T> struct view_element<const field<N, T>> { using type = const T; };
template <class F> using view_element_t = typename view_element<F>::type;

template <int I, int J, class U, int N, class T> field<N, U> transposed(const field<N, T> &f) {
  static_assert(I >= 0 && I < N && J >= 0 && J < N,
                "dp::transpose<I,J>: I and J must name dimensions of the field");
  dim_layout dims[N];
  for (int d = 0; d < N; ++d)
    dims[d] = field_access::dim(f, d);
  const dim_layout t = dims[I];
  dims[I] = dims[J];
  dims[J] = t;
  return field_access::make<N>(f, static_cast<U *>(field_access::data(f)), dims);
}

template <int I, class U, int N, class T> field<N + 1, U> spread(const field<N, T> &f) {
  static_assert(I >= 0 && I <= N, "dp::spread<I>: I must be in 0..rank");
  dim_layout dims[N + 1];
  for (int d = 0, s = 0; d <= N; ++d)
    dims[d] = d == I ? dim_layout{0, unbounded, 1, 0} : field_access::dim(f, s++);
  return field_access::make<N + 1>(f, static_cast<U *>(field_access::data(f)), dims);
}
} // namespace detail

/// A view of f with dimensions I and J swapped: transpose<I,J>(A)(..i..j..)
/// == A(..j..i..). Read-only when f is const.
///
///     dp::transpose<0, 1>(A)(i, j) == A(j, i)
template <int I, int J, class F, std::enable_if_t<is_field_v<F>, int> = 0>
auto transpose(F &&f) {
  return detail::transposed<I, J, detail::view_element_t<F>>(f);
}

/// Matrix transpose: dimensions 0 and 1 swapped.
template <class F, std::enable_if_t<is_field_v<F>, int> = 0> auto transpose(F &&f) {
  static_assert(std::decay_t<F>::rank >= 2, "dp::transpose(f) needs a field of rank 2 or more");
  return detail::transposed<0, 1, detail::view_element_t<F>>(f);
}

/// A view of rank N+1 with a dummy dimension inserted at slot I; later
/// slots shift right. The dummy dimension accepts every index value.
/// Read-only when f is const.
///
///     dp::spread<1>(A)(i, j, k) == A(i, k)
template <int I, class F, std::enable_if_t<is_field_v<F>, int> = 0> auto spread(F &&f) {
  return detail::spread<I, detail::view_element_t<F>>(f);
}

} // namespace dp
