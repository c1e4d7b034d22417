/// \file
/// Work a launch enqueued and the host may have to wait for: the handle a
/// field's data block keeps for the launches still writing or reading it,
/// and a dp::scalar for the reduction still computing it.
#pragma once

#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

#include "pool.hpp"

namespace dp::detail {

/// The completion of enqueued work (a launch, a copy): on a GPU an event
/// recorded on a stream, on the host a point in a task queue.
class completion {
public:
  virtual ~completion() = default;
  /// Blocks until the work is done. An error in it (or in earlier work of
  /// its queue not reported yet) is thrown here, once, as a dp::error
  /// naming the call-site that launched it.
  virtual void wait() = 0;
  /// Waits, but never throws: for destructors. An error stays with its
  /// queue for the next wait() to report.
  virtual void wait_quietly() noexcept = 0;
  /// wait_quietly() where the program's own thread waits (a block or a
  /// dp::scalar going away while work still uses it): counted as a host
  /// wait, as wait() is, unless a wait has already shown the work done.
  /// (Not for a queue's task waiting for another queue's work.)
  virtual void wait_at_end() noexcept { wait_quietly(); }
  /// True when the work is done; never blocks.
  virtual bool done() const = 0;
  /// The queue the work was enqueued on (an opaque identity).
  virtual const void *queue() const = 0;
  /// The part of the work a device queue runs: what another queue of the
  /// device must follow. A result read back is its copy, not the host's
  /// delivery of it afterwards, so queues follow it on the device.
  virtual const completion *device_work() const { return this; }
};

/// Shared handle on a completion: a launch gives one to every block it uses.
using pending = std::shared_ptr<completion>;

/// A completion that also runs `then` once the work is done, on the host,
/// before its waiter goes on: a reduction's result copied out of its
/// staging into the dp::scalar, say. `then` lives inside it (no
/// std::function), so it can hold the staging too: the work that writes
/// into it is made from it (then_after_start), and the completion never
/// exists without its work.
template <class Then> class completion_then final : public completion {
  struct made {}; ///< only make() builds one
public:
  completion_then(made, Then then) : then_(std::move(then)) {}
  /// The completion of the work `start(then)` makes, then `then`.
  template <class Start> static std::shared_ptr<completion_then> make(Then then, Start &&start) {
    auto done = make_pooled<completion_then>(made{}, std::move(then));
    done->work_ = std::forward<Start>(start)(done->then_);
    return done;
  }
  void wait() override {
    if (!ran_) {
      work_->wait();
      ran_ = true;
      then_();
    }
  }
  void wait_quietly() noexcept override { quietly(false); }
  void wait_at_end() noexcept override { quietly(true); }
  bool done() const override { return ran_ || work_->done(); }
  const void *queue() const override { return work_->queue(); }
  const completion *device_work() const override { return work_->device_work(); }

private:
  void quietly(bool at_end) noexcept {
    if (!ran_) {
      if (at_end)
        work_->wait_at_end();
      else
        work_->wait_quietly();
      ran_ = true;
      try {
        then_();
      } catch (...) {
      }
    }
  }
  pending work_;
  Then then_;
  bool ran_ = false;
};

/// `work`'s completion, then `then` (from a pool: no allocation in steady
/// state).
template <class F> pending then_after(pending work, F &&then) {
  return completion_then<std::decay_t<F>>::make(std::forward<F>(then),
                                                [&](auto &) { return std::move(work); });
}
/// `then`, after the work `start(then)` makes, which may write into `then`
/// (a read-back into its cell): from a pool, as then_after.
template <class F, class Start> pending then_after_start(F &&then, Start &&start) {
  return completion_then<std::decay_t<F>>::make(std::forward<F>(then), std::forward<Start>(start));
}

/// What a device layer keeps with one of its queues (its marks:
/// rt/device/marks.hpp), made on first use and told when the queue goes,
/// so that completions outliving the queue stay answerable.
class marks_slot {
public:
  /// The kept object's interface: retire() is the queue's last word (its
  /// work is done, it is going).
  struct kept {
    virtual ~kept() = default;
    virtual void retire() noexcept = 0;
  };
  /// The kept object, made by `make()` (a std::shared_ptr<T>) on first use.
  template <class T, class Make> T &get(Make &&make) {
    std::call_once(once_, [&] { kept_ = make(); });
    return static_cast<T &>(*kept_);
  }
  void retire() noexcept {
    if (kept_)
      kept_->retire();
  }

private:
  std::once_flag once_;
  std::shared_ptr<kept> kept_;
};

} // namespace dp::detail
