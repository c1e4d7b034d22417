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
// True while compiling the device side under nvcc (CUDA's intrinsics).
#if defined(__CUDA_ARCH__)
#define DP_CUDA_DEVICE_COMPILE 1
#else
#define DP_CUDA_DEVICE_COMPILE 0
#endif

/// Stops a device thread at a point dpstub proved unreachable.
#if DP_CUDA_DEVICE_COMPILE
#define DP_DEVICE_TRAP() __trap()
#else
#define DP_DEVICE_TRAP() __builtin_trap()
#endif

/// Inlined at every call, whatever the optimiser's budget: a field's copy
/// and element access sit inside every kernel's per-element body, where a
/// call costs more than the element. DP_ALWAYS_INLINE is the attribute
/// alone, for a lambda: a stub's host body and the lambda that passes it
/// to the runtime carry it, so that the user's kernel is the one call left
/// for a row loop's DP_FLATTEN. GCC 12 flattens one call deep reliably;
/// through the two generated calls it left NPB SP's kernels out of line,
/// where element access cannot see that a field is dense (SP class W took
/// 3.0 times as long: 2.09 s for 40 steps, 0.70 inlined; 2026-12-07).
/// (The attribute rather than __forceinline__, which HIP's headers define
/// only after this one may be read.)
#if defined(__GNUC__) || defined(__clang__)
#define DP_ALWAYS_INLINE __attribute__((always_inline))
#else
#define DP_ALWAYS_INLINE
#endif
#define DP_INLINE inline DP_ALWAYS_INLINE

/// On a host loop over a row: inline everything it calls (the stub body,
/// the user's kernel, element access), so the row is one loop the compiler
/// can keep in registers and vectorise.
#if (defined(__GNUC__) || defined(__clang__)) && !DP_DEVICE_COMPILE
#define DP_FLATTEN __attribute__((flatten))
#else
#define DP_FLATTEN
#endif

/// A function of its own on the host, whatever the optimiser's budget or
/// DP_FLATTEN. A row's fold: inlined into the reduction's task, GCC 12
/// kept the accumulator in the task's std::optional, in memory (a store
/// and a load per value, 5.5 times slower for a kernel
/// `T s = 0; s += x[i]; return s;`, the shape dpstub --migrate writes);
/// one call a row segment costs nothing beside it. A cold path a row loop
/// reaches (a block's destruction): flattened into every row loop, it
/// multiplied compile time and code, for nothing at run time.
#if (defined(__GNUC__) || defined(__clang__)) && !DP_DEVICE_COMPILE
#define DP_NOINLINE __attribute__((noinline))
#else
#define DP_NOINLINE
#endif

/// Unrolls the loop that follows in full: a loop over a field's
/// dimensions, whose count is a template parameter. GCC 12 at -O2 left
/// the loop building a kernel's handle on a rank-3 or rank-4 field rolled
/// (three or four 32-byte dim_layout records), so the handle stayed in
/// memory, built at each kernel call, and element access read its strides
/// from there instead of knowing the dense handle's stride of 1 (NPB SP
/// class W on one CPU: 4.30-4.71 s, 3.74-3.89 unrolled, OpenMP 3.38-3.43;
/// BT 1.55-1.58 s, 1.42-1.43, OpenMP 1.56-1.57; 2026-12-07; rank 2 was
/// unrolled already). Clang and nvcc's device pass take `unroll`; nvcc's
/// host pass takes neither (its front end warns at GCC's pragma, and GCC
/// at -Wall at `unroll`), so none there.
#if defined(__clang__) || defined(__CUDA_ARCH__)
#define DP_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__CUDACC__)
#define DP_UNROLL _Pragma("GCC unroll 16")
#else
#define DP_UNROLL
#endif

/// A condition almost always true. GCC turns `s == 1 ? x : x / s` into an
/// unconditional division (x / 1 == x), a 40-cycle idiv per element access;
/// `if (DP_LIKELY(s == 1)) return x;` keeps the branch.
#if defined(__GNUC__) || defined(__clang__)
#define DP_LIKELY(c) __builtin_expect(!!(c), 1)
#else
#define DP_LIKELY(c) (c)
#endif

#if defined(_MSC_VER)
#define DP_RESTRICT __restrict
#else
/// Promise that a pointer is not aliased (read-only stub arguments use it).
#define DP_RESTRICT __restrict__
#endif
