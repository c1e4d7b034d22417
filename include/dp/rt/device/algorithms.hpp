/// \file
/// The vendor algorithms of a device's reductions, scans and sorts, built
/// once for every device layer: which primitive, which input (a pointer,
/// or which iterator), which output, which scratch, what is counted and
/// what the request log says. Only the primitives themselves differ by
/// layer: `vendor_layer<Device>` gives them, over CUB or rocPRIM on a GPU
/// (gpu/primitives.hpp) and over the host's threads on the emulated device
/// (emulated/primitives.hpp). So the emulated device's tests check the
/// requests a GPU makes, not a copy of them.
///
/// A layer's primitives, each enqueued behind the launch's queue:
///  - `reduce(L, name, n, in, out, op, init)`: out[0] = init r in[0..n);
///  - `transform_reduce(L, name, n, base, out, op, f, init)`: the same over
///    f(base[i]), base a pointer (vector loads on a GPU);
///  - `segmented_reduce(L, segments, length, in, out, op, init)`: out[s] =
///    init r in[s*length .. (s+1)*length);
///  - `scan_by_key(L, n, length, keys, in, out, op)`: an inclusive scan
///    restarting where the key changes (keys change every `length` items);
///  - `segmented_sort(L, n, segments, length, in, out, descending)`: each
///    segment of arithmetic keys sorted into `out`;
///  - `merge_sort(L, n, keys, spare, less)`: sorted with a comparator;
///    returns where the result is (keys or spare);
///  - `copy(L, to, from, bytes)`: device memory to device memory;
///  - `for_each(L, name, n, f)`: f(i) for i < n (a grid-stride kernel);
///  - `name`: the library's name, for messages.
/// None of them counts launches: the requests here do.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../../error.hpp"
#include "../../extent.hpp"
#include "../../reference/projection.hpp"
#include "../counters.hpp"
#include "../jobs.hpp"
#include "../kernels/pencil_moves.hpp"
#include "../stub/iterators.hpp"
#include "executor.hpp"
#include "fold_plan.hpp"
#include "requests.hpp"
#include "scan_plan.hpp"
#include "sort_plan.hpp"

