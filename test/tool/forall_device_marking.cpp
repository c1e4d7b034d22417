// The kernel and what it calls, transitively, get the host+device macro;
// a call to a function with no visible definition is a warning.
// FILES: device_helpers.hpp
#include <dp/dp.hpp>

#include "device_helpers.hpp"

int scaled(int x);
// REWRITE: DP_HOST_DEVICE int scaled(int x);

int scaled(int x) { return twice(clamp_to(x, 100)); }
// REWRITE: DP_HOST_DEVICE int scaled(int x) { return twice(clamp_to(x, 100)); }

int elsewhere(int x);

struct point {
  int x, y;
  int sum() const { return x + y; }
// REWRITE: DP_HOST_DEVICE int sum() const { return x + y; }
};

void run(dp::field<1, int> &f, dp::field<1, point> &p) {
  dp::forall(f.get_grid(), [](int &v) { v = scaled(v); }, f);
  dp::forall(f.get_grid(), [](int &v, const point &q) { v = q.sum() + elsewhere(v); }, f, p);
// DIAG: forall_device_marking.cpp:[[@LINE-1]]:71: warning: 'elsewhere' is called from a kernel but has no visible definition and no device version; the device build will fail to link it
  dp::forall(f.get_grid(), [](int &v) { v = std::abs(v) + twice(1); }, f);
// REWRITE: dpstub::forall_device_marking_cpp::forall_[[@LINE-1]]_3(f.get_grid(), [] DP_HOST_DEVICE (int &v) { v = std::abs(v) + twice(1); }, f);
}
