/// \file
/// The emulated device's layer (DP_HOST_MODE=emulate): host memory standing
/// in for device memory, a task queue for its stream, and launches that
/// walk every physical thread of the GPU's plan through the stub on the
/// CPU (walk.hpp). Fresh memory is filled with a poison byte, so that data
/// nobody copied in or wrote would show in a result. Its stand-ins for the
/// vendor primitives are algorithms.hpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "../../error.hpp"
#include "../../options.hpp"
#include "../backend.hpp"
#include "../counters.hpp"
#include "../device/executor.hpp"
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
  /// No profiler ranges on the host.
  struct site_range {
    explicit site_range(const std::string &) {}
  };

  queue_type &default_queue() { return queue_; }
  /// A dp::queue's queue on this device: its host task queue.
  queue_type &queue_of(dp::detail::queue_state &q) { return q.host(); }
  static device_limits limits() { return emulated_limits(); }

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
  void synchronize_quietly() noexcept { queue_.record()->wait_quietly(); }

  void copy_to_host(queue_type &q, void *host, const void *dev, std::size_t bytes) {
    count(counter::to_host_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_host_copies);
    q.enqueue("dp: a copy to the host", [=] { std::memcpy(host, dev, bytes); });
    q.record()->wait(); // counts the host's wait
  }
  dp::detail::pending copy_to_device(queue_type &q, void *dev, const void *host,
                                     std::size_t bytes) {
    count(counter::to_device_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_device_copies);
    q.enqueue("dp: a copy to the device", [=] { std::memcpy(dev, host, bytes); });
    return q.record(); // it reads host memory until then
  }
  /// `bytes` at `dev` into the page-locked `slot`, behind q's work.
  void copy_to_pinned(queue_type &q, void *slot, const void *dev, std::size_t bytes) {
    q.enqueue("dp: a result to the host", [=] { std::memcpy(slot, dev, bytes); });
  }
  dp::detail::pending record(queue_type &q, const std::string &) { return q.record(); }
  /// DP_PROFILE's stamp of the point q's work has reached: a task.
  profile::stamp_ptr stamp(queue_type &q) { return q.stamp(); }
  /// q's later work waits for `work` (other queues'): a task that waits.
  void wait_for(queue_type &q, const std::vector<dp::detail::pending> &work) {
    q.enqueue("dp: waiting for another queue", [work] {
      for (const dp::detail::pending &p : work)
        p->wait_quietly(); // an error there belongs to its own queue
    });
  }

  /// A stub over a plan's launches.
  template <int R, class Params>
  void launch(queue_type &q, const std::string &site, const dispatch_plan<R> &plan,
              const stub_table<R, Params> &stubs, const Params &params) {
    count(counter::launches, static_cast<std::int64_t>(plan.pieces.size()));
    q.enqueue(site, [plan, table = &stubs, params] { walk_plan(plan, *table, params); });
  }
  /// A tiled stub: a group of `shape` threads per tile, sharing
  /// `arena_bytes` of tile memory and meeting at barriers.
  template <int R, class Params>
  void launch_tiles(queue_type &q, const std::string &site, const dispatch_plan<R> &plan,
                    const triple &shape, std::size_t arena_bytes,
                    const stub_table<R, Params> &stubs, const Params &params) {
    count(counter::launches, static_cast<std::int64_t>(plan.pieces.size()));
    q.enqueue(site, [site, plan, shape, arena_bytes, table = &stubs, params] {
      walk_tiles(site, plan, shape, arena_bytes, *table, params);
    });
  }

private:
  task_queue queue_;
};

} // namespace dp::rt
