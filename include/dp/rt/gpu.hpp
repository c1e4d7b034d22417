/// \file
/// The few GPU API calls the runtime makes, mapped onto HIP (hipcc) or CUDA
/// (nvcc). Every call is checked where it is made; a failure becomes a
/// dp::error naming the call-site, the call and the backend's message.
/// Only device builds include this.
#pragma once

#include "../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <cstddef>
#include <string>

#include "../detail/storage.hpp"
#include "../error.hpp"
#include "dispatch.hpp"

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
  int device = 0;
  DP_GPU_CHECK(nullptr, DP_GPU(GetDevice)(&device));
  dp_gpu_device_prop_t prop;
  DP_GPU_CHECK(nullptr, DP_GPU(GetDeviceProperties)(&prop, device));
  return device_limits{{prop.maxGridSize[0], prop.maxGridSize[1], prop.maxGridSize[2]},
                       prop.maxThreadsPerBlock,
                       {prop.maxThreadsDim[0], prop.maxThreadsDim[1], prop.maxThreadsDim[2]}};
}

/// True when a device is present.
inline bool device_present() {
  int count = 0;
  return DP_GPU(GetDeviceCount)(&count) == DP_GPU(Success) && count > 0;
}

/// A field's data block on the device.
class mirror final : public dp::detail::device_mirror {
public:
  explicit mirror(std::size_t bytes) : bytes_(bytes) {
    DP_GPU_CHECK("dp::field device copy", DP_GPU(Malloc)(&data_, bytes > 0 ? bytes : 1));
  }
  ~mirror() override { (void)DP_GPU(Free)(data_); }
  void *device_data() const override { return data_; }
  void copy_to_host(void *host, std::size_t bytes) override {
    DP_GPU_CHECK("dp::field copy to host",
                 DP_GPU(Memcpy)(host, data_, bytes, DP_GPU(MemcpyDeviceToHost)));
  }
  void copy_to_device(const void *host, std::size_t bytes) override {
    DP_GPU_CHECK("dp::field copy to device",
                 DP_GPU(Memcpy)(data_, host, bytes, DP_GPU(MemcpyHostToDevice)));
  }

private:
  void *data_ = nullptr;
  std::size_t bytes_;
};

/// Device memory for a launch's temporaries (vendor scratch, sort buffers),
/// freed when the launch is done.
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

/// Copies `bytes` from device memory to the host.
inline void copy_to_host(const char *site, void *host, const void *device, std::size_t bytes) {
  DP_GPU_CHECK(site, DP_GPU(Memcpy)(host, device, bytes, DP_GPU(MemcpyDeviceToHost)));
}

/// Launches `kernel` on groups x shape threads and checks the launch.
template <class... P, class... A>
void launch(const char *site, void (*kernel)(P...), const triple &group_counts,
            const triple &group_shape, A &&...args) {
  const dim3 grid_dim{static_cast<unsigned>(group_counts[0]),
                      static_cast<unsigned>(group_counts[1]),
                      static_cast<unsigned>(group_counts[2])};
  const dim3 block_dim{static_cast<unsigned>(group_shape[0]),
                       static_cast<unsigned>(group_shape[1]),
                       static_cast<unsigned>(group_shape[2])};
#if defined(DP_COMPILER_HIP)
  hipLaunchKernelGGL(kernel, grid_dim, block_dim, 0, 0, static_cast<P>(args)...);
#else
  kernel<<<grid_dim, block_dim>>>(static_cast<P>(args)...);
#endif
  DP_GPU_CHECK(site, DP_GPU(GetLastError)());
}

/// Waits for the device and reports execution errors.
inline void synchronize(const char *site) { DP_GPU_CHECK(site, DP_GPU(DeviceSynchronize)()); }

} // namespace dp::rt::gpu

#endif