namespace dp::rt {

/// A device layer's vendor primitives (specialised by each layer).
template <class Device> struct vendor_layer;

/// out[0] = init r (the values of point numbers 0..n-1): one fused
/// transform-reduce over the map's values at their positions.
template <class Device, class T, class Positions, class Op, class Values>
void vendor_reduce(device_launch<Device> &L, std::int64_t n, const Positions &positions,
                   const Op &op, const Values &values, T init, T *out) {
  count(counter::launches);
  const offset_iterator<mapped_values<T, Values, Positions>> in({values, positions}, 0);
  note_vendor<decltype(in)>(L.site(), "reduce", n, data_points_of<Values>(n));
  vendor_layer<Device>::reduce(L, "reduce", n, in, out, op, init);
}

/// out[0] = init r (the values of a dense row's n elements): one
/// transform-reduce over their pointer, so the vendor loads them as vectors
/// and calls the map on each; a plain reduce of the pointer when the values
/// are the elements (elements_are_values).
template <class Device, class T, class E, class Op, class Values>
void vendor_reduce(device_launch<Device> &L, std::int64_t n, const dense_elements<E> &elements,
                   const Op &op, const Values &values, T init, T *out) {
  count(counter::launches);
  if constexpr (elements_are_values<Values, E, T>) {
    note_vendor<const E *>(L.site(), "reduce", n, data_points_of<Values>(n));
    vendor_layer<Device>::reduce(L, "reduce", n, elements.base, out, op, init);
  } else { // (else: the transform-reduce's kernels are not instantiated for nothing)
    note_vendor<const E *>(L.site(), "transform reduce", n, data_points_of<Values>(n));
    vendor_layer<Device>::transform_reduce(L, "transform reduce", n, elements.base, out, op,
                                           values_as<T, Values>{values}, init);
  }
}

/// The most pencils one vendor segmented reduce takes.
inline constexpr std::int64_t segmented_reduce_limit = 0xffffffffLL;

/// reduce<Dim> along the contiguous dimension: one segmented reduction
/// over the input, operator and initial value fold_plan.hpp chooses, whose
/// output iterator combines each pencil's fold into the result.
template <int Dim, class Device, class T, int N, class Op, class Map>
void vendor_fold_segments(device_launch<Device> &L, dim_tag<Dim>, const dp::extent<N> &e,
                          const Op &op, const Map &map,
                          const dp::detail::affine_projection<T, N - 1> &out) {
  count(counter::launches);
  const auto positions = pencil_positions<N, Dim>::of(e);
  if (positions.pencils() > segmented_reduce_limit)
    throw dp::error(L.site() + ": " + vendor_layer<Device>::name +
                    " segmented reduce takes at most 2^32 - 1 pencils");
  const auto fold = [&](const auto &in, const auto &writer, const auto &combine, const auto &init) {
    vendor_layer<Device>::segmented_reduce(L, positions.pencils(), positions.length, in, writer,
                                           combine, init);
  };
  with_fold_segments_io<Dim>(L.site(), e, positions, op, map, out, fold);
}

/// scan<Dim> along the contiguous dimension: one scan by key (the pencil
/// number) writing straight into the result, over the input and output
/// scan_plan.hpp chooses.
template <int Dim, class Device, class T, int N, class Op, class Map>
void vendor_scan_segments(device_launch<Device> &L, dim_tag<Dim>, const dp::extent<N> &e,
                          const Op &op, const Map &map,
                          const dp::detail::affine_projection<T, N> &out) {
  count(counter::launches);
  const auto positions = pencil_positions<N, Dim>::of(e);
  const offset_iterator<pencil_keys<N, Dim>> keys(pencil_keys<N, Dim>::of(positions), 0);
  const auto scan = [&](const auto &in, const auto &writer) {
    vendor_layer<Device>::scan_by_key(L, e.size(), positions.length, keys, in, writer, op);
  };
  with_scan_segments_io<Dim>(L.site(), e, positions, map, out, scan);
}

/// sort<Dim> as sort_plan.hpp chooses it: the pencils' values sorted by
/// the vendor's segmented sort (straight from a dense row-major block and
/// copied back, else gathered first and scattered after), or tagged with
/// their pencil, merge-sorted with the comparator and scattered back.
template <int Dim, class Device, class T, int N, class Less>
void vendor_sort(device_launch<Device> &L, dim_tag<Dim>, const dp::extent<N> &e,
                 const Less &less, bool natural_order, bool descending,
                 const dp::detail::affine_projection<T, N> &data) {
  using layer = vendor_layer<Device>;
  using positions_t = pencil_positions<N, Dim>;
  const positions_t positions = positions_t::of(e);
  const std::int64_t n = e.size();
  const auto count_n = static_cast<std::size_t>(n);
  const sort_choice chosen = choose_sort<T, Dim>(natural_order, data, e);
  count(counter::launches, chosen.launches());
  note_sort<T>(L.site(), chosen, n);
  if constexpr (std::is_arithmetic<T>::value) {
    if (chosen.radix) {
      // Rows of a dense row-major block are the segments themselves: no
      // gather, and a plain copy back instead of a scatter.
      T *keys = chosen.dense ? data.base : L.template scratch_of<T>(count_n);
      T *sorted = L.template scratch_of<T>(count_n);
      if (!chosen.dense)
        layer::for_each(L, "gather", n, gather_values<T, positions_t, N>{keys, data, positions});
      layer::segmented_sort(L, n, positions.pencils(), positions.length,
                            static_cast<const T *>(keys), sorted, descending);
      if (chosen.dense)
        layer::copy(L, data.base, sorted, count_n * sizeof(T));
      else
        layer::for_each(L, "scatter", n,
                        scatter_values<T, positions_t, N>{sorted, data, positions});
      return;
    }
  }
  (void)descending;
  keyed<T> *keys = L.template scratch_of<keyed<T>>(count_n);
  keyed<T> *spare = L.template scratch_of<keyed<T>>(count_n);
  layer::for_each(L, "gather pairs", n,
                  gather_pairs<T, positions_t, N>{keys, data, positions, positions.length});
  const keyed<T> *sorted = layer::merge_sort(L, n, keys, spare, keyed_less<T, Less>{less});
  layer::for_each(L, "scatter pairs", n, scatter_pairs<T, positions_t, N>{sorted, data, positions});
}

} // namespace dp::rt
