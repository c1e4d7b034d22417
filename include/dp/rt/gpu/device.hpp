/// \file
/// The GPU device layer (device/executor.hpp lists what a layer is): CUDA
/// or HIP memory, one stream per queue, events as completions, copies
/// staged through page-locked buffers so they run at the bus's speed and
/// leave the host free, and launches on the stream. The vendor primitives
/// built on it are algorithms.hpp. Only device builds include this.
#pragma once

#include "../../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>

#include "../../detail/completion.hpp"
#include "../../error.hpp"
#include "../../options.hpp"
#include "../counters.hpp"
#include "../device/executor.hpp"
#include "../device/memory.hpp"
#include "../stub/dispatch.hpp"
#include "../stub/table.hpp"
#include "api.hpp"

namespace dp::rt {

namespace gpu {

/// An event recorded on a stream, as a completion: its wait reports an
/// error of the work before it, naming the call-site that recorded it.
class event final : public dp::detail::completion {
public:
  event(stream_t stream, const void *queue, std::string site)
      : event_(create_event()), queue_(queue), site_(std::move(site)) {
    DP_GPU_CHECK(site_.c_str(), DP_GPU(EventRecord)(event_, stream));
  }
  ~event() override { (void)DP_GPU(EventDestroy)(event_); }
  void wait() override {
    if (waited_)
      return;
    count(counter::host_waits);
    dp_gpu_error_t status = DP_GPU(Success);
    profile::timed_wait(site_, [&] { status = DP_GPU(EventSynchronize)(event_); });
    waited_ = true;
    if (status != DP_GPU(Success))
      throw dp::error(site_ + ": " + api + " reported an error while it ran: " +
                      DP_GPU(GetErrorString)(status));
  }
  void wait_quietly() noexcept override {
    if (!waited_)
      (void)DP_GPU(EventSynchronize)(event_);
  }
  bool done() const override { return waited_ || DP_GPU(EventQuery)(event_) == DP_GPU(Success); }
  const void *queue() const override { return queue_; }
  event_t handle() const { return event_; }

private:
  event_t event_;
  const void *queue_;
  std::string site_;
  bool waited_ = false;
};

/// A stream as an in-order queue.
struct stream_queue {
  stream_t handle = create_stream();
  stream_queue() = default;
  ~stream_queue() { (void)DP_GPU(StreamDestroy)(handle); }
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
  /// The staging chunks go with the layer (its streams after it).
  ~gpu_device() {
    for (int c = 0; c < chunks; ++c)
      if (chunk_[c]) {
        (void)DP_GPU(EventDestroy)(chunk_done_[c]);
        gpu::pinned_free(chunk_[c]);
        count(counter::pinned_bytes, -static_cast<std::int64_t>(chunk_bytes));
      }
  }
  /// Every stream's work done; errors are left unreported (at exit).
  void synchronize_quietly() noexcept { (void)DP_GPU(DeviceSynchronize)(); }

