/// \file
/// The executors a call-site can run on, and the choice among them, made
/// once per call-site: the host's threads (host/patterns.hpp), the emulated
/// device (emulated/device.hpp, DP_HOST_MODE=emulate in a host build) or
/// the GPU (gpu/device.hpp, in a build by nvcc or hipcc). The device
/// executors share everything but their layer (device/*.hpp).
#pragma once

#include <optional>
#include <string>

#include "../config.hpp"
#include "../error.hpp"
#include "backend.hpp"
#include "device/executor.hpp"
#include "host/rows.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
#include "gpu/device.hpp"
#else
#include "emulated/device.hpp"
#endif

namespace dp::rt {

/// The device executor's layer of this build: the GPU's under nvcc and
/// hipcc (whose stubs are kernels only a GPU launches), else the emulated
/// device's.
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
using build_device = gpu_device;
#else
using build_device = emulated_device;
#endif

/// Runs `f` with the executor chosen for a call-site: a host_executor, or
/// the call-site's device_launch.
class executor_session {
public:
  /// The host's threads for the host backend run natively, else the
  /// build's device: the GPU, or the emulated device (DP_HOST_MODE=emulate).
  executor_session(backend b, host_mode mode, const std::string &site) {
    const bool device = b != backend::host || mode == host_mode::emulate;
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
    if (b == backend::host && mode == host_mode::emulate)
      throw dp::error(site + ": DP_HOST_MODE=emulate needs a program built by a host compiler");
#endif
    if (device)
      device_.emplace(device_executor<build_device>::get(), site);
  }

  /// True when the call-site runs on a device (data moves to its memory).
  bool on_device() const { return device_.has_value(); }

  template <class F> void with(F &&f) {
    if (device_) {
      f(*device_);
    } else {
      host_executor host;
      f(host);
    }
  }

  /// The device copy of a block of `bytes`.
  dp::detail::device_mirror *new_mirror(std::size_t bytes) {
    return device_executor<build_device>::get().mirror(bytes);
  }
  /// The completion of what the call-site enqueued; null on the host.
  dp::detail::pending finish() { return device_ ? device_->finish() : nullptr; }

private:
  std::optional<device_launch<build_device>> device_;
};

/// A set of lambdas as one overloaded callable: an executor's pattern each.
template <class... F> struct overloaded : F... {
  using F::operator()...;
};
template <class... F> overloaded(F...) -> overloaded<F...>;

} // namespace dp::rt
