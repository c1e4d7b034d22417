// An in-order host task queue with a worker thread (task_queue.hpp).

#include <dp/detail/pool.hpp>
#include <dp/error.hpp>
#include <dp/rt/counters.hpp>
#include <dp/rt/task_queue.hpp>

#include <atomic>
#include <cstdio>

namespace dp::rt {

/// A point in a queue: done once the tasks before it have run.
class task_queue::event final : public dp::detail::completion {
public:
  event(const task_queue &q, std::shared_ptr<state> s, std::uint64_t seq)
      : id_(&q), s_(std::move(s)), seq_(seq) {}
  void wait() override {
    if (!waited_)
      count(counter::host_waits);
    waited_ = true;
    profile::timed_wait("a task queue's work", [&] { s_->wait_for(seq_, true); });
  }
  void wait_quietly() noexcept override {
    try {
      s_->wait_for(seq_, false);
    } catch (...) {
    }
  }
  void wait_at_end() noexcept override {
    if (!waited_)
      count(counter::host_waits);
    waited_ = true;
    wait_quietly();
  }
  bool done() const override {
    std::lock_guard<std::mutex> lock(s_->mutex);
    return s_->completed >= seq_;
  }
  const void *queue() const override { return id_; }

private:
  const void *id_; ///< the queue's identity (it may be gone)
  std::shared_ptr<state> s_;
  std::uint64_t seq_;
  bool waited_ = false;
};

/// A task that reads the clock; its time is known once it has run.
class task_queue::queue_stamp final : public profile::stamp {
public:
  explicit queue_stamp(std::shared_ptr<state> s) : s_(std::move(s)) {}
  std::int64_t time() noexcept override {
    try {
      s_->wait_for(seq, false); // never a counted or profiled wait
    } catch (...) {
      return -1;
    }
    return at.load();
  }
  std::uint64_t seq = 0;
  std::atomic<std::int64_t> at{-1};

private:
  std::shared_ptr<state> s_;
};

bool task_queue::point::done() const {
  if (!s_)
    return true;
  std::lock_guard<std::mutex> lock(s_->mutex);
  return s_->completed >= seq_;
}

void task_queue::point::wait(bool report) const {
  if (s_)
    s_->wait_for(seq_, report);
}

task_queue::point task_queue::here() const {
  point p;
  p.id_ = this;
  p.s_ = s_;
  std::lock_guard<std::mutex> lock(s_->mutex);
  p.seq_ = s_->enqueued;
  return p;
}

profile::stamp_ptr task_queue::stamp() {
  auto st = std::make_shared<queue_stamp>(s_);
  st->seq = push("dp: a profile stamp", [st] { st->at = profile::now(); });
  return st;
}

task_queue::task_queue() : s_(std::make_shared<state>()), worker_([this] { run(); }) {}

task_queue::~task_queue() {
  marks.retire(); // waits for the tasks a device layer marked
  {
    std::lock_guard<std::mutex> lock(s_->mutex);
    s_->stopping = true;
  }
  s_->work_ready.notify_all();
  worker_.join();
  if (s_->first_failure) // nobody waited for it: say so rather than lose it
    std::fprintf(stderr, "dp: an error no wait reported: %s\n", s_->first_failure->what.c_str());
  s_->first_failure.reset(); // said once
}

void task_queue::enqueue(const char *site, std::function<void()> task) {
  (void)push(site, std::move(task));
}

void task_queue::begin_capture() {
  std::lock_guard<std::mutex> lock(s_->mutex);
  s_->capture.emplace();
}

task_queue::captured task_queue::end_capture() {
  std::lock_guard<std::mutex> lock(s_->mutex);
  captured out = std::move(*s_->capture);
  s_->capture.reset();
  return out;
}

namespace {
/// Runs one task; its error, as its queue reports it.
std::optional<std::string> run_task(const char *site, const std::function<void()> &task) {
  try {
    task();
  } catch (const std::exception &e) {
    return dp::detail::named_by(site, e.what());
  } catch (...) {
    return std::string(site) + ": an unknown exception";
  }
  return std::nullopt;
}
} // namespace

void task_queue::run_all(const captured &tasks) {
  std::optional<std::string> first;
  for (const auto &[site, task] : tasks)
    if (std::optional<std::string> error = run_task(site, task); error && !first)
      first = std::move(error);
  if (first)
    throw dp::error(*first);
}

void task_queue::replay(const char *name, std::shared_ptr<const captured> tasks) {
  enqueue(name, [tasks = std::move(tasks)] { run_all(*tasks); });
}

std::uint64_t task_queue::push(const char *site, std::function<void()> task) {
  std::uint64_t seq;
  {
    std::lock_guard<std::mutex> lock(s_->mutex);
    if (s_->capture) { // kept for a recording; nothing runs
      s_->capture->emplace_back(site, std::move(task));
      return s_->enqueued;
    }
    s_->tasks.push_back({site, std::move(task)});
    seq = ++s_->enqueued;
  }
  s_->work_ready.notify_one();
  return seq;
}

dp::detail::pending task_queue::record() {
  std::lock_guard<std::mutex> lock(s_->mutex);
  return dp::detail::make_pooled<event>(*this, s_, s_->enqueued);
}

void task_queue::wait() { s_->wait_for(enqueued(), true); }

std::uint64_t task_queue::enqueued() const {
  std::lock_guard<std::mutex> lock(s_->mutex);
  return s_->enqueued;
}

void task_queue::state::wait_for(std::uint64_t seq, bool report) {
  std::unique_lock<std::mutex> lock(mutex);
  work_done.wait(lock, [&] { return completed >= seq; });
  if (report && first_failure && first_failure->seq <= seq) {
    const std::string what = first_failure->what;
    first_failure.reset();
    throw dp::error(what);
  }
}

void task_queue::run() {
  for (;;) {
    std::pair<const char *, std::function<void()>> task;
    std::uint64_t seq;
    {
      std::unique_lock<std::mutex> lock(s_->mutex);
      s_->work_ready.wait(lock, [&] { return s_->stopping || !s_->tasks.empty(); });
      if (s_->tasks.empty())
        return; // stopping, and nothing left
      task = s_->tasks.pop_front();
      seq = s_->completed + 1;
    }
    const std::optional<std::string> error = run_task(task.first, task.second);
    {
      std::lock_guard<std::mutex> lock(s_->mutex);
      if (error && !s_->first_failure)
        s_->first_failure = failure{seq, *error};
      s_->completed = seq;
    }
    s_->work_done.notify_all();
  }
}

} // namespace dp::rt
