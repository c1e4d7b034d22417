/// \file
/// Which backend runs a launch: chosen once per process from what was
/// compiled in and the DP_BACKEND environment variable.
#pragma once

#include <string>

namespace dp::rt {

/// The backends of SPEC §1.
enum class backend { host, hip, cuda };

/// "host", "hip" or "cuda".
const char *to_string(backend b);

/// The backend this program was compiled for as its device backend, or
/// host when it was compiled by a plain C++ compiler.
backend compiled_device_backend();

/// The backend launches use: DP_BACKEND when set (a dp::error when it names
/// an unknown backend or one this program was not compiled for), else the
/// compiled device backend when a device is present, else host.
/// Untranslated call-sites always run the host reference.
backend selected_backend();

/// Parses a DP_BACKEND value; a dp::error for anything else.
backend parse_backend(const std::string &name);

/// How the host backend runs generated stubs (DP_HOST_MODE).
enum class host_mode {
  native, ///< parallel loops over the logical domain (default)
  emulate ///< walk every physical thread of the GPU plan through the stub
};
/// DP_HOST_MODE, parsed; a dp::error for an unknown value.
host_mode selected_host_mode();

} // namespace dp::rt
