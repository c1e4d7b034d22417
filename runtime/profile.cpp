// DP_PROFILE: the records, the trace file and the summary table
// (dp/rt/profile.hpp).

#include <dp/rt/profile.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace dp::rt::profile {

namespace {

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

/// Whether `name` names a call-site ("dp::forall at a.cpp:3:5").
bool is_call_site(const std::string &name) {
  return name.rfind("dp::", 0) == 0 && name.find(" at ") != std::string::npos;
}

/// "dp::forall at a.cpp:3:5" -> {"forall", "a.cpp:3:5"}; other names whole.
std::pair<std::string, std::string> split_site(const std::string &name) {
  if (!is_call_site(name))
    return {"", name};
  const std::string::size_type at = name.find(" at ");
  return {name.substr(4, at - 4), name.substr(at + 4)};
}

/// A record with its times resolved, its name interned and its track
/// numbered: what the trace keeps.
struct resolved {
  category what;
  int name, track;
  std::int64_t begin, end, bytes;
  const char *backend;
  dispatch_mode mode;
  std::int64_t launches, groups;
};

/// A summary row: a call-site's launches and the bytes moved for it.
struct row {
  std::int64_t calls = 0, total = 0, bytes = 0;
  std::int64_t reuploads = 0, reupload_bytes = 0; ///< copies made again after host writes
  std::int64_t launches = 0, groups = 0;          ///< kernel and vendor launches, their groups
  unsigned modes = 0;                             ///< the dispatch modes used (bit m: mode m)
  const char *backend = "";                       ///< where it ran (the last call)
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
  void write_trace(const std::string &path);
  using sorted_rows = std::vector<std::pair<std::string, row>>;
  /// The table's rows, slowest first.
  sorted_rows rows_by_time() const;
  void print_summary(std::int64_t run, const sorted_rows &sorted);
  void write_summary(std::int64_t run, const sorted_rows &sorted);

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

/// `s` as a JSON string's contents.
std::string json_escaped(const std::string &s) {
  std::string out;
  for (const char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

const char *category_name(category c) {
  switch (c) {
  case category::launch:
    return "launch";
  case category::to_device:
    return "to device";
  case category::to_host:
    return "to host";
  case category::allocation:
    return "allocation";
  case category::wait:
    return "wait";
  }
  return "";
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

void recorder::write_trace(const std::string &path) {
  std::FILE *out = std::fopen(path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "dp profile: cannot write DP_PROFILE=%s: %s\n", path.c_str(),
                 std::strerror(errno));
    return;
  }
  std::fprintf(out, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
  std::fprintf(out, "{\"ph\": \"M\", \"pid\": 1, \"name\": \"process_name\", \"args\": {\"name\": "
                    "\"dp program\"}}");
  for (std::size_t t = 1; t < track_names_.size(); ++t) {
    std::fprintf(out, ",\n{\"ph\": \"M\", \"pid\": 1, \"tid\": %zu, \"name\": \"thread_name\", "
                      "\"args\": {\"name\": \"%s\"}}", t, json_escaped(track_names_[t]).c_str());
    std::fprintf(out, ",\n{\"ph\": \"M\", \"pid\": 1, \"tid\": %zu, \"name\": "
                      "\"thread_sort_index\", \"args\": {\"sort_index\": %zu}}", t, t);
  }
  for (const resolved &ev : events_) {
    const std::string &site = names_[static_cast<std::size_t>(ev.name)];
    const auto [kind, location] = split_site(site);
    const std::string name = ev.what == category::launch
                                 ? (kind.empty() ? site : location + " " + kind)
                                 : std::string(category_name(ev.what)) +
                                       (ev.bytes ? " " + std::to_string(ev.bytes) + " B" : "");
    std::fprintf(out, ",\n{\"ph\": \"%s\", \"pid\": 1, \"tid\": %d, \"ts\": %.3f",
                 ev.what == category::allocation ? "i" : "X", ev.track, ev.begin / 1e3);
    if (ev.what == category::allocation)
      std::fprintf(out, ", \"s\": \"t\"");
    else
      std::fprintf(out, ", \"dur\": %.3f", (ev.end - ev.begin) / 1e3);
    std::fprintf(out, ", \"cat\": \"%s\", \"name\": \"%s\", \"args\": {\"site\": \"%s\"",
                 category_name(ev.what), json_escaped(name).c_str(), json_escaped(site).c_str());
    if (ev.what == category::launch) {
      std::fprintf(out, ", \"kind\": \"%s\", \"backend\": \"%s\", \"launches\": %lld",
                   kind.c_str(), ev.backend, static_cast<long long>(ev.launches));
      if (ev.mode)
        std::fprintf(out, ", \"mode\": %d, \"groups\": %lld", ev.mode,
                     static_cast<long long>(ev.groups));
    } else if (ev.bytes) {
      std::fprintf(out, ", \"bytes\": %lld", static_cast<long long>(ev.bytes));
    }
    std::fprintf(out, "}}");
  }
  std::fprintf(out, "\n]}\n");
  if (std::fclose(out) != 0)
    std::fprintf(stderr, "dp profile: writing %s failed\n", path.c_str());
  else
    std::fprintf(stderr, "dp profile: trace of %zu events written to %s\n", events_.size(),
                 path.c_str());
  if (dropped_ && max_events_ > 0)
    std::fprintf(stderr, "dp profile: %zu later events are in the table only (DP_PROFILE_EVENTS=%zu)\n",
                 dropped_, max_events_);
}

recorder::sorted_rows recorder::rows_by_time() const {
  sorted_rows sorted(rows_.begin(), rows_.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto &a, const auto &b) { return a.second.total > b.second.total; });
  return sorted;
}

void recorder::print_summary(std::int64_t run, const sorted_rows &sorted) {
  std::fprintf(stderr, "dp profile: %zu call-sites and transfers, run %.3f ms\n", sorted.size(),
               run / 1e6);
  std::fprintf(stderr, "%-36s %-10s %8s %12s %12s %14s %7s %10s\n", "call-site", "kind", "calls",
               "total ms", "mean us", "bytes moved", "share", "re-uploads");
  std::int64_t reuploads = 0, reupload_bytes = 0;
  for (const auto &[name, w] : sorted) {
    auto [kind, where] = split_site(name);
    if (kind.empty())
      kind = "transfer";
    std::fprintf(stderr, "%-36s %-10s %8lld %12.3f %12.3f %14lld %6.1f%% %10lld\n", where.c_str(),
                 kind.c_str(), static_cast<long long>(w.calls), w.total / 1e6,
                 w.calls ? w.total / 1e3 / static_cast<double>(w.calls) : 0.0,
                 static_cast<long long>(w.bytes), run > 0 ? 100.0 * w.total / run : 0.0,
                 static_cast<long long>(w.reuploads));
    reuploads += w.reuploads, reupload_bytes += w.reupload_bytes;
  }
  if (reuploads)
    std::fprintf(stderr,
                 "dp profile: %lld copies to the device (%lld bytes) were made again because the "
                 "host wrote the field: reading an element through a non-const field counts as a "
                 "write; read through std::as_const(f) or a const reference\n",
                 static_cast<long long>(reuploads), static_cast<long long>(reupload_bytes));
}

/// The running program's path; empty when the system does not say.
std::string program_path() {
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe);
  return n > 0 && n < static_cast<ssize_t>(sizeof exe) ? std::string(exe, static_cast<std::size_t>(n))
                                                       : std::string();
}

/// Where the machine-readable summary goes: DP_PROFILE_SUMMARY, else
/// beside the program ("<program>.dp-profile.json"), where editors look
/// for it (dpstub-lsp); empty: nowhere (DP_PROFILE_SUMMARY=0).
std::string summary_path(const std::string &program) {
  if (const char *env = std::getenv("DP_PROFILE_SUMMARY"))
    return std::strcmp(env, "0") == 0 ? std::string() : std::string(env);
  return program.empty() ? "dp-profile.json" : program + ".dp-profile.json";
}

/// "a.cpp:3:5" -> {"a.cpp", 3, 5}; false when it is not file:line:column.
bool split_location(const std::string &where, std::string &file, long &line, long &column) {
  const std::string::size_type c2 = where.rfind(':');
  if (c2 == std::string::npos || c2 == 0)
    return false;
  const std::string::size_type c1 = where.rfind(':', c2 - 1);
  if (c1 == std::string::npos)
    return false;
  char *end = nullptr;
  line = std::strtol(where.c_str() + c1 + 1, &end, 10);
  if (end != where.c_str() + c2)
    return false;
  column = std::strtol(where.c_str() + c2 + 1, &end, 10);
  if (*end != '\0')
    return false;
  file = where.substr(0, c1);
  return true;
}

/// The table as JSON (format "dp-profile-summary" 1, described in
/// docs/profiling.md): one object per call-site, keyed by the position
/// dpstub named it after, and one per transfer row.
void recorder::write_summary(std::int64_t run, const sorted_rows &sorted) {
  const std::string program = program_path();
  const std::string path = summary_path(program);
  if (path.empty())
    return;
  std::FILE *out = std::fopen(path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "dp profile: cannot write the summary %s: %s (DP_PROFILE_SUMMARY=path "
                         "puts it elsewhere)\n", path.c_str(), std::strerror(errno));
    return;
  }
  std::fprintf(out, "{\"format\": \"dp-profile-summary\", \"version\": 1,\n \"program\": \"%s\", "
                    "\"written_unix\": %lld, \"run_ms\": %.6f,\n \"call_sites\": [",
               json_escaped(program).c_str(), static_cast<long long>(std::time(nullptr)),
               run / 1e6);
  const char *separator = "";
  for (const auto &[name, w] : sorted) {
    const auto [kind, where] = split_site(name);
    std::string file;
    long line = 0, column = 0;
    if (kind.empty() || !split_location(where, file, line, column))
      continue;
    std::string modes;
    for (int m = 1; m < 32; ++m)
      if (w.modes & (1u << m))
        modes += (modes.empty() ? "" : ", ") + std::to_string(m);
    std::fprintf(out, "%s\n  {\"site\": \"%s\", \"file\": \"%s\", \"line\": %ld, \"column\": %ld, "
                      "\"kind\": \"%s\", \"backend\": \"%s\", \"modes\": [%s], \"calls\": %lld, "
                      "\"total_ms\": %.6f, \"mean_ms\": %.6f, \"share\": %.6f, \"launches\": %lld, "
                      "\"groups\": %lld, \"bytes_moved\": %lld, \"reuploads\": %lld}",
                 separator, json_escaped(where).c_str(), json_escaped(file).c_str(), line, column,
                 kind.c_str(), json_escaped(w.backend).c_str(), modes.c_str(),
                 static_cast<long long>(w.calls), w.total / 1e6,
                 w.calls ? w.total / 1e6 / static_cast<double>(w.calls) : 0.0,
                 run > 0 ? static_cast<double>(w.total) / static_cast<double>(run) : 0.0,
                 static_cast<long long>(w.launches), static_cast<long long>(w.groups),
                 static_cast<long long>(w.bytes), static_cast<long long>(w.reuploads));
    separator = ",";
  }
  std::fprintf(out, "],\n \"transfers\": [");
  separator = "";
  for (const auto &[name, w] : sorted) {
    if (!split_site(name).first.empty())
      continue;
    std::fprintf(out, "%s\n  {\"name\": \"%s\", \"calls\": %lld, \"total_ms\": %.6f, "
                      "\"bytes_moved\": %lld}",
                 separator, json_escaped(name).c_str(), static_cast<long long>(w.calls), w.total / 1e6,
                 static_cast<long long>(w.bytes));
    separator = ",";
  }
  std::fprintf(out, "]}\n");
  if (std::fclose(out) != 0)
    std::fprintf(stderr, "dp profile: writing the summary %s failed\n", path.c_str());
  else
    std::fprintf(stderr, "dp profile: summary for editors written to %s\n", path.c_str());
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
    write_trace(where);
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
