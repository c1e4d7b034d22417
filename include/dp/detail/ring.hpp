/// \file
/// A FIFO over storage that grows (doubling) and never shrinks, so that a
/// queue in steady state pushes and pops with no allocation of its own
/// (a std::deque takes a new chunk every few hundred bytes it moves
/// through): a task queue's tasks, a device queue's recorded events.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace dp::detail {

template <class T> class ring {
public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  void push_back(T item) {
    if (size_ == slots_.size())
      grow();
    slots_[(head_ + size_) % slots_.size()] = std::move(item);
    ++size_;
  }
  const T &front() const { return slots_[head_]; }
  /// The oldest item, moved out.
  T pop_front() {
    T item = std::move(slots_[head_]);
    slots_[head_] = T();
    head_ = (head_ + 1) % slots_.size();
    --size_;
    return item;
  }
  /// The i-th oldest item.
  T &operator[](std::size_t i) { return slots_[(head_ + i) % slots_.size()]; }
  const T &operator[](std::size_t i) const { return slots_[(head_ + i) % slots_.size()]; }

private:
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 16 : 2 * slots_.size());
    for (std::size_t i = 0; i < size_; ++i)
      bigger[i] = std::move((*this)[i]);
    slots_ = std::move(bigger);
    head_ = 0;
  }
  std::vector<T> slots_;
  std::size_t head_ = 0, size_ = 0;
};

} // namespace dp::detail
