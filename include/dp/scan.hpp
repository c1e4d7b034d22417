/// \file
/// dp::scan<Dim>: inclusive prefix along each pencil of dimension Dim.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "detail/bound_kernel.hpp"
#include "detail/pencils.hpp"
#include "field.hpp"
#include "grid.hpp"
#include "reduce.hpp"

namespace dp {

namespace detail {

/// One long pencil along the last dimension, scanned in two passes over
/// fixed blocks: local prefixes in parallel, then each block's carry-in.
template <int N, class R, class T, class Bound>
void scan_long_row(const Bound &bound, const R &r, std::int64_t (&pos)[N], std::int64_t length,
                   const positional_cursor<T, N> &out) {
  const std::int64_t blocks = (length + reduce_grain - 1) / reduce_grain;
  std::vector<std::optional<T>> totals(static_cast<std::size_t>(blocks));
  auto out_at = [&](std::int64_t j) -> T & {
    std::int64_t p[N];
    for (int d = 0; d < N; ++d)
      p[d] = pos[d];
    p[N - 1] = j;
    return out.at(p);
  };
  tbb::parallel_for(std::int64_t(0), blocks, [&](std::int64_t b) {
    std::optional<T> acc;
    const std::int64_t j0 = b * reduce_grain, j1 = std::min(length, j0 + reduce_grain);
    bound.segment(pos, j0, j1, [&](std::int64_t j, auto &&v) {
      fold_into(acc, r, v);
      out_at(j) = *acc;
    });
    totals[static_cast<std::size_t>(b)] = acc;
  });
  std::vector<std::optional<T>> carry(static_cast<std::size_t>(blocks));
  for (std::int64_t b = 1; b < blocks; ++b) {
    carry[b] = carry[b - 1];
    fold_into(carry[b], r, *totals[b - 1]);
  }
  tbb::parallel_for(std::int64_t(1), blocks, [&](std::int64_t b) {
    const std::int64_t j0 = b * reduce_grain, j1 = std::min(length, j0 + reduce_grain);
    for (std::int64_t j = j0; j < j1; ++j)
      out_at(j) = static_cast<T>(r(*carry[b], out_at(j)));
  });
}

template <int Dim, int N, class R, class T, class F, class... Args>
void host_scan(const call_info &call, const grid<N> &domain, const R &r, field<N, T> &result,
               const F &f, Args &...args) {
  check_dimension(call, Dim, N);
  constexpr int D = Dim < N ? Dim : 0;
  check_result_not_aliased(call, result, args...);
  const auto out = result_cursor(result, domain.extents(), call, "the result field");
  if (domain.empty())
    return;
  const bound_kernel<N, F, Args...> bound(call, domain, f, args...);
  const std::int64_t length = domain.extent(D);
  const std::int64_t pencils = domain.size() / length;
  if (D == N - 1 && pencils < 4 && length > 4 * reduce_grain) {
    std::int64_t pos[N] = {};
    for (std::int64_t p = 0; p < pencils; ++p) {
      std::int64_t o = p;
      for (int d = N - 2; d >= 0; --d)
        pos[d] = o % domain.extent(d), o /= domain.extent(d);
      scan_long_row(bound, r, pos, length, out);
    }
    return;
  }
  parallel_pencil_tiles(domain, D, [&](std::int64_t(&pos)[N], std::int64_t j0, std::int64_t j1) {
    if (D == N - 1) {
      std::optional<T> acc;
      bound.segment(pos, j0, j1, [&](std::int64_t j, auto &&v) {
        fold_into(acc, r, v);
        pos[N - 1] = j;
        out.at(pos) = *acc;
      });
      return;
    }
    std::vector<std::optional<T>> acc(static_cast<std::size_t>(j1 - j0));
    for (std::int64_t k = 0; k < length; ++k) {
      pos[D] = k;
      std::int64_t at[N];
      for (int d = 0; d < N; ++d)
        at[d] = pos[d];
      bound.segment(pos, j0, j1, [&](std::int64_t j, auto &&v) {
        fold_into(acc[j - j0], r, v);
        at[N - 1] = j;
        out.at(at) = *acc[j - j0];
      });
    }
  });
}

} // namespace detail

/// Inclusive prefix along dimension `Dim`: `result(idx)` is the `r`-fold of
/// `f(...)` over idx's pencil up to and including idx. The prior content of
/// `result` is overwritten; `result` has the domain's extents and element k
/// of each dimension pairs with position k of the domain.
///
///     dp::scan<0>(dp::grid<1>(n), std::plus<>(), prefix, [](int x) { return x; }, values);
template <int Dim, int N, class R, class T, class F, class... Args>
void scan(const grid<N> &domain, R &&r, field<N, T> &result, F &&f, Args &&...args) {
  detail::host_scan<Dim>(detail::call_info{"dp::scan"}, domain, r, result, f, args...);
}

} // namespace dp
