/// \file
/// The GPU device layer (device/executor.hpp lists what a layer is): CUDA
/// or HIP memory, one stream per queue, events as completions, copies
/// staged through page-locked buffers so they run at the bus's speed and
/// leave the host free, and launches on the stream. The vendor primitives
/// built on it are primitives.hpp. Only device builds include this.
#pragma once

#include "../../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../../detail/completion.hpp"
#include "../../detail/host_threads.hpp"
#include "../../error.hpp"
#include "../../options.hpp"
#include "../counters.hpp"
#include "../device/executor.hpp"
#include "../device/memory.hpp"
#include "../device/transfers.hpp"
#include "../device/recorder.hpp" // the recorder of this layer's call-sites
#include "../stub/dispatch.hpp"
#include "../stub/table.hpp"
#include "api.hpp"

namespace dp::rt {

namespace gpu {

/// A queue's own page-locked chunks for staged copies (device/transfers.hpp),
/// made on its first staged copy. Its position is kept across copies, so
/// back-to-back copies on one queue keep the bus busy, and two queues
/// never wait for each other's chunks.
struct staging_ring {
  static constexpr std::size_t chunk_bytes = std::size_t(8) << 20;
  static constexpr int chunks = 3;
  void *chunk[chunks] = {};
  event_t done[chunks] = {};
  unsigned next = 0;

  staging_ring() = default;
  staging_ring(const staging_ring &) = delete;
  staging_ring &operator=(const staging_ring &) = delete;
  ~staging_ring() {
    for (int c = 0; c < chunks; ++c)
      if (chunk[c]) {
        (void)DP_GPU(EventDestroy)(done[c]);
        pinned_free(chunk[c]);
        count(counter::pinned_bytes, -static_cast<std::int64_t>(chunk_bytes));
      }
  }
  /// The next chunk, once the stream is done with what it last held.
  int take(const char *site) {
    if (!chunk[0])
      for (int c = 0; c < chunks; ++c) {
        chunk[c] = pinned_allocate(chunk_bytes);
        count(counter::pinned_allocations);
        count(counter::pinned_bytes, static_cast<std::int64_t>(chunk_bytes));
        done[c] = create_event();
      }
    const int c = static_cast<int>(next++ % chunks);
    DP_GPU_CHECK(site, DP_GPU(EventSynchronize)(done[c]));
    return c;
  }
};

/// A stream as an in-order queue, with its marks (device/marks.hpp) and
/// its staging chunks.
struct stream_queue {
  stream_t handle = create_stream();
  dp::detail::marks_slot marks;
  staging_ring staging;
  stream_queue() = default;
  ~stream_queue() {
    marks.retire(); // its work done, its marks answer for themselves
    (void)DP_GPU(StreamSynchronize)(handle); // the staging chunks go before it
    (void)DP_GPU(StreamDestroy)(handle);
  }
  stream_queue(const stream_queue &) = delete;
  stream_queue &operator=(const stream_queue &) = delete;
};
/// Waits for a dp::queue's stream (dp::queue::wait()).
inline void wait_device_queue(stream_queue &q) {
  count(counter::host_waits);
  profile::timed_wait("dp::queue::wait", [&] {
    DP_GPU_CHECK("dp::queue::wait", DP_GPU(StreamSynchronize)(q.handle));
  });
}

} // namespace gpu

/// The GPU's layer.
class gpu_device {
public:
  using queue_type = gpu::stream_queue;
  static constexpr const char *name = gpu::api;
  /// What a profile calls one of its queues.
  static constexpr const char *queue_kind = "GPU stream";
  /// A call-site's NVTX (or roctx) range, for Nsight.
  using site_range = gpu::profiler_range;

  queue_type &default_queue() { return queue_; }
  /// A dp::queue's stream, made on its first use here.
  queue_type &queue_of(dp::detail::queue_state &q) {
    return q.device<queue_type>([] { return new queue_type(); });
  }
  static device_limits limits() {
    static const device_limits limits = gpu::query_limits();
    return limits;
  }
  static void *allocate(std::size_t bytes) { return gpu::device_allocate(bytes); }
  static void deallocate(void *p) { gpu::device_free(p); }
  static void *pinned_allocate(std::size_t bytes) { return gpu::pinned_allocate(bytes); }
  static void pinned_deallocate(void *p) { gpu::pinned_free(p); }

  gpu_device() = default;
  gpu_device(const gpu_device &) = delete;
  gpu_device &operator=(const gpu_device &) = delete;
  /// Every stream's work done; errors are left unreported (at exit).
  void synchronize_quietly() noexcept { (void)DP_GPU(DeviceSynchronize)(); }

  /// Page-locks a field's host memory in place, so its copies are single
  /// DMAs on a stream; false (and nothing changed) when the driver says no.
  static bool register_host(void *host, std::size_t bytes) {
    if (DP_GPU(HostRegister)(host, bytes, DP_GPU(HostRegisterDefault)) == DP_GPU(Success))
      return true;
    (void)DP_GPU(GetLastError)(); // not sticky: clear it
    return false;
  }
  static void unregister_host(void *host) { (void)DP_GPU(HostUnregister)(host); }

