// dp::wait_all(): every executor made so far waits for its queues.

#include <dp/wait.hpp>

#include <mutex>
#include <vector>

namespace dp {

namespace {
struct waiters {
  std::mutex mutex;
  std::vector<std::function<void()>> all;
};
waiters &registered() {
  static waiters w;
  return w;
}
} // namespace

void rt::detail::on_wait_all(std::function<void()> wait) {
  std::lock_guard<std::mutex> lock(registered().mutex);
  registered().all.push_back(std::move(wait));
}

void wait_all() {
  std::vector<std::function<void()>> all;
  {
    std::lock_guard<std::mutex> lock(registered().mutex);
    all = registered().all;
  }
  for (const auto &wait : all)
    wait();
}

} // namespace dp
