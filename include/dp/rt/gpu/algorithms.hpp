/// \file
/// The vendor primitives on a GPU (CUB under nvcc, rocPRIM under hipcc,
/// through vendor.hpp), their scratch from the call-site's cached
/// temporaries: the full reduce, reduce<Dim> and scan<Dim> along the
/// contiguous dimension, sort<Dim>; and the packing of strided blocks for
/// dp::mpi's halo messages. Free functions over a GPU launch (the emulated
/// device has its own: emulated/algorithms.hpp). Only device builds
/// include this.
#pragma once

#include "../../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <cstdint>
#include <type_traits>

#include "../../error.hpp"
#include "../../extent.hpp"
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
#include "api.hpp"
#include "device.hpp"
#include "kernels.hpp"
#include "vendor.hpp"

namespace dp::rt {

namespace gpu {

/// A call-site's cached temporaries, as vendor::run's scratch.
template <class Launch> struct launch_scratch {
  Launch &launch;
  void *operator()(std::size_t bytes) const { return launch.scratch(bytes); }
};
template <class Launch> launch_scratch<Launch> scratch(Launch &L) { return {L}; }

} // namespace gpu

/// out[0] = init r (the values of point numbers 0..n-1): one fused
/// transform-reduce.
template <class T, class Positions, class Op, class Values>
void vendor_reduce(device_launch<gpu_device> &L, std::int64_t n, const Positions &positions,
                   const Op &op, const Values &values, T init, T *out) {
  count(counter::launches);
  const offset_iterator<mapped_values<T, Values, Positions>> in({values, positions}, 0);
  note_vendor<decltype(in)>(L.site(), "reduce", n, data_points_of<Values>(n));
  vendor::run(L.site().c_str(), "reduce", gpu::scratch(L), [&](void *s, std::size_t &bytes) {
    return vendor::reduce(s, bytes, in, out, n, op, init, L.queue().handle);
  });
}

/// out[0] = init r (the values of a dense row's n elements): one
/// transform-reduce over their pointer, so the vendor loads them as vectors
/// and calls the map on each; a plain reduce of the pointer when the values
/// are the elements (elements_are_values).
template <class T, class E, class Op, class Values>
void vendor_reduce(device_launch<gpu_device> &L, std::int64_t n, const dense_elements<E> &elements,
                   const Op &op, const Values &values, T init, T *out) {
  count(counter::launches);
  if constexpr (elements_are_values<Values, E, T>) {
    note_vendor<const E *>(L.site(), "reduce", n, data_points_of<Values>(n));
    vendor::run(L.site().c_str(), "reduce", gpu::scratch(L), [&](void *s, std::size_t &bytes) {
      return vendor::reduce(s, bytes, elements.base, out, n, op, init, L.queue().handle);
    });
  } else { // (else: the transform-reduce's kernels are not instantiated for nothing)
    note_vendor<const E *>(L.site(), "transform reduce", n, data_points_of<Values>(n));
    vendor::run(L.site().c_str(), "transform reduce", gpu::scratch(L),
                [&](void *s, std::size_t &bytes) {
                  return vendor::transform_reduce(s, bytes, elements.base, out, n, op,
                                                  values_as<T, Values>{values}, init,
                                                  L.queue().handle);
                });
  }
}

/// reduce<Dim> along the contiguous dimension: one segmented reduction
/// over the input, operator and initial value fold_plan.hpp chooses, whose
/// output iterator combines each pencil's fold into the result.
template <int Dim, class T, int N, class Op, class Map>
void vendor_fold_segments(device_launch<gpu_device> &L, dim_tag<Dim>, const dp::extent<N> &e,
                          const Op &op, const Map &map,
                          const dp::detail::affine_projection<T, N - 1> &out) {
  count(counter::launches);
  const auto positions = pencil_positions<N, Dim>::of(e);
  if (positions.pencils() > 0xffffffffLL)
    throw dp::error(L.site() + ": " + vendor::library +
                    " segmented reduce takes at most 2^32 - 1 pencils");
  const auto fold = [&](const auto &in, const auto &writer, const auto &combine, const auto &init) {
    vendor::run(L.site().c_str(), "segmented reduce", gpu::scratch(L),
                [&](void *s, std::size_t &bytes) {
                  return vendor::segmented_reduce(s, bytes, in, writer, positions.pencils(),
                                                  pencil_offsets{positions.length, 0},
                                                  pencil_offsets{positions.length, 1}, combine,
                                                  init, L.queue().handle);
                });
  };
  with_fold_segments_io<Dim>(L.site(), e, positions, op, map, out, fold);
}

/// scan<Dim> along the contiguous dimension: one scan by key (the pencil
/// number) writing straight into the result, over the input and output
/// scan_plan.hpp chooses.
template <int Dim, class T, int N, class Op, class Map>
void vendor_scan_segments(device_launch<gpu_device> &L, dim_tag<Dim>, const dp::extent<N> &e,
                          const Op &op, const Map &map,
                          const dp::detail::affine_projection<T, N> &out) {
  count(counter::launches);
  const auto positions = pencil_positions<N, Dim>::of(e);
  const offset_iterator<pencil_keys<N, Dim>> keys(pencil_keys<N, Dim>::of(positions), 0);
  const auto scan = [&](const auto &in, const auto &writer) {
    vendor::run(L.site().c_str(), "scan by key", gpu::scratch(L),
                [&](void *s, std::size_t &bytes) {
                  return vendor::inclusive_scan_by_key(s, bytes, keys, in, writer, e.size(), op,
                                                       L.queue().handle);
                });
  };
  with_scan_segments_io<Dim>(L.site(), e, positions, map, out, scan);
}

/// sort<Dim>: gather, sort every pencil, scatter back.
template <int Dim, class T, int N, class Less>
void vendor_sort(device_launch<gpu_device> &L, dim_tag<Dim>, const dp::extent<N> &e,
                 const Less &less, bool natural_order, bool descending,
                 const dp::detail::affine_projection<T, N> &data) {
  using positions_t = pencil_positions<N, Dim>;
  const positions_t positions = positions_t::of(e);
  const std::int64_t n = e.size();
  const char *site = L.site().c_str();
  const gpu::stream_t stream = L.queue().handle;
  const sort_choice chosen = choose_sort<T, Dim>(natural_order, data, e);
  count(counter::launches, chosen.launches());
  note_sort<T>(L.site(), chosen, n);
  if constexpr (std::is_arithmetic<T>::value) {
    if (chosen.radix) {
      // Rows of a dense row-major block are the segments themselves: no
      // gather, and a plain copy back instead of a scatter.
      T *keys = chosen.dense ? data.base : L.template scratch_of<T>(static_cast<std::size_t>(n));
      T *sorted = L.template scratch_of<T>(static_cast<std::size_t>(n));
      if (!chosen.dense)
        gpu::launch(site, &gpu::gather<T, positions_t, N>, gpu::stride_groups(n), gpu::stride_shape,
                    stream, keys, data, positions, n);
      vendor::run(site, "segmented sort", gpu::scratch(L), [&](void *s, std::size_t &bytes) {
        return vendor::segmented_sort(s, bytes, static_cast<const T *>(keys), sorted, n,
                                      positions.pencils(), pencil_offsets{positions.length, 0},
                                      pencil_offsets{positions.length, 1}, descending, stream);
      });
      if (chosen.dense)
        DP_GPU_CHECK(site,
                     DP_GPU(MemcpyAsync)(data.base, sorted, static_cast<std::size_t>(n) * sizeof(T),
                                         DP_GPU(MemcpyDeviceToDevice), stream));
      else
        gpu::launch(site, &gpu::scatter<T, positions_t, N>, gpu::stride_groups(n),
                    gpu::stride_shape, stream, static_cast<const T *>(sorted), data, positions, n);
      return;
    }
  }
  (void)descending;
  keyed<T> *keys = L.template scratch_of<keyed<T>>(static_cast<std::size_t>(n));
  keyed<T> *sorted = L.template scratch_of<keyed<T>>(static_cast<std::size_t>(n));
  gpu::launch(site, &gpu::gather_keyed<T, positions_t, N>, gpu::stride_groups(n), gpu::stride_shape,
              stream, keys, data, positions, positions.length, n);
  vendor::run(site, "merge sort", gpu::scratch(L), [&](void *s, std::size_t &bytes) {
    return vendor::merge_sort(s, bytes, keys, sorted, n, gpu::keyed_less<T, Less>{less}, stream);
  });
  const keyed<T> *result = vendor::merge_sort_writes_out ? sorted : keys;
  gpu::launch(site, &gpu::scatter_keyed<T, positions_t, N>, gpu::stride_groups(n),
              gpu::stride_shape, stream, result, data, positions, n);
}

namespace gpu {

/// One strided_copy launch, moving the widest word the elements allow
/// (blocks and packed buffers start at multiples of the element size).
inline void copy_strided(stream_queue &q, const strided_block &b, char *packed, bool to_packed) {
  const std::int64_t n = b.elements();
  if (n == 0)
    return;
  count(counter::launches);
  const char *site = to_packed ? "dp: packing a block" : "dp: unpacking a block";
  auto go = [&](auto word) {
    using W = decltype(word);
    const std::int64_t threads = n * static_cast<std::int64_t>(b.elem / sizeof(W));
    gpu::launch(site, &gpu::strided_copy<W>, gpu::stride_groups(threads), gpu::stride_shape,
                q.handle, b, packed, n, to_packed);
  };
  if (b.elem % 8 == 0)
    go(std::uint64_t());
  else if (b.elem % 4 == 0)
    go(std::uint32_t());
  else if (b.elem % 2 == 0)
    go(std::uint16_t());
  else
    go(std::uint8_t());
}

} // namespace gpu

/// A strided block of device memory packed into a contiguous device
/// buffer, and back (dp::mpi's halo messages): one kernel each.
inline void pack_block(device_launch<gpu_device> &L, const strided_block &b, void *out) {
  gpu::copy_strided(L.queue(), b, static_cast<char *>(out), true);
}
inline void unpack_block(device_launch<gpu_device> &L, const void *in, const strided_block &b) {
  gpu::copy_strided(L.queue(), b, static_cast<char *>(const_cast<void *>(in)), false);
}

} // namespace dp::rt

#endif
