// The user's macros come after <dp/dp.hpp>: the stub header's declarations
// (and the runtime headers they include, full of `template <int N>`) go
// right after that include, so `#define N 64` cannot break them.
#include <dp/dp.hpp>
// REWRITE: #include <dp/dp.hpp>
// REWRITE-NEXT: #include "macros_before_call_sites.cpp.dpstub.hpp" // dpstub: launchers of this file's call-sites

#define N 64
#define M 8
#define T double

void scale(dp::field<2, T> &a) {
  dp::forall(dp::grid<2>(N, M), [](T &x) { x *= 2; }, a);
// REWRITE: dpstub::macros_before_call_sites_cpp::forall_[[@LINE-1]]_3(dp::grid<2>(N, M), [] DP_HOST_DEVICE (T &x) { x *= 2; }, a);
}
