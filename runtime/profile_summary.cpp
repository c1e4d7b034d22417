// DP_PROFILE's table: printed at exit, and written as JSON beside the
// program for editors (dpstub-lsp) (profile_records.hpp).

#include "profile_records.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <unistd.h>

namespace dp::rt::profile::detail {

namespace {

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

} // namespace

void print_summary(std::int64_t run, const sorted_rows &sorted) {
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

/// The table as JSON (format "dp-profile-summary" 1, described in
/// docs/profiling.md): one object per call-site, keyed by the position
/// dpstub named it after, and one per transfer row.
void write_summary(std::int64_t run, const sorted_rows &sorted) {
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

} // namespace dp::rt::profile::detail
