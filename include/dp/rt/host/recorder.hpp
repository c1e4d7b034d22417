/// \file
/// The host recorder: the executor of a call-site that dp::record keeps
/// (graph.hpp) instead of running, where it would run on the host's threads
/// (the host backend, or when(false) on a device build). Its work goes to
/// its queue's host task queue, which captures it instead of running it;
/// it places data in place, changing no coherence, and notes every use for
/// the replays; a full reduce folds, at each replay, into the value the
/// scalar has then. host_replay replays what it kept: one task of the
/// target queue running the captured tasks in order. The host patterns
/// (host/forall.hpp, host/reduce.hpp, host/pencils.hpp) run on it as on
/// the host executor it derives from.
#pragma once

#include <memory>
#include <string>

#include "../../detail/completion.hpp"
#include "../../detail/recording.hpp"
#include "../../detail/storage.hpp"
#include "../../scalar.hpp"
#include "../task_queue.hpp"
#include "executor.hpp"

namespace dp::rt {

/// A recording of host tasks: a replay is one task of the target queue
/// running them in order, after the work its data waits for.
class host_replay final : public dp::detail::replayer {
public:
  static constexpr const char *kind_name = "host tasks";
  explicit host_replay(task_queue &queue) : queue_(queue) { queue_.begin_capture(); }
  const char *kind() const override { return kind_name; }
  void end(bool) override { tasks_ = std::make_shared<const task_queue::captured>(queue_.end_capture()); }
  void run(dp::detail::recording &r, dp::detail::queue_state &target) override {
    host_executor replay(r.name(), &target.host());
    for (const auto &u : r.blocks())
      replay.place(u.block, u.block->host_data(), u.writes);
    replay.run([tasks = tasks_] { task_queue::run_all(*tasks); });
    const dp::detail::pending done = replay.finish();
    for (const auto &s : r.scalars())
      s.later(s.scalar, done);
  }

private:
  task_queue &queue_;
  std::shared_ptr<const task_queue::captured> tasks_;
};

/// A recorded call-site's executor on the host: `queue` is the recording's
/// queue's host task queue, which captures the work.
class host_recorder : public host_executor {
public:
  host_recorder(const std::string &site, task_queue &queue, dp::detail::recording &r)
      : host_executor(site, &queue), recording_(r) {
    recording_.replay_by<host_replay>(site, host_replay::kind_name,
                                      [&] { return std::make_unique<host_replay>(queue); });
  }

  /// Where the work finds `data`: in place. Placing changes nothing now
  /// (each replay makes the block current and waits for its writers); the
  /// recording notes the use.
  void *place(dp::detail::storage *block, void *data, bool writes) {
    if (block)
      recording_.use(site(), block, writes, false);
    return data;
  }

  /// A full reduce's result: each replay folds into the value the scalar
  /// has then (access to it waits for the replay).
  template <class T, class Fold> void deliver(dp::scalar<T> &result, Fold fold) {
    recording_.writes(site(), result);
    T *slot = dp::detail::scalar_access::value_slot(result);
    run([slot, fold] { *slot = fold(*slot); });
  }

  /// Nothing is enqueued but the capture's: the uses are the replays'.
  dp::detail::pending finish() { return nullptr; }

private:
  dp::detail::recording &recording_;
};

} // namespace dp::rt