  /// The paths of device/transfers.hpp: from registered memory one
  /// asynchronous DMA (true: it reads host memory until the stream gets
  /// there); small blocks one call; others through q's staging chunks, the
  /// host filling one while the bus empties another (it has read every
  /// byte when it returns).
  bool copy_to_device(queue_type &q, void *dev, const void *host, std::size_t bytes,
                      bool registered = false) {
    count(counter::to_device_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_device_copies);
    switch (path_of(bytes, registered)) {
    case transfer_path::registered:
      gpu::copy_async("dp: a copy to the device", dev, host, bytes, true, q.handle);
      return true;
    case transfer_path::direct:
      gpu::copy_async("dp: a copy to the device", dev, host, bytes, true, q.handle);
      return false; // from pageable memory, the call returns once it has read it
    case transfer_path::staged:
      break;
    }
    constexpr std::size_t chunk = gpu::staging_ring::chunk_bytes;
    for (std::size_t at = 0; at < bytes; at += chunk) {
      const int c = q.staging.take("dp: a copy to the device");
      const std::size_t n = std::min(chunk, bytes - at);
      copy_parallel(q.staging.chunk[c], static_cast<const char *>(host) + at, n);
      gpu::copy_async("dp: a copy to the device", static_cast<char *>(dev) + at,
                      q.staging.chunk[c], n, true, q.handle);
      DP_GPU_CHECK("dp: a copy to the device", DP_GPU(EventRecord)(q.staging.done[c], q.handle));
    }
    return false;
  }
  /// The same, from the device; returns when the host holds the bytes,
  /// having waited for q only. Staged: chunk k goes to the host while
  /// chunk k+1 crosses the bus.
  void copy_to_host(queue_type &q, void *host, const void *dev, std::size_t bytes,
                    bool registered = false) {
    count(counter::to_host_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_host_copies);
    count(counter::host_waits);
    if (path_of(bytes, registered) != transfer_path::staged) {
      gpu::copy_async("dp: a copy to the host", host, dev, bytes, false, q.handle);
      DP_GPU_CHECK("dp: a copy to the host", DP_GPU(StreamSynchronize)(q.handle));
      return;
    }
    constexpr std::size_t chunk = gpu::staging_ring::chunk_bytes;
    std::size_t previous_at = 0, previous_n = 0;
    int previous = -1;
    auto drain = [&] {
      if (previous < 0)
        return;
      DP_GPU_CHECK("dp: a copy to the host", DP_GPU(EventSynchronize)(q.staging.done[previous]));
      copy_parallel(static_cast<char *>(host) + previous_at, q.staging.chunk[previous], previous_n);
    };
    for (std::size_t at = 0; at < bytes; at += chunk) {
      const int c = q.staging.take("dp: a copy to the host");
      const std::size_t n = std::min(chunk, bytes - at);
      gpu::copy_async("dp: a copy to the host", q.staging.chunk[c],
                      static_cast<const char *>(dev) + at, n, false, q.handle);
      DP_GPU_CHECK("dp: a copy to the host", DP_GPU(EventRecord)(q.staging.done[c], q.handle));
      drain(); // the chunk before: its bytes to the host while this one crosses
      previous = c, previous_at = at, previous_n = n;
    }
    drain();
  }
  /// copy_to_host of `rows` rows of `row_bytes`, `pitch` bytes apart on
  /// both sides, the host's bytes between them left alone: one 2D copy.
  void copy_rows_to_host(queue_type &q, void *host, const void *dev, std::size_t row_bytes, std::size_t pitch,
                         std::size_t rows) {
    count(counter::to_host_bytes, static_cast<std::int64_t>(row_bytes * rows));
    count(counter::to_host_copies);
    count(counter::host_waits);
    DP_GPU_CHECK("dp: a copy to the host", DP_GPU(Memcpy2DAsync)(host, pitch, dev, pitch, row_bytes, rows,
                                                                 DP_GPU(MemcpyDeviceToHost), q.handle));
    DP_GPU_CHECK("dp: a copy to the host", DP_GPU(StreamSynchronize)(q.handle));
  }
  /// `bytes` at `dev` into the page-locked `slot`, behind q's work.
  void copy_to_pinned(queue_type &q, void *slot, const void *dev, std::size_t bytes) {
    gpu::copy_async("dp: a result to the host", slot, dev, bytes, false, q.handle);
  }
  /// `bytes` at `from` into `to`, both device memory, behind q's work.
  void copy_within(queue_type &q, void *to, const void *from, std::size_t bytes) {
    count(counter::device_copies);
    DP_GPU_CHECK("dp: a copy on the device",
                 DP_GPU(MemcpyAsync)(to, from, bytes, DP_GPU(MemcpyDeviceToDevice), q.handle));
  }
  void zero_fill(queue_type &q, void *dev, std::size_t bytes) {
    count(counter::device_zero_fills);
    DP_GPU_CHECK("dp: zeros set on the device", DP_GPU(MemsetAsync)(dev, 0, bytes, q.handle));
  }
  // Events: device/marks.hpp records them only when somebody waits.
  using event_type = gpu::event_t;
  static event_type new_event() { return gpu::create_event(); }
  static void destroy_event(event_type &e) { (void)DP_GPU(EventDestroy)(e); }
  void record_event(queue_type &q, event_type &e) {
    DP_GPU_CHECK("dp: an event", DP_GPU(EventRecord)(e, q.handle));
  }
  static bool event_done(const event_type &e) { return DP_GPU(EventQuery)(e) == DP_GPU(Success); }
  /// Blocks until e; an error of the work before it is a dp::error naming
  /// `site`, the call-site whose completion was waited for.
  static void event_wait(const event_type &e, const char *site) {
    const dp_gpu_error_t status = DP_GPU(EventSynchronize)(e);
    if (status != DP_GPU(Success))
      throw dp::error(std::string(site) + ": " + gpu::api + " reported an error while it ran: " +
                      DP_GPU(GetErrorString)(status));
  }
  static void event_wait_quietly(const event_type &e) noexcept { (void)DP_GPU(EventSynchronize)(e); }
  /// q's later work waits for e (another stream's): on the GPU.
  void queue_wait(queue_type &q, const event_type &e) {
    DP_GPU_CHECK("dp: waiting for another queue", DP_GPU(StreamWaitEvent)(q.handle, e, 0));
  }
  /// q's later work waits for work that is not this device's (a host
  /// task's): the host waits.
  void host_wait_in(queue_type &, const dp::detail::pending &work) { work->wait(); }
  /// The host waits for everything enqueued on q (dp::wait_all()).
  void synchronize(queue_type &q, const char *site) {
    count(counter::host_waits);
    profile::timed_wait(site, [&] { DP_GPU_CHECK(site, DP_GPU(StreamSynchronize)(q.handle)); });
  }
  // Graphs (dp::record): the recording's work captured from q's stream
  // (relaxed: vendor calls may size and allocate their scratch while it
  // captures), instantiated once, launched once per replay.
  using graph_type = gpu::graph_exec_t;
  static void begin_capture(queue_type &q) {
    DP_GPU_CHECK("dp::record: a stream capture",
                 DP_GPU(StreamBeginCapture)(q.handle, DP_GPU(StreamCaptureModeRelaxed)));
  }
  static graph_type end_capture(queue_type &q, const char *name) {
    gpu::graph_t captured = nullptr;
    DP_GPU_CHECK(name, DP_GPU(StreamEndCapture)(q.handle, &captured));
    graph_type exec = nullptr;
    const dp_gpu_error_t status = DP_GPU(GraphInstantiateWithFlags)(&exec, captured, 0);
    (void)DP_GPU(GraphDestroy)(captured); // the executable graph is a copy
    DP_GPU_CHECK(name, status);
    return exec;
  }
  /// One launch of the whole graph on q; `name` (the recording's) names
  /// an error of it.
  static void launch_graph(queue_type &q, const graph_type &g, const char *name) {
    DP_GPU_CHECK(name, DP_GPU(GraphLaunch)(g, q.handle));
  }
  static void destroy_graph(graph_type &g) {
    if (g)
      (void)DP_GPU(GraphExecDestroy)(g);
    g = nullptr;
  }

