// DP_PROFILE=path: the records as a Chrome trace, a track per queue and
// per host thread (profile_records.hpp).

#include "profile_records.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace dp::rt::profile::detail {

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

void write_trace(const std::string &path, const trace_view &trace) {
  std::FILE *out = std::fopen(path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "dp profile: cannot write DP_PROFILE=%s: %s\n", path.c_str(),
                 std::strerror(errno));
    return;
  }
  std::fprintf(out, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
  std::fprintf(out, "{\"ph\": \"M\", \"pid\": 1, \"name\": \"process_name\", \"args\": {\"name\": "
                    "\"dp program\"}}");
  for (std::size_t t = 1; t < trace.track_names.size(); ++t) {
    std::fprintf(out, ",\n{\"ph\": \"M\", \"pid\": 1, \"tid\": %zu, \"name\": \"thread_name\", "
                      "\"args\": {\"name\": \"%s\"}}", t, json_escaped(trace.track_names[t]).c_str());
    std::fprintf(out, ",\n{\"ph\": \"M\", \"pid\": 1, \"tid\": %zu, \"name\": "
                      "\"thread_sort_index\", \"args\": {\"sort_index\": %zu}}", t, t);
  }
  for (const resolved &ev : trace.events) {
    const std::string &site = trace.names[static_cast<std::size_t>(ev.name)];
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
    std::fprintf(stderr, "dp profile: trace of %zu events written to %s\n", trace.events.size(),
                 path.c_str());
  if (trace.dropped && trace.max_events > 0)
    std::fprintf(stderr, "dp profile: %zu later events are in the table only (DP_PROFILE_EVENTS=%zu)\n",
                 trace.dropped, trace.max_events);
}

} // namespace dp::rt::profile::detail
