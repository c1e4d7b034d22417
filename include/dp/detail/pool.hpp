/// \file
/// Fixed-size blocks reused instead of freed: the runtime's per-launch
/// objects (a launch's completion, with its shared_ptr control block) are
/// made with std::allocate_shared over a pool_allocator, so a steady state
/// of launches allocates nothing. A pool keeps what it gave out most at
/// once; its blocks return to the system at exit.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace dp::detail {

/// Free blocks of Size bytes aligned to Align: up to 16 kept by each
/// thread (no lock: a steady state of launches takes and gives back on one
/// thread), the rest shared under a lock, moved eight at a time (blocks
/// one thread takes and another gives back cost a lock per eight).
template <std::size_t Size, std::size_t Align> class fixed_pool {
public:
  static fixed_pool &get() {
    static fixed_pool *pool = new fixed_pool(); // never destroyed: blocks may return at exit
    return *pool;
  }
  void *take() {
    cache &mine = local();
    if (mine.count < 0) // the thread is ending: its cache is gone
      return shared_take();
    if (mine.count == 0) { // half a cache from the shared list, under one lock
      std::lock_guard<std::mutex> lock(mutex_);
      while (mine.count < cache::capacity / 2 && !free_.empty()) {
        mine.blocks[mine.count++] = free_.back();
        free_.pop_back();
      }
    }
    if (mine.count > 0)
      return mine.blocks[--mine.count];
    return ::operator new(Size, std::align_val_t(Align));
  }
  void give(void *p) noexcept {
    cache &mine = local();
    if (mine.count < 0)
      return shared(p);
    if (mine.count == cache::capacity) { // half of it to the shared list
      std::lock_guard<std::mutex> lock(mutex_);
      while (mine.count > cache::capacity / 2)
        shared_locked(mine.blocks[--mine.count]);
    }
    mine.blocks[mine.count++] = p;
  }

private:
  /// A thread's own free blocks; they go to the shared list when it ends.
  struct cache {
    static constexpr int capacity = 16;
    void *blocks[capacity];
    int count = 0;
    ~cache() {
      while (count > 0)
        get().shared(blocks[--count]);
      count = -1; // blocks given back later in the thread's end go to the shared list
    }
  };
  static cache &local() {
    static thread_local cache mine;
    return mine;
  }
  void *shared_take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        void *p = free_.back();
        free_.pop_back();
        return p;
      }
    }
    return ::operator new(Size, std::align_val_t(Align));
  }
  void shared(void *p) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    shared_locked(p);
  }
  void shared_locked(void *p) noexcept {
    try {
      free_.push_back(p);
    } catch (...) {
      ::operator delete(p, std::align_val_t(Align));
    }
  }

  fixed_pool() { free_.reserve(64); }
  std::mutex mutex_;
  std::vector<void *> free_;
};

/// An allocator of single objects from a fixed_pool (arrays from the heap).
template <class T> struct pool_allocator {
  using value_type = T;
  pool_allocator() = default;
  template <class U> pool_allocator(const pool_allocator<U> &) noexcept {}
  T *allocate(std::size_t n) {
    if (n != 1)
      return std::allocator<T>().allocate(n);
    return static_cast<T *>(fixed_pool<sizeof(T), alignof(T)>::get().take());
  }
  void deallocate(T *p, std::size_t n) noexcept {
    if (n != 1)
      std::allocator<T>().deallocate(p, n);
    else
      fixed_pool<sizeof(T), alignof(T)>::get().give(p);
  }
  template <class U> bool operator==(const pool_allocator<U> &) const noexcept { return true; }
  template <class U> bool operator!=(const pool_allocator<U> &) const noexcept { return false; }
};

/// A T made in a pooled block: std::make_shared without a heap allocation
/// once the pool holds a free block.
template <class T, class... A> std::shared_ptr<T> make_pooled(A &&...args) {
  return std::allocate_shared<T>(pool_allocator<T>(), std::forward<A>(args)...);
}

} // namespace dp::detail