  /// Copies in chunks through page-locked buffers, the host filling one
  /// while the bus empties another; returns once the host's bytes are read.
  dp::detail::pending copy_to_device(queue_type &q, void *dev, const void *host,
                                     std::size_t bytes) {
    count(counter::to_device_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_device_copies);
    if (bytes <= direct_bytes) {
      gpu::copy_async("dp: a copy to the device", dev, host, bytes, true, q.handle);
      return nullptr; // from pageable memory, the call returns once it has read it
    }
    staged(q, bytes, [&](std::size_t at, std::size_t n, void *chunk) {
      copy_parallel(chunk, static_cast<const char *>(host) + at, n);
      gpu::copy_async("dp: a copy to the device", static_cast<char *>(dev) + at, chunk, n, true,
                      q.handle);
    });
    return nullptr;
  }
  /// The same, from the device; returns when the host holds the bytes.
  /// Chunk k goes to the host while chunk k+1 crosses the bus.
  void copy_to_host(queue_type &q, void *host, const void *dev, std::size_t bytes) {
    count(counter::to_host_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_host_copies);
    count(counter::host_waits);
    if (bytes <= direct_bytes) {
      gpu::copy_async("dp: a copy to the host", host, dev, bytes, false, q.handle);
      DP_GPU_CHECK("dp: a copy to the host", DP_GPU(StreamSynchronize)(q.handle));
      return;
    }
    ensure_chunks();
    std::size_t previous_at = 0, previous_n = 0;
    int previous = -1;
    auto drain = [&] {
      if (previous < 0)
        return;
      DP_GPU_CHECK("dp: a copy to the host", DP_GPU(EventSynchronize)(chunk_done_[previous]));
      copy_parallel(static_cast<char *>(host) + previous_at, chunk_[previous], previous_n);
    };
    std::size_t k = 0;
    for (std::size_t at = 0; at < bytes; at += chunk_bytes, ++k) {
      const int c = static_cast<int>(k % chunks);
      const std::size_t n = std::min(chunk_bytes, bytes - at);
      gpu::copy_async("dp: a copy to the host", chunk_[c], static_cast<const char *>(dev) + at, n,
                      false, q.handle);
      DP_GPU_CHECK("dp: a copy to the host", DP_GPU(EventRecord)(chunk_done_[c], q.handle));
      drain(); // the chunk before: its bytes to the host while this one crosses
      previous = c, previous_at = at, previous_n = n;
    }
    drain();
  }
  /// `bytes` at `dev` into the page-locked `slot`, behind q's work.
  void copy_to_pinned(queue_type &q, void *slot, const void *dev, std::size_t bytes) {
    gpu::copy_async("dp: a result to the host", slot, dev, bytes, false, q.handle);
  }
  dp::detail::pending record(queue_type &q, const std::string &site) {
    return std::make_shared<gpu::event>(q.handle, &q, site);
  }
  /// DP_PROFILE's stamp of the point q's work has reached: a timing event.
  profile::stamp_ptr stamp(queue_type &q) { return std::make_shared<gpu::timing_stamp>(q.handle); }
  /// q's later work waits for `work`: on the GPU for another stream's
  /// events, on the host for host tasks.
  void wait_for(queue_type &q, const std::vector<dp::detail::pending> &work) {
    for (const dp::detail::pending &p : work) {
      if (const auto *e = dynamic_cast<const gpu::event *>(p.get()))
        DP_GPU_CHECK("dp: waiting for another queue", DP_GPU(StreamWaitEvent)(q.handle, e->handle(), 0));
      else
        p->wait();
    }
  }

  template <int R, class Params>
  void launch(queue_type &q, const std::string &site, const dispatch_plan<R> &plan,
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
  void launch_tiles(queue_type &q, const std::string &site, const dispatch_plan<R> &plan,
                    const triple &shape, std::size_t, const stub_table<R, Params> &stubs,
                    const Params &params) {
    for (const dispatch_piece<R> &piece : plan.pieces) {
      count(counter::launches);
      gpu::launch(site.c_str(), stubs.modes[plan.mode], piece.groups, shape, q.handle,
                  make_geometry(plan, piece), params);
    }
  }

private:
  /// Copies at or below this go straight (one call); above, staged.
  static constexpr std::size_t direct_bytes = std::size_t(1) << 20;
  static constexpr std::size_t chunk_bytes = std::size_t(8) << 20;
  static constexpr int chunks = 3;

  /// The host's memcpy of a chunk, on every core.
  static void copy_parallel(void *to, const void *from, std::size_t n) {
    constexpr std::size_t piece = std::size_t(1) << 20;
    tbb::parallel_for(std::size_t(0), (n + piece - 1) / piece, [&](std::size_t k) {
      const std::size_t at = k * piece;
      std::memcpy(static_cast<char *>(to) + at, static_cast<const char *>(from) + at,
                  std::min(piece, n - at));
    });
  }
  /// Calls step(offset, length, chunk) for each chunk of `bytes`, each
  /// page-locked chunk reused once the stream is done with it.
  template <class Step> void staged(queue_type &q, std::size_t bytes, Step &&step) {
    ensure_chunks();
    std::size_t k = 0;
    for (std::size_t at = 0; at < bytes; at += chunk_bytes, ++k) {
      const int c = static_cast<int>(k % chunks);
      DP_GPU_CHECK("dp: a staged copy", DP_GPU(EventSynchronize)(chunk_done_[c]));
      step(at, std::min(chunk_bytes, bytes - at), chunk_[c]);
      DP_GPU_CHECK("dp: a staged copy", DP_GPU(EventRecord)(chunk_done_[c], q.handle));
    }
  }
  void ensure_chunks() {
    if (chunk_[0])
      return;
    for (int c = 0; c < chunks; ++c) {
      chunk_[c] = gpu::pinned_allocate(chunk_bytes);
      count(counter::pinned_allocations);
      count(counter::pinned_bytes, static_cast<std::int64_t>(chunk_bytes));
      chunk_done_[c] = gpu::create_event();
    }
  }

  queue_type queue_;
  void *chunk_[chunks] = {};
  gpu::event_t chunk_done_[chunks] = {};
};

} // namespace dp::rt

#endif
