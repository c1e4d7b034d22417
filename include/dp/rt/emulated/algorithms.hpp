/// \file
/// The emulated device's stand-ins for the vendor primitives (CUB and
/// rocPRIM on a GPU: gpu/algorithms.hpp), enqueued on the call-site's queue:
/// they read the values through the same iterators the GPU's calls read,
/// and write through the same output iterators. Also the packing of strided
/// blocks for dp::mpi's halo messages. Found by their launch's type.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "../../reference/host_fold.hpp"
#include "../../reference/projection.hpp"
#include "../counters.hpp"
#include "../device/executor.hpp"
#include "../device/fold_plan.hpp"
#include "../device/requests.hpp"
#include "../device/scan_plan.hpp"
#include "../device/sort_plan.hpp"
#include "../jobs.hpp"
#include "../strided.hpp"
#include "../stub/positions.hpp"
#include "device.hpp"

namespace dp::rt {

namespace emulated {

/// Full reduce, emulated: the values `in[i]` of point numbers 0..count-1
/// in fixed blocks (so the result is reproducible). `in` is what the GPU's
/// call reads: an offset_iterator over the map's values, or a dense row's
/// elements through the map (dense_input).
template <class T, class In, class Op>
std::optional<T> reduce_input(std::int64_t count, const In &in, const Op &op) {
  using acc_t = std::optional<T>;
  return tbb::parallel_deterministic_reduce(
      tbb::blocked_range<std::int64_t>(0, count, dp::detail::reduce_grain), acc_t(),
      [&](const tbb::blocked_range<std::int64_t> &r, acc_t acc) {
        for (std::int64_t i = r.begin(); i < r.end(); ++i)
          dp::detail::fold_into(acc, op, in[i]);
        return acc;
      },
      [&](acc_t a, const acc_t &b) {
        if (b)
          dp::detail::fold_into(a, op, *b);
        return a;
      });
}

/// A dense row's elements through the map, as the GPU's transform-reduce
/// reads them: element i loaded from the pointer, then transformed.
template <class T, class E, class Map> struct dense_input {
  const E *base;
  values_as<T, Map> value;
  T operator[](std::int64_t i) const { return value(base[i]); }
};

/// out[0] = init r (the fold of `in` over n points), behind L's queue.
template <class T, class In, class Op>
void enqueue_reduce(device_launch<emulated_device> &L, std::int64_t n, const In &in, const Op &op,
                    T init, T *out) {
  count(counter::launches);
  emulated_device::run(L.queue(), L.site().c_str(), [=] {
    const std::optional<T> total = reduce_input<T>(n, in, op);
    *out = total ? static_cast<T>(op(init, *total)) : init;
  });
}

/// A segmented reduction, emulated: out[p] = the fold from `init` with
/// `op` of in[p * length + k], k < length, for every segment p, through
/// the input and output iterators the GPU's call takes.
template <class In, class Out, class Op, class Init>
void segmented_reduce(std::int64_t segments, std::int64_t length, const In &in, const Out &out,
                      const Op &op, const Init &init) {
  tbb::parallel_for(std::int64_t(0), segments, [&](std::int64_t p) {
    Init acc = init;
    for (std::int64_t k = 0; k < length; ++k)
      acc = static_cast<Init>(op(acc, in[p * length + k]));
    out[p] = acc;
  });
}

/// scan<Dim> along the contiguous dimension, emulated: the scan by key's
/// input and output (keys are pencil numbers), one pencil at a time.
template <class T, class In, class Out, class Op>
void scan_segments(std::int64_t pencils, std::int64_t length, const In &in, const Out &out,
                   const Op &op) {
  tbb::parallel_for(std::int64_t(0), pencils, [&](std::int64_t p) {
    const std::int64_t first = p * length;
    T acc = in[first];
    out[first] = acc;
    for (std::int64_t k = 1; k < length; ++k) {
      acc = static_cast<T>(op(acc, in[first + k]));
      out[first + k] = acc;
    }
  });
}

/// sort<Dim>, emulated: gathered pencil by pencil through the positions the
/// device gathers with, sorted, scattered back.
template <int Dim, class T, int N, class Less>
void sort_pencils(const dp::extent<N> &e, const Less &less,
                  const dp::detail::affine_projection<T, N> &data) {
  const auto positions = pencil_positions<N, Dim>::of(e);
  const position_writer<T, pencil_positions<N, Dim>, N> writer(data, positions);
  tbb::parallel_for(std::int64_t(0), positions.pencils(), [&](std::int64_t p) {
    std::vector<T> pencil;
    pencil.reserve(static_cast<std::size_t>(positions.length));
    for (std::int64_t k = 0; k < positions.length; ++k)
      pencil.push_back(data[positions.at(p, k)]);
    std::sort(pencil.begin(), pencil.end(), less);
    for (std::int64_t k = 0; k < positions.length; ++k)
      writer[p * positions.length + k] = pencil[static_cast<std::size_t>(k)];
  });
}

} // namespace emulated

/// out[0] = init r (the values of point numbers 0..n-1).
template <class T, class Positions, class Op, class Values>
void vendor_reduce(device_launch<emulated_device> &L, std::int64_t n, const Positions &positions,
                   const Op &op, const Values &values, T init, T *out) {
  using in_t = offset_iterator<mapped_values<T, Values, Positions>>;
  note_vendor<in_t>(L.site(), "reduce", n, data_points_of<Values>(n));
  emulated::enqueue_reduce(L, n, in_t({values, positions}, 0), op, init, out);
}

/// out[0] = init r (the values of a dense row's n elements): a
/// transform-reduce over their pointer; a plain reduce of the pointer when
/// the values are the elements (elements_are_values).
template <class T, class E, class Op, class Values>
void vendor_reduce(device_launch<emulated_device> &L, std::int64_t n,
                   const dense_elements<E> &elements, const Op &op, const Values &values, T init,
                   T *out) {
  if constexpr (elements_are_values<Values, E, T>) {
    note_vendor<const E *>(L.site(), "reduce", n, data_points_of<Values>(n));
    emulated::enqueue_reduce(L, n, elements.base, op, init, out);
  } else {
    note_vendor<const E *>(L.site(), "transform reduce", n, data_points_of<Values>(n));
    emulated::enqueue_reduce(L, n, emulated::dense_input<T, E, Values>{elements.base, {values}},
                             op, init, out);
  }
}

/// reduce<Dim> along the contiguous dimension: a segmented reduction over
/// the input, operator and initial value the GPU's would use
/// (fold_plan.hpp).
template <int Dim, class T, int N, class Op, class Map>
void vendor_fold_segments(device_launch<emulated_device> &L, dim_tag<Dim>, const dp::extent<N> &e,
                          const Op &op, const Map &map,
                          const dp::detail::affine_projection<T, N - 1> &out) {
  count(counter::launches);
  const auto positions = pencil_positions<N, Dim>::of(e);
  const auto fold = [&](const auto &in, const auto &writer, const auto &combine, const auto &init) {
    emulated_device::run(L.queue(), L.site().c_str(), [=, n = positions.pencils()] {
      emulated::segmented_reduce(n, positions.length, in, writer, combine, init);
    });
  };
  with_fold_segments_io<Dim>(L.site(), e, positions, op, map, out, fold);
}

/// scan<Dim> along the contiguous dimension: a scan by key over the
/// input and into the output the GPU's would use (scan_plan.hpp).
template <int Dim, class T, int N, class Op, class Map>
void vendor_scan_segments(device_launch<emulated_device> &L, dim_tag<Dim>, const dp::extent<N> &e,
                          const Op &op, const Map &map,
                          const dp::detail::affine_projection<T, N> &out) {
  count(counter::launches);
  const auto positions = pencil_positions<N, Dim>::of(e);
  const auto scan = [&](const auto &in, const auto &writer) {
    emulated_device::run(L.queue(), L.site().c_str(), [=, n = positions.pencils()] {
      emulated::scan_segments<T>(n, positions.length, in, writer, op);
    });
  };
  with_scan_segments_io<Dim>(L.site(), e, positions, map, out, scan);
}

/// sort<Dim>: every pencil gathered, sorted and scattered back (counted
/// and recorded as the GPU's choice of sort makes them: sort_plan.hpp).
template <int Dim, class T, int N, class Less>
void vendor_sort(device_launch<emulated_device> &L, dim_tag<Dim>, const dp::extent<N> &e,
                 const Less &less, bool natural_order, bool,
                 const dp::detail::affine_projection<T, N> &data) {
  const sort_choice chosen = choose_sort<T, Dim>(natural_order, data, e);
  count(counter::launches, chosen.launches());
  note_sort<T>(L.site(), chosen, e.size());
  emulated_device::run(L.queue(), L.site().c_str(), [=] { emulated::sort_pencils<Dim>(e, less, data); });
}

/// A strided block of device memory packed into a contiguous device
/// buffer, and back (dp::mpi's halo messages).
inline void pack_block(device_launch<emulated_device> &L, const strided_block &b, void *out) {
  count(counter::launches);
  emulated_device::run(L.queue(), "dp: packing a block", [b, out] { dp::rt::pack(b, out); });
}
inline void unpack_block(device_launch<emulated_device> &L, const void *in,
                         const strided_block &b) {
  count(counter::launches);
  emulated_device::run(L.queue(), "dp: unpacking a block", [b, in] { dp::rt::unpack(in, b); });
}

} // namespace dp::rt
