// A unit without call-sites defines what its header declares for the
// device: the definition is marked, with what it calls, and each file
// marked that does not include dp gets <dp/config.hpp>.
// FILES: device_declared.hpp
// REWRITE: #include <dp/config.hpp>
#include "device_declared.hpp"

static float square(float v) { return v * v; }
// REWRITE: DP_HOST_DEVICE static float square(float v) { return v * v; }

float shade(float x) { return square(x) / 2; }
// REWRITE: DP_HOST_DEVICE float shade(float x) { return square(x) / 2; }

float host_only(float x) { return x; }
// REWRITE: float host_only(float x) { return x; }
