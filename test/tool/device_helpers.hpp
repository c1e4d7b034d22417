// Helpers a kernel calls: dpstub marks them for the device in this header
// too, and writes the header beside the rewritten source.
#pragma once

inline int clamp_to(int x, int hi) { return x < hi ? x : hi; }
// HEADER: DP_HOST_DEVICE inline int clamp_to(int x, int hi) { return x < hi ? x : hi; }

template <class T> T twice(T x) { return 2 * x; }
// HEADER: template <class T> DP_HOST_DEVICE T twice(T x) { return 2 * x; }

inline int unused_helper(int x) { return x; }
// HEADER: inline int unused_helper(int x) { return x; }
