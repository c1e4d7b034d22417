/// \file
/// The executors a call-site can run on, and the one choice among them,
/// made once per call-site from the process's backend (backend.hpp) and its
/// execution options: the host's threads (host/executor.hpp), or the
/// build's device (device/executor.hpp) over its layer: the GPU's
/// (gpu/device.hpp) in a build by nvcc or hipcc, the emulated device's
/// (emulated/device.hpp, DP_HOST_MODE=emulate) in a host build. Each
/// pattern runs on each executor by a free overload (jobs.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../config.hpp"
#include "../error.hpp"
#include "../options.hpp"
#include "backend.hpp"
#include "device/executor.hpp"
#include "device/forall.hpp"
#include "device/pencils.hpp"
#include "device/reduce.hpp"
#include "host/executor.hpp"
#include "host/forall.hpp"
#include "host/pencils.hpp"
#include "host/reduce.hpp"
#include "plan/plan.hpp"
#include "profile.hpp"
#include "record.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
#include "gpu/primitives.hpp"
#include "gpu/device.hpp"
#else
#include "emulated/primitives.hpp"
#include "emulated/device.hpp"
#endif

namespace dp::rt {

/// The device layer of this build: the GPU's under nvcc and hipcc (whose
/// stubs are kernels only a GPU launches), else the emulated device's.
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
using build_device = gpu_device;
/// A GPU build tells the runtime, before main, which device backend it has
/// and how to ask for its device (process_backend() asks once).
inline const bool device_backend_registered =
    (detail::register_device_backend(compiled_device_backend(), &gpu::device_present), true);
#else
using build_device = emulated_device;
#endif

/// The executor of one call-site: the build's device for a device backend
/// or DP_HOST_MODE=emulate, unless the options say when(false); the host's
/// threads otherwise (a named queue's task, or now on the caller's thread).
class executor_session {
public:
  /// `site` names the call-site and outlives the session.
  executor_session(const std::string &site, const exec_options *options)
      : site_(site), backend_(process_backend()),
        device_wanted_(wants_device(site, backend_, options)),
        host_(site, device_wanted_ ? nullptr : host_queue(options)),
        recording_(dp::detail::recording::active()) {
    if (recording_) // a dp::error unless on the recording's queue
      recording_->call_site(site, options ? options->queue_state().get() : nullptr);
    if (device_wanted_) {
      auto &ex = device_executor<build_device>::get();
      const auto &named = options ? options->queue_state() : nullptr;
      auto &queue = named ? ex.device().queue_of(*named) : ex.default_queue();
      device_replay<build_device> *replay = nullptr;
      if (recording_)
        replay = &recording_->replay_by<device_replay<build_device>>(
            site, device_replay<build_device>::kind_name, [&] {
              return std::make_unique<device_replay<build_device>>(ex, queue, *recording_);
            });
      device_.emplace(ex, site, queue, hints_of(options), replay);
    } else if (recording_) {
      task_queue &queue = *host_queue(options);
      recording_->replay_by<host_replay>(site, host_replay::kind_name,
                                         [&] { return std::make_unique<host_replay>(queue); });
      host_.record_into(*recording_);
    }
  }

  /// The backend of the process.
  backend where() const { return backend_; }
  /// True when the call-site runs on a device (data moves to its memory).
  bool on_device() const { return device_.has_value(); }

  /// Runs f with the executor: the device launch or the host executor.
  template <class F> void with(F &&f) {
    if (device_)
      f(*device_);
    else
      f(host_);
  }

  /// Where the work finds `data`, an element of `block` (null: a view
  /// that owns nothing): the executor's copy, made current.
  void *place(dp::detail::storage *block, void *data, bool writes) {
    if (recording_ && block)
      recording_->use(site_, block, writes, on_device());
    return device_ ? device_->place(block, data, writes) : host_.place(block, data, writes);
  }

  /// Everything is enqueued: the blocks and scalars the work used record
  /// its completion.
  void finish() {
    if (device_)
      device_->finish();
    else
      host_.finish();
  }

  /// DP_PROFILE: where the call-site's queue is, what it is, where it runs.
  profile::stamp_ptr stamp() { return device_ ? device_->stamp() : host_.stamp(); }
  const void *queue() const {
    return device_ ? static_cast<const void *>(&device_->queue()) : host_.queue();
  }
  const char *queue_kind() const { return device_ ? device_->queue_kind() : host_.queue_kind(); }
  const char *runs_on() const { return device_ ? device_->runs_on() : host_.runs_on(); }

private:
  /// True when a call-site with these options runs on the build's device.
  static bool wants_device(const std::string &site, backend b, const exec_options *options) {
    if (options && !options->device_allowed())
      return false; // when(false)
    if (b != backend::host)
      return true;
#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)
    if (process_host_mode() == host_mode::emulate)
      throw dp::error(site + ": DP_HOST_MODE=emulate needs a program built by a host compiler");
    return false;
#else
    (void)site;
    return process_host_mode() == host_mode::emulate;
#endif
  }
  /// A named queue's host task queue, where the call-site may run on the
  /// host: null for the default queue.
  static task_queue *host_queue(const exec_options *options) {
    return options && options->queue_state() ? &options->queue_state()->host() : nullptr;
  }
  static launch_hints hints_of(const exec_options *options) {
    launch_hints hints;
    if (options && options->has_group())
      hints.group = options->group();
    if (options && options->has_max_groups())
      hints.max_groups = options->max_groups();
    return hints;
  }

  const std::string &site_;
  backend backend_;
  bool device_wanted_;
  host_executor host_;
  dp::detail::recording *recording_; ///< the recording this call-site goes into (dp::record)
  std::optional<device_launch<build_device>> device_;
};

} // namespace dp::rt
