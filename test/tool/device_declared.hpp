// Declared for the device here, defined in device_declared.cpp, called by
// kernels of other files: the unit that defines them marks them.
#pragma once
// HEADER: #pragma once
// HEADER-NEXT: #include <dp/config.hpp>

#pragma acc routine seq
float shade(float x);
// HEADER: DP_HOST_DEVICE float shade(float x);

float host_only(float x);
// HEADER: float host_only(float x);