  /// DP_PROFILE's stamp of the point q's work has reached: a timing event.
  profile::stamp_ptr stamp(queue_type &q) { return std::make_shared<gpu::timing_stamp>(q.handle); }

  template <int R, class Params>
  void launch(queue_type &q, const std::string &site, const launch_plan<R> &plan,
              const stub_table<R, Params> &stubs, const Params &params) {
    for (const dispatch_piece<R> &piece : plan.pieces) {
      count(counter::launches);
      gpu::launch(site.c_str(), stubs.modes[plan.mode], piece.groups, plan.group_shape, q.handle,
                  make_geometry(plan, piece), params);
    }
  }
  /// Tile memory is the stub's static shared memory: arena_bytes is the
  /// emulated device's.
  template <int R, class Params>
  void launch_tiles(queue_type &q, const std::string &site, const launch_plan<R> &plan,
                    const triple &shape, std::size_t, const stub_table<R, Params> &stubs,
                    const Params &params) {
    for (const dispatch_piece<R> &piece : plan.pieces) {
      count(counter::launches);
      gpu::launch(site.c_str(), stubs.modes[plan.mode], piece.groups, shape, q.handle,
                  make_geometry(plan, piece), params);
    }
  }

private:
  /// The host's memcpy of a chunk, on every core.
  static void copy_parallel(void *to, const void *from, std::size_t n) {
    constexpr std::size_t piece = std::size_t(1) << 20;
    dp::detail::host_for_each(static_cast<std::int64_t>((n + piece - 1) / piece), [&](std::int64_t k) {
      const std::size_t at = static_cast<std::size_t>(k) * piece;
      std::memcpy(static_cast<char *>(to) + at, static_cast<const char *>(from) + at,
                  std::min(piece, n - at));
    });
  }

  queue_type queue_;
};

} // namespace dp::rt

#endif
