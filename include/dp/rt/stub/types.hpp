/// \file
/// What generated stubs are made of: the projections and views their
/// parameter blocks hold, how they name argument types, how a call-site's
/// domain reaches them (a dp::where's filter, a triangle's raise, a tiled
/// grid's tiling).
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include "../../config.hpp"
#include "../../reference/projection.hpp"
#include "../../field.hpp"
#include "../../grid.hpp"
#include "../../index.hpp"
#include "../../tiled_grid.hpp"
#include "../../triangle.hpp"
#include "../../where.hpp"
#include "../device/partial_results.hpp"
#include "domains.hpp"
#include "iterators.hpp"

namespace dp::rt {


/// Elemental projection argument: the element at compute positions p is
/// `base[sum p[d] * step[d]]`; read-only ones hold a `const T* __restrict__`.
template <class T, int Rc> using projection = dp::detail::affine_projection<T, Rc>;

/// Partial projection argument: a rank-Rf view with the trailing Rc
/// coordinates fixed to the current point.
template <int Rf, class T, int Rc> struct partial_projection {
  projection<T, Rc> trailing;
  dp::detail::dim_layout leading[Rf];

  DP_HOST_DEVICE dp::field<Rf, T> view(const dp::index<Rc> &pos) const {
    dp::field<Rf, T> unowned;
    return dp::detail::field_access::make<Rf>(unowned, &trailing[pos], leading);
  }
};

/// A read-only view handed to a `const field<R,T>&` (or by-value) formal:
/// the kernel can only read through it.
template <int R, class T>
DP_HOST_DEVICE dp::field<R, T> formal_view(const dp::field<R, const T> &f) {
  return dp::detail::field_access::strip_const(f);
}
template <int R, class T> DP_HOST_DEVICE dp::field<R, T> formal_view(const dp::field<R, T> &f) {
  return dp::field<R, T>(f);
}

/// Whether a body's position is one of the host's unit rows.
template <class Pos> struct is_unit_row : std::false_type {};
template <int Rc> struct is_unit_row<dp::detail::unit_row_index<Rc>> : std::true_type {};
template <int Rc> struct is_unit_row<dp::detail::origin_row_index<Rc>> : std::true_type {};
/// Whether it is one of the rows where every broadcast field starts at 0.
template <class Pos> struct is_origin_row : std::false_type {};
template <int Rc> struct is_origin_row<dp::detail::origin_row_index<Rc>> : std::true_type {};

/// A broadcast field's handle for one kernel call at position pos: the
/// launch's copy with element type U (`const T` for a formal
/// `field<R, const T>`), owning nothing. Built fresh rather than copied, so
/// the compiler sees a null owner and the per-element copy and destruction
/// fold to register moves. On the host's unit rows (row_layout::unit_rows:
/// every broadcast field dense) the handle states index stride 1 and
/// contiguous rows in constants, so element access is a pointer offset the
/// compiler can vectorise.
template <class U, int R, class T, class Pos>
DP_HOST_DEVICE DP_INLINE dp::field<R, U> launch_handle(const dp::field<R, T> &f, const Pos &) {
  static_assert(std::is_same<std::remove_const_t<U>, std::remove_const_t<T>>::value,
                "launch_handle: the element type changes only in const");
  return dp::detail::field_access::unowned<U, is_unit_row<Pos>::value, is_origin_row<Pos>::value>(f);
}
/// The same where there is no position (a sort's comparator).
template <class U, int R, class T>
DP_HOST_DEVICE DP_INLINE dp::field<R, U> launch_handle(const dp::field<R, T> &f) {
  return launch_handle<U>(f, dp::index<R>());
}

/// The parameter block's kernel slot for free-function kernels, which are
/// called by name.
struct no_kernel_object {};

/// The element type of a field argument, without const: what a stub in a
/// template names the element types that vary between instantiations.
template <class A> using element_t = std::remove_const_t<typename std::decay_t<A>::element_type>;

/// The I-th type of a launcher's argument pack.
template <std::size_t I, class... A> using arg_t = std::tuple_element_t<I, std::tuple<A...>>;

/// A copy of a mutable lambda to call: every call starts from the captured
/// state, as every iteration of the host reference does.
template <class K> DP_HOST_DEVICE K mutable_copy(const K &kernel) { return kernel; }

/// How a stub uses a field argument.
enum class access {
  read,     ///< read-only: copied in when stale, never back
  write,    ///< read-write: the launch's copy becomes current
  may_write ///< a generic kernel parameter that may write: as `write`, but not
            ///< an aliasing error (the host reference cannot see it either)
};

/// How a sort's comparator orders arithmetic keys, as dpstub saw it: a
/// natural order sorts by radix on a GPU.
enum class sort_order { custom, ascending, descending };

/// The grid a domain's arguments are projected on.
template <int N> const dp::grid<N> &bounds_of(const dp::grid<N> &g) { return g; }
template <class D> auto bounds_of(const D &d) -> decltype(d.domain()) { return d.domain(); }

/// What a stub's parameter block holds of a domain that is not a grid: a
/// dp::where's filter, a triangle's raise.
template <class D> struct domain_map {};
template <int N, class P> struct domain_map<dp::where_domain<N, P>> {
  using type = where_filter<N, P>;
};
template <dp::triangle_part Part> struct domain_map<dp::triangle_domain<Part>> {
  using type = triangle_points<Part>;
};
template <class D> using domain_map_t = typename domain_map<std::decay_t<D>>::type;

template <class D> struct tiling_of {};
template <int N, int... T> struct tiling_of<dp::tiled_grid<N, T...>> {
  using type = tiling<N, T...>;
};
template <class D> using tiling_t = typename tiling_of<std::decay_t<D>>::type;

template <class D> struct is_where : std::false_type {};
template <int N, class P> struct is_where<dp::where_domain<N, P>> : std::true_type {};
template <class D> struct is_triangle : std::false_type {};
template <dp::triangle_part P> struct is_triangle<dp::triangle_domain<P>> : std::true_type {};
template <class D> struct is_tiled : std::false_type {};
template <int N, int... T> struct is_tiled<dp::tiled_grid<N, T...>> : std::true_type {};

/// The map function's values, each present (a recorded full reduce folds
/// maybe<T>s: its start is no value, dp::record).
template <class T, class Map> struct present_map {
  Map map;
  template <class Pos> DP_HOST_DEVICE maybe<T> operator()(const Pos &pos) const {
    return some(static_cast<T>(map(pos)));
  }
};
/// A map over partial results stays one with its values wrapped.
template <class T, class Map> struct partial_results<present_map<T, Map>> : partial_results<Map> {};

/// A dp::where's kept values as maybe<T>: a filtered point is absent.
template <class T, class Map, class Filter> struct kept_values {
  Map map;
  Filter filter;
  template <int N> DP_HOST_DEVICE maybe<T> operator()(const dp::index<N> &pos) const {
    if (filter.keep(pos))
      return some(static_cast<T>(map(pos)));
    return none<T>();
  }
};

} // namespace dp::rt
