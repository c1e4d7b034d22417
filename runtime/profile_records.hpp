// DP_PROFILE's records as the runtime keeps them, shared by the recorder
// (profile.cpp), the trace writer (profile_trace.cpp) and the summary
// writers (profile_summary.cpp). Internal to the runtime.
#pragma once

#include <dp/rt/profile.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dp::rt::profile::detail {

/// Whether `name` names a call-site ("dp::forall at a.cpp:3:5").
inline bool is_call_site(const std::string &name) {
  return name.rfind("dp::", 0) == 0 && name.find(" at ") != std::string::npos;
}

/// "dp::forall at a.cpp:3:5" -> {"forall", "a.cpp:3:5"}; other names whole.
inline std::pair<std::string, std::string> split_site(const std::string &name) {
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

/// The table's rows by name, slowest first.
using sorted_rows = std::vector<std::pair<std::string, row>>;

/// What the trace shows: the kept events by start, their names and their
/// tracks' names (by track number, 1-based), and how many were left out.
struct trace_view {
  const std::vector<resolved> &events;
  const std::vector<std::string> &names;
  const std::vector<std::string> &track_names;
  std::size_t dropped, max_events;
};

/// `s` as a JSON string's contents.
std::string json_escaped(const std::string &s);
/// A record's category as the trace names it.
const char *category_name(category c);

/// The Chrome trace (DP_PROFILE=path): profile_trace.cpp.
void write_trace(const std::string &path, const trace_view &trace);
/// The table on stderr, and the same as JSON for editors
/// (profile_summary.cpp); `run`: the program's time in ns.
void print_summary(std::int64_t run, const sorted_rows &sorted);
void write_summary(std::int64_t run, const sorted_rows &sorted);

} // namespace dp::rt::profile::detail
