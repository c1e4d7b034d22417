/// \file
/// The completions of a device queue's work without an event per launch.
/// A call-site's completion is a mark: its queue and a number in the
/// queue's order, made with no device call and no heap allocation (a
/// pooled block). The layer's events (a cudaEvent_t on a GPU, a point of
/// the emulated device's task queue) are recorded only when somebody needs
/// one: the host waiting for the mark, another queue's work following it,
/// or a question whether it is done. An event recorded later covers every
/// earlier mark of its queue (waiting for more work than needed is never
/// wrong), so one event serves many marks, and events are reused once done.
/// A queue's marks are kept in a book, which lives as long as the process:
/// a queue that goes hands its book (and its spare events) to a later
/// queue, which numbers on from where it ended, so a mark refers to its
/// book by address (no reference count per launch) and a mark older than
/// its book's present queue is done.
/// Plain host code over the layer's event calls (device/executor.hpp lists
/// them), so CTest counts on the emulated device the events a GPU records.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "../../detail/completion.hpp"
#include "../../detail/pool.hpp"
#include "../../detail/ring.hpp"
#include "../counters.hpp"
#include "../profile.hpp"

namespace dp::rt {

/// The marks of one device queue: the numbers handed out, the events
/// recorded for them, and how far the queue is known to be done.
template <class Device> class mark_book final : public dp::detail::marks_slot::kept {
public:
  using queue_type = typename Device::queue_type;
  using event_type = typename Device::event_type;

  /// The book of `queue` (a new queue): a book a gone queue handed on, or
  /// a new one. The queue's slot keeps it and hands it on (never freed:
  /// marks of the queues it served may still ask it).
  static std::shared_ptr<mark_book> open(Device &device, queue_type &queue) {
    shelf &s = shelf::get();
    mark_book *book = nullptr;
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (!s.books.empty()) {
        book = s.books.back();
        s.books.pop_back();
      }
    }
    if (!book)
      book = new mark_book();
    {
      std::lock_guard<std::mutex> lock(book->mutex_);
      book->device_ = &device;
      book->queue_ = &queue;
    }
    return std::shared_ptr<mark_book>(book, [](mark_book *b) { shelf::get().put(b); });
  }
  ~mark_book() override = default; // books are never freed (open())

  /// A new mark: the queue's work enqueued so far.
  /// (No lock: the queue's work enqueued before it happens before any
  /// thread that sees the number records an event covering it.)
  std::uint64_t mark() { return marked_.fetch_add(1, std::memory_order_acq_rel) + 1; }

  /// True when the work before mark m is done; never blocks (it may record
  /// an event, to ask).
  bool done(std::uint64_t m) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (m <= completed_)
      return true;
    const recorded r = covering(m);
    const bool finished = device_->event_done(r.event);
    if (finished)
      reached(r.mark);
    return finished;
  }

  /// True when a wait has shown the work before mark m done (no device
  /// query).
  bool known_done(std::uint64_t m) {
    std::lock_guard<std::mutex> lock(mutex_);
    return m <= completed_;
  }
  /// True when m is the queue's latest mark: no work given to the queue
  /// since.
  bool is_last(std::uint64_t m) const { return marked_.load(std::memory_order_acquire) == m; }
  /// True when an event recorded already covers mark m but not the
  /// queue's latest work (or m is done): following m then waits for none
  /// of the work given to the queue after it. An event recorded now would
  /// cover that work too.
  bool recorded_before_latest(std::uint64_t m) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (m <= completed_)
      return true;
    const std::uint64_t latest = marked_.load(std::memory_order_acquire);
    for (std::size_t i = 0; i < recorded_.size(); ++i)
      if (recorded_[i].mark >= m) // the event covering() would take
        return recorded_[i].mark < latest;
    return false;
  }
  /// The queue, or null once it is gone.
  queue_type *open_queue() {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_;
  }
  /// The work before mark m is done: a wait for later work of the queue
  /// returned.
  void reached_by_later_wait(std::uint64_t m) {
    std::lock_guard<std::mutex> lock(mutex_);
    reached(m);
  }

  /// The host waits for the work before mark m; an error in it is thrown
  /// (a dp::error naming `site`), unless quietly.
  void wait(std::uint64_t m, const char *site, bool quietly) {
    recorded r;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (m <= completed_)
        return;
      r = covering(m);
      ++waiting_; // its event stays out of the spares meanwhile
    }
    // No longer waiting before reached(), which leaves the events in use
    // out of the spares while anybody waits: otherwise every wait left its
    // event recorded for good (a new event per read, and a longer list to
    // search each time).
    struct unwait {
      mark_book &book;
      bool waited = false;
      ~unwait() {
        std::lock_guard<std::mutex> lock(book.mutex_);
        --book.waiting_;
        if (waited)
          book.reached(mark);
      }
      std::uint64_t mark;
    } done_waiting{*this, false, r.mark};
    if (quietly)
      device_->event_wait_quietly(r.event);
    else
      device_->event_wait(r.event, site ? site : "dp: a queue's work");
    done_waiting.waited = true;
  }

  /// `other`'s later work follows the work before mark m (an event wait on
  /// the other queue, not a host wait).
  void follow_in(queue_type &other, std::uint64_t m) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (m <= completed_)
      return;
    const recorded r = covering(m);
    count(counter::queue_waits);
    device_->queue_wait(other, r.event);
  }

  /// The queue goes: its work is waited for, every mark is done.
  void retire() noexcept override {
    std::uint64_t last;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      last = marked_.load(std::memory_order_acquire);
    }
    if (last > completed_)
      wait(last, nullptr, true);
    std::lock_guard<std::mutex> lock(mutex_);
    completed_ = marked_.load(std::memory_order_acquire);
    queue_ = nullptr;
  }

