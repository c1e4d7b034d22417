/// \file
/// dp::sort<Dim>: sorts every pencil of a field along dimension Dim.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <tbb/parallel_sort.h>

#include "detail/pencils.hpp"
#include "field.hpp"
#include "grid.hpp"

namespace dp {

namespace detail {

template <int Dim, int N, class Cmp, class R, class... Extra>
void host_sort(const call_info &call, const grid<N> &domain, const Cmp &cmp,
               field<N, R> &sort_field, const Extra &...extra) {
  check_dimension(call, Dim, N);
  constexpr int D = Dim < N ? Dim : 0;
  check_result_not_aliased(call, sort_field, extra...);
  const auto data = result_cursor(sort_field, domain.extents(), call, "the sort field");
  if (domain.empty())
    return;
  const std::int64_t length = domain.extent(D);
  auto less = [&](const R &a, const R &b) { return static_cast<bool>(cmp(a, b, extra...)); };
  auto sort_pencil = [&](const std::int64_t(&start)[N], bool parallel) {
    std::int64_t pos[N];
    for (int d = 0; d < N; ++d)
      pos[d] = start[d];
    std::vector<R> pencil(static_cast<std::size_t>(length));
    for (std::int64_t k = 0; k < length; ++k)
      pos[D] = k, pencil[k] = data.at(pos);
    if (parallel)
      tbb::parallel_sort(pencil.begin(), pencil.end(), less);
    else
      std::sort(pencil.begin(), pencil.end(), less);
    for (std::int64_t k = 0; k < length; ++k)
      pos[D] = k, data.at(pos) = pencil[k];
  };
  if (domain.size() == length) { // one pencil: sort it in parallel
    const std::int64_t zero[N] = {};
    sort_pencil(zero, true);
    return;
  }
  parallel_pencil_tiles(domain, D, [&](std::int64_t(&pos)[N], std::int64_t j0, std::int64_t j1) {
    if (D == N - 1) {
      sort_pencil(pos, false);
      return;
    }
    for (std::int64_t j = j0; j < j1; ++j) {
      pos[N - 1] = j;
      sort_pencil(pos, false);
    }
  });
}

} // namespace detail

/// Sorts each pencil of `sort_field` along dimension `Dim` in place with the
/// strict weak ordering `cmp(a, b, extra...)`; the `extra` fields are passed
/// whole to every comparison, so a permutation can be sorted by keys held
/// elsewhere. `sort_field` has the domain's extents. Not stable.
///
///     dp::sort<0>(dp::grid<1>(n), [](int a, int b, const dp::field<1, float> &key) {
///       return key(a) < key(b);
///     }, permutation, keys);
template <int Dim, int N, class Cmp, class R, class... Extra>
void sort(const grid<N> &domain, Cmp &&cmp, field<N, R> &sort_field, Extra &&...extra) {
  detail::host_sort<Dim>(detail::call_info{"dp::sort"}, domain, cmp, sort_field, extra...);
}

} // namespace dp
