/// \file
/// dp::reduce: a whole-domain reduction into a scalar, and reduce<Dim>, one
/// reduction per pencil along dimension Dim into a field of rank N-1.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "detail/bound_kernel.hpp"
#include "detail/host_loop.hpp"
#include "detail/pencils.hpp"
#include "field.hpp"
#include "grid.hpp"
#include "scalar.hpp"

namespace dp {

namespace detail {

/// Fixed chunking keeps floating-point reductions reproducible run to run,
/// whatever the number of threads.
inline constexpr std::int64_t reduce_grain = 16384;

/// acc = r(acc, v), or v for the first value.
template <class T, class R, class V> void fold_into(std::optional<T> &acc, const R &r, V &&v) {
  if (acc)
    acc = static_cast<T>(r(*acc, std::forward<V>(v)));
  else
    acc.emplace(std::forward<V>(v));
}

template <int N, class R, class T, class F, class... Args>
void host_reduce(const call_info &call, const grid<N> &domain, const R &r, scalar<T> &result,
                 const F &f, Args &...args) {
  if (domain.empty())
    return;
  const bound_kernel<N, F, Args...> bound(call, domain, f, args...);
  using acc_t = std::optional<T>;
  const acc_t total = tbb::parallel_deterministic_reduce(
      tbb::blocked_range<std::int64_t>(0, domain.size(), reduce_grain), acc_t(),
      [&](const tbb::blocked_range<std::int64_t> &range, acc_t acc) {
        for_each_segment(domain, range.begin(), range.end(),
                         [&](const std::int64_t(&pos)[N], std::int64_t j0, std::int64_t j1) {
                           bound.segment(pos, j0, j1, [&](std::int64_t, auto &&v) {
                             fold_into(acc, r, std::forward<decltype(v)>(v));
                           });
                         });
        return acc;
      },
      [&](acc_t a, const acc_t &b) {
        if (b)
          fold_into(a, r, *b);
        return a;
      });
  result.set(static_cast<T>(r(result.get(), *total)));
}

template <int Dim, int N, class R, class T, class F, class... Args>
void host_reduce_pencils(const call_info &call, const grid<N> &domain, const R &r,
                         field<N - 1, T> &result, const F &f, Args &...args) {
  check_dimension(call, Dim, N);
  constexpr int D = Dim < N ? Dim : 0; // keeps the code below well-formed
  extent<N - 1> expected;
  for (int d = 0, k = 0; d < N; ++d)
    if (d != D)
      expected[k++] = domain.extent(d);
  check_result_not_aliased(call, result, args...);
  const auto out = result_cursor(result, expected, call, "the result field");
  if (domain.empty())
    return;
  const bound_kernel<N, F, Args...> bound(call, domain, f, args...);
  auto result_at = [&](const std::int64_t(&pos)[N]) -> T & {
    std::int64_t rpos[N - 1];
    for (int d = 0, k = 0; d < N; ++d)
      if (d != D)
        rpos[k++] = pos[d];
    return out.at(rpos);
  };
  parallel_pencil_tiles(domain, D, [&](std::int64_t(&pos)[N], std::int64_t j0, std::int64_t j1) {
    if (D == N - 1) { // one pencil: the row
      std::optional<T> acc;
      bound.segment(pos, j0, j1, [&](std::int64_t, auto &&v) { fold_into(acc, r, v); });
      T &c = result_at(pos);
      c = static_cast<T>(r(c, *acc));
      return;
    }
    std::vector<std::optional<T>> acc(static_cast<std::size_t>(j1 - j0));
    for (std::int64_t k = 0; k < domain.extent(D); ++k) {
      pos[D] = k;
      bound.segment(pos, j0, j1, [&](std::int64_t j, auto &&v) { fold_into(acc[j - j0], r, v); });
    }
    pos[D] = 0;
    for (std::int64_t j = j0; j < j1; ++j) {
      pos[N - 1] = j;
      T &c = result_at(pos);
      c = static_cast<T>(r(c, *acc[j - j0]));
    }
  });
}

} // namespace detail

/// Full reduction: `f` maps the projected arguments at each index of
/// `domain` to a value, `r` (associative and commutative) folds the values,
/// and `result` becomes `r(result_before, fold)`. An empty domain leaves
/// `result` unchanged.
///
///     dp::scalar<double> dot(0.0);
///     dp::reduce(g, std::plus<>(), dot, [](double a, double b) { return a * b; }, A, B);
template <int N, class R, class T, class F, class... Args>
void reduce(const grid<N> &domain, R &&r, scalar<T> &result, F &&f, Args &&...args) {
  detail::host_reduce(detail::call_info{"dp::reduce"}, domain, r, result, f, args...);
}

/// Pencil reduction along dimension `Dim` of `domain`: for each index of the
/// other N-1 dimensions, `result(i) = r(result(i), fold over k of f(...))`.
/// `result` has the domain's extents less dimension Dim; its element k of
/// each dimension pairs with position k of the domain.
///
///     // C(i,j) += sum_k A(i,k) * B(k,j)
///     dp::reduce<2>(dp::grid<3>(M, N, K), std::plus<>(), C,
///                   [](float a, float b) { return a * b; },
///                   dp::spread<1>(A), dp::spread<0>(dp::transpose(B)));
template <int Dim, int N, class R, class T, class F, class... Args>
void reduce(const grid<N> &domain, R &&r, field<N - 1, T> &result, F &&f, Args &&...args) {
  static_assert(N >= 2, "dp::reduce<Dim> needs a compute grid of rank >= 2; "
                        "reduce a rank-1 grid into a dp::scalar");
  detail::host_reduce_pencils<Dim>(detail::call_info{"dp::reduce"}, domain, r, result, f,
                                   args...);
}

} // namespace dp
