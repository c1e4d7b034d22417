/// \file
/// The element moves of a device's sort<Dim> (device/algorithms.hpp), one
/// index at a time: gathering the pencils' values into a contiguous buffer
/// (tagged with their pencil for a comparator sort) and scattering them
/// back; and the order of tagged values. Host+device functors, run by a
/// layer's for_each (a grid-stride kernel on a GPU, the host's threads on
/// the emulated device).
#pragma once

#include <cstdint>

#include "../../config.hpp"
#include "../../reference/projection.hpp"
#include "../stub/iterators.hpp"

namespace dp::rt {

/// out[i] = the value at the position of offset i.
template <class T, class Positions, int N> struct gather_values {
  T *out;
  dp::detail::affine_projection<T, N> data;
  Positions positions;
  DP_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = data[positions(i)]; }
};

/// out[i] = (the pencil of offset i, the value at its position).
template <class T, class Positions, int N> struct gather_pairs {
  keyed<T> *out;
  dp::detail::affine_projection<T, N> data;
  Positions positions;
  std::int64_t length;
  DP_HOST_DEVICE void operator()(std::int64_t i) const {
    out[i] = make_keyed(i / length, data[positions(i)]);
  }
};

/// The value at the position of offset i = in[i].
template <class T, class Positions, int N> struct scatter_values {
  const T *in;
  dp::detail::affine_projection<T, N> data;
  Positions positions;
  DP_HOST_DEVICE void operator()(std::int64_t i) const { data[positions(i)] = in[i]; }
};

/// The value at the position of offset i = in[i]'s value.
template <class T, class Positions, int N> struct scatter_pairs {
  const keyed<T> *in;
  dp::detail::affine_projection<T, N> data;
  Positions positions;
  DP_HOST_DEVICE void operator()(std::int64_t i) const { data[positions(i)] = in[i].value; }
};

/// Tagged values in pencil order, each pencil's by `less`: one merge sort
/// sorts every pencil at once.
template <class T, class Less> struct keyed_less {
  Less less;
  DP_HOST_DEVICE bool operator()(const keyed<T> &a, const keyed<T> &b) const {
    return a.pencil < b.pencil || (a.pencil == b.pencil && less(a.value, b.value));
  }
};

} // namespace dp::rt
