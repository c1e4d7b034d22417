// A helper the kernel calls: dpstub marks it for the device, and a change
// here must make the build translate main.cpp again.
#pragma once

inline int scale() { return 3; }
