// The runtime's counters (rt/counters.hpp): a block of counts per thread,
// summed when read.

#include <dp/rt/counters.hpp>

#include <memory>
#include <mutex>
#include <vector>

namespace dp::rt::detail {
namespace {
struct registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<counter_block>> blocks; ///< never freed: counts outlive threads
  std::vector<counter_block *> free;                  ///< blocks whose thread ended
};
registry &blocks() {
  static registry *r = new registry; // used by threads ending after static destruction
  return *r;
}

/// Set once the thread's holder is gone (a trivial thread_local: it is
/// never destroyed).
thread_local bool ending = false;

/// Hands the thread's block on when the thread ends.
struct block_holder {
  counter_block *block = nullptr;
  ~block_holder() {
    ending = true;
    if (!block)
      return;
    this_thread_counters = nullptr;
    registry &r = blocks();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.free.push_back(block);
  }
};
} // namespace

counter_block &attach_counter_block() {
  registry &r = blocks();
  if (ending) { // a count made in the thread's end, after its holder went
    // (another thread_local's destructor): a block of its own, kept
    std::lock_guard<std::mutex> lock(r.mutex);
    r.blocks.push_back(std::make_unique<counter_block>());
    this_thread_counters = r.blocks.back().get();
    return *this_thread_counters;
  }
  static thread_local block_holder holder;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.free.empty()) {
      holder.block = r.free.back();
      r.free.pop_back();
    } else {
      r.blocks.push_back(std::make_unique<counter_block>());
      holder.block = r.blocks.back().get();
    }
  }
  this_thread_counters = holder.block;
  return *holder.block;
}

counts sum_counter_blocks() {
  counts c;
  registry &r = blocks();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &b : r.blocks)
    for (int i = 0; i < static_cast<int>(counter::kinds_); ++i)
      c.value[i] += b->cell[i].load(std::memory_order_relaxed);
  return c;
}

} // namespace dp::rt::detail
