/// \file
/// Lists a call-site builds and drops, their memory kept for the next:
/// dp::borrowed_rows<T, 3>'s list of a grid's rows and the row starts a
/// written dp::borrowed_rows holds, 8 bytes a row (half a MiB for NPB MG's
/// finest grid at class A, at every call-site). Allocated afresh, such a
/// list is fresh pages each time: glibc gives a freed top of its heap
/// past its trim threshold back to the system, and the next call-site's
/// list faults it in again, page by page (MG's migration spent more time
/// in those faults than in its smoother's kernel).
#pragma once

#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace dp::detail {

/// A std::vector<E> taken from the few kept (the largest first) and
/// given back at its end. At most 4 are kept, and none past 64 MiB in
/// all: a list once that large is not kept.
template <class E> class reused_vector {
public:
  explicit reused_vector(std::size_t n) : v_(take()) { v_.reserve(n); }
  reused_vector(const reused_vector &) = delete;
  reused_vector &operator=(const reused_vector &) = delete;
  reused_vector(reused_vector &&o) noexcept : v_(std::move(o.v_)) {}
  reused_vector &operator=(reused_vector &&o) noexcept {
    std::swap(v_, o.v_);
    return *this;
  }
  ~reused_vector() { give(std::move(v_)); }

  std::vector<E> &operator*() { return v_; }
  const std::vector<E> &operator*() const { return v_; }
  std::vector<E> *operator->() { return &v_; }
  const std::vector<E> *operator->() const { return &v_; }

private:
  static constexpr std::size_t most = 4, most_bytes = std::size_t(64) << 20;
  struct kept {
    std::mutex mutex;
    std::vector<std::vector<E>> lists;
    std::size_t bytes = 0;
    kept() { lists.reserve(most); }
  };
  static kept &all() {
    static kept *k = new kept(); // never destroyed: lists may come back at exit
    return *k;
  }
  static std::vector<E> take() {
    kept &k = all();
    std::lock_guard<std::mutex> lock(k.mutex);
    if (k.lists.empty())
      return {};
    auto largest = k.lists.begin();
    for (auto it = k.lists.begin(); it != k.lists.end(); ++it)
      if (it->capacity() > largest->capacity())
        largest = it;
    std::vector<E> v = std::move(*largest);
    k.lists.erase(largest);
    k.bytes -= v.capacity() * sizeof(E);
    return v;
  }
  static void give(std::vector<E> &&v) noexcept {
    const std::size_t bytes = v.capacity() * sizeof(E);
    if (bytes == 0)
      return;
    v.clear();
    kept &k = all();
    std::lock_guard<std::mutex> lock(k.mutex);
    if (k.lists.size() < most && k.bytes + bytes <= most_bytes) {
      k.lists.push_back(std::move(v)); // reserved: no allocation
      k.bytes += bytes;
    }
  }

  std::vector<E> v_;
};

} // namespace dp::detail
