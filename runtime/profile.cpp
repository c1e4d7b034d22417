// DP_PROFILE: the records of every call-site, transfer, allocation and
// wait (dp/rt/profile.hpp), resolved as their device times arrive, then at
// exit the trace (profile_trace.cpp) and the table (profile_summary.cpp).

#include "profile_records.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dp::rt::profile {

namespace {

using namespace detail; // the records' types (profile_records.hpp)

/// The program's start (the first use, at the latest).
std::chrono::steady_clock::time_point origin() {
  static const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  return start;
}
[[maybe_unused]] const auto started = origin(); // at static initialisation

/// DP_PROFILE's value: "summary", a path, or empty (off).
std::string setting() {
  const char *env = std::getenv("DP_PROFILE");
  if (!env || !*env || std::strcmp(env, "0") == 0)
    return "";
  return env;
}

class known_stamp final : public stamp {
public:
  explicit known_stamp(std::int64_t t) : t_(t) {}
  std::int64_t time() noexcept override { return t_; }

private:
  std::int64_t t_;
};

/// The program's records. Memory stays bounded however long it runs: at
/// most `unresolved_limit` records wait for their stamps (the oldest is
/// resolved when more arrive: long done by then, so the host seldom
/// blocks), and the trace keeps the first DP_PROFILE_EVENTS events
/// (default 1000000); the table counts every one.
class recorder {
public:
  static recorder &get() {
    static recorder *r = new recorder(); // never destroyed: records arrive until exit
    return *r;
  }
  void add(record r, std::thread::id thread);
  void finish();

private:
  static constexpr std::size_t unresolved_limit = 1 << 14;
  recorder();
  /// Resolves the oldest unresolved record (waiting for its stamps).
  bool resolve_oldest();
  int track_of(const record &r, std::thread::id thread);
  int name_of(const std::string &name);
  /// The table's rows, slowest first.
  sorted_rows rows_by_time() const;

  std::mutex mutex_;
  std::deque<std::pair<record, std::thread::id>> unresolved_;
  std::vector<resolved> events_;
  std::size_t max_events_ = 1000000, dropped_ = 0, lost_ = 0;
  std::map<std::string, int> name_ids_;
  std::vector<std::string> names_;
  std::map<std::string, row> rows_;
  std::map<const void *, int> queue_tracks_;
  std::map<std::thread::id, int> thread_tracks_;
  std::vector<std::string> track_names_{""}; ///< by track number (1-based)
};

recorder::recorder() {
  if (setting() == "summary")
    max_events_ = 0; // the table only: no trace to keep
  else if (const char *env = std::getenv("DP_PROFILE_EVENTS"))
    max_events_ = static_cast<std::size_t>(std::strtoull(env, nullptr, 10));
}

void recorder::add(record r, std::thread::id thread) {
  bool full;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    unresolved_.emplace_back(std::move(r), thread);
    full = unresolved_.size() > unresolved_limit;
  }
  if (full)
    resolve_oldest();
}

bool recorder::resolve_oldest() {
  std::pair<record, std::thread::id> oldest;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (unresolved_.empty())
      return false;
    oldest = std::move(unresolved_.front());
    unresolved_.pop_front();
  }
  // Outside the lock: a stamp may wait for a queue whose task records.
  const record &r = oldest.first;
  const std::int64_t b = r.begin ? r.begin->time() : -1;
  const std::int64_t e = r.end ? r.end->time() : b;
  std::lock_guard<std::mutex> lock(mutex_);
  if (b < 0 || e < 0) {
    ++lost_;
    return true;
  }
  const std::int64_t end = std::max(b, e);
  if (r.what == category::launch) {
    row &w = rows_[r.name];
    ++w.calls;
    w.total += end - b;
    w.launches += r.launches;
    w.groups += r.groups;
    if (r.mode > 0 && r.mode < 32)
      w.modes |= 1u << r.mode;
    w.backend = r.backend;
  } else if (r.what == category::to_device || r.what == category::to_host) {
    row &w = rows_[r.name];
    w.bytes += r.bytes;
    if (r.reupload)
      ++w.reuploads, w.reupload_bytes += r.bytes;
    if (!is_call_site(r.name)) { // a row of its own (host access, dp::update_host), timed
      ++w.calls;
      w.total += end - b;
    }
  }
  if (events_.size() < max_events_)
    events_.push_back({r.what, name_of(r.name), track_of(r, oldest.second), b, end, r.bytes,
                       r.backend, r.mode, r.launches, r.groups});
  else
    ++dropped_;
  return true;
}

int recorder::name_of(const std::string &name) {
  auto [it, fresh] = name_ids_.emplace(name, static_cast<int>(names_.size()));
  if (fresh)
    names_.push_back(name);
  return it->second;
}



int recorder::track_of(const record &r, std::thread::id thread) {
  if (r.queue) {
    auto [it, fresh] = queue_tracks_.emplace(r.queue, static_cast<int>(track_names_.size()));
    if (fresh)
      track_names_.push_back(std::string(r.queue_kind) + " " + std::to_string(queue_tracks_.size()));
    return it->second;
  }
  auto [it, fresh] = thread_tracks_.emplace(thread, static_cast<int>(track_names_.size()));
  if (fresh)
    track_names_.push_back(thread_tracks_.size() == 1
                               ? std::string("host thread (the program)")
                               : "host thread " + std::to_string(thread_tracks_.size()));
  return it->second;
}

sorted_rows recorder::rows_by_time() const {
  sorted_rows sorted(rows_.begin(), rows_.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto &a, const auto &b) { return a.second.total > b.second.total; });
  return sorted;
}

void recorder::finish() {
  const std::int64_t run = now();
  while (resolve_oldest()) {
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::stable_sort(events_.begin(), events_.end(),
                   [](const resolved &a, const resolved &b) { return a.begin < b.begin; });
  if (lost_)
    std::fprintf(stderr, "dp profile: %zu events whose device times were lost at exit\n", lost_);
  const std::string where = setting();
  if (where != "summary")
    write_trace(where, {events_, names_, track_names_, dropped_, max_events_});
  const sorted_rows sorted = rows_by_time();
  print_summary(run, sorted);
  write_summary(run, sorted);
}

thread_local const std::string *site_of_thread = nullptr;
thread_local plan_note plan_of_thread;

} // namespace

bool detail::read_setting() noexcept {
  if (setting().empty())
    return false;
  (void)recorder::get();
  std::atexit([] { recorder::get().finish(); });
  return true;
}

std::int64_t now() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              origin())
      .count();
}

stamp_ptr stamp_now() { return std::make_shared<known_stamp>(now()); }
stamp_ptr stamp_at(std::int64_t time) { return std::make_shared<known_stamp>(time); }

void add(record r) { recorder::get().add(std::move(r), std::this_thread::get_id()); }

void note_allocation(std::int64_t bytes) {
  record r;
  r.what = category::allocation;
  r.name = charged_site();
  r.bytes = bytes;
  r.begin = stamp_now();
  add(std::move(r));
}

std::string charged_site() { return site_of_thread ? *site_of_thread : "host access"; }

site_scope::site_scope(const std::string *site) noexcept : previous_(site_of_thread) {
  site_of_thread = site;
}
site_scope::~site_scope() { site_of_thread = previous_; }

plan_note &current_plan() noexcept { return plan_of_thread; }

} // namespace dp::rt::profile
