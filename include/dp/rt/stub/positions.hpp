/// \file
/// How the reductions, scans and sorts of generated stubs walk a compute
/// domain: a linear offset raised to a logical position (full reduce), or a
/// pencil number and a step along the pencil (reduce<Dim>, scan<Dim>,
/// sort<Dim>). Host+device code that allocates nothing: the GPU path hands
/// these to the vendor library as iterators, and dispatch emulation walks
/// the very same mapping on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

#include "../../config.hpp"
#include "../../reference/projection.hpp"
#include "../device/partial_results.hpp"
#include "dispatch.hpp"
#include "fast_divmod.hpp"
#include "../../extent.hpp"
#include "../../index.hpp"

namespace dp::rt {

/// Index values of the compute grid (position -> index value), for `_index` and the implicit index.
template <int Rc> struct index_values {
  std::int64_t lb[Rc], stride[Rc];
  DP_HOST_DEVICE dp::index<Rc> operator[](const dp::index<Rc> &pos) const {
    dp::index<Rc> v;
    for (int d = 0; d < Rc; ++d)
      v[d] = lb[d] + pos[d] * stride[d];
    return v;
  }
  /// On origin rows every stride is 1 (the launch checked).
  DP_HOST_DEVICE dp::index<Rc> operator[](const dp::detail::origin_row_index<Rc> &pos) const {
    dp::index<Rc> v;
    for (int d = 0; d < Rc; ++d)
      v[d] = lb[d] + pos[d];
    return v;
  }
};

/// Row-major offsets over N extents raised to coordinates: by 32-bit
/// multiply-high division (fast_divmod.hpp) when every offset fits 32 bits
/// (detail::narrow_domain, the launches' own decision), else by 64-bit `/`
/// and `%`. A dimension of extent 1 is 0 without a division (merged
/// launches leave several), and the leading one is what remains.
template <int N> struct offset_raise {
  std::int64_t extent[N];
  fast_divmod by[N];
  bool narrow;

  static offset_raise of(const std::int64_t (&e)[N]) {
    offset_raise r{};
    for (int d = 0; d < N; ++d)
      r.extent[d] = e[d];
    r.narrow = detail::narrow_domain(r.extent, N);
    if (r.narrow)
      for (int d = 1; d < N; ++d)
        r.by[d] = fast_divmod(std::uint32_t(e[d]));
    return r;
  }
  DP_HOST_DEVICE void operator()(std::int64_t offset, std::int64_t (&out)[N]) const {
    if (narrow) {
      std::uint32_t rest = std::uint32_t(offset);
      for (int d = N - 1; d > 0; --d) {
        if (extent[d] == 1) {
          out[d] = 0;
          continue;
        }
        std::uint32_t q, r;
        by[d].divmod(rest, q, r);
        out[d] = r;
        rest = q;
      }
      out[0] = rest;
    } else {
      for (int d = N - 1; d > 0; --d) {
        if (extent[d] == 1) {
          out[d] = 0;
          continue;
        }
        out[d] = offset % extent[d];
        offset /= extent[d];
      }
      out[0] = offset;
    }
  }
};
/// No dimensions (the pencils of a rank-1 domain): nothing to raise.
template <> struct offset_raise<0> {
  static offset_raise of(const std::int64_t *) { return {}; }
};

/// Positions of a domain in row-major order: offset -> position.
template <int N> struct linear_positions {
  offset_raise<N> raise;

  static linear_positions of(const dp::extent<N> &e) {
    std::int64_t x[N];
    for (int d = 0; d < N; ++d)
      x[d] = e[d];
    return {offset_raise<N>::of(x)};
  }
  DP_HOST_DEVICE dp::index<N> operator()(std::int64_t offset) const {
    std::int64_t c[N];
    raise(offset, c);
    dp::index<N> pos;
    for (int d = 0; d < N; ++d)
      pos[d] = c[d];
    return pos;
  }
};

/// Positions of a row (a domain whose leading extents are all 1, as a
/// merged launch's are): offset -> (0, ..., 0, offset), no division, and
/// leading coordinates that are the constant 0, which a projection's
/// address folds away.
template <int N> struct row_positions {
  DP_HOST_DEVICE dp::index<N> operator()(std::int64_t offset) const {
    dp::index<N> pos;
    for (int d = 0; d + 1 < N; ++d)
      pos[d] = 0;
    pos[N - 1] = offset;
    return pos;
  }
};

/// A dense row's elements as a full reduce's input: the vendor reads them
/// from `base` (a pointer: vectorised loads) and the map runs on each
/// element it loaded (element_map).
template <class E> struct dense_elements {
  const E *base;
};

/// A map whose one read is one argument's element, called on the elements
/// a vendor loaded (dp::detail::element_at).
template <int Rc, class Map> struct element_map {
  Map map;
  template <class E> DP_HOST_DEVICE auto operator()(const E &x) const {
    return map(dp::detail::element_at<Rc, E>{&x});
  }
};
/// A map over partial results stays one when a vendor calls it on the
/// elements it loaded.
template <int Rc, class Map> struct partial_results<element_map<Rc, Map>> : partial_results<Map> {};

/// True for a map whose one read is one argument's element (dpstub gives
/// it `elements()`, that argument's projection).
template <class Map, class = void> struct reads_one_element : std::false_type {};
template <class Map>
struct reads_one_element<Map, std::void_t<decltype(std::declval<const Map &>().elements())>>
    : std::true_type {};

/// True for a map dpstub marks as returning the element it reads as it is
/// (`returns_its_element`: f is `return x;`), also once a vendor calls it on
/// the elements it loaded.
template <class Map, class = void> struct returns_its_element : std::false_type {};
template <class Map>
struct returns_its_element<Map, std::void_t<decltype(Map::returns_its_element)>>
    : std::bool_constant<Map::returns_its_element> {};
template <int Rc, class Map>
struct returns_its_element<element_map<Rc, Map>, void> : returns_its_element<Map> {};

/// Whether a vendor folding or scanning T over dense elements of E through
/// `Map` can take the elements' pointer alone (no transform): the map hands
/// each element on as it is and E is T.
template <class Map, class E, class T>
inline constexpr bool elements_are_values =
    returns_its_element<Map>::value && std::is_same<std::remove_const_t<E>, T>::value;

/// A dense block's elements as positions: offset i -> the element at
/// base + i, which a map that reads one argument's element takes in place
/// of a position (no division, a pointer's address).
template <int Rc, class E> struct element_positions {
  const E *base;
  DP_HOST_DEVICE dp::detail::element_at<Rc, E> operator()(std::int64_t offset) const {
    return {base + offset};
  }
};

/// True when every leading extent of e is 1: its positions are a row's.
template <int N> bool is_row(const dp::extent<N> &e) { return leading_extents_unit(&e[0], N); }

/// The pencils of a domain along dimension Dim, numbered row-major over the
/// other dimensions; offset = pencil * length + step.
template <int N, int Dim> struct pencil_positions {
  static_assert(Dim >= 0 && Dim < N, "pencils run along a dimension of the domain");
  std::int64_t extent[N];
  std::int64_t length; ///< extent[Dim]
  offset_raise<N - 1> pencil; ///< pencil numbers to the other coordinates
  fast_divmod by_length;      ///< when narrow
  bool narrow;

  static pencil_positions of(const dp::extent<N> &e) {
    pencil_positions p{};
    std::int64_t others[N > 1 ? N - 1 : 1] = {};
    for (int d = 0, j = 0; d < N; ++d) {
      p.extent[d] = e[d];
      if (d != Dim)
        others[j++] = e[d];
    }
    p.length = e[Dim];
    if constexpr (N > 1)
      p.pencil = offset_raise<N - 1>::of(others);
    p.narrow = detail::narrow_domain(p.extent, N);
    if (p.narrow)
      p.by_length = fast_divmod(std::uint32_t(p.length));
    return p;
  }
  /// Number of pencils.
  DP_HOST_DEVICE std::int64_t pencils() const {
    std::int64_t n = 1;
    for (int d = 0; d < N; ++d)
      n *= d == Dim ? 1 : extent[d];
    return n;
  }
  /// The position of step k of pencil p.
  DP_HOST_DEVICE dp::index<N> at(std::int64_t p, std::int64_t k) const {
    dp::index<N> pos;
    if constexpr (N > 1) {
      std::int64_t c[N - 1];
      pencil(p, c);
      for (int d = 0, j = 0; d < N; ++d)
        pos[d] = d == Dim ? k : c[j++];
    } else {
      (void)p;
      pos[0] = k;
    }
    return pos;
  }
  DP_HOST_DEVICE dp::index<N> operator()(std::int64_t offset) const {
    if (narrow) {
      std::uint32_t q, r;
      by_length.divmod(std::uint32_t(offset), q, r);
      return at(q, r);
    }
    return at(offset / length, offset % length);
  }
  /// A position with dimension Dim removed: where a pencil's reduction goes.
  template <int M = N - 1> DP_HOST_DEVICE static dp::index<M> without_dim(const dp::index<N> &pos) {
    dp::index<M> q;
    for (int d = 0, k = 0; d < N; ++d)
      if (d != Dim)
        q[k++] = pos[d];
    return q;
  }
};

/// True when `p` addresses e's points, row-major, at consecutive elements
/// (a dimension of extent 1 may have any step): a sort along the last
/// dimension can then hand the data itself to the vendor's segmented sort.
template <class T, int N>
bool row_major_dense(const dp::detail::affine_projection<T, N> &p, const dp::extent<N> &e) {
  std::int64_t step = 1;
  for (int d = N - 1; d >= 0; --d) {
    if (e[d] > 1 && p.step[d] != step)
      return false;
    step *= e[d];
  }
  return true;
}

/// The elements a scan along the last dimension reads from their pointer,
/// writing through the result's: when its map reads one argument's
/// element (reads_one_element) and both that argument and the result lie
/// row-major and dense over e. Null otherwise (positions, then).
template <class Map, class T, int N>
auto dense_scan_elements(const Map &map, const dp::extent<N> &e,
                         const dp::detail::affine_projection<T, N> &out) {
  const auto &elements = map.elements();
  using E = std::remove_reference_t<decltype(*elements.base)>;
  const bool dense = row_major_dense(elements, e) && row_major_dense(out, e);
  return dense ? static_cast<const E *>(elements.base) : nullptr;
}

} // namespace dp::rt
