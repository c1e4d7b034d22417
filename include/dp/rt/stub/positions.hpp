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

/// A map's values as T: a transform-reduce's transform.
template <class T, class Map> struct values_as {
  Map map;
  template <class X> DP_HOST_DEVICE T operator()(const X &x) const {
    return static_cast<T>(map(x));
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

/// Offsets where each pencil starts: p -> p * length (begin and end offsets
/// of segmented primitives).
struct pencil_offsets {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::int64_t;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = std::int64_t;

  std::int64_t length = 0, first = 0;
  DP_HOST_DEVICE std::int64_t operator*() const { return first * length; }
  DP_HOST_DEVICE std::int64_t operator[](difference_type n) const { return (first + n) * length; }
  DP_HOST_DEVICE pencil_offsets operator+(difference_type n) const { return {length, first + n}; }
  DP_HOST_DEVICE pencil_offsets &operator++() { ++first; return *this; }
  DP_HOST_DEVICE difference_type operator-(const pencil_offsets &o) const {
    return static_cast<difference_type>(first - o.first);
  }
};

/// A random-access input iterator over offsets 0, 1, ...: element i is
/// `view(i)`. The vendor libraries read the map function's values through
/// it, so the map runs inside their kernels and no temporary field exists.
template <class View> class offset_iterator {
public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = typename View::value_type;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = value_type;

  offset_iterator() = default;
  DP_HOST_DEVICE offset_iterator(const View &view, std::int64_t at) : view_(view), at_(at) {}

  DP_HOST_DEVICE value_type operator*() const { return view_(at_); }
  DP_HOST_DEVICE value_type operator[](difference_type n) const { return view_(at_ + n); }
  DP_HOST_DEVICE offset_iterator &operator++() { ++at_; return *this; }
  DP_HOST_DEVICE offset_iterator operator++(int) { offset_iterator t = *this; ++at_; return t; }
  DP_HOST_DEVICE offset_iterator &operator--() { --at_; return *this; }
  DP_HOST_DEVICE offset_iterator &operator+=(difference_type n) { at_ += n; return *this; }
  DP_HOST_DEVICE offset_iterator &operator-=(difference_type n) { at_ -= n; return *this; }
  DP_HOST_DEVICE offset_iterator operator+(difference_type n) const { return {view_, at_ + n}; }
  DP_HOST_DEVICE offset_iterator operator-(difference_type n) const { return {view_, at_ - n}; }
  DP_HOST_DEVICE difference_type operator-(const offset_iterator &o) const {
    return static_cast<difference_type>(at_ - o.at_);
  }
  DP_HOST_DEVICE bool operator==(const offset_iterator &o) const { return at_ == o.at_; }
  DP_HOST_DEVICE bool operator!=(const offset_iterator &o) const { return at_ != o.at_; }
  DP_HOST_DEVICE bool operator<(const offset_iterator &o) const { return at_ < o.at_; }

private:
  View view_{};
  std::int64_t at_ = 0;
};

/// The map function's value at offset i, as T: what a reduction folds.
template <class T, class Map, class Positions> struct mapped_values {
  using value_type = T;
  Map map;
  Positions positions;
  DP_HOST_DEVICE T operator()(std::int64_t offset) const {
    return static_cast<T>(map(positions(offset)));
  }
};

namespace detail {
/// How a T and a flag lay out: what maybe<T> pads.
template <class T> struct value_and_flag {
  T value;
  bool present;
};
template <class T>
inline constexpr std::size_t flag_padding = sizeof(value_and_flag<T>) - sizeof(T) - sizeof(bool);
} // namespace detail

/// A value that may be absent: the identity a segmented reduction needs for
/// an operator that has none of its own. Its padding is a member, zeroed by
/// some() and none(), so that no byte of one in device memory is left
/// uninitialised (compute-sanitizer's initcheck flags copies of padding
/// nobody wrote).
template <class T, std::size_t Pad = detail::flag_padding<T>> struct maybe {
  T value;
  bool present;
  unsigned char padding[Pad];
};
template <class T> struct maybe<T, 0> {
  T value;
  bool present;
};
/// A present value.
template <class T> DP_HOST_DEVICE maybe<T> some(const T &v) {
  maybe<T> m{};
  m.value = v;
  m.present = true;
  return m;
}
/// An absent value.
template <class T> DP_HOST_DEVICE maybe<T> none() { return maybe<T>{}; }

namespace detail {
template <class T> struct pencil_and_value {
  std::int64_t pencil;
  T value;
};
template <class T>
inline constexpr std::size_t keyed_padding =
    sizeof(pencil_and_value<T>) - sizeof(std::int64_t) - sizeof(T);
} // namespace detail

/// A sort element tagged with its pencil, so one merge sort sorts every
/// pencil at once. Its tail padding is a member, zeroed where the element
/// is made: the merge sort copies whole elements, and compute-sanitizer's
/// initcheck flags every read of padding nobody wrote (keyed<int> had four
/// such bytes in each 16).
template <class T, std::size_t Pad = detail::keyed_padding<T>> struct keyed {
  std::int64_t pencil;
  T value;
  unsigned char padding[Pad];
};
template <class T> struct keyed<T, 0> {
  std::int64_t pencil;
  T value;
};
template <class T> DP_HOST_DEVICE keyed<T> make_keyed(std::int64_t pencil, const T &value) {
  keyed<T> k{};
  k.pencil = pencil;
  k.value = value;
  return k;
}

/// The map function's values wrapped as present `maybe<T>`s.
template <class T, class Map, class Positions> struct present_values {
  using value_type = maybe<T>;
  Map map;
  Positions positions;
  DP_HOST_DEVICE maybe<T> operator()(std::int64_t offset) const {
    return some(static_cast<T>(map(positions(offset))));
  }
};

/// r over maybe<T>: an absent operand is the identity.
template <class T, class Op> struct maybe_op {
  Op op;
  DP_HOST_DEVICE maybe<T> operator()(const maybe<T> &a, const maybe<T> &b) const {
    if (!a.present)
      return b;
    if (!b.present)
      return a;
    return some(static_cast<T>(op(a.value, b.value)));
  }
};

/// Which pencil an offset belongs to: the keys of a segmented scan (by
/// multiply-high division when `narrow`: every offset fits 32 bits).
template <int N, int Dim> struct pencil_keys {
  using value_type = std::int64_t;
  std::int64_t length;
  fast_divmod by_length;
  bool narrow;
  static pencil_keys of(const pencil_positions<N, Dim> &p) {
    return {p.length, p.by_length, p.narrow};
  }
  DP_HOST_DEVICE std::int64_t operator()(std::int64_t offset) const {
    return narrow ? std::int64_t(by_length.quotient(std::uint32_t(offset))) : offset / length;
  }
};

/// Output of a segmented reduction: out[p] = r(result(q), fold) where q is
/// pencil p's position less Dim. V is what the reduction yields: a
/// maybe<T> (combined when the pencil had values), or a T when it folded
/// from r's identity (combined always).
template <int N, int Dim, class T, class Op, class V = maybe<T>> class pencil_result_writer {
public:
  /// What `out[p] = v` assigns through (holds copies: iterators are values).
  struct proxy {
    dp::detail::affine_projection<T, N - 1> out;
    pencil_positions<N, Dim> positions;
    Op op;
    std::int64_t pencil;
    DP_HOST_DEVICE const proxy &operator=(const V &v) const {
      T &c = out[pencil_positions<N, Dim>::without_dim(positions.at(pencil, 0))];
      if constexpr (std::is_same<V, maybe<T>>::value) {
        if (v.present)
          c = static_cast<T>(op(c, v.value));
      } else {
        c = static_cast<T>(op(c, v));
      }
      return *this;
    }
  };
  using iterator_category = std::random_access_iterator_tag;
  using value_type = V;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = proxy;

  pencil_result_writer() = default;
  DP_HOST_DEVICE pencil_result_writer(const dp::detail::affine_projection<T, N - 1> &out,
                                      const pencil_positions<N, Dim> &positions, const Op &op,
                                      std::int64_t first = 0)
      : out(out), positions(positions), op(op), first(first) {}
  DP_HOST_DEVICE proxy operator*() const { return proxy{out, positions, op, first}; }
  DP_HOST_DEVICE proxy operator[](difference_type n) const {
    return proxy{out, positions, op, first + n};
  }
  DP_HOST_DEVICE pencil_result_writer operator+(difference_type n) const {
    return {out, positions, op, first + n};
  }
  DP_HOST_DEVICE pencil_result_writer &operator++() { ++first; return *this; }

  dp::detail::affine_projection<T, N - 1> out;
  pencil_positions<N, Dim> positions;
  Op op;
  std::int64_t first = 0;
};

/// Output of a scan or a sort's scatter: element i goes to the result at
/// the position of offset i.
template <class T, class Positions, int N> class position_writer {
public:
  /// What `out[i] = v` assigns through (holds copies: iterators are values).
  struct proxy {
    dp::detail::affine_projection<T, N> out;
    Positions positions;
    std::int64_t offset;
    DP_HOST_DEVICE const proxy &operator=(const T &v) const {
      out[positions(offset)] = v;
      return *this;
    }
  };
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = proxy;

  position_writer() = default;
  DP_HOST_DEVICE position_writer(const dp::detail::affine_projection<T, N> &out,
                                 const Positions &positions, std::int64_t first = 0)
      : out(out), positions(positions), first(first) {}
  DP_HOST_DEVICE proxy operator*() const { return proxy{out, positions, first}; }
  DP_HOST_DEVICE proxy operator[](difference_type n) const {
    return proxy{out, positions, first + n};
  }
  DP_HOST_DEVICE position_writer operator+(difference_type n) const {
    return {out, positions, first + n};
  }
  DP_HOST_DEVICE position_writer &operator++() { ++first; return *this; }

  dp::detail::affine_projection<T, N> out;
  Positions positions;
  std::int64_t first = 0;
};

} // namespace dp::rt
