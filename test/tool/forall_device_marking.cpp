// The kernel and what it calls, transitively, get the host+device macro;
// a call to a function with no visible definition is a warning, unless the
// user declared it for the device (its declarations are marked).
// FILES: device_helpers.hpp
#include <dp/dp.hpp>

#include "device_helpers.hpp"

int scaled(int x);
// REWRITE: DP_HOST_DEVICE int scaled(int x);

int scaled(int x) { return twice(clamp_to(x, 100)); }
// REWRITE: DP_HOST_DEVICE int scaled(int x) { return twice(clamp_to(x, 100)); }

int elsewhere(int x);

#pragma acc routine seq
int routine_elsewhere(int x);
// REWRITE: DP_HOST_DEVICE int routine_elsewhere(int x);

#pragma omp declare target
int target_elsewhere(int x);
// REWRITE: DP_HOST_DEVICE int target_elsewhere(int x);
#pragma omp end declare target

int after_target_block(int x);
// REWRITE: int after_target_block(int x);

DP_HOST_DEVICE int marked_elsewhere(int x);
// REWRITE: DP_HOST_DEVICE int marked_elsewhere(int x);

// Defined here and declared for the device: marked, with what it calls,
// though no kernel of this file calls it.
int helper_of_declared(int x) { return x + 1; }
// REWRITE: DP_HOST_DEVICE int helper_of_declared(int x) { return x + 1; }
#pragma acc routine seq
int declared_here(int x) { return helper_of_declared(x); }
// REWRITE: DP_HOST_DEVICE int declared_here(int x) { return helper_of_declared(x); }

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
  dp::forall(f.get_grid(), [](int &v) { v = routine_elsewhere(v) + target_elsewhere(v) + marked_elsewhere(v); }, f);
}
