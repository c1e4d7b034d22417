/// \file
/// The executors a call-site can run on, and the one choice among them,
/// made once per call-site from the process's backend (backend.hpp), its
/// execution options and whether dp::record is recording: the host's
/// threads (host/executor.hpp), or the build's device (device/executor.hpp)
/// over its layer: the GPU's (gpu/device.hpp) in a build by nvcc or hipcc,
/// the emulated device's (emulated/device.hpp, DP_HOST_MODE=emulate) in a
/// host build; or, inside a recording, the recorder of either side
/// (host/recorder.hpp, device/recorder.hpp), which keeps the work for the
/// replays instead of running it. Each pattern runs on each executor by a
/// free overload (jobs.hpp); a recorder runs its side's patterns, all but
/// the full reduce's delivery of its result, which is its own.
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
#include "device/recorder.hpp"
#include "device/reduce.hpp"
#include "host/executor.hpp"
#include "host/forall.hpp"
#include "host/pencils.hpp"
#include "host/recorder.hpp"
#include "host/reduce.hpp"
#include "plan/plan.hpp"
#include "profile.hpp"

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
/// threads otherwise (a named queue's task, or now on the caller's thread);
/// inside a recording, that side's recorder.
class executor_session {
public:
  /// `site` names the call-site and outlives the session.
  executor_session(const std::string &site, const exec_options *options)
      : backend_(process_backend()), device_wanted_(wants_device(site, backend_, options)),
        host_(site, device_wanted_ ? nullptr : host_queue(options)) {
    // A dp::error unless on the recording's queue.
    dp::detail::recording *rec = dp::detail::recording::of_call_site(
        site, options ? options->queue_state().get() : nullptr);
    if (device_wanted_) {
      auto &ex = device_executor<build_device>::get();
      const auto &named = options ? options->queue_state() : nullptr;
      auto &queue = named ? ex.device().queue_of(*named) : ex.default_queue();
      if (rec)
        device_recorder_.emplace(ex, site, queue, hints_of(options), *rec);
      else
        device_.emplace(ex, site, queue, hints_of(options));
      runs_ = rec ? runs::device_recorder : runs::device;
    } else if (rec) {
      host_recorder_.emplace(site, *host_queue(options), *rec);
      runs_ = runs::host_recorder;
    }
  }

  /// The backend of the process.
  backend where() const { return backend_; }
  /// True when the call-site runs on a device (data moves to its memory).
  bool on_device() const { return runs_ == runs::device || runs_ == runs::device_recorder; }

  /// Runs f with the executor: the device launch, the host executor, or
  /// one of their recorders.
  template <class F> void with(F &&f) {
    switch (runs_) {
    case runs::device: return f(*device_);
    case runs::device_recorder: return f(*device_recorder_);
    case runs::host_recorder: return f(*host_recorder_);
    case runs::host: break;
    }
    f(host_);
  }

  /// Where the work finds `data`, an element of `block` (null: a view
  /// that owns nothing): the executor's copy, made current (a recorder's
  /// is made current by each replay).
  void *place(dp::detail::storage *block, void *data, bool writes) {
    void *at = nullptr;
    with([&](auto &ex) { at = ex.place(block, data, writes); });
    return at;
  }

  /// Everything is enqueued: the blocks and scalars the work used record
  /// its completion (a recorder's work completes at each replay).
  void finish() {
    with([](auto &ex) { ex.finish(); });
  }

  /// DP_PROFILE: where the call-site's queue is, what it is, where it runs.
  profile::stamp_ptr stamp() {
    if (device_launch<build_device> *d = device())
      return d->stamp();
    return host().stamp();
  }
  const void *queue() {
    if (device_launch<build_device> *d = device())
      return &d->queue();
    return host().queue();
  }
  const char *queue_kind() {
    if (device_launch<build_device> *d = device())
      return d->queue_kind();
    return host().queue_kind();
  }
  const char *runs_on() {
    if (device_launch<build_device> *d = device())
      return d->runs_on();
    return host().runs_on();
  }

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

  /// The device executor (a launch or a recorder), or null.
  device_launch<build_device> *device() {
    if (device_)
      return &*device_;
    return device_recorder_ ? &*device_recorder_ : nullptr;
  }
  /// The host executor (itself or its recorder).
  host_executor &host() { return host_recorder_ ? *host_recorder_ : host_; }

  enum class runs { host, device, host_recorder, device_recorder };
  backend backend_;
  bool device_wanted_;
  runs runs_ = runs::host;
  host_executor host_;
  std::optional<device_launch<build_device>> device_;
  std::optional<device_recorder<build_device>> device_recorder_;
  std::optional<host_recorder> host_recorder_;
};

} // namespace dp::rt
