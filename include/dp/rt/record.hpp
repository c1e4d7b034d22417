/// \file
/// How generated stubs' call-sites are recorded and replayed (dp::record,
/// graph.hpp): while a recording is made, each call-site stages its
/// arguments where it will run (device storage made, nothing copied, no
/// coherence changed) and enqueues its work on a queue that keeps it
/// instead of running it: a GPU stream under capture, a task queue's
/// capture on the host and the emulated device. A replay is then one
/// launch: its data made current and ordered after other queues' work as
/// a call-site's is, the kept work launched at once (one graph launch),
/// and its completion recorded by every block and scalar it uses.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../detail/completion.hpp"
#include "../detail/recording.hpp"
#include "../options.hpp"
#include "counters.hpp"
#include "device/executor.hpp"
#include "host/executor.hpp"
#include "task_queue.hpp"

namespace dp::rt {

/// A recording of host tasks: call-sites that run on a named queue's host
/// task queue (the host backend, or when(false) on a device build). A
/// replay is one task of the target queue running them in order.
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

/// A recording of a device's work: the layer's graph of it (a CUDA or HIP
/// graph; on the emulated device its queue's captured tasks), built once
/// when the recording ends; the temporaries its call-sites took, kept
/// with it; the results it reads back into dp::scalars, delivered after
/// each replay. Its blocks' device copies stay where the graph addresses
/// them (storage pins).
template <class Device> class device_replay final : public dp::detail::replayer {
public:
  using queue_type = typename Device::queue_type;
  static constexpr const char *kind_name = "device work";
  device_replay(device_executor<Device> &ex, queue_type &queue, dp::detail::recording &rec)
      : ex_(ex), queue_(queue), rec_(rec) {
    ex_.device().begin_capture(queue_);
  }
  ~device_replay() override {
    for (void *p : scratch_)
      ex_.cache().release(p, &queue_, last_);
    if (built_)
      ex_.device().destroy_graph(graph_);
  }
  const char *kind() const override { return kind_name; }
  void end(bool failed) override {
    typename Device::graph_type g = ex_.device().end_capture(queue_, rec_.name().c_str());
    if (failed) {
      ex_.device().destroy_graph(g);
      return;
    }
    graph_ = g;
    built_ = true;
    count(counter::graphs_built);
  }
  void run(dp::detail::recording &r, dp::detail::queue_state &target) override {
    queue_type &q = ex_.device().queue_of(target);
    device_launch<Device> replay(ex_, r.name(), q, {});
    if (last_ && last_->queue() != &q)
      replay.wait_for({last_}); // the graph's temporaries are in use until then
    for (const auto &u : r.blocks())
      replay.place(u.block, u.block->host_data(), u.writes);
    ex_.device().launch_graph(q, graph_, r.name().c_str());
    count(counter::graph_launches);
    for (const delivery &d : deliveries_)
      d.later(d.scalar, d.result(replay));
    last_ = replay.finish();
  }

  /// Device memory a recorded call-site takes: the graph's, for good.
  void keep_scratch(void *p) { scratch_.push_back(p); }
  /// After each replay, `result(replay)` reads a result back behind it
  /// and gives the completion that stores it into `s` (access to s waits
  /// for it); `site` combines into s.
  template <class T>
  void deliver_to(const std::string &site, dp::scalar<T> &s,
                  std::function<dp::detail::pending(device_launch<Device> &)> result) {
    rec_.writes(site, s);
    deliveries_.push_back({&s, &dp::detail::later_erased<T>, std::move(result)});
  }

private:
  struct delivery {
    void *scalar;
    void (*later)(void *, const dp::detail::pending &);
    std::function<dp::detail::pending(device_launch<Device> &)> result;
  };
  device_executor<Device> &ex_;
  queue_type &queue_;
  dp::detail::recording &rec_;
  typename Device::graph_type graph_{};
  bool built_ = false;
  std::vector<void *> scratch_;
  std::vector<delivery> deliveries_;
  dp::detail::pending last_;
};

} // namespace dp::rt
