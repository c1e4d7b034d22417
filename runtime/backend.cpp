// Backend selection and dispatch settings from the environment, read once
// per process (DP_BACKEND, DP_HOST_MODE, DP_EMULATE_*, DP_DISPATCH_POLICY).

#include <dp/error.hpp>
#include <dp/rt/backend.hpp>
#include <dp/rt/plan/plan.hpp>
#include <dp/rt/stub/dispatch.hpp>

#include <cstdlib>
#include <map>
#include <memory>
#include <cstdint>
#include <mutex>
#include <utility>

namespace dp::rt {

const char *to_string(backend b) {
  switch (b) {
  case backend::host: return "host";
  case backend::hip: return "hip";
  case backend::cuda: return "cuda";
  }
  return "unknown";
}

backend parse_backend(const std::string &name) {
  if (name == "host")
    return backend::host;
  if (name == "hip")
    return backend::hip;
  if (name == "cuda")
    return backend::cuda;
  throw error("DP_BACKEND=" + name + ": unknown backend (expected host, hip or cuda)");
}

backend selected_backend(backend compiled, bool device_present) {
  const char *env = std::getenv("DP_BACKEND");
  if (!env || !*env)
    return device_present ? compiled : backend::host;
  const backend wanted = parse_backend(env);
  if (wanted != backend::host && wanted != compiled)
    throw error(std::string("DP_BACKEND=") + env + ": this program was built for " +
                (compiled == backend::host ? std::string("the host only")
                                           : std::string(to_string(compiled)) + " and host"));
  if (wanted != backend::host && !device_present)
    throw error(std::string("DP_BACKEND=") + env + ": no " + to_string(wanted) +
                " device is present");
  return wanted;
}

namespace {
/// What the translated program registered: its device backend and query.
struct registered_device {
  backend compiled = backend::host;
  bool (*present)() = nullptr;
};
registered_device &registered() {
  static registered_device r;
  return r;
}
} // namespace

void detail::register_device_backend(backend compiled, bool (*present)()) {
  registered() = {compiled, present};
}

namespace {
const std::string &intern_site_name(const char *kind, const char *location) {
  static std::mutex mutex;
  static std::map<std::pair<const char *, const char *>, std::unique_ptr<std::string>> names;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<std::string> &name = names[{kind, location}];
  if (!name)
    name = std::make_unique<std::string>(std::string(kind) + " at " + location);
  return *name;
}
} // namespace

const std::string &site_name(const char *kind, const char *location) {
  // Each thread keeps the names of the call-sites it ran, found by the
  // address of the call-site's location (a literal of its stub) in an
  // open-addressed table: a time step's call-sites find theirs without the
  // lock. (A direct-mapped table of 64 missed 51,222 of NPB SP's 80,000
  // launches of 10 steps, its 70 call-sites evicting each other, each miss
  // a lock and a map lookup.) A site finding no free slot within `probes`
  // asks the map each time.
  struct entry {
    const char *kind = nullptr, *location = nullptr;
    const std::string *name = nullptr;
  };
  constexpr std::size_t slots = 256, probes = 8;
  thread_local entry table[slots];
  // Fibonacci hashing: literals lie a few bytes apart, and the product's
  // top bits spread them over the table.
  std::size_t i = static_cast<std::size_t>(
      (static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(location)) * 0x9E3779B97F4A7C15ull) >> 56);
  for (std::size_t n = 0; n < probes; ++n, i = (i + 1) % slots) {
    entry &e = table[i];
    if (e.location == location && e.kind == kind)
      return *e.name;
    if (!e.location) {
      e = {kind, location, &intern_site_name(kind, location)};
      return *e.name;
    }
  }
  return intern_site_name(kind, location);
}

backend process_backend() {
  static backend_choice choice(registered().compiled, registered().present);
  return choice.get();
}

host_mode process_host_mode() {
  static const host_mode mode = selected_host_mode();
  return mode;
}

