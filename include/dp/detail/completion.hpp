/// \file
/// Work a launch enqueued and the host may have to wait for: the handle a
/// field's data block keeps for the launches still writing or reading it,
/// and a dp::scalar for the reduction still computing it.
#pragma once

#include <functional>
#include <memory>

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
  /// True when the work is done; never blocks.
  virtual bool done() const = 0;
  /// The queue the work was enqueued on (an opaque identity).
  virtual const void *queue() const = 0;
};

/// Shared handle on a completion: a launch gives one to every block it uses.
using pending = std::shared_ptr<completion>;

/// A completion that also runs `then` once the work is done, on the host,
/// before its waiter goes on: a reduction's result copied out of its
/// staging into the dp::scalar, say.
class completion_then final : public completion {
public:
  template <class F>
  completion_then(pending work, F &&then) : work_(std::move(work)), then_(std::forward<F>(then)) {}
  void wait() override {
    if (!ran_) {
      work_->wait();
      ran_ = true;
      then_();
    }
  }
  void wait_quietly() noexcept override {
    if (!ran_) {
      work_->wait_quietly();
      ran_ = true;
      try {
        then_();
      } catch (...) {
      }
    }
  }
  bool done() const override { return ran_ || work_->done(); }
  const void *queue() const override { return work_->queue(); }

private:
  pending work_;
  std::function<void()> then_;
  bool ran_ = false;
};

} // namespace dp::detail
