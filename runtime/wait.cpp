// dp::wait_all(): every executor made so far waits for its queues.

#include <dp/detail/recording.hpp>
#include <dp/error.hpp>
#include <dp/wait.hpp>

#include <atomic>
#include <mutex>

namespace dp {

namespace {
/// The waits registered: a few (the device executor, the queue registry),
/// each added once and never removed, so wait_all() reads them without a
/// lock.
struct waiters {
  static constexpr int capacity = 8;
  std::mutex adding;
  std::atomic<void (*)()> all[capacity] = {};
  std::atomic<int> count{0};
};
waiters &registered() {
  static waiters w;
  return w;
}
} // namespace

void rt::detail::on_wait_all(void (*wait)()) {
  waiters &w = registered();
  std::lock_guard<std::mutex> lock(w.adding);
  const int n = w.count.load();
  for (int i = 0; i < n; ++i)
    if (w.all[i].load() == wait)
      return;
  if (n == waiters::capacity)
    throw dp::error("dp::wait_all: too many executors registered");
  w.all[n].store(wait);
  w.count.store(n + 1);
}

void wait_all() {
  detail::recording::refuse_if_active("dp::wait_all()");
  waiters &w = registered();
  const int n = w.count.load();
  for (int i = 0; i < n; ++i)
    w.all[i].load()();
}

} // namespace dp
