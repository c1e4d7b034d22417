/// \file
/// The emulated device's layer (DP_HOST_MODE=emulate): host memory standing
/// in for device memory, a task queue for its stream, and launches that
/// walk every physical thread of the GPU's plan through the stub on the
/// CPU (walk.hpp). Fresh memory is filled with a poison byte, so that data
/// nobody copied in or wrote would show in a result. Its stand-ins for the
/// vendor primitives are primitives.hpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "../../error.hpp"
#include "../../options.hpp"
#include "../backend.hpp"
#include "../counters.hpp"
#include "../device/executor.hpp"
#include "../plan/plan.hpp"
#include "../device/recorder.hpp" // the recorder of this layer's call-sites
#include "../stub/dispatch.hpp"
#include "../stub/table.hpp"
#include "../task_queue.hpp"
#include "walk.hpp"

namespace dp::rt {

/// The emulated device's layer (device/executor.hpp lists what a layer is).
class emulated_device {
public:
  using queue_type = task_queue;
  static constexpr const char *name = "the emulated device";
  /// What a profile calls one of its queues.
  static constexpr const char *queue_kind = "emulated device queue";
  /// The byte fresh emulated device memory holds.
  static constexpr unsigned char poison = 0xA5;
  /// No profiler on the host: the range is counted as a GPU's is, so the
  /// recording layer accounts for what a GPU build does per call-site.
  struct site_range {
    explicit site_range(const std::string &) { count(counter::profiler_ranges); }
  };

  queue_type &default_queue() { return queue_; }
  /// A dp::queue's queue on this device: its host task queue.
  queue_type &queue_of(dp::detail::queue_state &q) { return q.host(); }
  static device_limits limits() { return process_dispatch_settings().emulated_limits; }

  static void *allocate(std::size_t bytes) {
    void *p = ::operator new(bytes, std::nothrow);
    if (!p)
      throw dp::error("the emulated device is out of memory (" + std::to_string(bytes) +
                      " bytes)");
    std::memset(p, poison, bytes);
    return p;
  }
  static void deallocate(void *p) { ::operator delete(p); }
  /// Page-locked memory: host memory, counted apart like a GPU's.
  static void *pinned_allocate(std::size_t bytes) { return allocate(bytes); }
  static void pinned_deallocate(void *p) { deallocate(p); }
  /// Every task of the default queue run; errors are left unreported (at
  /// exit). A dp::queue's tasks finish when the queue goes.
  void synchronize_quietly() noexcept {
    try {
      queue_.here().wait(false);
    } catch (...) {
    }
  }

  /// Copies (whatever their path, device/transfers.hpp, which the mirror
  /// counts) are tasks of the queue.
  void copy_to_host(queue_type &q, void *host, const void *dev, std::size_t bytes,
                    bool = false) {
    copy_rows_to_host(q, host, dev, bytes, bytes, 1);
  }
  /// copy_to_host of `rows` rows of `row_bytes`, `pitch` bytes apart on
  /// both sides, the host's bytes between them left alone.
  void copy_rows_to_host(queue_type &q, void *host, const void *dev, std::size_t row_bytes, std::size_t pitch,
                         std::size_t rows) {
    count(counter::to_host_bytes, static_cast<std::int64_t>(row_bytes * rows));
    count(counter::to_host_copies);
    count(counter::host_waits);
    const auto copy = [=] {
      for (std::size_t r = 0; r < rows; ++r)
        std::memcpy(static_cast<char *>(host) + r * pitch, static_cast<const char *>(dev) + r * pitch, row_bytes);
    };
    if (q.here().done()) { // nothing before it: copied here, as a GPU copies finished data
      q.here().wait(true); // an earlier task's error, still to report
      copy();
      return;
    }
    q.enqueue("dp: a copy to the host", copy);
    q.here().wait(true);
  }
  /// True: the copy reads host memory until q reaches it, as a GPU's does
  /// from registered memory. From other memory a GPU's copy has read it
  /// when the call returns (false), and so has this one: made at once
  /// where nothing is before it on q, else from a copy taken now (the
  /// driver's staging), which the queue's thread moves when it gets there.
  bool copy_to_device(queue_type &q, void *dev, const void *host, std::size_t bytes,
                      bool registered = false) {
    count(counter::to_device_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_device_copies);
    if (registered) {
      q.enqueue("dp: a copy to the device", [=] { std::memcpy(dev, host, bytes); });
      return true;
    }
    if (q.here().done()) {
      q.here().wait(true); // an earlier task's error, still to report
      std::memcpy(dev, host, bytes);
      return false;
    }
    const auto *from = static_cast<const unsigned char *>(host);
    q.enqueue("dp: a copy to the device", [dev, staged = std::vector<unsigned char>(from, from + bytes)] {
      std::memcpy(dev, staged.data(), staged.size());
    });
    return false;
  }
  /// Host memory is the device's already: registering always succeeds.
  static bool register_host(void *, std::size_t) { return true; }
  static void unregister_host(void *) {}
  /// `bytes` at `dev` into the page-locked `slot`, behind q's work.
  /// With nothing before it on q, the copy is made here: handing it to the
  /// queue's thread and back would cost the host tens of microseconds a
  /// GPU's copy of finished data does not.
  void copy_to_pinned(queue_type &q, void *slot, const void *dev, std::size_t bytes) {
    if (q.here().done())
      std::memcpy(slot, dev, bytes);
    else
      q.enqueue("dp: a result to the host", [=] { std::memcpy(slot, dev, bytes); });
  }
  /// `bytes` at `from` into `to`, both device memory, behind q's work
  /// (made here where nothing is before it, as copy_to_pinned).
  void copy_within(queue_type &q, void *to, const void *from, std::size_t bytes) {
    count(counter::device_copies);
    on_device(q, "dp: a copy on the device", [=] { std::memcpy(to, from, bytes); });
  }
  /// `bytes` at `dev` set to zeros behind q's work (as copy_within).
  void zero_fill(queue_type &q, void *dev, std::size_t bytes) {
    count(counter::device_zero_fills);
    on_device(q, "dp: zeros set on the device", [=] { std::memset(dev, 0, bytes); });
  }

