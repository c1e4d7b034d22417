/// \file
/// An in-order queue of host tasks run by a thread of its own: the stream
/// of the emulated device (DP_HOST_MODE=emulate) and of named queues on the
/// host backend. Tasks run one after the other, in the order enqueued; each
/// may use every core (oneTBB) inside. A task that throws marks its call-
/// site's error, which the next wait covering it throws (once); later
/// tasks still run. Plain host code: CTest exercises every path of the
/// launch bookkeeping through it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../detail/completion.hpp"
#include "../detail/ring.hpp"
#include "profile.hpp"

namespace dp::rt {

/// The tasks waiting in a queue: a ring (a std::deque took a new chunk
/// every dozen tasks).
template <class T> using task_ring = dp::detail::ring<T>;

/// An in-order task queue with a worker thread.
class task_queue {
  struct state; // what the worker and the queue's points share (below)

public:
  task_queue();
  ~task_queue(); ///< runs what is left, then stops its thread
  task_queue(const task_queue &) = delete;
  task_queue &operator=(const task_queue &) = delete;

  /// Enqueues `task`; `site` (which must outlive the task: a literal or a
  /// call-site's name) names the call-site in its error, if any.
  void enqueue(const char *site, std::function<void()> task);

  /// Tasks kept instead of run, each with the site that names its error.
  using captured = std::vector<std::pair<const char *, std::function<void()>>>;
  /// The queue's counterpart of a stream capture (dp::record): from now
  /// until end_capture(), what is enqueued is kept, in order, not run.
  /// Only the capturing thread may enqueue meanwhile.
  void begin_capture();
  /// The tasks kept since begin_capture(); the queue runs what is
  /// enqueued again.
  captured end_capture();
  /// Enqueues `tasks` as one task named `name` (a graph's launch): they
  /// run in order, as run_all() runs them.
  void replay(const char *name, std::shared_ptr<const captured> tasks);
  /// Runs `tasks` in order; the first error among them is thrown once all
  /// have run, naming its task's site.
  static void run_all(const captured &tasks);
  /// The completion of everything enqueued so far.
  dp::detail::pending record();

  /// A point of the queue, as a value: the tasks enqueued before it.
  class point {
  public:
    point() = default;
    /// True when every task before it has run; never blocks.
    bool done() const;
    /// Blocks until they have; with `report`, throws the first error among
    /// them not reported yet (once).
    void wait(bool report) const;
    /// The queue's identity.
    const void *queue() const { return id_; }

  private:
    friend class task_queue;
    const void *id_ = nullptr;
    std::shared_ptr<state> s_;
    std::uint64_t seq_ = 0;
  };
  /// The point the queue is at now (no allocation).
  point here() const;

  /// What a device layer keeps with this queue (device/marks.hpp).
  dp::detail::marks_slot marks;
  /// A profile stamp: the time the queue reaches this point (a task that
  /// reads the clock). Only DP_PROFILE's records use it.
  profile::stamp_ptr stamp();
  /// Blocks until every task enqueued so far has run; throws an error not
  /// yet reported.
  void wait();
  /// How many tasks were ever enqueued.
  std::uint64_t enqueued() const;

private:
  class event;
  class queue_stamp;
  struct failure {
    std::uint64_t seq;
    std::string what;
  };
  /// What the worker and the queue's events share: an event may outlive
  /// the queue (a cached block remembers the last work that used it), so
  /// it keeps this alive rather than the queue.
  struct state {
    mutable std::mutex mutex;
    std::condition_variable work_ready, work_done;
    task_ring<std::pair<const char *, std::function<void()>>> tasks;
    std::uint64_t enqueued = 0, completed = 0;
    std::optional<failure> first_failure; ///< the first error not reported yet
    bool stopping = false;
    std::optional<captured> capture; ///< between begin_capture() and end_capture()
    void wait_for(std::uint64_t seq, bool report);
  };
  void run();
  /// Appends a task; its number in the queue (what wait_for waits for).
  std::uint64_t push(const char *site, std::function<void()> task);

  std::shared_ptr<state> s_;
  std::thread worker_;
};

} // namespace dp::rt
