/// \file
/// Recorded launch sequences: dp::record runs a function that makes
/// call-sites on one queue and keeps them, in order, instead of running
/// them; the dp::graph it returns replays them as one launch (on a GPU one
/// CUDA or HIP graph launch), with every dependency and every transfer
/// still automatic.
///
///     dp::queue q;
///     dp::graph step = dp::record(q, [&] {
///       dp::forall(dp::on(q), g, relax, next, cur);
///       dp::reduce(dp::on(q), g, std::plus<>(), residual, diff, next, cur);
///       dp::forall(dp::on(q), g, copy_back, cur, next);
///     });
///     for (int i = 0; i < steps; ++i)
///       step.run();
///
/// Fields and dp::scalars are bound by handle: a replay reads and writes
/// their contents when it runs. Everything else is fixed at the recording:
/// what kernels capture by value, the arguments passed by value, when(...)
/// and launch hints.
#pragma once

#include <memory>
#include <utility>

#include "detail/recording.hpp"
#include "detail/source_site.hpp"
#include "error.hpp"
#include "options.hpp"

namespace dp {

class graph;
/// Records the call-sites `fn` makes on q and returns their replays. Every
/// call-site is checked and planned; nothing runs. A call-site on another
/// queue, a nested dp::record, a wait or host access to a field or a
/// dp::scalar a recorded call-site writes is a dp::error naming it and the
/// recording.
template <class F>
graph record(const queue &q, F &&fn, detail::source_site at = detail::source_site::here());

/// A recording's replays (made by dp::record). A handle: copies replay the
/// same recording, which lives as long as one of them does.
class graph {
public:
  /// An empty graph: run() does nothing.
  graph() = default;

  /// Replays every recorded call-site on the recording's queue, as one
  /// launch: after the work the queue already has, after other queues'
  /// pending work on the fields it uses; host access to them waits for it.
  void run() const {
    if (rec_)
      rec_->run(rec_->queue());
  }
  /// The same, on options' queue (dp::on(q2)). Its other options are
  /// those the call-sites were recorded with: giving any is a dp::error.
  void run(const exec_options &options) const {
    if (!rec_)
      return;
    if (options.has_group() || options.has_max_groups() || !options.device_allowed())
      throw dp::error(rec_->name() + ": a replay takes a queue only (dp::on(q)); its "
                      "call-sites keep the options they were recorded with");
    rec_->run(options.queue_state() ? *options.queue_state() : rec_->queue());
  }
  /// How many call-sites were recorded.
  std::size_t size() const { return rec_ ? rec_->size() : 0; }
  bool empty() const { return size() == 0; }

private:
  template <class F> friend graph record(const queue &, F &&, detail::source_site);
  explicit graph(std::shared_ptr<detail::recording> r) : rec_(std::move(r)) {}
  std::shared_ptr<detail::recording> rec_;
};

template <class F> graph record(const queue &q, F &&fn, detail::source_site at) {
  auto rec = std::make_shared<detail::recording>(q.state(), at);
  rec->begin();
  try {
    fn();
  } catch (...) {
    rec->end(true);
    throw;
  }
  rec->end(false);
  return graph(std::move(rec));
}

} // namespace dp
