// Execution options: the checks of launch-shape hints, and the registry of
// live queues dp::wait_all() waits for.

#include <dp/detail/recording.hpp>
#include <dp/error.hpp>
#include <dp/options.hpp>
#include <dp/rt/task_queue.hpp>

#include <algorithm>
#include <mutex>
#include <vector>

namespace dp {

namespace {
struct queues {
  std::mutex mutex;
  std::vector<std::weak_ptr<detail::queue_state>> live;
};
queues &registry() {
  static queues q;
  return q;
}
} // namespace

detail::queue_state::queue_state() = default;

detail::queue_state::~queue_state() {
  // A queue's work finishes before the queue goes (errors stay unreported:
  // the task queue prints them).
  try {
    wait();
  } catch (...) {
  }
}

rt::task_queue &detail::queue_state::host() {
  if (rt::task_queue *q = host_ready_.load(std::memory_order_acquire))
    return *q; // every launch after the first: no lock
  std::lock_guard<std::mutex> lock(mutex_);
  if (!host_) {
    host_ = std::make_unique<rt::task_queue>();
    host_ready_.store(host_.get(), std::memory_order_release);
  }
  return *host_;
}

void detail::queue_state::wait() {
  recording::refuse_if_active("dp::queue::wait()");
  rt::task_queue *host;
  std::function<void()> device;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    host = host_.get();
    device = device_wait_;
  }
  if (device)
    device();
  if (host)
    host->wait();
}

void detail::register_queue(const std::shared_ptr<queue_state> &q) {
  static const bool waits = [] {
    rt::detail::on_wait_all([] {
      std::vector<std::shared_ptr<queue_state>> all;
      {
        std::lock_guard<std::mutex> lock(registry().mutex);
        for (const auto &w : registry().live)
          if (auto s = w.lock())
            all.push_back(std::move(s));
      }
      for (const auto &s : all)
        s->wait();
    });
    return true;
  }();
  (void)waits;
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto &live = registry().live;
  live.erase(std::remove_if(live.begin(), live.end(), [](const auto &w) { return w.expired(); }),
             live.end());
  live.push_back(q);
}

std::string detail::check_hints(const exec_options &options, bool tiled) {
  if (options.has_group()) {
    const auto &g = options.group();
    if (g[0] < 1 || g[1] < 1 || g[2] < 1)
      return "dp::group_size(" + std::to_string(g[0]) + ", " + std::to_string(g[1]) + ", " +
             std::to_string(g[2]) + "): every extent of a group must be at least 1";
    if (g[0] * g[1] * g[2] > 1024)
      return "dp::group_size(" + std::to_string(g[0]) + ", " + std::to_string(g[1]) + ", " +
             std::to_string(g[2]) + ") asks for " + std::to_string(g[0] * g[1] * g[2]) +
             " threads per group; no device takes more than 1024";
    if (tiled)
      return "dp::group_size on a tiled domain: its group is its tile (dp::tile<T...>), so a "
             "group shape of its own conflicts with it";
  }
  if (options.has_max_groups() && options.max_groups() < 1)
    return ".max_groups(" + std::to_string(options.max_groups()) +
           "): a launch needs at least one group";
  return "";
}

void detail::check_reference_hints(const call_info &call, const exec_options &options,
                                   bool tiled) {
  const std::string problem = check_hints(options, tiled);
  if (!problem.empty())
    throw error(call.name() + ": " + problem);
}

} // namespace dp
