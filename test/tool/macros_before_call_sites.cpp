// The user's macros come after <dp/dp.hpp>: the stub header's declarations
// (and the runtime headers they include, full of `template <int N>`) go
// right after that include, so `#define N 64` cannot break them.
#include <dp/dp.hpp>
// REWRITE: #include <dp/dp.hpp>
// REWRITE-NEXT: #include "macros_before_call_sites.cpp.dpstub.hpp" // dpstub: launchers of this file's call-sites

#define N 64
#define M 8
#define T double
// Macros named as the stubs' own names (NPB FT's `#define A
// 1220703125.0`, a template's `class... A` in the stubs): the stub
// definitions, read at the source's end, keep them aside.
#define A 1220703125.0
#define Domain 3
// STUB: // Names of these stubs that the source defines as macros, kept aside
// STUB: #pragma push_macro("A")
// STUB-NEXT: #undef A
// STUB-NEXT: #pragma push_macro("Domain")
// STUB-NEXT: #undef Domain
// STUB: #pragma pop_macro("A")
// STUB-NEXT: #pragma pop_macro("Domain")

void scale(dp::field<2, T> &a) {
  dp::forall(dp::grid<2>(N, M), [](T &x) { x *= A / A * Domain; }, a);
// REWRITE: dpstub::macros_before_call_sites_cpp::forall_[[@LINE-1]]_3(dp::grid<2>(N, M), [] DP_HOST_DEVICE (T &x) { x *= A / A * Domain; }, a);
}
