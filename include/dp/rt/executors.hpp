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
#include "../options.hpp"
#include "backend.hpp"
#include "profile.hpp"
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
/// A GPU build tells the runtime, before main, which device backend it has
/// and how to ask for its device (process_backend() asks once).
inline const bool device_backend_registered =
    (detail::register_device_backend(compiled_device_backend(), &gpu::device_present), true);
#else
using build_device = emulated_device;
#endif

/// Runs `f` with the executor chosen for a call-site: a host_executor
/// (now, or as a named queue's task), or the call-site's device_launch on
/// the default queue or the named queue's.
class executor_session {
public:
  /// The build's device for a GPU backend or DP_HOST_MODE=emulate, unless
  /// the options say when(false); the host's threads otherwise. A named
  /// queue gives its own stream (or task queue).
  executor_session(backend b, host_mode mode, const std::string &site,
                   const exec_options *options) {
    const bool when = !options || options->device_allowed();
    const std::shared_ptr<dp::detail::queue_state> none;
    const std::shared_ptr<dp::detail::queue_state> &named = options ? options->queue_state() : none;
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
    if (when && b == backend::host && mode == host_mode::emulate)
      throw dp::error(site + ": DP_HOST_MODE=emulate needs a program built by a host compiler");
#endif
    if (when && (b != backend::host || mode == host_mode::emulate)) {
      auto &ex = device_executor<build_device>::get();
      launch_hints hints;
      if (options && options->has_group())
        hints.group = options->group();
      if (options && options->has_max_groups())
        hints.max_groups = options->max_groups();
      device_.emplace(ex, site, named ? ex.device().queue_of(*named) : ex.default_queue(), hints);
    } else if (named) {
      host_.queue = &named->host();
    }
  }

  /// True when the call-site runs on a device (data moves to its memory).
  bool on_device() const { return device_.has_value(); }
  /// True when it runs as a named queue's host task.
  bool on_host_queue() const { return !device_ && host_.queue; }
  /// The queue the call-site's work goes on (its identity): null for the
  /// caller's thread.
  const void *queue() const {
    return device_ ? static_cast<const void *>(&device_->queue()) : host_.queue;
  }

  /// DP_PROFILE's stamp of where the call-site's queue is (or of now, on
  /// the caller's thread), and what kind of track that queue is.
  profile::stamp_ptr stamp() {
    if (device_)
      return device_->device().stamp(device_->queue());
    return host_.queue ? host_.queue->stamp() : profile::stamp_now();
  }
  const char *queue_kind() const {
    return device_ ? build_device::queue_kind : host_.queue ? "host queue" : "";
  }
  /// Where the work runs, for a profile: the device's name, or the host.
  const char *runs_on() const { return device_ ? build_device::name : "the host"; }

  /// The device queue the call-site's work goes on (opaque), or null.
  void *device_queue() { return device_ ? static_cast<void *>(&device_->queue()) : nullptr; }

  template <class F> void with(F &&f) {
    if (device_)
      f(*device_);
    else
      f(host_);
  }

  /// The work about to be enqueued waits for other queues' first.
  void wait_for(const std::vector<dp::detail::pending> &work) {
    if (device_)
      device_->wait_for(work);
    else
      host_.waits.insert(host_.waits.end(), work.begin(), work.end());
  }

  /// The device copy of a block of `bytes`, first used by this call-site.
  dp::detail::device_mirror *new_mirror(std::size_t bytes) {
    return device_executor<build_device>::get().mirror(bytes, device_->queue());
  }
  /// The completion of what the call-site enqueued; null when it ran on
  /// the caller's thread.
  dp::detail::pending finish() {
    if (device_)
      return device_->finish();
    return host_.queue ? host_.queue->record() : nullptr;
  }

private:
  host_executor host_;
  std::optional<device_launch<build_device>> device_;
};

/// A set of lambdas as one overloaded callable: an executor's pattern each.
template <class... F> struct overloaded : F... {
  using F::operator()...;
};
template <class... F> overloaded(F...) -> overloaded<F...>;

} // namespace dp::rt
