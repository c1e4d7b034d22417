/// \file
/// dp::reduce: a whole-domain reduction into a scalar, and reduce<Dim>, one
/// reduction per pencil along dimension Dim into a field of rank N-1.
#pragma once

#include <optional>
#include <type_traits>

#include "reference/record_call.hpp"
#include "reference/bound_kernel.hpp"
#include "reference/call_checks.hpp"
#include "reference/host_fold.hpp"
#include "reference/host_tiles.hpp"
#include "reference/pencils.hpp"
#include "field.hpp"
#include "grid.hpp"
#include "options.hpp"
#include "scalar.hpp"
#include "tiled_grid.hpp"

namespace dp {

namespace detail {

template <class Walk, class R, class T, class F, class... Args>
void host_reduce(const call_info &call, const Walk &walk, const R &r, scalar<T> &result,
                 const F &f, Args &...args) {
  if (walk.size() == 0)
    return;
  const bound_kernel<Walk::rank, F, Args...> bound(call, walk.bounds(), f, args...);
  if (const std::optional<T> total = fold_walk<T>(walk, r, bound))
    result.set(static_cast<T>(r(result.get(), *total)));
}

/// A full reduce over a tiled grid: every thread of every tile runs f
/// (padding too, so that the tile's barriers hold); the in-domain values
/// are folded. On a GPU the tile folds its values in tile memory, so the
/// kernel's dp::tile_static objects get what that fold leaves. An f that
/// takes no tile token cannot tell its tile: the plain reduce over the
/// grid, then a call per padding thread.
template <int Rc, int... Ts, class R, class T, class F, class... Args>
void host_reduce_tiled(const call_info &call, const tiled_grid<Rc, Ts...> &domain, const R &r,
                       scalar<T> &result, const F &f, Args &...args) {
  if (domain.empty())
    return;
  using grid_t = tiled_grid<Rc, Ts...>;
  const bound_kernel<Rc, F, Args...> bound(call, domain.domain(), f, args...);
  const auto thread = [&](const tile_point<Rc> &p) { return bound.call_tiled(p); };
  std::optional<T> total;
  if constexpr (sees_tile_v<Args...>) {
    const std::size_t arena =
        max_tile_static_bytes - tile_fold_bytes<T>(grid_t::tile_extents().size());
    total = fold_tile_values<T>(call.name(), domain.domain().extents(), grid_t::tile_extents(),
                                arena, r, thread);
  } else { // f cannot tell its tile: the padding's calls, and the plain reduce
    for_each_padding_thread(call.name(), domain.domain().extents(), grid_t::tile_extents(),
                            [&](const tile_point<Rc> &p) { (void)thread(p); });
    total = fold_walk<T>(walk_of(domain.domain()), r, bound);
  }
  if (total)
    result.set(static_cast<T>(r(result.get(), *total)));
}

template <int Dim, int N, class R, class T, class F, class... Args>
void host_reduce_pencils(const call_info &call, const grid<N> &domain, const R &r,
                         field<N - 1, T> &result, const F &f, Args &...args) {
  check_result_not_aliased(call, result, args...);
  prepare_on_host(result, true);
  const affine_projection<T, N - 1> out =
      project_on<N - 1>(result, without_dimension(domain, Dim), call, result_position);
  if (domain.empty())
    return;
  const bound_kernel<N, F, Args...> bound(call, domain, f, args...);
  fold_pencils<Dim, T>(domain.extents(), r, bound, out);
}

} // namespace detail

namespace detail {
/// The body of the untranslated call-site (the host reference).
template <class Domain, class R, class Result, class F, class... Args>
void reduce_reference(const source_site &site, const exec_options *options, const Domain &domain,
                      R &r, Result &result, F &f, Args &...args) {
#if !defined(DPSTUB_TOOL) // dpstub checks call-sites itself, with located diagnostics
  static_assert(detail::domain_rank_v<Domain> > 0,
                "dp::reduce: the compute domain must be a dp::grid<N>, a dp::tile<...>(grid), "
                "a dp::where(grid, pred) or a dp::lower_triangle / dp::upper_triangle");
  static_assert(detail::is_scalar_v<Result>,
                "dp::reduce without <Dim> reduces into a dp::scalar<T>; to reduce along "
                "dimension Dim into a field, write dp::reduce<Dim>(...)");
  static_assert(detail::tokens_fit_domain_v<Domain, Args...>,
                "dp::reduce: dp::_tile, dp::_tile_index and dp::_local_index need a tiled "
                "domain: dp::tile<T0, ...>(grid)");
  if constexpr (detail::domain_rank_v<Domain> > 0 && detail::is_scalar_v<Result> &&
                detail::tokens_fit_domain_v<Domain, Args...>) {
    using T = typename Result::value_type;
    static_assert(detail::is_reduction_v<std::decay_t<R>, T>,
                  "dp::reduce: r must be callable as r(T, T) with T the result's type, "
                  "returning a value convertible to T");
    const call_info call{"dp::reduce", nullptr, site};
    const auto uses = [&] { return bound_kernel<domain_rank_v<Domain>, F, Args...>::uses(args...); };
    if (kept_reduce_for_replay( // dp::record: kept, not run
            call, options, result, uses, sizeof...(Args),
            [site](const Domain &d, R &r2, Result &res, F &f2, Args &...a) {
              reduce_reference(site, nullptr, d, r2, res, f2, a...);
            },
            domain, r, result, f, args...))
      return;
    if constexpr (detail::tiled_rank_v<Domain> > 0)
      detail::host_reduce_tiled(call, domain, r, result, f, args...);
    else
      detail::host_reduce(call, detail::walk_of(domain), r, result, f, args...);
  }
#else
  (void)site, (void)options, (void)domain, (void)r, (void)result, (void)f, ((void)args, ...);
#endif
}
} // namespace detail

/// Full reduction: `f` maps the projected arguments at each index of
/// `domain` to a value, `r` (associative and commutative) folds the values,
/// and `result` becomes `r(result_before, fold)`. An empty domain leaves
/// `result` unchanged. The arguments reach `f` as they reach a forall
/// kernel (projection, broadcast, index tokens).
///
///     dp::scalar<double> dot(0.0);
///     dp::reduce(g, std::plus<>(), dot, [](double a, double b) { return a * b; }, A, B);
template <class Domain, class R, class Result, class F, class... Args,
          detail::plain_domain_t<Domain> = 0>
void reduce(const Domain &domain, R &&r, Result &result, F &&f, Args &&...args) {
  detail::reduce_reference({}, nullptr, domain, r, result, f, args...);
}

namespace detail {
/// The body of the untranslated call-site (the host reference).
template <int Dim, class Domain, class R, class Result, class F, class... Args>
void reduce_pencils_reference(const source_site &site, const exec_options *options,
                              const Domain &domain, R &r, Result &result, F &f, Args &...args) {
#if !defined(DPSTUB_TOOL)
  constexpr int N = detail::grid_rank_v<Domain>;
  static_assert(N > 0, "dp::reduce<Dim>: the compute domain must be a dp::grid<N> (tiled, dp::where and triangle domains are for dp::forall and the full dp::reduce)");
  static_assert(detail::tokens_fit_domain_v<Domain, Args...>,
                "dp::reduce<Dim>: dp::_tile, dp::_tile_index and dp::_local_index need a tiled "
                "domain, which dp::reduce<Dim> does not take");
  static_assert(N != 1, "dp::reduce<Dim> needs a compute grid of rank >= 2; reduce a "
                        "rank-1 grid into a dp::scalar");
  if constexpr (N >= 2) {
    static_assert(detail::dimension_in_range_v<Dim, N>,
                  "dp::reduce<Dim>: Dim must name a dimension of the compute grid (0 <= Dim < N)");
    static_assert(detail::result_rank_fits_v<Result, N - 1>,
                  "dp::reduce<Dim>: the result must be a dp::field of rank N-1 (the compute rank less the reduced dimension)");
    if constexpr (detail::dimension_in_range_v<Dim, N> && detail::result_rank_fits_v<Result, N - 1>) {
      using T = detail::field_element_t<Result>;
      static_assert(!std::is_const<T>::value,
                    "dp::reduce<Dim>: the result field is read-only; it must be writable");
      static_assert(detail::is_reduction_v<std::decay_t<R>, std::remove_const_t<T>>,
                    "dp::reduce<Dim>: r must be callable as r(T, T) with T the result's "
                    "element type, returning a value convertible to T");
      if constexpr (!std::is_const<T>::value) {
        const call_info call{pencil_kind<Dim>::reduce, nullptr, site};
        const auto replay = [site](const Domain &d, R &r2, Result &res, F &f2, Args &...a) {
          reduce_pencils_reference<Dim>(site, nullptr, d, r2, res, f2, a...);
        };
        if (!kept_pencils_for_replay<N>(call, options, replay, domain, r, result, f, args...))
          detail::host_reduce_pencils<Dim>(call, domain, r, result, f, args...);
      }
    }
  }
#else
  (void)site, (void)options, (void)domain, (void)r, (void)result, (void)f, ((void)args, ...);
#endif
}
} // namespace detail

/// Pencil reduction along dimension `Dim` of `domain`: for each index value
/// q of the other N-1 dimensions, `result(q) = r(result(q), fold over the
/// pencil of f(...))`. `result` is indexed by the domain's index values less
/// dimension Dim (like any projection), so it may be larger than the domain.
///
///     // C(i,j) += sum_k A(i,k) * B(k,j)
///     dp::reduce<2>(dp::grid<3>(M, N, K), std::plus<>(), C,
///                   [](float a, float b) { return a * b; },
///                   dp::spread<1>(A), dp::spread<0>(dp::transpose(B)));
template <int Dim, class Domain, class R, class Result, class F, class... Args,
          detail::plain_domain_t<Domain> = 0>
void reduce(const Domain &domain, R &&r, Result &result, F &&f, Args &&...args) {
  detail::reduce_pencils_reference<Dim>({}, nullptr, domain, r, result, f, args...);
}

#if !defined(DPSTUB_TOOL)
/// dp::reduce and dp::reduce<Dim> over a dp::grid<N>, as above; their
/// dp::errors name the caller's file and line (detail/source_site.hpp).
#define DP_DETAIL_SITED_REDUCE(N)                                                                  \
  template <class R, class Result, class F, class... Args>                                         \
  void reduce(detail::at_site<grid<N>> domain, R &&r, Result &result, F &&f, Args &&...args) {     \
    detail::reduce_reference(domain.site, nullptr, domain.value, r, result, f, args...);                    \
  }                                                                                                \
  template <int Dim, class R, class Result, class F, class... Args>                                \
  void reduce(detail::at_site<grid<N>> domain, R &&r, Result &result, F &&f, Args &&...args) {     \
    detail::reduce_pencils_reference<Dim>(domain.site, nullptr, domain.value, r, result, f, args...);       \
  }
DP_DETAIL_SITED_RANKS(DP_DETAIL_SITED_REDUCE)
#undef DP_DETAIL_SITED_REDUCE
#endif

/// The full reduce with execution options first (see dp::forall's).
template <class Domain, class R, class Result, class F, class... Args>
void reduce(detail::options_arg options, const Domain &domain, R &&r, Result &result, F &&f,
            Args &&...args) {
  detail::with_options(options, "dp::reduce", detail::tiled_rank_v<Domain> > 0,
                       [&](const detail::source_site &site, const exec_options *o) {
                         detail::reduce_reference(site, o, domain, r, result, f, args...);
                       });
}

/// reduce<Dim> with execution options first (see dp::forall's).
template <int Dim, class Domain, class R, class Result, class F, class... Args>
void reduce(detail::options_arg options, const Domain &domain, R &&r, Result &result, F &&f,
            Args &&...args) {
  detail::with_options(options, detail::pencil_kind<Dim>::reduce, false,
                       [&](const detail::source_site &site, const exec_options *o) {
                         detail::reduce_pencils_reference<Dim>(site, o, domain, r, result, f, args...);
                       });
}

} // namespace dp
