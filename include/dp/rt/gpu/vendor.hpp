/// \file
/// The device primitives dpstub's reductions, scans and sorts are built on:
/// rocPRIM under hipcc, CUB under nvcc. Each wrapper has the two-phase
/// shape both libraries share (first call sizes the scratch memory), and
/// `run` makes both calls and checks them, naming the call-site on failure.
/// Only device builds include this.
#pragma once

#include "../../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <cstddef>
#include <cstdint>
#include <string>

#include "api.hpp"

#if defined(DP_COMPILER_HIP)
// rocPRIM 5.3's per-algorithm headers depend on their include order (and on
// <iostream>): its umbrella header is the supported entry point.
#include <rocprim/rocprim.hpp>
#else
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_segmented_sort.cuh>
#endif

namespace dp::rt::vendor {

/// The library's name, for messages.
#if defined(DP_COMPILER_HIP)
inline constexpr const char *library = "rocPRIM";
#else
inline constexpr const char *library = "CUB";
#endif

/// Equality of scan keys (pencil numbers).
struct keys_equal {
  DP_HOST_DEVICE bool operator()(std::int64_t a, std::int64_t b) const { return a == b; }
};

/// Calls `call(scratch, bytes)` to size the scratch memory, then with
/// scratch from `allocate(bytes)` (a call-site's cached temporaries); a
/// failure is a dp::error naming the call-site and the primitive.
template <class Allocate, class Call>
void run(const char *site, const char *primitive, Allocate &&allocate, Call &&call) {
  const std::string what = std::string(library) + " " + primitive;
  std::size_t bytes = 0;
  gpu::check(call(nullptr, bytes), what.c_str(), __FILE__, __LINE__, site);
  void *scratch = allocate(bytes);
  gpu::check(call(scratch, bytes), what.c_str(), __FILE__, __LINE__, site);
  gpu::check(DP_GPU(GetLastError)(), what.c_str(), __FILE__, __LINE__, site);
}

/// out[0] = init r in[0] r ... r in[n-1].
template <class In, class Out, class Op, class T>
dp_gpu_error_t reduce(void *scratch, std::size_t &bytes, In in, Out out, std::int64_t n, Op op,
                      T init, gpu::stream_t stream) {
#if defined(DP_COMPILER_HIP)
  return rocprim::reduce(scratch, bytes, in, out, init, static_cast<std::size_t>(n), op, stream);
#else
  return cub::DeviceReduce::Reduce(scratch, bytes, in, out, n, op, init, stream);
#endif
}

/// out[0] = init r f(in[0]) r ... r f(in[n-1]), `in` a pointer: loaded as
/// vectors where the element type allows.
template <class E, class Out, class Op, class F, class T>
dp_gpu_error_t transform_reduce(void *scratch, std::size_t &bytes, const E *in, Out out,
                                std::int64_t n, Op op, F f, T init, gpu::stream_t stream) {
#if defined(DP_COMPILER_HIP)
  return rocprim::reduce(scratch, bytes, rocprim::make_transform_iterator(in, f), out, init,
                         static_cast<std::size_t>(n), op, stream);
#else
  return cub::DeviceReduce::TransformReduce(scratch, bytes, in, out, n, op, f, init, stream);
#endif
}

/// out[s] = init r the values of segment s (in[begin[s] .. end[s])).
template <class In, class Out, class Offsets, class Op, class T>
dp_gpu_error_t segmented_reduce(void *scratch, std::size_t &bytes, In in, Out out,
                                std::int64_t segments, Offsets begin, Offsets end, Op op, T init,
                                gpu::stream_t stream) {
#if defined(DP_COMPILER_HIP)
  return rocprim::segmented_reduce(scratch, bytes, in, out, static_cast<unsigned int>(segments),
                                   begin, end, op, init, stream);
#else
  return cub::DeviceSegmentedReduce::Reduce(scratch, bytes, in, out, segments, begin, end, op,
                                            init, stream);
#endif
}

/// Inclusive scan of `in` restarting wherever the key changes.
template <class Keys, class In, class Out, class Op>
dp_gpu_error_t inclusive_scan_by_key(void *scratch, std::size_t &bytes, Keys keys, In in, Out out,
                                     std::int64_t n, Op op, gpu::stream_t stream) {
#if defined(DP_COMPILER_HIP)
  return rocprim::inclusive_scan_by_key(scratch, bytes, keys, in, out,
                                        static_cast<std::size_t>(n), op, keys_equal(), stream);
#else
  return cub::DeviceScan::InclusiveScanByKey(scratch, bytes, keys, in, out, op, n, keys_equal(),
                                             stream);
#endif
}

/// Radix sort of every segment of arithmetic keys.
template <class T, class Offsets>
dp_gpu_error_t segmented_radix_sort(void *scratch, std::size_t &bytes, const T *in, T *out,
                                    std::int64_t n, std::int64_t segments, Offsets begin,
                                    Offsets end, bool descending, gpu::stream_t stream) {
#if defined(DP_COMPILER_HIP)
  const auto size = static_cast<unsigned int>(n);
  const auto count = static_cast<unsigned int>(segments);
  return descending ? rocprim::segmented_radix_sort_keys_desc(scratch, bytes, in, out, size, count,
                                                              begin, end, 0, 8 * sizeof(T), stream)
                    : rocprim::segmented_radix_sort_keys(scratch, bytes, in, out, size, count,
                                                         begin, end, 0, 8 * sizeof(T), stream);
#else
  const int size = static_cast<int>(n), count = static_cast<int>(segments);
  return descending ? cub::DeviceSegmentedRadixSort::SortKeysDescending(
                          scratch, bytes, in, out, size, count, begin, end, 0, 8 * sizeof(T), stream)
                    : cub::DeviceSegmentedRadixSort::SortKeys(scratch, bytes, in, out, size, count,
                                                              begin, end, 0, 8 * sizeof(T), stream);
#endif
}

/// Every segment of arithmetic keys sorted: under nvcc by CUB's
/// DeviceSegmentedSort, which sorts small and medium segments a warp or a
/// block each in on-chip memory (one pass over global memory where the
/// segmented radix sort makes one per digit) and large ones by radix, so
/// it serves every shape; rocPRIM has no such sort, so its segmented radix
/// sort. (One sort per compiler also keeps device builds lean: each is a
/// large instantiation per key type and direction.)
template <class T, class Offsets>
dp_gpu_error_t segmented_sort(void *scratch, std::size_t &bytes, const T *in, T *out,
                              std::int64_t n, std::int64_t segments, Offsets begin, Offsets end,
                              bool descending, gpu::stream_t stream) {
#if defined(DP_COMPILER_HIP)
  return segmented_radix_sort(scratch, bytes, in, out, n, segments, begin, end, descending, stream);
#else
  return descending ? cub::DeviceSegmentedSort::SortKeysDescending(
                          scratch, bytes, in, out, n, segments, begin, end, stream)
                    : cub::DeviceSegmentedSort::SortKeys(scratch, bytes, in, out, n, segments,
                                                         begin, end, stream);
#endif
}

/// Merge sort with a comparator: `in` sorted into `out`.
template <class K, class Less>
dp_gpu_error_t merge_sort(void *scratch, std::size_t &bytes, K *in, K *out, std::int64_t n,
                          Less less, gpu::stream_t stream) {
#if defined(DP_COMPILER_HIP)
  return rocprim::merge_sort(scratch, bytes, in, out, static_cast<std::size_t>(n), less, stream);
#else
  (void)out; // CUB sorts in place; the caller reads `in`
  return cub::DeviceMergeSort::SortKeys(scratch, bytes, in, n, less, stream);
#endif
}

/// True when merge_sort leaves its result in `out` rather than `in`.
#if defined(DP_COMPILER_HIP)
inline constexpr bool merge_sort_writes_out = true;
#else
inline constexpr bool merge_sort_writes_out = false;
#endif

} // namespace dp::rt::vendor

#endif
