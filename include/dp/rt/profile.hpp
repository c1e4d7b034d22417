/// \file
/// DP_PROFILE: where the time goes, by call-site.
///
///   DP_PROFILE=summary      a table at exit: per call-site its kind, calls,
///                           total and mean time, bytes moved, share of the run
///   DP_PROFILE=trace.json   the same table, and a trace in the Chrome trace
///                           event format (Perfetto, chrome://tracing)
///
/// The runtime records a span per call-site execution (its dispatch mode,
/// launches and groups), per transfer (direction, bytes), per host wait, and
/// an instant per device allocation. Device work is timed on its queue, by
/// stamps: a timing event on a GPU's stream, a task of the emulated device's
/// or a dp::queue's task queue; work on the calling thread by its clock.
/// Every time is resolved at exit, so profiling never waits for a device.
///
/// Off (DP_PROFILE unset, empty or 0) every hook is one test of a flag read
/// once. Memory stays bounded: the trace keeps the first DP_PROFILE_EVENTS
/// events (default 1000000), the table counts every one. This file is plain host code; the GPU's stamps are in gpu/device.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "stub/modes.hpp"

namespace dp::rt::profile {

namespace detail {
bool read_setting() noexcept;
} // namespace detail

/// Whether DP_PROFILE asks for a profile (read once). A build with
/// -DDP_NO_PROFILE has no profiling at all (the overhead benchmark's
/// baseline).
#if defined(DP_NO_PROFILE)
inline namespace compiled_out { // its own name: no clash with the library's
constexpr bool on() noexcept { return false; }
} // namespace compiled_out
#else
inline bool on() noexcept {
  static const bool enabled = detail::read_setting();
  return enabled;
}
#endif

/// The host's clock: nanoseconds since the program started.
std::int64_t now() noexcept;

/// A point in a queue's work. Its time is known once the work enqueued
/// before it is done.
class stamp {
public:
  virtual ~stamp() = default;
  /// The host clock's time (now()) when the queue reached this point;
  /// waits for it. Negative when it cannot be known.
  virtual std::int64_t time() noexcept = 0;
};
using stamp_ptr = std::shared_ptr<stamp>;

/// A point on the calling thread, now, or at a time now() gave.
stamp_ptr stamp_now();
stamp_ptr stamp_at(std::int64_t time);

/// What a record is.
enum class category { launch, to_device, to_host, allocation, wait };

/// One span (or, for an allocation, one instant) of the trace.
struct record {
  category what = category::launch;
  /// The call-site ("dp::forall at jacobi.cpp:21:5"); for a transfer or an
  /// allocation, the call-site it serves ("host access" when none); for a
  /// wait, what it waits for.
  std::string name;
  /// The queue the work ran on (its identity); null: the calling thread.
  const void *queue = nullptr;
  /// What that queue is: "GPU stream", "emulated device queue", "host queue".
  const char *queue_kind = "";
  stamp_ptr begin, end;
  std::int64_t bytes = 0;
  /// A launch: where it ran ("host", "emulated device", "CUDA", "HIP"), the
  /// dispatch mode (none for a vendor call), kernel launches and groups.
  const char *backend = "";
  dispatch_mode mode = no_mode;
  std::int64_t launches = 0, groups = 0;
  /// A copy to the device made again because the host wrote the block.
  bool reupload = false;
};

/// Adds a record (any thread). Only called when on().
void add(record r);

/// A raw device allocation of `bytes` (an instant on the calling thread's
/// track), charged to the current call-site.
void note_allocation(std::int64_t bytes);

/// The call-site a transfer or allocation now serves: the one the calling
/// thread is running or enqueueing (a site_scope), else "host access".
std::string charged_site();

/// Marks the calling thread as working for `site` while it lives.
class site_scope {
public:
  explicit site_scope(const std::string *site) noexcept;
  ~site_scope();
  site_scope(const site_scope &) = delete;
  site_scope &operator=(const site_scope &) = delete;

private:
  const std::string *previous_;
};

/// The dispatch plan the current call-site launches (device::forall's):
/// its mode, launches and groups, for the call-site's record.
struct plan_note {
  dispatch_mode mode = no_mode;
  std::int64_t launches = 0, groups = 0;
  /// A copy to the device made again because the host wrote the block.
  bool reupload = false;
};
plan_note &current_plan() noexcept;

/// A call-site's record, from where its queue is when it starts to where
/// it is once its work is enqueued; the transfers and allocations the
/// thread makes meanwhile are charged to it. Nothing when off. Executor:
/// what runs the call-site (its stamp(), queue(), queue_kind(), runs_on()).
template <class Executor> class call_span {
public:
  call_span(const std::string &site, Executor &ex) : site_(site), ex_(ex) {
    if (!on())
      return;
    begin_ = ex_.stamp();
    scope_.emplace(&site_);
    current_plan() = {};
  }
  call_span(const call_span &) = delete;
  call_span &operator=(const call_span &) = delete;

  /// The work is enqueued: the record, with the kernel launches it made.
  void end(std::int64_t launches) {
    if (!begin_)
      return;
    record r;
    r.name = site_;
    r.queue = ex_.queue();
    r.queue_kind = ex_.queue_kind();
    r.begin = std::move(begin_);
    r.end = ex_.stamp();
    r.backend = ex_.runs_on();
    r.mode = current_plan().mode;
    r.groups = current_plan().groups;
    r.launches = launches;
    add(std::move(r));
    scope_.reset();
  }

private:
  const std::string &site_;
  Executor &ex_;
  stamp_ptr begin_;
  std::optional<site_scope> scope_;
};

/// A transfer on `queue`, timed by the layer's stamps around it.
/// `reupload`: a copy to the device of a block uploaded before, made
/// again because the host wrote it (host access through a non-const field).
template <class Device, class Queue, class Copy>
void timed_transfer(Device &device, Queue &queue, category what, std::size_t bytes, Copy &&copy,
                    bool reupload = false) {
  if (!on()) {
    copy();
    return;
  }
  record r;
  r.what = what;
  r.name = charged_site();
  r.queue = &queue;
  r.queue_kind = Device::queue_kind;
  r.bytes = static_cast<std::int64_t>(bytes);
  r.reupload = reupload;
  r.begin = device.stamp(queue);
  copy();
  r.end = device.stamp(queue);
  add(std::move(r));
}

/// The host blocking in `wait()` for `what`, recorded on the calling
/// thread's track when it blocked at all.
template <class Wait> void timed_wait(const std::string &what, Wait &&wait) {
  if (!on()) {
    wait();
    return;
  }
  struct recorded {
    const std::string &what;
    std::int64_t begin = now();
    ~recorded() {
      const std::int64_t end = now();
      if (end - begin < 1000) // it did not block: no record
        return;
      record r;
      r.what = category::wait;
      r.name = what;
      r.begin = stamp_at(begin);
      r.end = stamp_at(end);
      add(std::move(r));
    }
  } guard{what};
  wait();
}
/// The same, named by a literal: no string is made unless profiling.
template <class Wait> void timed_wait(const char *what, Wait &&wait) {
  if (!on()) {
    wait();
    return;
  }
  timed_wait(std::string(what), std::forward<Wait>(wait));
}

} // namespace dp::rt::profile