private:
  /// The books of gone queues, for later queues.
  struct shelf {
    static shelf &get() {
      static shelf *s = new shelf; // never destroyed: queues may go at exit
      return *s;
    }
    void put(mark_book *b) {
      std::lock_guard<std::mutex> lock(mutex);
      books.push_back(b);
    }
    std::mutex mutex;
    std::vector<mark_book *> books;
  };
  mark_book() = default;

  struct recorded {
    std::uint64_t mark = 0; ///< covers every mark up to this one
    event_type event{};
  };

  /// An event that covers mark m (locked): the first recorded at or after
  /// it, else one recorded now (it covers every mark so far).
  recorded covering(std::uint64_t m) {
    for (std::size_t i = 0; i < recorded_.size(); ++i)
      if (recorded_[i].mark >= m)
        return recorded_[i];
    recorded r;
    r.mark = marked_.load(std::memory_order_acquire);
    if (!spare_.empty()) {
      r.event = spare_.back();
      spare_.pop_back();
    } else {
      count(counter::events_created);
      r.event = device_->new_event();
    }
    count(counter::events_recorded);
    device_->record_event(*queue_, r.event);
    recorded_.push_back(r);
    return r;
  }
  /// The work before mark m is done (locked): events up to it are spare
  /// again, unless a host thread is waiting on one.
  void reached(std::uint64_t m) {
    if (m > completed_)
      completed_ = m;
    if (waiting_ > 0)
      return;
    while (!recorded_.empty() && recorded_.front().mark <= completed_) {
      spare_.push_back(recorded_.pop_front().event);
    }
  }

  Device *device_ = nullptr;
  queue_type *queue_ = nullptr; ///< null once it is gone
  std::mutex mutex_;
  std::atomic<std::uint64_t> marked_{0};
  std::uint64_t completed_ = 0;
  int waiting_ = 0;
  dp::detail::ring<recorded> recorded_; ///< by mark, oldest first (no allocation in steady state)
  std::vector<event_type> spare_;
};

/// A mark as a completion: what a launch's blocks and scalars hold.
template <class Device> class mark final : public dp::detail::completion {
public:
  mark(mark_book<Device> &book, const void *queue, std::uint64_t at, const char *site)
      : book_(&book), queue_(queue), at_(at), site_(site) {}
  /// A wait on work a later wait has shown done returns at once: no host
  /// wait is counted.
  void wait() override {
    if (!waited_) {
      if (!book_->known_done(at_)) {
        count(counter::host_waits);
        profile::timed_wait(site_, [&] { book_->wait(at_, site_, false); });
      }
      waited_ = true;
    }
  }
  void wait_quietly() noexcept override {
    if (!waited_)
      book_->wait(at_, site_, true);
  }
  void wait_at_end() noexcept override {
    if (!waited_ && !book_->known_done(at_)) {
      count(counter::host_waits);
      book_->wait(at_, site_, true);
    }
  }
  bool done() const override { return waited_ || book_->done(at_); }
  const void *queue() const override { return queue_; }
  /// `other` (a queue of the same device) follows this work.
  void follow_in(typename Device::queue_type &other) const { book_->follow_in(other, at_); }
  /// True when a wait has shown this work done (no device query).
  bool known_done() const { return book_->known_done(at_); }
  /// Its place in its queue's order: of two marks of one queue, the one
  /// with the larger place is done only after the other.
  std::uint64_t place() const { return at_; }
  /// Its queue, where this work is the last the queue was given; else
  /// null (later work would hold up what follows it there, or the queue
  /// is gone).
  typename Device::queue_type *queue_if_last() const {
    return book_->is_last(at_) ? book_->open_queue() : nullptr;
  }
  /// Its queue, or null once it is gone.
  typename Device::queue_type *open_queue() const { return book_->open_queue(); }
  /// True when another queue can follow this work (follow_in) without
  /// following its queue's later work as well (mark_book::recorded_before_latest).
  bool followed_alone() const { return book_->recorded_before_latest(at_); }
  /// A wait for later work of its queue returned: this work is done.
  void done_by_later_wait() const { book_->reached_by_later_wait(at_); }

private:
  mark_book<Device> *book_; ///< never freed (mark_book::open)
  const void *queue_;        ///< its queue's identity (it may be gone)
  std::uint64_t at_;
  const char *site_;
  bool waited_ = false;
};

/// The marks of `queue`, opened on first use and kept with the queue.
template <class Device>
mark_book<Device> &marks_of(Device &device, typename Device::queue_type &queue) {
  return queue.marks.template get<mark_book<Device>>(
      [&] { return mark_book<Device>::open(device, queue); });
}

} // namespace dp::rt
