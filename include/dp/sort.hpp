/// \file
/// dp::sort<Dim>: sorts every pencil of a field along dimension Dim.
#pragma once

#include <array>
#include <type_traits>
#include <utility>

#include "reference/record_call.hpp"
#include "reference/binders.hpp"
#include "reference/call_checks.hpp"
#include "reference/callable_traits.hpp"
#include "reference/host_fold.hpp"
#include "field.hpp"
#include "grid.hpp"
#include "options.hpp"

namespace dp {

namespace detail {

/// The comparator's I-th extra field, as its formal accepts it (a read-only
/// view reaches a `const field<N,T>&` formal).
template <class Cmp, std::size_t I, class E> decltype(auto) extra_for(const E &e) {
  return adapt<typename formal_at<Cmp, I + 2>::type>(e);
}

template <class Cmp, class T, class... Extra, std::size_t... I>
constexpr bool comparator_fits(std::index_sequence<I...>) {
  return std::is_invocable_r_v<bool, const Cmp &, const T &, const T &,
                               decltype(extra_for<Cmp, I>(std::declval<const Extra &>()))...>;
}
/// cmp(const T&, const T&, extra...) is callable and gives a bool.
template <class Cmp, class T, class... Extra>
inline constexpr bool is_comparator_v =
    comparator_fits<Cmp, T, Extra...>(std::index_sequence_for<Extra...>());

template <int Dim, int N, class Cmp, class T, class... Extra, std::size_t... I>
void host_sort(const call_info &call, const grid<N> &domain, const Cmp &cmp,
               field<N, T> &sort_field, std::index_sequence<I...>, const Extra &...extra) {
  check_result_not_aliased(call, sort_field, extra...);
  prepare_on_host(sort_field, true);
  [[maybe_unused]] auto prepare = [](const auto &e) {
    if constexpr (is_field_v<decltype(e)>)
      prepare_on_host(e, false);
  };
  (prepare(extra), ...);
  const affine_projection<T, N> data = project_on<N>(sort_field, domain, call, sort_field_position);
  if (domain.empty())
    return;
  auto less = [&](const T &a, const T &b) {
    return static_cast<bool>(cmp(a, b, extra_for<Cmp, I>(extra)...));
  };
  sort_pencils<Dim, T>(domain.extents(), less, data);
}

} // namespace detail

namespace detail {
/// The body of the untranslated call-site (the host reference).
template <int Dim, class Domain, class Cmp, class Field, class... Extra>
void sort_reference(const source_site &site, const exec_options *options, const Domain &domain,
                    Cmp &cmp, Field &sort_field, Extra &...extra) {
#if !defined(DPSTUB_TOOL) // dpstub checks call-sites itself, with located diagnostics
  constexpr int N = detail::grid_rank_v<Domain>;
  static_assert(N > 0, "dp::sort<Dim>: the compute domain must be a dp::grid<N> (tiled, dp::where "
                        "and triangle domains are for dp::forall and the full dp::reduce)");
  if constexpr (N > 0) {
    static_assert(detail::dimension_in_range_v<Dim, N>,
                  "dp::sort<Dim>: Dim must name a dimension of the compute grid (0 <= Dim < N)");
    static_assert(detail::result_rank_fits_v<Field, N>,
                  "dp::sort<Dim>: the sort field must be a dp::field of the compute grid's rank");
    if constexpr (detail::dimension_in_range_v<Dim, N> && detail::result_rank_fits_v<Field, N>) {
      using T = detail::field_element_t<Field>;
      static_assert(!std::is_const<T>::value,
                    "dp::sort<Dim>: the sort field is read-only; it must be writable");
      static_assert(detail::is_comparator_v<std::decay_t<Cmp>, std::remove_const_t<T>,
                                            std::decay_t<Extra>...>,
                    "dp::sort<Dim>: the comparator must be callable as cmp(const R &, const R "
                    "&, extra...) and return bool; take its operands by value or const&");
      if constexpr (!std::is_const<T>::value) {
        const call_info call{pencil_kind<Dim>::sort, nullptr, site};
        const auto uses = [&] {
          return std::array<argument_use, 1 + sizeof...(Extra)>{
              {{field_access::owner(sort_field), true}, use_of<const std::decay_t<Extra> &, N>(extra)...}};
        };
        if (!kept_for_replay( // dp::record: kept, not run
                call, options, uses, 1 + sizeof...(Extra),
                [site](const Domain &d, Cmp &c, Field &sf, Extra &...e) {
                  sort_reference<Dim>(site, nullptr, d, c, sf, e...);
                },
                domain, cmp, sort_field, extra...)) {
          detail::host_sort<Dim>(call, domain, cmp, sort_field, std::index_sequence_for<Extra...>(),
                                 extra...);
        }
      }
    }
  }
#else
  (void)site, (void)options, (void)domain, (void)cmp, (void)sort_field, ((void)extra, ...);
#endif
}
} // namespace detail

/// Sorts each pencil of `sort_field` along dimension `Dim` in place with the
/// strict weak ordering `cmp(a, b, extra...)`; the `extra` fields are passed
/// whole to every comparison, so a permutation can be sorted by keys held
/// elsewhere. `sort_field` is indexed by the domain's index values: a sort
/// over a sub-grid sorts exactly those elements. Not stable.
///
///     dp::sort<0>(dp::grid<1>(n), [](int a, int b, const dp::field<1, float> &key) {
///       return key(a) < key(b);
///     }, permutation, keys);
template <int Dim, class Domain, class Cmp, class Field, class... Extra,
          detail::plain_domain_t<Domain> = 0>
void sort(const Domain &domain, Cmp &&cmp, Field &sort_field, Extra &&...extra) {
  detail::sort_reference<Dim>({}, nullptr, domain, cmp, sort_field, extra...);
}

#if !defined(DPSTUB_TOOL)
/// dp::sort<Dim> over a dp::grid<N>, as above; its dp::errors name the
/// caller's file and line (detail/source_site.hpp).
#define DP_DETAIL_SITED_SORT(N)                                                                    \
  template <int Dim, class Cmp, class Field, class... Extra>                                       \
  void sort(detail::at_site<grid<N>> domain, Cmp &&cmp, Field &sort_field, Extra &&...extra) {     \
    detail::sort_reference<Dim>(domain.site, nullptr, domain.value, cmp, sort_field, extra...);             \
  }
DP_DETAIL_SITED_RANKS(DP_DETAIL_SITED_SORT)
#undef DP_DETAIL_SITED_SORT
#endif

/// sort<Dim> with execution options first (see dp::forall's).
template <int Dim, class Domain, class Cmp, class Field, class... Extra>
void sort(detail::options_arg options, const Domain &domain, Cmp &&cmp, Field &sort_field,
          Extra &&...extra) {
  detail::with_options(options, detail::pencil_kind<Dim>::sort, false,
                       [&](const detail::source_site &site, const exec_options *o) {
                         detail::sort_reference<Dim>(site, o, domain, cmp, sort_field, extra...);
                       });
}

} // namespace dp
