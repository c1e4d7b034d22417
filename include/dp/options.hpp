/// \file
/// Execution controls (after OpenACC's async/wait, if, num_gangs /
/// num_workers / vector_length): dp::queue, and the execution options a
/// call-site may take as its first argument.
///
///     dp::queue q;
///     dp::forall(dp::on(q), g, kernel, a);                  // enqueued on q
///     dp::forall(dp::on(q).when(n > 4096), g, kernel, a);   // the device only for large n
///     dp::forall(dp::group_size(128).max_groups(1024), g, kernel, a);
///     q.wait();
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "detail/call_info.hpp"
#include "wait.hpp"

namespace dp {

namespace rt {
class task_queue;
} // namespace rt

namespace detail {

/// What a dp::queue is, wherever it runs: a host task queue (its named
/// launches on the host's threads, or its stream on the emulated device)
/// and, once a GPU runs its work, that GPU's stream. Both are made on first
/// use.
class queue_state {
public:
  queue_state();
  ~queue_state(); ///< waits for what is enqueued (errors stay unreported)
  queue_state(const queue_state &) = delete;
  queue_state &operator=(const queue_state &) = delete;

  /// The host task queue, made on first use (no lock after that).
  rt::task_queue &host();
  /// The device's queue (a stream), made on first use by `make`.
  template <class Q, class Make> Q &device(Make &&make) {
    if (void *q = device_ready_.load(std::memory_order_acquire))
      return *static_cast<Q *>(q); // every launch after the first: no lock
    std::lock_guard<std::mutex> lock(mutex_);
    if (!device_) {
      Q *q = make();
      device_ = std::shared_ptr<void>(q, [](void *p) { delete static_cast<Q *>(p); });
      device_wait_ = [q] { wait_device_queue(*q); };
      device_ready_.store(q, std::memory_order_release);
    }
    return *static_cast<Q *>(device_.get());
  }
  /// Waits for everything enqueued on it; throws an error not yet reported.
  void wait();

private:
  std::mutex mutex_;
  std::unique_ptr<rt::task_queue> host_;
  std::atomic<rt::task_queue *> host_ready_{nullptr};
  std::shared_ptr<void> device_; ///< the device's queue, type-erased
  std::atomic<void *> device_ready_{nullptr};
  std::function<void()> device_wait_;
};

/// Every live queue, for dp::wait_all().
void register_queue(const std::shared_ptr<queue_state> &q);

} // namespace detail

/// An in-order queue of launches: a stream on a GPU, a task queue of its
/// own on the host (two queues' launches may run at the same time). A
/// handle: copies name the same queue. Launches on different queues that
/// use the same field are ordered by the runtime (a launch waits for the
/// pending work of other queues that writes what it reads, or reads what it
/// writes), so no program sees a race its untranslated form does not have.
///
///     dp::queue copy, compute;
///     dp::forall(dp::on(copy), g, stage, chunk, input);
///     dp::forall(dp::on(compute), g, kernel, out, chunk);  // waits for `stage`
///     compute.wait();
class queue {
public:
  queue() : state_(std::make_shared<detail::queue_state>()) { detail::register_queue(state_); }
  /// Every launch enqueued on this queue has finished; throws the first
  /// error of one of them no wait has reported (naming its call-site).
  void wait() const { state_->wait(); }
  bool operator==(const queue &o) const { return state_ == o.state_; }
  bool operator!=(const queue &o) const { return state_ != o.state_; }
  /// The queue's state (for the runtime).
  const std::shared_ptr<detail::queue_state> &state() const { return state_; }

private:
  std::shared_ptr<detail::queue_state> state_;
};

/// Execution options: the optional first argument of every call-site kind.
/// Made by dp::on(q) or dp::group_size(...) and chained in any order.
class exec_options {
public:
  exec_options() = default;

