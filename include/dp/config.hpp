/// \file
/// The one portability header: host/device attribute macros and the
/// HIP / CUDA / host switch. Nothing else in dpstub tests __HIPCC__ or
/// __CUDACC__ directly.
#pragma once

#if defined(__HIPCC__)
#define DP_COMPILER_HIP 1
#elif defined(__CUDACC__)
#define DP_COMPILER_CUDA 1
#endif

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
/// Marks a function callable from host and device code.
#define DP_HOST_DEVICE __host__ __device__
/// Marks a function callable from device code only.
#define DP_DEVICE __device__
/// Marks a kernel entry point.
#define DP_GLOBAL __global__
#else
#define DP_HOST_DEVICE
#define DP_DEVICE
#define DP_GLOBAL
#endif

// True while compiling the device side of a translation unit.
#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
#define DP_DEVICE_COMPILE 1
#else
#define DP_DEVICE_COMPILE 0
#endif

/// Stops a device thread at a point dpstub proved unreachable.
#if defined(__CUDA_ARCH__)
#define DP_DEVICE_TRAP() __trap()
#else
#define DP_DEVICE_TRAP() __builtin_trap()
#endif

#if defined(_MSC_VER)
#define DP_RESTRICT __restrict
#else
/// Promise that a pointer is not aliased (read-only stub arguments use it).
#define DP_RESTRICT __restrict__
#endif
