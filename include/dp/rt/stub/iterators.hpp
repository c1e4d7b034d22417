/// \file
/// The iterator kit the vendor algorithms read and write through
/// (device/algorithms.hpp): a view's values at offsets 0, 1, ... as a
/// random-access iterator (offset_iterator over mapped_values, present
/// values or pencil keys), the begin and end offsets of pencils, values
/// that may be absent and their operator, values tagged with their pencil
/// for a merge sort, and the output iterators that combine a pencil's fold
/// into the result or write a scan's values back at their positions.
/// Host+device code that allocates nothing: the emulated device's
/// stand-ins read and write through the very same iterators.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include "../../config.hpp"
#include "../../reference/projection.hpp"
#include "fast_divmod.hpp"
#include "positions.hpp"

namespace dp::rt {

/// A map's values as T: a transform-reduce's transform.
template <class T, class Map> struct values_as {
  Map map;
  template <class X> DP_HOST_DEVICE T operator()(const X &x) const {
    return static_cast<T>(map(x));
  }
};

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

/// An output iterator over offsets 0, 1, ...: `out[i] = v` calls
/// `store(i, v)` (the output side of offset_iterator). The vendor libraries
/// write a segmented reduction's or a scan's values through it, so they
/// land where the call-site's result wants them.
template <class Store> class offset_writer {
public:
  /// What `out[i] = v` assigns through (holds a copy: iterators are values).
  struct proxy {
    Store store;
    std::int64_t offset;
    DP_HOST_DEVICE const proxy &operator=(const typename Store::value_type &v) const {
      store(offset, v);
      return *this;
    }
  };
  using iterator_category = std::random_access_iterator_tag;
  using value_type = typename Store::value_type;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = proxy;

  offset_writer() = default;
  DP_HOST_DEVICE explicit offset_writer(const Store &store, std::int64_t first = 0)
      : store(store), first(first) {}
  DP_HOST_DEVICE proxy operator*() const { return proxy{store, first}; }
  DP_HOST_DEVICE proxy operator[](difference_type n) const { return proxy{store, first + n}; }
  DP_HOST_DEVICE offset_writer operator+(difference_type n) const {
    return offset_writer(store, first + n);
  }
  DP_HOST_DEVICE offset_writer &operator++() { ++first; return *this; }

  Store store{};
  std::int64_t first = 0;
};

/// A segmented reduction's store: pencil p's fold v combined into the
/// result, result(q) = r(result(q), v) where q is p's position less Dim. V
/// is what the reduction yields: a maybe<T> (combined when the pencil had
/// values), or a T when it folded from r's identity (combined always).
template <int N, int Dim, class T, class Op, class V = maybe<T>> struct pencil_combine {
  using value_type = V;
  dp::detail::affine_projection<T, N - 1> out;
  pencil_positions<N, Dim> positions;
  Op op;
  DP_HOST_DEVICE void operator()(std::int64_t pencil, const V &v) const {
    T &c = out[pencil_positions<N, Dim>::without_dim(positions.at(pencil, 0))];
    if constexpr (std::is_same<V, maybe<T>>::value) {
      if (v.present)
        c = static_cast<T>(op(c, v.value));
    } else {
      c = static_cast<T>(op(c, v));
    }
  }
};
/// Output of a segmented reduction: each pencil's fold combined into the
/// result.
template <int N, int Dim, class T, class Op, class V = maybe<T>>
using pencil_result_writer = offset_writer<pencil_combine<N, Dim, T, Op, V>>;

/// A scan's or a sort's scatter's store: value i goes to the result at the
/// position of offset i.
template <class T, class Positions, int N> struct position_store {
  using value_type = T;
  dp::detail::affine_projection<T, N> out;
  Positions positions;
  DP_HOST_DEVICE void operator()(std::int64_t offset, const T &v) const {
    out[positions(offset)] = v;
  }
};
/// Output of a scan: element i goes to the result at the position of
/// offset i.
template <class T, class Positions, int N>
using position_writer = offset_writer<position_store<T, Positions, N>>;

} // namespace dp::rt
