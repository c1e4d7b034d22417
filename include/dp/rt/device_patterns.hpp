/// \file
/// reduce, reduce<Dim>, scan<Dim> and sort<Dim> of generated stubs on a GPU.
/// The map function runs inside the vendor primitive (read through an
/// iterator that raises offsets to positions), so no temporary field holds
/// its values: a full reduce is one fused transform-reduce, pencils along
/// the contiguous dimension are a segmented reduce or a scan by key, sorts
/// gather each pencil, sort it (radix for a natural order of arithmetic
/// keys, merge with the comparator otherwise) and scatter it back. Pencils
/// across the contiguous dimension use the pencil kernels instead. Only
/// device builds include this.
#pragma once

#include "../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "../detail/projection.hpp"
#include "../extent.hpp"
#include "gpu.hpp"
#include "positions.hpp"
#include "vendor.hpp"

namespace dp::rt::device {

template <class T, class Less> struct keyed_less {
  Less less;
  DP_HOST_DEVICE bool operator()(const keyed<T> &a, const keyed<T> &b) const {
    return a.pencil < b.pencil || (a.pencil == b.pencil && less(a.value, b.value));
  }
};

template <class T, class Positions, int N>
__global__ void gather(T *out, const dp::detail::affine_projection<T, N> data,
                       const Positions positions, const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = data[positions(i)];
}
template <class T, class Positions, int N>
__global__ void gather_keyed(keyed<T> *out, const dp::detail::affine_projection<T, N> data,
                             const Positions positions, const std::int64_t length,
                             const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = make_keyed(i / length, data[positions(i)]);
}
template <class T, class Positions, int N>
__global__ void scatter(const T *in, const dp::detail::affine_projection<T, N> data,
                        const Positions positions, const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    data[positions(i)] = in[i];
}
template <class T, class Positions, int N>
__global__ void scatter_keyed(const keyed<T> *in, const dp::detail::affine_projection<T, N> data,
                              const Positions positions, const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    data[positions(i)] = in[i].value;
}

/// Groups for a grid-stride loop over n elements.
inline triple stride_groups(std::int64_t n) {
  return {std::max<std::int64_t>(1, std::min<std::int64_t>((n + 255) / 256, 65535)), 1, 1};
}
inline constexpr triple stride_shape{256, 1, 1};

/// Full reduce: `value` (the result's prior value, the fold's initial value)
/// becomes value r f(p0) r f(p1) ... over the positions of point numbers
/// 0..count-1.
template <class T, class Positions, class Op, class Map>
void reduce(const char *site, std::int64_t count, const Positions &positions, const Op &op,
            const Map &map, T &value) {
  const offset_iterator<mapped_values<T, Map, Positions>> in({map, positions}, 0);
  gpu::buffer out(site, sizeof(T));
  vendor::run(site, "reduce", [&](void *scratch, std::size_t &bytes) {
    return vendor::reduce(scratch, bytes, in, out.as<T>(), count, op, value);
  });
  gpu::copy_to_host(site, &value, out.get(), sizeof(T));
}

/// reduce<Dim> along the contiguous dimension: one segmented reduction whose
/// output iterator combines each pencil's fold into the result.
template <int Dim, class T, int N, class Op, class Map>
void fold_segments(const char *site, const dp::extent<N> &e, const Op &op, const Map &map,
                   const dp::detail::affine_projection<T, N - 1> &out) {
  const auto positions = pencil_positions<N, Dim>::of(e);
  if (positions.pencils() > 0xffffffffLL)
    throw dp::error(std::string(site) + ": " + vendor::library +
                    " segmented reduce takes at most 2^32 - 1 pencils");
  const offset_iterator<present_values<T, Map, pencil_positions<N, Dim>>> in({map, positions}, 0);
  const pencil_result_writer<N, Dim, T, Op> writer(out, positions, op);
  vendor::run(site, "segmented reduce", [&](void *scratch, std::size_t &bytes) {
    return vendor::segmented_reduce(scratch, bytes, in, writer, positions.pencils(),
                                    pencil_offsets{positions.length, 0},
                                    pencil_offsets{positions.length, 1}, maybe_op<T, Op>{op},
                                    none<T>());
  });
  gpu::synchronize(site);
}

/// scan<Dim> along the contiguous dimension: one scan by key (the pencil
/// number) writing straight into the result.
template <int Dim, class T, int N, class Op, class Map>
void scan_segments(const char *site, const dp::extent<N> &e, const Op &op, const Map &map,
                   const dp::detail::affine_projection<T, N> &out) {
  const auto positions = pencil_positions<N, Dim>::of(e);
  const offset_iterator<pencil_keys<N, Dim>> keys({positions.length}, 0);
  const offset_iterator<mapped_values<T, Map, pencil_positions<N, Dim>>> in({map, positions}, 0);
  const position_writer<T, pencil_positions<N, Dim>, N> writer(out, positions);
  vendor::run(site, "scan by key", [&](void *scratch, std::size_t &bytes) {
    return vendor::inclusive_scan_by_key(scratch, bytes, keys, in, writer, e.size(), op);
  });
  gpu::synchronize(site);
}

/// sort<Dim>: gather, sort every pencil, scatter back.
template <int Dim, class T, int N, class Less>
void sort(const char *site, const dp::extent<N> &e, const Less &less, bool natural_order,
          bool descending, const dp::detail::affine_projection<T, N> &data) {
  using positions_t = pencil_positions<N, Dim>;
  const positions_t positions = positions_t::of(e);
  const std::int64_t n = e.size();
  if constexpr (std::is_arithmetic<T>::value) {
    if (natural_order && n <= vendor::radix_sort_limit) {
      gpu::buffer keys(site, sizeof(T) * n), sorted(site, sizeof(T) * n);
      gpu::launch(site, &gather<T, positions_t, N>, stride_groups(n), stride_shape, keys.as<T>(),
                  data, positions, n);
      vendor::run(site, "segmented radix sort", [&](void *scratch, std::size_t &bytes) {
        return vendor::segmented_radix_sort(scratch, bytes, keys.as<T>(), sorted.as<T>(), n,
                                            positions.pencils(), pencil_offsets{positions.length, 0},
                                            pencil_offsets{positions.length, 1}, descending);
      });
      gpu::launch(site, &scatter<T, positions_t, N>, stride_groups(n), stride_shape,
                  static_cast<const T *>(sorted.as<T>()), data, positions, n);
      gpu::synchronize(site);
      return;
    }
  }
  (void)natural_order, (void)descending;
  gpu::buffer keys(site, sizeof(keyed<T>) * n), sorted(site, sizeof(keyed<T>) * n);
  gpu::launch(site, &gather_keyed<T, positions_t, N>, stride_groups(n), stride_shape,
              keys.as<keyed<T>>(), data, positions, positions.length, n);
  vendor::run(site, "merge sort", [&](void *scratch, std::size_t &bytes) {
    return vendor::merge_sort(scratch, bytes, keys.as<keyed<T>>(), sorted.as<keyed<T>>(), n,
                              keyed_less<T, Less>{less});
  });
  const keyed<T> *result = vendor::merge_sort_writes_out ? sorted.as<keyed<T>>() : keys.as<keyed<T>>();
  gpu::launch(site, &scatter_keyed<T, positions_t, N>, stride_groups(n), stride_shape, result, data,
              positions, n);
  gpu::synchronize(site);
}

} // namespace dp::rt::device

#endif
