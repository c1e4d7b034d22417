/// \file
/// dp::scalar<T>: the holder of a full reduction's result.
#pragma once

#include <utility>

#include "config.hpp"
#include "detail/completion.hpp"

namespace dp {

/// A single value that a dp::reduce combines into. Its value before the call
/// acts as the reduction's initial value.
///
///     dp::scalar<double> sum(0.0);
///     dp::reduce(g, std::plus<>(), sum, [](double x) { return x; }, A);
///     sum.get();
///
/// A reduction on a device may still be running when dp::reduce returns:
/// get(), set(), copying the scalar and destroying it wait for it (and
/// throw its error, if it had one).
namespace detail {
struct scalar_access;
}

template <class T> class scalar {
public:
  using value_type = T;
  scalar() = default;
  explicit scalar(T init) : value_(init) {}
  scalar(const scalar &o) : value_(o.get()) {}
  scalar &operator=(const scalar &o) {
    const T v = o.get();
    settle();
    value_ = v;
    return *this;
  }
  ~scalar() {
    if (pending_)
      pending_->wait_at_end();
  }

  /// The value, once every reduction into it is done.
  const T &get() const {
    settle();
    return value_;
  }
  void set(const T &v) {
    settle();
    value_ = v;
  }

private:
  friend struct detail::scalar_access;
  void settle() const {
    if (pending_) {
      detail::pending p = std::move(pending_);
      pending_.reset();
      chained_ = 0;
      p->wait(); // its continuation stores the value
    }
  }

  T value_{};
  mutable detail::pending pending_;
  mutable unsigned chained_ = 0; ///< results chained behind the first (scalar_access::after)
};

namespace detail {
/// How the runtime gives a scalar a result that arrives later.
struct scalar_access {
  /// Where a later result is stored (by the continuation of the
  /// completion given to later()): s's value, once it is settled.
  template <class T> static T *slot(scalar<T> &s) {
    s.settle();
    return &s.value_;
  }
  /// Where s's value is, without waiting for anything (a recorded
  /// reduction: its replays store there in their turn).
  template <class T> static T *value_slot(scalar<T> &s) { return &s.value_; }
  /// Drops what access to s waits for, unwaited (a recording's guard).
  template <class T> static void forget(scalar<T> &s) { s.pending_.reset(); }
  /// From now on, access to s waits for `done`.
  template <class T> static void later(scalar<T> &s, pending done) {
    s.settle();
    s.pending_ = std::move(done);
  }
  /// The queue s's result is still coming from (null: none is).
  template <class T> static const void *pending_queue(const scalar<T> &s) {
    return s.pending_ ? s.pending_->queue() : nullptr;
  }
  /// From now on, access to s waits for `done`, whose work follows the
  /// work s waits for now on the same queue: nothing is waited for here.
  template <class T> static void replace(scalar<T> &s, pending done) {
    s.pending_ = std::move(done);
  }
  /// Access to s waits for `make(before)`, where `before` is what it waits
  /// for now (null if nothing): a result that combines into s's value
  /// after `before` has delivered its own, without the host waiting here.
  /// What is already done is delivered now (no wait), and a chain of
  /// `max_chained` results nobody read is settled before it grows longer.
  template <class T, class Make> static void after(scalar<T> &s, Make &&make) {
    pending before = std::move(s.pending_);
    s.pending_.reset();
    if (before && s.chained_ >= max_chained)
      before->wait();
    if (before && before->done()) {
      before->wait_quietly(); // delivers; an error stays with its queue
      before.reset();
    }
    s.chained_ = before ? s.chained_ + 1 : 0;
    s.pending_ = std::forward<Make>(make)(std::move(before));
  }
  static constexpr unsigned max_chained = 64;
};
} // namespace detail

} // namespace dp
