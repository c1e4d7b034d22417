/// \file
/// Which backend runs a launch: chosen once per process from what was
/// compiled in and the DP_BACKEND environment variable, and kept: a device
/// query that fails later (after a sticky error, say) cannot move a
/// running program to another backend or throw at an unrelated call-site.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <string>

#include "../config.hpp"

namespace dp::rt {

/// The backends a launch can run on.
enum class backend { host, hip, cuda };

/// "host", "hip" or "cuda".
const char *to_string(backend b);

/// The device backend of the translation unit including this header: hip
/// under hipcc, cuda under nvcc, else host.
inline backend compiled_device_backend() {
#if defined(DP_COMPILER_HIP)
  return backend::hip;
#elif defined(DP_COMPILER_CUDA)
  return backend::cuda;
#else
  return backend::host;
#endif
}

/// The backend launches use: DP_BACKEND when set (a dp::error when it names
/// an unknown backend or one this program was not compiled for), else
/// `compiled` when a device is present, else host. Untranslated call-sites
/// always run the host reference.
backend selected_backend(backend compiled, bool device_present);

/// Parses a DP_BACKEND value; a dp::error for anything else.
backend parse_backend(const std::string &name);

/// How the host backend runs generated stubs (DP_HOST_MODE).
enum class host_mode {
  native, ///< parallel loops over the logical domain (default)
  emulate ///< walk every physical thread of the GPU plan through the stub
};
/// DP_HOST_MODE, parsed; a dp::error for an unknown value.
host_mode selected_host_mode();

/// The choice of a backend, made by its first get() and kept: the device
/// is asked once. A choice that throws (DP_BACKEND names a device that is
/// not there) is not kept, so every call-site reports it.
class backend_choice {
public:
  /// `compiled`: the device backend built in (host for none); `present`:
  /// asks whether its device is there (null: never).
  backend_choice(backend compiled, bool (*present)()) : compiled_(compiled), present_(present) {}
  backend get() {
    std::call_once(once_, [this] { chosen_ = selected_backend(compiled_, present_ && present_()); });
    return chosen_;
  }

private:
  backend compiled_;
  bool (*present_)();
  std::once_flag once_;
  backend chosen_ = backend::host;
};

namespace detail {
/// Called by every translated program built for a GPU before main (its
/// first include of the launch runtime): the backend it was compiled for
/// and how to ask for its device.
void register_device_backend(backend compiled, bool (*present)());
} // namespace detail

/// A translated call-site's name ("dp::forall at jacobi.cpp:21:5") from
/// its kind and location (string literals of its stub), made once per
/// call-site and kept for the process: what its launches, events and tasks
/// carry, with no string built per launch.
const std::string &site_name(const char *kind, const char *location);

/// The backend of this process's translated call-sites, chosen on first
/// use (backend_choice) and kept until the process ends.
backend process_backend();
/// DP_HOST_MODE, read once.
host_mode process_host_mode();
/// True when this process's translated call-sites run on a device: a GPU,
/// or the emulated device (DP_HOST_MODE=emulate in a host build).
bool launches_on_device();

struct device_limits;
enum class dispatch_policy;
/// The emulated device: DP_EMULATE_MAX_GROUPS=x,y,z (default
/// 2147483647,65535,65535; 1024 threads per group) and
/// DP_EMULATE_RESIDENT_THREADS=n (threads it runs at once, default
/// 128 x 2048), read now.
device_limits emulated_limits();
/// DP_EMULATE_GROUP=x[,y,z]: the group shape of host-planned launches
/// (default 256,1,1), read now.
std::array<std::int64_t, 3> launch_group_shape();
/// DP_DISPATCH_POLICY=automatic|load_balance|split (default automatic),
/// read now.
dispatch_policy launch_policy();

} // namespace dp::rt
