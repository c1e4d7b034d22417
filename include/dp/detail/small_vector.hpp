/// \file
/// A vector whose first N elements live inside it: the runtime's per-launch
/// lists (the arguments a call-site stages, the blocks it touches, the
/// temporaries it takes) allocate nothing in the common case.
#pragma once

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace dp::detail {

template <class T, std::size_t N> class small_vector {
public:
  // The inline slots past size() are never read, so none is initialised
  // or copied: a launch makes several of these, and zeroing 16 slots it
  // does not use cost more than what it stores in them.
  small_vector() {}
  small_vector(const small_vector &o) : size_(o.size_), spilled_(o.spilled_), heap_(o.heap_) {
    for (std::size_t i = 0; i < size_; ++i)
      inline_[i] = o.inline_[i];
  }
  small_vector(small_vector &&o) noexcept
      : size_(o.size_), spilled_(o.spilled_), heap_(std::move(o.heap_)) {
    for (std::size_t i = 0; i < size_; ++i)
      inline_[i] = std::move(o.inline_[i]);
    o.size_ = 0;
    o.spilled_ = false;
    o.heap_.clear();
  }
  small_vector &operator=(const small_vector &o) {
    if (this != &o) {
      small_vector copy(o);
      *this = std::move(copy);
    }
    return *this;
  }
  small_vector &operator=(small_vector &&o) noexcept {
    if (this != &o) {
      for (std::size_t i = 0; i < o.size_; ++i)
        inline_[i] = std::move(o.inline_[i]);
      size_ = o.size_;
      spilled_ = o.spilled_;
      heap_ = std::move(o.heap_);
      o.size_ = 0;
      o.spilled_ = false;
      o.heap_.clear();
    }
    return *this;
  }

  std::size_t size() const { return spilled() ? heap_.size() : size_; }
  bool empty() const { return size() == 0; }
  T *data() { return spilled() ? heap_.data() : inline_.data(); }
  const T *data() const { return spilled() ? heap_.data() : inline_.data(); }
  T *begin() { return data(); }
  T *end() { return data() + size(); }
  const T *begin() const { return data(); }
  const T *end() const { return data() + size(); }
  T &operator[](std::size_t i) { return data()[i]; }
  const T &operator[](std::size_t i) const { return data()[i]; }
  T &front() { return data()[0]; }
  const T &front() const { return data()[0]; }
  T &back() { return data()[size() - 1]; }
  const T &back() const { return data()[size() - 1]; }

  void push_back(T value) {
    if (!spilled() && size_ < N) {
      inline_[size_++] = std::move(value);
      return;
    }
    spill();
    heap_.push_back(std::move(value));
  }
  void pop_back() {
    if (spilled())
      heap_.pop_back();
    else
      inline_[--size_] = T();
  }
  /// n elements, the new ones value-initialised.
  void resize(std::size_t n) {
    if (!spilled() && n <= N) {
      for (std::size_t i = n; i < size_; ++i)
        inline_[i] = T();
      for (std::size_t i = size_; i < n; ++i)
        inline_[i] = T();
      size_ = n;
      return;
    }
    spill();
    heap_.resize(n);
  }
  void clear() {
    for (std::size_t i = 0; i < size_; ++i)
      inline_[i] = T();
    size_ = 0;
    heap_.clear();
    spilled_ = false;
  }
  template <class It> void append(It first, It last) {
    for (; first != last; ++first)
      push_back(*first);
  }

private:
  bool spilled() const { return spilled_; }
  void spill() {
    if (spilled_)
      return;
    heap_.reserve(2 * N);
    for (std::size_t i = 0; i < size_; ++i)
      heap_.push_back(std::move(inline_[i]));
    for (std::size_t i = 0; i < size_; ++i)
      inline_[i] = T();
    size_ = 0;
    spilled_ = true;
  }
  std::array<T, N> inline_; ///< the first size_ are live (unless spilled)
  std::size_t size_ = 0;
  bool spilled_ = false;
  std::vector<T> heap_;
};

} // namespace dp::detail
