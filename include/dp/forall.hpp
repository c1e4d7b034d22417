/// \file
/// dp::forall: a kernel evaluated at every point of a compute grid.
#pragma once

#include <type_traits>
#include <utility>

#include "reference/bound_kernel.hpp"
#include "reference/call_checks.hpp"
#include "reference/domain_walk.hpp"
#include "reference/host_tiles.hpp"
#include "reference/record_call.hpp"
#include "grid.hpp"
#include "options.hpp"
#include "tiled_grid.hpp"
#include "triangle.hpp"
#include "where.hpp"

namespace dp {

namespace detail {
/// forall on the host: the reference semantics, over the rows of a grid,
/// of the kept points of dp::where, or of a triangle.
template <class Walk, class K, class... Args>
void host_forall(const call_info &call, const Walk &walk, const K &kernel, Args &...args) {
  constexpr int Rc = Walk::rank;
  if (walk.size() == 0)
    return;
  const bound_kernel<Rc, K, Args...> bound(call, walk.bounds(), kernel, args...);
  auto row = [&](const std::int64_t(&pos)[Rc], std::int64_t j0, std::int64_t j1) {
    bound.segment(pos, j0, j1, [](std::int64_t, auto &&) {});
  };
  if constexpr (std::is_same<Walk, grid_walk<Rc>>::value) {
    // Over a grid, the trailing dimensions every argument is contiguous
    // along are walked as one row (as generated stubs do): a rank-6 field
    // of 16^6 takes rows of 16^6, not 16^5 rows of 16.
    const dp::extent<Rc> e = walk.positions.extents();
    const int from = bound.merge_from(e);
    if (from < Rc - 1) {
      grid_walk<Rc> merged = walk;
      merged.positions = grid<Rc>(fold_trailing(e, from));
      return parallel_walk(merged, row);
    }
  }
  parallel_walk(walk, row);
}

/// forall on a tiled grid: every thread of every tile, padding included;
/// the threads of a tile meet at its barriers. A kernel that takes no tile
/// token cannot tell its tile (no barrier, no tile memory, no tile index):
/// it runs as the plain forall over the grid, then once per padding thread.
template <int Rc, int... T, class K, class... Args>
void host_forall_tiled(const call_info &call, const tiled_grid<Rc, T...> &domain, const K &kernel,
                       Args &...args) {
  if (domain.empty())
    return;
  const bound_kernel<Rc, K, Args...> bound(call, domain.domain(), kernel, args...);
  const auto thread = [&](const tile_point<Rc> &p) { (void)bound.call_tiled(p); };
  if constexpr (sees_tile_v<Args...>) {
    for_each_tile_thread(call.name(), domain.domain().extents(), domain.tile_extents(),
                         max_tile_static_bytes, thread);
  } else {
    for_each_padding_thread(call.name(), domain.domain().extents(), domain.tile_extents(), thread);
    parallel_walk(walk_of(domain.domain()),
                  [&](const std::int64_t(&pos)[Rc], std::int64_t j0, std::int64_t j1) {
                    bound.segment(pos, j0, j1, [](std::int64_t, auto &&) {});
                  });
  }
}
} // namespace detail

namespace detail {
/// The body of the untranslated call-site (the host reference).
template <class Domain, class K, class... Args>
void forall_reference(const source_site &site, const exec_options *options, const Domain &domain,
                      K &kernel, Args &...args) {
#if !defined(DPSTUB_TOOL) // dpstub checks call-sites itself, with located diagnostics
  static_assert(detail::domain_rank_v<Domain> > 0,
                "dp::forall: the compute domain must be a dp::grid<N>, a dp::tile<...>(grid), "
                "a dp::where(grid, pred) or a dp::lower_triangle / dp::upper_triangle");
  static_assert(detail::tokens_fit_domain_v<Domain, Args...>,
                "dp::forall: dp::_tile, dp::_tile_index and dp::_local_index need a tiled "
                "domain: dp::tile<T0, ...>(grid)");
  const call_info call{"dp::forall", nullptr, site};
  if constexpr (detail::domain_rank_v<Domain> > 0 && detail::tokens_fit_domain_v<Domain, Args...>) {
    const auto uses = [&] { return bound_kernel<domain_rank_v<Domain>, K, Args...>::uses(args...); };
    if (kept_for_replay( // dp::record: kept, not run
            call, options, uses, sizeof...(Args),
            [site](const Domain &d, K &k, Args &...a) { forall_reference(site, nullptr, d, k, a...); },
            domain, kernel, args...))
      return;
  }
  if constexpr (detail::tiled_rank_v<Domain> > 0)
    detail::host_forall_tiled(call, domain, kernel, args...);
  else if constexpr (detail::walk_rank_v<Domain> > 0 && detail::tokens_fit_domain_v<Domain, Args...>)
    detail::host_forall(call, detail::walk_of(domain), kernel, args...);
#else
  (void)site, (void)options, (void)domain, (void)kernel, ((void)args, ...);
#endif
}
} // namespace detail

/// Evaluates `kernel` once for every index of `domain`; iterations are
/// independent and unordered. Each argument reaches its kernel parameter by
/// one of the conversions of docs/conversions.md, chosen from the ranks and the parameter's
/// type:
///  - `dp::_index` (or a leading `dp::index<Rc>` parameter with no argument):
///    the current index;
///  - a field of the compute rank bound to a scalar parameter: its element
///    at the current index (written back when the parameter is `T&`);
///  - a field of rank Rc+Rf bound to a `field<Rf,T>` parameter: the view
///    with its trailing Rc coordinates fixed to the current index;
///  - a field bound to a field parameter of its own rank, or a scalar bound
///    to a by-value / const& parameter: the same object everywhere.
///
/// \param domain  the compute grid (its index values are what projection uses)
/// \param kernel  a lambda, function or function object
/// \param args    one argument per kernel parameter
///
///     dp::grid<1> g(n);
///     dp::field<1, float> a(g), b(g), c(g);
///     dp::forall(g, [](float &c, float a, float b) { c = a + b; }, c, a, b);
///
/// Throws dp::error for a projection outside a field's bounds or a
/// writable field that also appears in another argument.
template <class Domain, class K, class... Args,
          detail::plain_domain_t<Domain> = 0>
void forall(const Domain &domain, K &&kernel, Args &&...args) {
  detail::forall_reference({}, nullptr, domain, kernel, args...);
}

#if !defined(DPSTUB_TOOL)
/// dp::forall over a dp::grid<N>, as above; its dp::errors name the
/// caller's file and line (detail/source_site.hpp).
#define DP_DETAIL_SITED_FORALL(N)                                                                  \
  template <class K, class... Args>                                                                \
  void forall(detail::at_site<grid<N>> domain, K &&kernel, Args &&...args) {                       \
    detail::forall_reference(domain.site, nullptr, domain.value, kernel, args...);                          \
  }
DP_DETAIL_SITED_RANKS(DP_DETAIL_SITED_FORALL)
#undef DP_DETAIL_SITED_FORALL
#endif

/// forall with execution options first (dp::on(q), .when(c),
/// dp::group_size(...), .max_groups(n)). Untranslated, the call-site runs
/// on the host at once, in program order (an order every queue allows);
/// its hints are checked as a device would check them.
template <class Domain, class K, class... Args>
void forall(detail::options_arg options, const Domain &domain, K &&kernel, Args &&...args) {
  detail::with_options(options, "dp::forall", detail::tiled_rank_v<Domain> > 0,
                       [&](const detail::source_site &site, const exec_options *o) {
                         detail::forall_reference(site, o, domain, kernel, args...);
                       });
}

} // namespace dp