  /// Device work of the layer's own behind q's: done here where nothing
  /// is before it (an earlier task's error reported first), else queued.
  template <class Work> static void on_device(queue_type &q, const char *what, Work work) {
    if (q.here().done()) {
      q.here().wait(true);
      work();
    } else {
      q.enqueue(what, std::move(work));
    }
  }

  // Events (device/marks.hpp records them only when somebody waits): a
  // point of the task queue.
  using event_type = task_queue::point;
  static event_type new_event() { return {}; }
  static void destroy_event(event_type &) {}
  void record_event(queue_type &q, event_type &e) { e = q.here(); }
  static bool event_done(const event_type &e) { return e.done(); }
  /// Blocks until e; an error of a task before it is thrown (it names its
  /// call-site already).
  static void event_wait(const event_type &e, const char *) { e.wait(true); }
  static void event_wait_quietly(const event_type &e) noexcept {
    try {
      e.wait(false);
    } catch (...) {
    }
  }
  /// q's later work waits for e (another queue's point): a task that waits.
  void queue_wait(queue_type &q, const event_type &e) {
    q.enqueue("dp: waiting for another queue", [e] {
      e.wait(false); // an error there belongs to its own queue
    });
  }
  /// q's later work waits for work that is not this device's: a task that
  /// waits for it.
  void host_wait_in(queue_type &q, const dp::detail::pending &work) {
    q.enqueue("dp: waiting for another queue", [work] { work->wait_quietly(); });
  }
  /// The host waits for everything enqueued on q (dp::wait_all()).
  void synchronize(queue_type &q, const char *) {
    count(counter::host_waits);
    q.here().wait(true);
  }
  // Graphs (dp::record): a capture of the queue's tasks, replayed as one.
  struct graph_type {
    std::shared_ptr<const task_queue::captured> tasks;
  };
  static void begin_capture(queue_type &q) { q.begin_capture(); }
  static graph_type end_capture(queue_type &q, const char *) {
    return {std::make_shared<const task_queue::captured>(q.end_capture())};
  }
  /// One task of q runs the graph's tasks in order; `name` (the
  /// recording's) and each task's site name an error.
  static void launch_graph(queue_type &q, const graph_type &g, const char *name) {
    q.replay(name, g.tasks);
  }
  static void destroy_graph(graph_type &g) { g.tasks.reset(); }

  /// DP_PROFILE's stamp of the point q's work has reached: a task.
  profile::stamp_ptr stamp(queue_type &q) { return q.stamp(); }

  /// Device work of a call-site (a kernel, a vendor primitive): a task of
  /// q, or nothing under DP_EMULATE_RECORD_ONLY=1 (it is counted and
  /// recorded all the same, by the caller).
  template <class Work> static void run(queue_type &q, const char *site, Work &&work) {
    if (!process_dispatch_settings().record_only)
      q.enqueue(site, std::forward<Work>(work));
  }

  /// A stub over a plan's launches.
  template <int R, class Params>
  void launch(queue_type &q, const std::string &site, const launch_plan<R> &plan,
              const stub_table<R, Params> &stubs, const Params &params) {
    count(counter::launches, static_cast<std::int64_t>(plan.pieces.size()));
    count(counter::launch_checks, static_cast<std::int64_t>(plan.pieces.size())); // as a GPU's
    run(q, site.c_str(), [plan, table = &stubs, params] { walk_plan(plan, *table, params); });
  }
  /// A tiled stub: a group of `shape` threads per tile, sharing
  /// `arena_bytes` of tile memory and meeting at barriers.
  template <int R, class Params>
  void launch_tiles(queue_type &q, const std::string &site, const launch_plan<R> &plan,
                    const triple &shape, std::size_t arena_bytes,
                    const stub_table<R, Params> &stubs, const Params &params) {
    count(counter::launches, static_cast<std::int64_t>(plan.pieces.size()));
    count(counter::launch_checks, static_cast<std::int64_t>(plan.pieces.size())); // as a GPU's
    run(q, site.c_str(), [site = &site, plan, shape, arena_bytes, table = &stubs, params] {
      walk_tiles(*site, plan, shape, arena_bytes, *table, params);
    });
  }

private:
  task_queue queue_;
};

} // namespace dp::rt
