/// \file
/// The few GPU API calls the runtime makes, mapped onto HIP (hipcc) or CUDA
/// (nvcc). Every call is checked where it is made; a failure becomes a
/// dp::error naming the call-site, the call and the backend's message.
/// Only device builds include this.
#pragma once

#include "../../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <cstddef>
#include <string>

#include "../../error.hpp"
#include "../counters.hpp"
#include "../stub/dispatch.hpp"
#include "../profile.hpp"

// Profiler ranges: NVTX (header-only v3, in every CUDA toolkit) under nvcc,
// roctx under hipcc where ROCm's roctracer is installed (Debian has none);
// -DDP_NO_PROFILER_RANGES leaves them out.
#if !defined(DP_NO_PROFILER_RANGES) && defined(DP_COMPILER_CUDA) && __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define DP_PROFILER_RANGES 1
#elif !defined(DP_NO_PROFILER_RANGES) && defined(DP_COMPILER_HIP) && __has_include(<roctracer/roctx.h>)
#include <roctracer/roctx.h>
#define DP_PROFILER_RANGES 1
#endif

#if defined(DP_COMPILER_HIP)
#include <hip/hip_runtime.h>
#define DP_GPU(name) hip##name
using dp_gpu_error_t = hipError_t;
using dp_gpu_device_prop_t = hipDeviceProp_t;
#else
#include <cuda_runtime.h>
#define DP_GPU(name) cuda##name
using dp_gpu_error_t = cudaError_t;
using dp_gpu_device_prop_t = cudaDeviceProp;
#endif

