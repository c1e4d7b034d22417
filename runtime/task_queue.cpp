// An in-order host task queue with a worker thread (task_queue.hpp).

#include <dp/error.hpp>
#include <dp/rt/counters.hpp>
#include <dp/rt/task_queue.hpp>

#include <cstdio>

namespace dp::rt {

/// A point in a queue: done once the tasks before it have run.
class task_queue::event final : public dp::detail::completion {
public:
  event(task_queue &q, std::uint64_t seq) : q_(q), seq_(seq) {}
  void wait() override {
    if (!waited_)
      count(counter::host_waits);
    waited_ = true;
    q_.wait_for(seq_, true);
  }
  void wait_quietly() noexcept override {
    try {
      q_.wait_for(seq_, false);
    } catch (...) {
    }
  }
  bool done() const override {
    std::lock_guard<std::mutex> lock(q_.mutex_);
    return q_.completed_ >= seq_;
  }
  const void *queue() const override { return &q_; }

private:
  task_queue &q_;
  std::uint64_t seq_;
  bool waited_ = false;
};

task_queue::task_queue() : worker_([this] { run(); }) {}

task_queue::~task_queue() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  worker_.join();
  if (failure_) // nobody waited for it: say so rather than lose it
    std::fprintf(stderr, "dp: an error no wait reported: %s\n", failure_->what.c_str());
}

void task_queue::enqueue(std::string site, std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.emplace_back(std::move(site), std::move(task));
    ++enqueued_;
  }
  work_ready_.notify_one();
}

dp::detail::pending task_queue::record() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::make_shared<event>(*this, enqueued_);
}

void task_queue::wait() { wait_for(enqueued(), true); }

std::uint64_t task_queue::enqueued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return enqueued_;
}

void task_queue::wait_for(std::uint64_t seq, bool report) {
  std::unique_lock<std::mutex> lock(mutex_);
  work_done_.wait(lock, [&] { return completed_ >= seq; });
  if (report && failure_ && failure_->seq <= seq) {
    const std::string what = failure_->what;
    failure_.reset();
    throw dp::error(what);
  }
}

void task_queue::run() {
  for (;;) {
    std::pair<std::string, std::function<void()>> task;
    std::uint64_t seq;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty())
        return; // stopping, and nothing left
      task = std::move(tasks_.front());
      tasks_.pop_front();
      seq = completed_ + 1;
    }
    std::optional<std::string> error;
    try {
      task.second();
    } catch (const std::exception &e) {
      const std::string what = e.what();
      // A dp::error raised inside names its call-site already.
      error = what.rfind(task.first, 0) == 0 ? what : task.first + ": " + what;
    } catch (...) {
      error = task.first + ": an unknown exception";
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (error && !failure_)
        failure_ = failure{seq, *error};
      completed_ = seq;
    }
    work_done_.notify_all();
  }
}

} // namespace dp::rt
