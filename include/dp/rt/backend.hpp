/// \file
/// Which backend runs a launch: chosen once per process from what was
/// compiled in and the DP_BACKEND environment variable.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace dp::rt {

/// The backends a launch can run on.
enum class backend { host, hip, cuda };

/// "host", "hip" or "cuda".
const char *to_string(backend b);

/// The device backend of the translation unit including this header: hip
/// under hipcc, cuda under nvcc, else host.
inline backend compiled_device_backend() {
#if defined(__HIPCC__)
  return backend::hip;
#elif defined(__CUDACC__)
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

struct device_limits;
enum class dispatch_policy;
/// The emulated device: DP_EMULATE_MAX_GROUPS=x,y,z (default
/// 2147483647,65535,65535; 1024 threads per group).
device_limits emulated_limits();
/// DP_EMULATE_GROUP=x[,y,z]: the group shape of host-planned launches
/// (default 256,1,1).
std::array<std::int64_t, 3> launch_group_shape();
/// DP_DISPATCH_POLICY=automatic|load_balance|split (default automatic).
dispatch_policy launch_policy();

} // namespace dp::rt