namespace dp::rt::gpu {

/// Which API this build speaks.
#if defined(DP_COMPILER_HIP)
inline constexpr const char *api = "HIP";
#else
inline constexpr const char *api = "CUDA";
#endif

/// Throws dp::error when a GPU call failed.
inline void check(dp_gpu_error_t status, const char *call, const char *file, int line,
                  const char *site) {
  if (status != DP_GPU(Success))
    throw dp::error(std::string(site ? site : "dp runtime") + ": " + api + " call " + call +
                    " failed at " + file + ":" + std::to_string(line) + ": " +
                    DP_GPU(GetErrorString)(status));
}

#define DP_GPU_CHECK(site, call) ::dp::rt::gpu::check((call), #call, __FILE__, __LINE__, (site))

/// The device's limits, queried once.
inline device_limits query_limits() {
  count(counter::device_queries);
  int device = 0;
  DP_GPU_CHECK(nullptr, DP_GPU(GetDevice)(&device));
  dp_gpu_device_prop_t prop;
  DP_GPU_CHECK(nullptr, DP_GPU(GetDeviceProperties)(&prop, device));
  return device_limits{{prop.maxGridSize[0], prop.maxGridSize[1], prop.maxGridSize[2]},
                       prop.maxThreadsPerBlock,
                       {prop.maxThreadsDim[0], prop.maxThreadsDim[1], prop.maxThreadsDim[2]},
                       std::int64_t(prop.multiProcessorCount) * prop.maxThreadsPerMultiProcessor};
}

/// True when a device is present.
inline bool device_present() {
  count(counter::device_queries);
  int devices = 0;
  return DP_GPU(GetDeviceCount)(&devices) == DP_GPU(Success) && devices > 0;
}

/// The few calls the GPU device layer (gpu/device.hpp) makes, each checked.
using stream_t = DP_GPU(Stream_t);
using event_t = DP_GPU(Event_t);
using graph_t = DP_GPU(Graph_t);
using graph_exec_t = DP_GPU(GraphExec_t);

/// Device memory; a dp::error when there is none left.
inline void *device_allocate(std::size_t bytes) {
  void *p = nullptr;
  DP_GPU_CHECK("dp runtime: device memory", DP_GPU(Malloc)(&p, bytes > 0 ? bytes : 1));
  return p;
}
inline void device_free(void *p) { (void)DP_GPU(Free)(p); }

/// Page-locked host memory: copies from and to it run asynchronously.
inline void *pinned_allocate(std::size_t bytes) {
  void *p = nullptr;
#if defined(DP_COMPILER_HIP)
  DP_GPU_CHECK("dp runtime: pinned host memory", hipHostMalloc(&p, bytes > 0 ? bytes : 1));
#else
  DP_GPU_CHECK("dp runtime: pinned host memory", cudaMallocHost(&p, bytes > 0 ? bytes : 1));
#endif
  return p;
}
inline void pinned_free(void *p) {
#if defined(DP_COMPILER_HIP)
  (void)hipHostFree(p);
#else
  (void)cudaFreeHost(p);
#endif
}

/// A stream that does not synchronise with the legacy default stream.
inline stream_t create_stream() {
  stream_t s;
  DP_GPU_CHECK("dp runtime: a stream", DP_GPU(StreamCreateWithFlags)(&s, DP_GPU(StreamNonBlocking)));
  return s;
}

/// An event without timing (cheaper to record and wait for).
inline event_t create_event() {
  event_t e;
  DP_GPU_CHECK("dp runtime: an event", DP_GPU(EventCreateWithFlags)(&e, DP_GPU(EventDisableTiming)));
  return e;
}

/// A call-site's range for Nsight Systems / Nsight Compute (NVTX) or
/// rocprof (roctx), named as messages name the call-site ("dp::forall at
/// jacobi.cpp:21:5"): the kernels and vendor calls of the call-site fall
/// inside it. Nothing without a profiler library.
class profiler_range {
public:
  explicit profiler_range([[maybe_unused]] const std::string &name) {
    count(counter::profiler_ranges);
#if defined(DP_PROFILER_RANGES) && defined(DP_COMPILER_CUDA)
    nvtxRangePushA(name.c_str());
#elif defined(DP_PROFILER_RANGES)
    roctxRangePushA(name.c_str());
#endif
  }
  ~profiler_range() {
#if defined(DP_PROFILER_RANGES) && defined(DP_COMPILER_CUDA)
    nvtxRangePop();
#elif defined(DP_PROFILER_RANGES)
    roctxRangePop();
#endif
  }
  profiler_range(const profiler_range &) = delete;
  profiler_range &operator=(const profiler_range &) = delete;
};

/// A timing event on a stream: DP_PROFILE's stamp of a point in a GPU
/// queue's work, in the host clock's time (profile.hpp). Resolved at exit
/// against an origin event the host waited for when it was first needed.
class timing_stamp final : public profile::stamp {
public:
  explicit timing_stamp(stream_t stream) {
    (void)origin();
    DP_GPU_CHECK("dp profile: a timing event", DP_GPU(EventCreate)(&event_));
    DP_GPU_CHECK("dp profile: a timing event", DP_GPU(EventRecord)(event_, stream));
  }
  ~timing_stamp() override { (void)DP_GPU(EventDestroy)(event_); }
  std::int64_t time() noexcept override {
    float ms = 0;
    if (DP_GPU(EventSynchronize)(event_) != DP_GPU(Success) ||
        DP_GPU(EventElapsedTime)(&ms, origin().event, event_) != DP_GPU(Success))
      return -1; // the device is gone (at exit, after the runtime's teardown)
    return origin().host + static_cast<std::int64_t>(static_cast<double>(ms) * 1e6);
  }

private:
  struct origin_point {
    event_t event;
    std::int64_t host;
  };
  /// An event the device reached at a known host time.
  static const origin_point &origin() {
    static const origin_point o = [] {
      origin_point p;
      DP_GPU_CHECK("dp profile: a timing event", DP_GPU(EventCreate)(&p.event));
      DP_GPU_CHECK("dp profile: a timing event", DP_GPU(EventRecord)(p.event, nullptr));
      DP_GPU_CHECK("dp profile: a timing event", DP_GPU(EventSynchronize)(p.event));
      p.host = profile::now();
      return p;
    }();
    return o;
  }
  event_t event_;
};

/// Copies `bytes` between host and device memory on a stream.
inline void copy_async(const char *site, void *to, const void *from, std::size_t bytes,
                       bool to_device, stream_t stream) {
  DP_GPU_CHECK(site, DP_GPU(MemcpyAsync)(to, from, bytes,
                                          to_device ? DP_GPU(MemcpyHostToDevice)
                                                    : DP_GPU(MemcpyDeviceToHost),
                                          stream));
}

/// Launches `kernel` on groups x shape threads on a stream and checks the
/// launch (not its execution: an event's wait reports that).
template <class... P, class... A>
void launch(const char *site, void (*kernel)(P...), const triple &group_counts,
            const triple &group_shape, stream_t stream, A &&...args) {
  const dim3 grid_dim{static_cast<unsigned>(group_counts[0]),
                      static_cast<unsigned>(group_counts[1]),
                      static_cast<unsigned>(group_counts[2])};
  const dim3 block_dim{static_cast<unsigned>(group_shape[0]),
                       static_cast<unsigned>(group_shape[1]),
                       static_cast<unsigned>(group_shape[2])};
#if defined(DP_COMPILER_HIP)
  hipLaunchKernelGGL(kernel, grid_dim, block_dim, 0, stream, static_cast<P>(args)...);
#else
  kernel<<<grid_dim, block_dim, 0, stream>>>(static_cast<P>(args)...);
#endif
  count(counter::launch_checks);
  DP_GPU_CHECK(site, DP_GPU(GetLastError)());
}

/// Waits for the whole device: only the benchmarks' baselines do (the
/// runtime waits for events, never for the device).
inline void synchronize(const char *site) {
  DP_GPU_CHECK(site, DP_GPU(DeviceSynchronize)());
}

/// Device memory owned for a scope, for the benchmarks' baselines.
class buffer {
public:
  buffer(const char *site, std::size_t bytes) {
    DP_GPU_CHECK(site, DP_GPU(Malloc)(&data_, bytes > 0 ? bytes : 1));
  }
  ~buffer() { (void)DP_GPU(Free)(data_); }
  buffer(const buffer &) = delete;
  buffer &operator=(const buffer &) = delete;
  void *get() const { return data_; }
  template <class T> T *as() const { return static_cast<T *>(data_); }

private:
  void *data_ = nullptr;
};

} // namespace dp::rt::gpu

#endif
