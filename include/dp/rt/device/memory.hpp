/// \file
/// Device memory without an allocation per call: a caching allocator in the
/// spirit of CUB's CachingDeviceAllocator, in plain host code over a
/// device's raw allocate and free (so it runs, and is tested, on the
/// emulated device too). Blocks come in size classes (powers of two from
/// 256 bytes to 256 MiB; exact sizes above). A block given back on a queue
/// is free at once for later work on that queue (a queue runs in order),
/// and for other queues once the work that used it is done. When a raw
/// allocation fails, the cache frees what no work uses and tries again.
///
/// Why not cudaMallocAsync's pools: one path for CUDA, HIP 5.2 (whose
/// stream-ordered allocator is a preview) and the emulated device, so the
/// bookkeeping CTest checks is the bookkeeping a GPU runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>

#include "../../detail/completion.hpp"
#include "../../error.hpp"
#include "../counters.hpp"
#include "../profile.hpp"

namespace dp::rt {

/// A cache of device blocks over raw allocate/free functions.
class block_cache {
public:
  using raw_allocate = void *(*)(std::size_t bytes); ///< throws dp::error when out of memory
  using raw_free = void (*)(void *);

  /// `live`: the counter of the raw bytes it holds (device_bytes, or
  /// pinned_bytes for page-locked host memory).
  block_cache(raw_allocate allocate, raw_free free, counter live = counter::device_bytes)
      : allocate_(allocate), free_(free), live_bytes_(live) {}
  /// Frees what is cached. A block still handed out stays allocated: it is
  /// a leak, which the device's report at exit shows (device/executor.hpp).
  ~block_cache() { trim(); }
  block_cache(const block_cache &) = delete;
  block_cache &operator=(const block_cache &) = delete;

  /// The size class of a request: what a block serving it holds.
  static std::size_t size_class(std::size_t bytes) {
    constexpr std::size_t smallest = 256, largest = std::size_t(1) << 28;
    if (bytes > largest)
      return bytes;
    std::size_t c = smallest;
    while (c < bytes)
      c *= 2;
    return c;
  }

  /// A block of at least `bytes` for work on `queue`.
  void *allocate(std::size_t bytes, const void *queue) {
    const std::size_t cls = size_class(bytes);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto [first, last] = cached_.equal_range(cls);
      for (auto it = first; it != last; ++it) {
        const free_block &b = it->second;
        if (b.queue == queue || !b.after || b.after->done()) {
          void *p = b.data;
          cached_.erase(it);
          live_[p] = cls;
          count(counter::cache_reuses);
          return p;
        }
      }
    }
    void *p = nullptr;
    try {
      p = allocate_(cls);
    } catch (const dp::error &) {
      trim(); // give back what nothing uses, and try once more
      p = allocate_(cls);
    }
    count(live_bytes_ == counter::pinned_bytes ? counter::pinned_allocations
                                               : counter::device_allocations);
    count(live_bytes_, static_cast<std::int64_t>(cls));
    if (profile::on())
      profile::note_allocation(static_cast<std::int64_t>(cls));
    std::lock_guard<std::mutex> lock(mutex_);
    live_[p] = cls;
    return p;
  }

  /// Gives a block back: free for later work on `queue` at once, for other
  /// queues once `after` (the work that used it) is done; null: now.
  void release(void *p, const void *queue, dp::detail::pending after) {
    if (!p)
      return;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(p);
    if (it == live_.end())
      return; // not ours (cannot happen through the runtime)
    cached_.emplace(it->second, free_block{p, queue, std::move(after)});
    live_.erase(it);
  }

  /// Frees every cached block whose work is done.
  void trim() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = cached_.begin(); it != cached_.end();) {
      if (!it->second.after || it->second.after->done()) {
        free_(it->second.data);
        if (live_bytes_ != counter::pinned_bytes)
          count(counter::device_frees);
        count(live_bytes_, -static_cast<std::int64_t>(it->first));
        it = cached_.erase(it);
      } else {
        ++it;
      }
    }
  }

  /// Blocks handed out and not given back; blocks cached.
  std::size_t live_blocks() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.size();
  }
  std::size_t cached_blocks() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_.size();
  }

private:
  struct free_block {
    void *data;
    const void *queue;
    dp::detail::pending after;
  };
  raw_allocate allocate_;
  raw_free free_;
  counter live_bytes_;
  mutable std::mutex mutex_;
  std::multimap<std::size_t, free_block> cached_; ///< by size class
  std::unordered_map<void *, std::size_t> live_;  ///< handed out, with their class
};

} // namespace dp::rt
