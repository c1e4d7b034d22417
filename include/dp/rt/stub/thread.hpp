/// \file
/// The physical thread running a stub: the GPU's block/thread ids on a
/// device, or the ids the host emulator set for the current call.
#pragma once

#include <cstdint>

#include "../../config.hpp"
#if defined(DP_COMPILER_HIP)
#include <hip/hip_runtime.h>
#endif

namespace dp::rt {

/// Group and local ids of a physical thread, dim3 order (x, y, z).
struct thread_ids {
  std::int64_t group[3];
  std::int64_t local[3];
};

namespace detail {
/// The ids the host emulator is walking (one per host thread).
inline thread_ids &emulated_thread() {
  static thread_local thread_ids ids{};
  return ids;
}
} // namespace detail

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
/// The current device thread.
__device__ inline thread_ids this_thread() {
  return thread_ids{{blockIdx.x, blockIdx.y, blockIdx.z}, {threadIdx.x, threadIdx.y, threadIdx.z}};
}
#else
/// The thread the emulator is running.
inline thread_ids this_thread() { return detail::emulated_thread(); }
#endif

} // namespace dp::rt
