/// \file
/// The host executor: every pattern of a generated stub run natively on
/// the host's threads (oneTBB), as the host reference runs the untranslated
/// call-site, in place on the host copies of the data; on the caller's
/// thread, or as a task of a named dp::queue (two queues' tasks run at the
/// same time). Its patterns are host/forall.hpp, host/reduce.hpp and
/// host/pencils.hpp; device/executor.hpp is its counterpart on a device,
/// host/recorder.hpp its recording variant.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "../../detail/completion.hpp"
#include "../../detail/small_vector.hpp"
#include "../../detail/storage.hpp"
#include "../../scalar.hpp"
#include "../launch_uses.hpp"
#include "../profile.hpp"
#include "../task_queue.hpp"

namespace dp::rt {

class host_executor {
public:
  /// `site` names the call-site (it outlives the executor); `queue`: a
  /// named queue's host task queue, whose task the call-site's work
  /// becomes, or null: the work runs now, on the caller's thread.
  host_executor(const std::string &site, task_queue *queue) : site_(&site), queue_(queue) {}

  /// True when the work becomes a named queue's task.
  bool on_queue() const { return queue_ != nullptr; }
  const std::string &site() const { return *site_; }

  /// Where the work finds `data` (an element of `block`): in place, the
  /// host copy made current first. A queue's task also waits for other
  /// queues' work on the block, and records its own use of it.
  void *place(dp::detail::storage *block, void *data, bool writes) {
    if (!block)
      return data; // an unowned view
    if (!queue_) {
      // As a field's own element access: nothing to do when the host may
      // already read (write) it, the common case of a host program's
      // launches (SP: 80,000 launches in 10 steps).
      if (writes)
        block->ready_for_host_write(); // waits for launches still reading it
      else
        block->ready_for_host_read();
      return data;
    }
    // A named queue's host task: data the device holds comes back now;
    // other queues' work on the block is waited for by the task.
    if (block->written_on_device() || (!block->host_current() && !block->writer()))
      block->make_host_current();
    const std::vector<dp::detail::pending> foreign = block->foreign_work(queue_, writes);
    waits_.append(foreign.begin(), foreign.end());
    uses_.note(block, writes);
    return data;
  }

  /// Runs `work` now, or enqueues it behind the other queues' work it
  /// waits for.
  template <class F> void run(F &&work) {
    if (!queue_) {
      work();
      return;
    }
    queue_->enqueue(site_->c_str(), [waits = waits_, work = std::forward<F>(work)]() {
      for (const dp::detail::pending &p : waits)
        p->wait_quietly(); // an error there belongs to its own queue
      work();
    });
  }

  /// A full reduce's result: `result = fold(prior)`, now or as the
  /// queue's task (the scalar then waits for it).
  template <class T, class Fold> void deliver(dp::scalar<T> &result, Fold fold) {
    if (queue_ && dp::detail::scalar_access::pending_queue(result) == queue_) {
      // The reduction still computing the scalar is this queue's, so it
      // has run when this task runs: the task folds into its value.
      T *slot = dp::detail::scalar_access::value_slot(result);
      run([slot, fold] { *slot = fold(*slot); });
      uses_.delivers_after(result);
      return;
    }
    const T prior = result.get(); // waits for a reduction on another queue
    T *slot = dp::detail::scalar_access::slot(result);
    run([slot, prior, fold] { *slot = fold(prior); });
    if (queue_)
      uses_.delivers(result);
  }

  /// The work is enqueued (or done): its completion, which the blocks and
  /// scalars it used record; null when it ran on the caller's thread.
  dp::detail::pending finish() {
    dp::detail::pending done = queue_ ? queue_->record() : nullptr;
    uses_.settle(done, false);
    return done;
  }

  /// DP_PROFILE: a stamp of where the work's queue is (or of now), what
  /// that queue is, where the work runs.
  profile::stamp_ptr stamp() { return queue_ ? queue_->stamp() : profile::stamp_now(); }
  const void *queue() const { return queue_; }
  const char *queue_kind() const { return queue_ ? "host queue" : ""; }
  const char *runs_on() const { return "the host"; }

private:
  const std::string *site_;
  task_queue *queue_;
  dp::detail::small_vector<dp::detail::pending, 4> waits_; ///< other queues' work the task waits for
  launch_uses uses_;
};

} // namespace dp::rt
