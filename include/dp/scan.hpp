/// \file
/// dp::scan<Dim>: inclusive prefix along each pencil of dimension Dim.
#pragma once

#include <type_traits>

#include "reference/record_call.hpp"
#include "reference/bound_kernel.hpp"
#include "reference/call_checks.hpp"
#include "reference/host_fold.hpp"
#include "field.hpp"
#include "grid.hpp"
#include "options.hpp"

namespace dp {

namespace detail {
template <int Dim, int N, class R, class T, class F, class... Args>
void host_scan(const call_info &call, const grid<N> &domain, const R &r, field<N, T> &result,
               const F &f, Args &...args) {
  check_result_not_aliased(call, result, args...);
  prepare_on_host(result, true);
  const affine_projection<T, N> out = project_on<N>(result, domain, call, result_position);
  if (domain.empty())
    return;
  const bound_kernel<N, F, Args...> bound(call, domain, f, args...);
  scan_pencils<Dim, T>(domain.extents(), r, bound, out);
}
} // namespace detail

namespace detail {
/// The body of the untranslated call-site (the host reference).
template <int Dim, class Domain, class R, class Result, class F, class... Args>
void scan_reference(const source_site &site, const exec_options *options, const Domain &domain,
                    R &r, Result &result, F &f, Args &...args) {
#if !defined(DPSTUB_TOOL) // dpstub checks call-sites itself, with located diagnostics
  constexpr int N = detail::grid_rank_v<Domain>;
  static_assert(N > 0, "dp::scan<Dim>: the compute domain must be a dp::grid<N> (tiled, dp::where and triangle domains are for dp::forall and the full dp::reduce)");
  static_assert(detail::tokens_fit_domain_v<Domain, Args...>,
                "dp::scan<Dim>: dp::_tile, dp::_tile_index and dp::_local_index need a tiled "
                "domain, which dp::scan<Dim> does not take");
  if constexpr (N > 0) {
    static_assert(detail::dimension_in_range_v<Dim, N>,
                  "dp::scan<Dim>: Dim must name a dimension of the compute grid (0 <= Dim < N)");
    static_assert(detail::result_rank_fits_v<Result, N>,
                  "dp::scan<Dim>: the result must be a dp::field of the compute grid's rank");
    if constexpr (detail::dimension_in_range_v<Dim, N> && detail::result_rank_fits_v<Result, N>) {
      using T = detail::field_element_t<Result>;
      static_assert(!std::is_const<T>::value,
                    "dp::scan<Dim>: the result field is read-only; it must be writable");
      static_assert(detail::is_reduction_v<std::decay_t<R>, std::remove_const_t<T>>,
                    "dp::scan<Dim>: r must be callable as r(T, T) with T the result's element "
                    "type, returning a value convertible to T");
      if constexpr (!std::is_const<T>::value) {
        const call_info call{pencil_kind<Dim>::scan, nullptr, site};
        const auto replay = [site](const Domain &d, R &r2, Result &res, F &f2, Args &...a) {
          scan_reference<Dim>(site, nullptr, d, r2, res, f2, a...);
        };
        if (!kept_pencils_for_replay<N>(call, options, replay, domain, r, result, f, args...))
          detail::host_scan<Dim>(call, domain, r, result, f, args...);
      }
    }
  }
#else
  (void)site, (void)options, (void)domain, (void)r, (void)result, (void)f, ((void)args, ...);
#endif
}
} // namespace detail

/// Inclusive prefix along dimension `Dim`: `result(idx)` is the `r`-fold of
/// `f(...)` over idx's pencil up to and including idx. The prior content of
/// the elements written is overwritten. `result` is indexed by the domain's
/// index values, so a scan over the interior of a grid writes the interior
/// of a full-size result.
///
///     dp::scan<0>(dp::grid<1>(n), std::plus<>(), prefix, [](int x) { return x; }, values);
template <int Dim, class Domain, class R, class Result, class F, class... Args,
          detail::plain_domain_t<Domain> = 0>
void scan(const Domain &domain, R &&r, Result &result, F &&f, Args &&...args) {
  detail::scan_reference<Dim>({}, nullptr, domain, r, result, f, args...);
}

#if !defined(DPSTUB_TOOL)
/// dp::scan<Dim> over a dp::grid<N>, as above; its dp::errors name the
/// caller's file and line (detail/source_site.hpp).
#define DP_DETAIL_SITED_SCAN(N)                                                                    \
  template <int Dim, class R, class Result, class F, class... Args>                                \
  void scan(detail::at_site<grid<N>> domain, R &&r, Result &result, F &&f, Args &&...args) {       \
    detail::scan_reference<Dim>(domain.site, nullptr, domain.value, r, result, f, args...);                 \
  }
DP_DETAIL_SITED_RANKS(DP_DETAIL_SITED_SCAN)
#undef DP_DETAIL_SITED_SCAN
#endif

/// scan<Dim> with execution options first (see dp::forall's).
template <int Dim, class Domain, class R, class Result, class F, class... Args>
void scan(detail::options_arg options, const Domain &domain, R &&r, Result &result, F &&f,
          Args &&...args) {
  detail::with_options(options, detail::pencil_kind<Dim>::scan, false,
                       [&](const detail::source_site &site, const exec_options *o) {
                         detail::scan_reference<Dim>(site, o, domain, r, result, f, args...);
                       });
}

} // namespace dp