bool launches_on_device() {
  // A GPU build on the host backend runs natively (DP_HOST_MODE=emulate is
  // refused there, at the call-site).
  return process_backend() != backend::host ||
         (registered().compiled == backend::host && process_host_mode() == host_mode::emulate);
}

namespace {
/// Parses "a[,b[,c]]" into up to three positive integers.
std::array<std::int64_t, 3> parse_triple(const char *name, const char *text,
                                         std::array<std::int64_t, 3> value, int min_parts) {
  std::string s(text);
  int parts = 0;
  std::size_t at = 0;
  while (at <= s.size() && parts < 3) {
    const std::size_t comma = s.find(',', at);
    const std::string item = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    char *end = nullptr;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 1)
      throw error(std::string(name) + "=" + text + ": expected " +
                  (min_parts == 3 ? "x,y,z" : "x[,y,z]") + " with positive integers");
    value[parts++] = v;
    if (comma == std::string::npos)
      break;
    at = comma + 1;
    if (parts == 3)
      throw error(std::string(name) + "=" + text + ": more than three values");
  }
  if (parts < min_parts)
    throw error(std::string(name) + "=" + text + ": expected x,y,z");
  return value;
}
} // namespace

device_limits emulated_limits() {
  device_limits limits{{2147483647, 65535, 65535}, 1024};
  if (const char *env = std::getenv("DP_EMULATE_MAX_GROUPS"); env && *env)
    limits.max_groups = parse_triple("DP_EMULATE_MAX_GROUPS", env, limits.max_groups, 3);
  if (const char *env = std::getenv("DP_EMULATE_RESIDENT_THREADS"); env && *env)
    limits.resident_threads =
        parse_triple("DP_EMULATE_RESIDENT_THREADS", env, {limits.resident_threads, 1, 1}, 1)[0];
  return limits;
}

std::array<std::int64_t, 3> launch_group_shape() {
  if (const char *env = std::getenv("DP_EMULATE_GROUP"); env && *env)
    return parse_triple("DP_EMULATE_GROUP", env, {1, 1, 1}, 1);
  return {256, 1, 1};
}

dispatch_policy launch_policy() {
  const char *env = std::getenv("DP_DISPATCH_POLICY");
  if (!env || !*env || std::string(env) == "automatic")
    return dispatch_policy::automatic;
  if (std::string(env) == "load_balance")
    return dispatch_policy::load_balance;
  if (std::string(env) == "split")
    return dispatch_policy::split;
  throw error(std::string("DP_DISPATCH_POLICY=") + env +
              ": unknown policy (expected automatic, load_balance or split)");
}

namespace {
std::mutex settings_mutex;
bool record_only() {
  const char *env = std::getenv("DP_EMULATE_RECORD_ONLY");
  if (!env || !*env || std::string(env) == "0")
    return false;
  if (std::string(env) == "1")
    return true;
  throw error(std::string("DP_EMULATE_RECORD_ONLY=") + env + ": expected 0 or 1");
}
dispatch_settings read_dispatch_settings() {
  return {emulated_limits(), launch_group_shape(), launch_policy(), record_only()};
}
dispatch_settings &settings_cell() {
  static dispatch_settings s = read_dispatch_settings();
  return s;
}
} // namespace

const dispatch_settings &process_dispatch_settings() { return settings_cell(); }

void reload_dispatch_settings() {
  std::lock_guard<std::mutex> lock(settings_mutex);
  settings_cell() = read_dispatch_settings();
}

host_mode selected_host_mode() {
  const char *env = std::getenv("DP_HOST_MODE");
  if (!env || !*env || std::string(env) == "native")
    return host_mode::native;
  if (std::string(env) == "emulate")
    return host_mode::emulate;
  throw error(std::string("DP_HOST_MODE=") + env + ": unknown mode (expected native or emulate)");
}

} // namespace dp::rt
