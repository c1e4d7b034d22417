/// \file
/// dp::forall: a kernel evaluated at every point of a compute grid.
#pragma once

#include <utility>

#include "detail/bound_kernel.hpp"
#include "detail/call_checks.hpp"
#include "detail/host_loop.hpp"
#include "grid.hpp"

namespace dp {

namespace detail {
/// forall on the host: the reference semantics.
template <int Rc, class K, class... Args>
void host_forall(const call_info &call, const grid<Rc> &domain, const K &kernel,
                 Args &...args) {
  if (domain.empty())
    return;
  const bound_kernel<Rc, K, Args...> bound(call, domain, kernel, args...);
  parallel_segments(domain, [&](const std::int64_t(&pos)[Rc], std::int64_t j0, std::int64_t j1) {
    bound.segment(pos, j0, j1, [](std::int64_t, auto &&) {});
  });
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
template <class Domain, class K, class... Args>
void forall(const Domain &domain, K &&kernel, Args &&...args) {
#if !defined(DPSTUB_TOOL) // dpstub checks call-sites itself, with located diagnostics
  static_assert(detail::grid_rank_v<Domain> > 0, "dp::forall: the compute domain must be a dp::grid<N>");
  if constexpr (detail::grid_rank_v<Domain> > 0)
    detail::host_forall(detail::call_info{"dp::forall"}, domain, kernel, args...);
#else
  (void)domain, (void)kernel, ((void)args, ...);
#endif
}

} // namespace dp