  /// Enqueue on q (the default queue otherwise).
  exec_options on(const queue &q) const {
    exec_options o = *this;
    o.queue_ = q.state();
    return o;
  }
  /// OpenACC's `if`: on the device only when `device` holds, else natively
  /// on the host (with the usual data coherence).
  exec_options when(bool device) const {
    exec_options o = *this;
    o.device_ = device;
    return o;
  }
  /// Threads per group: x (fastest), y, z. A group of more than 1024
  /// threads, or one the device does not allow, is a dp::error naming the
  /// call-site; so is one on a tiled domain (the tile is the group).
  exec_options group_size(std::int64_t x, std::int64_t y = 1, std::int64_t z = 1) const {
    exec_options o = *this;
    o.group_ = {x, y, z};
    return o;
  }
  /// At most n groups per launch (more launches when needed).
  exec_options max_groups(std::int64_t n) const {
    exec_options o = *this;
    o.max_groups_ = n;
    o.has_max_groups_ = true;
    return o;
  }

  /// The queue named, or null for the default queue.
  const std::shared_ptr<detail::queue_state> &queue_state() const { return queue_; }
  /// False when when(false) sends the call-site to the host.
  bool device_allowed() const { return device_; }
  /// The group shape asked for; {0, 0, 0} when none was.
  const std::array<std::int64_t, 3> &group() const { return group_; }
  bool has_group() const { return group_[0] != 0; }
  /// The most groups per launch asked for, if a limit was.
  bool has_max_groups() const { return has_max_groups_; }
  std::int64_t max_groups() const { return max_groups_; }

private:
  std::shared_ptr<detail::queue_state> queue_;
  bool device_ = true;
  std::array<std::int64_t, 3> group_{0, 0, 0};
  std::int64_t max_groups_ = 0;
  bool has_max_groups_ = false;
};

/// Options that enqueue on q.
inline exec_options on(const queue &q) { return exec_options().on(q); }
/// Options that run on the device only when `device` holds.
inline exec_options when(bool device) { return exec_options().when(device); }
/// Options with at most n groups per launch.
inline exec_options max_groups(std::int64_t n) { return exec_options().max_groups(n); }
/// Options with a group shape (x, y, z threads).
inline exec_options group_size(std::int64_t x, std::int64_t y = 1, std::int64_t z = 1) {
  return exec_options().group_size(x, y, z);
}

namespace detail {
/// Whether a call-site's first argument is its execution options.
template <class T> struct is_exec_options : std::is_same<std::decay_t<T>, exec_options> {};
template <class T> inline constexpr bool is_exec_options_v = is_exec_options<T>::value;

/// The hints of `options` checked against what every device allows and
/// against a tiled domain (whose tile is the group): a message, or empty.
std::string check_hints(const exec_options &options, bool tiled);
/// The untranslated call-site's check of its hints: a dp::error naming it.
void check_reference_hints(const call_info &call, const exec_options &options, bool tiled);

/// How an untranslated call-site's execution options arrive: with the
/// caller's line (detail/source_site.hpp). The tool's view of the headers
/// takes them plainly: it locates call-sites itself.
#if defined(DPSTUB_TOOL)
using options_arg = const exec_options &;
#else
using options_arg = at_site<exec_options>;
#endif

/// Enables a call-site kind's plain overload: any domain but execution
/// options and a sited grid, which have overloads of their own.
template <class Domain>
using plain_domain_t = std::enable_if_t<!is_exec_options_v<Domain> && !sited_domain_v<Domain>, int>;

/// An untranslated call-site with execution options first: its hints
/// checked as a device would check them (a dp::error naming `kind` at the
/// caller's line; `tiled`: over a tiled domain), then `body(site,
/// &options)`, the kind's reference body.
template <class Body> void with_options(options_arg options, const char *kind, bool tiled, Body &&body) {
#if !defined(DPSTUB_TOOL)
  check_reference_hints({kind, nullptr, site_of(options)}, value_of(options), tiled);
#else
  (void)kind, (void)tiled;
#endif
  body(site_of(options), &value_of(options));
}
} // namespace detail

} // namespace dp
