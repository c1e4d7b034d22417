/// \file
/// The GPU's vendor primitives (CUB under nvcc, rocPRIM under hipcc,
/// through vendor.hpp), their scratch from the call-site's cached
/// temporaries, on the launch's stream: what device/algorithms.hpp builds
/// the reductions, scans and sorts on (the emulated device's are
/// emulated/primitives.hpp). Also the packing of strided blocks for
/// dp::mpi's halo messages. Only device builds include this.
#pragma once

#include "../../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <cstdint>
#include <type_traits>

#include "../../error.hpp"
#include "../../extent.hpp"
#include "../../reference/projection.hpp"
#include "../counters.hpp"
#include "../device/algorithms.hpp"
#include "../device/executor.hpp"
#include "../strided.hpp"
#include "../stub/iterators.hpp"
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

/// The GPU's vendor primitives (device/algorithms.hpp builds the requests
/// over them): CUB or rocPRIM through vendor.hpp on the launch's stream,
/// their scratch from the call-site's cached temporaries.
template <> struct vendor_layer<gpu_device> {
  using launch_type = device_launch<gpu_device>;
  static constexpr const char *name = vendor::library;

  template <class In, class Out, class Op, class T>
  static void reduce(launch_type &L, const char *what, std::int64_t n, In in, Out out, Op op,
                     T init) {
    vendor::run(L.site().c_str(), what, gpu::scratch(L), [&](void *s, std::size_t &bytes) {
      return vendor::reduce(s, bytes, in, out, n, op, init, L.queue().handle);
    });
  }

  template <class E, class Out, class Op, class F, class T>
  static void transform_reduce(launch_type &L, const char *what, std::int64_t n, const E *in,
                               Out out, Op op, F f, T init) {
    vendor::run(L.site().c_str(), what, gpu::scratch(L), [&](void *s, std::size_t &bytes) {
      return vendor::transform_reduce(s, bytes, in, out, n, op, f, init, L.queue().handle);
    });
  }

  template <class In, class Out, class Op, class Init>
  static void segmented_reduce(launch_type &L, std::int64_t segments, std::int64_t length, In in,
                               Out out, Op op, Init init) {
    vendor::run(L.site().c_str(), "segmented reduce", gpu::scratch(L),
                [&](void *s, std::size_t &bytes) {
                  return vendor::segmented_reduce(s, bytes, in, out, segments,
                                                  pencil_offsets{length, 0},
                                                  pencil_offsets{length, 1}, op, init,
                                                  L.queue().handle);
                });
  }

  template <class Keys, class In, class Out, class Op>
  static void scan_by_key(launch_type &L, std::int64_t n, std::int64_t, Keys keys, In in, Out out,
                          Op op) {
    vendor::run(L.site().c_str(), "scan by key", gpu::scratch(L),
                [&](void *s, std::size_t &bytes) {
                  return vendor::inclusive_scan_by_key(s, bytes, keys, in, out, n, op,
                                                       L.queue().handle);
                });
  }

  template <class T>
  static void segmented_sort(launch_type &L, std::int64_t n, std::int64_t segments,
                             std::int64_t length, const T *in, T *out, bool descending) {
    vendor::run(L.site().c_str(), "segmented sort", gpu::scratch(L),
                [&](void *s, std::size_t &bytes) {
                  return vendor::segmented_sort(s, bytes, in, out, n, segments,
                                                pencil_offsets{length, 0},
                                                pencil_offsets{length, 1}, descending,
                                                L.queue().handle);
                });
  }

  template <class K, class Less>
  static const K *merge_sort(launch_type &L, std::int64_t n, K *keys, K *spare, Less less) {
    vendor::run(L.site().c_str(), "merge sort", gpu::scratch(L), [&](void *s, std::size_t &bytes) {
      return vendor::merge_sort(s, bytes, keys, spare, n, less, L.queue().handle);
    });
    return vendor::merge_sort_writes_out ? spare : keys;
  }

  static void copy(launch_type &L, void *to, const void *from, std::size_t bytes) {
    DP_GPU_CHECK(L.site().c_str(), DP_GPU(MemcpyAsync)(to, from, bytes,
                                                       DP_GPU(MemcpyDeviceToDevice),
                                                       L.queue().handle));
  }

  template <class F> static void for_each(launch_type &L, const char *, std::int64_t n, F f) {
    gpu::launch(L.site().c_str(), &gpu::each_index<F>, gpu::stride_groups(n), gpu::stride_shape,
                L.queue().handle, f, n);
  }
};

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
