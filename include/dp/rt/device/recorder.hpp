/// \file
/// The device recorder: the executor of a call-site that dp::record keeps
/// (graph.hpp) instead of running, where it would run on the build's
/// device. Its work goes to its queue while the layer captures it (a CUDA
/// or HIP stream under capture; on the emulated device its queue's
/// captured tasks); it places data in the blocks' device storage only,
/// changing no coherence, and notes every use for the replays; the
/// temporaries it takes belong to the graph; a full reduce reads its
/// result back after each replay (device/reduce.hpp). device_replay
/// replays what it kept: one graph launch after the data is made current.
/// The device patterns run on it as on the device_launch it derives from.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../detail/completion.hpp"
#include "../../detail/recording.hpp"
#include "../../detail/storage.hpp"
#include "../../scalar.hpp"
#include "../counters.hpp"
#include "executor.hpp"

namespace dp::rt {

/// A recording of a device's work: the layer's graph of it, built once
/// when the recording ends; the temporaries its call-sites took, kept with
/// it; the results it reads back into dp::scalars, delivered after each
/// replay. Its blocks' device copies stay where the graph addresses them
/// (storage pins).
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

  /// Device memory a recorded call-site took: the graph's, for good.
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

/// A recorded call-site's executor on a device: a device_launch whose
/// queue is under capture (the recording's first call-site starts it).
template <class Device> class device_recorder : public device_launch<Device> {
public:
  using queue_type = typename Device::queue_type;
  device_recorder(device_executor<Device> &ex, const std::string &site, queue_type &queue,
                  launch_hints hints, dp::detail::recording &r)
      : device_launch<Device>(ex, site, queue, hints), recording_(r),
        replay_(r.replay_by<device_replay<Device>>(site, device_replay<Device>::kind_name, [&] {
          return std::make_unique<device_replay<Device>>(ex, queue, r);
        })) {}

  /// Where the work finds `data` (an element of `block`): in the block's
  /// device storage, made on first use but not made current (each replay
  /// does that); the recording notes the use.
  void *place(dp::detail::storage *block, void *data, bool writes) {
    if (!block)
      return data;
    recording_.use(this->site(), block, writes, true);
    return this->device_storage(block, data);
  }

  /// After each replay, `result(replay)` reads a result into `s` back
  /// behind it (device/reduce.hpp's recorded reduce).
  template <class T>
  void deliver_to(dp::scalar<T> &s,
                  std::function<dp::detail::pending(device_launch<Device> &)> result) {
    replay_.deliver_to(this->site(), s, std::move(result));
  }

  /// Everything is captured: the temporaries taken are the graph's, and
  /// the work's completion is each replay's.
  const dp::detail::pending &finish() {
    this->hand_over_scratch([this](void *p) { replay_.keep_scratch(p); });
    return none_;
  }

private:
  dp::detail::recording &recording_;
  device_replay<Device> &replay_;
  dp::detail::pending none_;
};

} // namespace dp::rt
