// Backend selection from the environment (DP_BACKEND, DP_HOST_MODE).

#include <dp/error.hpp>
#include <dp/rt/backend.hpp>

#include <cstdlib>

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

backend compiled_device_backend() {
  // This translation unit is built by the host compiler; device backends
  // register themselves through the generated code (see runtime/launch).
  return backend::host;
}

backend selected_backend() {
  const char *env = std::getenv("DP_BACKEND");
  if (!env || !*env)
    return compiled_device_backend();
  const backend wanted = parse_backend(env);
  if (wanted != backend::host && wanted != compiled_device_backend())
    throw error(std::string("DP_BACKEND=") + env + ": this program was built for " +
                to_string(compiled_device_backend()) + " only");
  return wanted;
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
