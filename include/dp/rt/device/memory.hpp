/// \file
/// Device memory without an allocation per call: a caching allocator in the
/// spirit of CUB's CachingDeviceAllocator, in plain host code over a
/// device's raw allocate and free (so it runs, and is tested, on the
/// emulated device too). Blocks come in size classes (powers of two from
/// 256 bytes to 256 MiB, or to a smaller largest class; exact sizes
/// above). A cache may keep at most so many bytes idle: past that a block
/// given back whose work is done is freed. A block given back on a queue
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
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

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
  /// pinned_bytes for page-locked host memory); `largest`: its largest
  /// size class; `max_idle`: the most bytes it keeps cached (0: no limit).
  block_cache(raw_allocate allocate, raw_free free, counter live = counter::device_bytes,
              std::size_t largest = largest_class, std::size_t max_idle = 0)
      : allocate_(allocate), free_(free), live_bytes_(live), largest_(largest),
        max_idle_(max_idle) {}
  /// Frees what is cached. A block still handed out stays allocated: it is
  /// a leak, which the device's report at exit shows (device/executor.hpp).
  ~block_cache() { trim(); }
  block_cache(const block_cache &) = delete;
  block_cache &operator=(const block_cache &) = delete;

  /// The largest size class; larger requests get blocks of their exact size.
  static constexpr std::size_t largest_class = std::size_t(1) << 28;

  /// The size class of a request: what a block serving it holds.
  static std::size_t size_class(std::size_t bytes, std::size_t largest = largest_class) {
    constexpr std::size_t smallest = 256;
    if (bytes > largest)
      return bytes;
    std::size_t c = smallest;
    while (c < bytes)
      c *= 2;
    return c;
  }

  /// A block of at least `bytes` for work on `queue`.
  void *allocate(std::size_t bytes, const void *queue) {
    const std::size_t cls = size_class(bytes, largest_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto list = free_lists_.find(cls);
      if (list != free_lists_.end())
        for (auto it = list->second.begin(); it != list->second.end(); ++it) {
          block &b = (*it)->second;
          if (b.queue == queue || !b.after || b.after->done()) {
            void *p = (*it)->first;
            list->second.erase(it); // keeps the others' order: oldest first
            b.handed_out = true;
            b.after.reset();
            ++live_;
            --cached_;
            idle_bytes_ -= cls;
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
    blocks_.emplace(p, block{cls, nullptr, nullptr, true});
    free_lists_[cls].reserve(1); // the list it returns to: made now, not on release
    ++live_;
    return p;
  }

  /// Gives a block back: free for later work on `queue` at once, for other
  /// queues once `after` (the work that used it) is done; null: now.
  void release(void *p, const void *queue, dp::detail::pending after) {
    if (!p)
      return;
    std::unique_lock<std::mutex> lock(mutex_);
    const auto it = blocks_.find(p);
    if (it == blocks_.end() || !it->second.handed_out)
      return; // not ours, or given back twice (cannot happen through the runtime)
    block &b = it->second;
    if (max_idle_ && idle_bytes_ + b.cls > max_idle_ && (!after || after->done())) {
      const std::size_t cls = b.cls; // over the limit: freed, not cached
      blocks_.erase(it);
      --live_;
      lock.unlock();
      free_raw(p, cls);
      return;
    }
    b.handed_out = false;
    b.queue = queue;
    b.after = std::move(after);
    free_lists_[b.cls].push_back(&*it);
    --live_;
    ++cached_;
    idle_bytes_ += b.cls;
  }

  /// Frees every cached block whose work is done; forgets the emptied
  /// lists of exact sizes above the largest class (the classes' own lists
  /// stay, with their room; a block of such a size handed out meanwhile
  /// makes its list again when given back).
  void trim() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto at = free_lists_.begin(); at != free_lists_.end();) {
      auto &[cls, list] = *at;
      std::size_t kept = 0;
      for (entry *e : list) {
        if (e->second.after && !e->second.after->done()) {
          list[kept++] = e;
          continue;
        }
        void *p = e->first;
        free_raw(p, cls);
        blocks_.erase(p);
        --cached_;
        idle_bytes_ -= cls;
      }
      list.resize(kept);
      const bool exact = cls > largest_ && kept == 0;
      at = exact ? free_lists_.erase(at) : std::next(at);
    }
  }

  /// Blocks handed out and not given back; blocks cached.
  std::size_t live_blocks() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_;
  }
  std::size_t cached_blocks() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_;
  }

private:
  void free_raw(void *p, std::size_t cls) {
    free_(p);
    if (live_bytes_ != counter::pinned_bytes)
      count(counter::device_frees);
    count(counter::device_syncs); // cudaFree and cudaFreeHost wait for the whole device
    count(live_bytes_, -static_cast<std::int64_t>(cls));
  }

  /// Every block the cache holds, handed out or cached. Entries come and go
  /// only with raw allocations and frees, and a block's free list keeps its
  /// room, so handing blocks out and taking them back allocates nothing on
  /// the host (a reduce does both on every call).
  struct block {
    std::size_t cls;
    const void *queue;          ///< where it was given back
    dp::detail::pending after;  ///< the work that used it
    bool handed_out;
  };
  raw_allocate allocate_;
  raw_free free_;
  counter live_bytes_;
  std::size_t largest_, max_idle_;
  mutable std::mutex mutex_;
  using entry = std::unordered_map<void *, block>::value_type; ///< stays put until erased
  std::unordered_map<void *, block> blocks_;
  /// Cached blocks by size class, oldest first: their entries in blocks_,
  /// so choosing one needs no lookup.
  std::map<std::size_t, std::vector<entry *>> free_lists_;
  std::size_t live_ = 0, cached_ = 0;
  std::size_t idle_bytes_ = 0; ///< bytes of the cached blocks
};

} // namespace dp::rt
