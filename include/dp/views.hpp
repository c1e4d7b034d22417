/// \file
/// Communication operators: views of a field that share its data.
#pragma once

#include "field.hpp"

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

/// A view of f with dimensions I and J swapped: transpose<I,J>(A)(..i..j..)
/// == A(..j..i..).
///
///     dp::transpose<0, 1>(A)(i, j) == A(j, i)
template <int I, int J, int N, class T> field<N, T> transpose(const field<N, T> &f) {
  static_assert(I >= 0 && I < N && J >= 0 && J < N,
                "dp::transpose<I,J>: I and J must name dimensions of the field");
  detail::dim_layout dims[N];
  for (int d = 0; d < N; ++d)
    dims[d] = detail::field_access::dim(f, d);
  const detail::dim_layout t = dims[I];
  dims[I] = dims[J];
  dims[J] = t;
  return detail::field_access::make<N>(f, detail::field_access::data(f), dims);
}

/// Matrix transpose: dimensions 0 and 1 swapped.
template <int N, class T> field<N, T> transpose(const field<N, T> &f) {
  static_assert(N >= 2, "dp::transpose(f) needs a field of rank 2 or more");
  return transpose<0, 1>(f);
}

/// A view of rank N+1 with a dummy dimension inserted at slot I; later
/// slots shift right. The dummy dimension accepts every index value.
///
///     dp::spread<1>(A)(i, j, k) == A(i, k)
template <int I, int N, class T> field<N + 1, T> spread(const field<N, T> &f) {
  static_assert(I >= 0 && I <= N, "dp::spread<I>: I must be in 0..rank");
  detail::dim_layout dims[N + 1];
  for (int d = 0, s = 0; d <= N; ++d)
    dims[d] = d == I ? detail::dim_layout{0, unbounded, 1, 0}
                     : detail::field_access::dim(f, s++);
  return detail::field_access::make<N + 1>(f, detail::field_access::data(f), dims);
}

} // namespace dp
