// Call-sites are found by declaration, whatever the spelling, wherever
// they are; those that cannot be rewritten get a warning and no edit.
#include <dp/dp.hpp>

namespace par = dp;
using dp::forall;

void inc(int &x) { x += 1; }

struct solver {
  dp::field<1, int> data{dp::grid<1>(8)};
  void step() { par::forall(data.get_grid(), inc, data); }
// REWRITE: void step() { dpstub::forall_spellings_cpp::forall_[[@LINE-1]]_17(data.get_grid(), inc, data); }
};

template <class T> void twice(dp::field<1, T> &f) {
  forall(f.get_grid(), [](T &x) { x *= 2; }, f);
// REWRITE: dpstub::forall_spellings_cpp::forall_[[@LINE-1]]_3(f.get_grid(), [] DP_HOST_DEVICE (T &x) { x *= 2; }, f);
}

template <class T> void mixed(dp::field<1, T> &f) {
  forall(f.get_grid(), [](T &x) { x = 1; }, f);
// DIAG: forall_spellings.cpp:[[@LINE-1]]:3: warning: dp::forall call-site left untouched: the instantiations of the enclosing template give it different argument types; write the call-site in a non-template function
// REWRITE: forall(f.get_grid(), [](T &x) { x = 1; }, f);
}

template <class T> void never_used(dp::field<1, T> &f) {
  dp::forall(f.get_grid(), [](T &x) { x = 0; }, f);
// DIAG: forall_spellings.cpp:[[@LINE-1]]:3: warning: dp::forall call-site left untouched: the enclosing template is never instantiated in this translation unit, so its argument types are unknown
}

#define RUN_ALL(f) dp::forall(f.get_grid(), inc, f)

void use(dp::field<1, int> &a, dp::field<1, float> &b) {
  twice(a);
  mixed(a);
  mixed(b);
  forall(a.get_grid(), inc, a);
// REWRITE: dpstub::forall_spellings_cpp::forall_[[@LINE-1]]_3(a.get_grid(), inc, a);
  auto later = [&] { dp::forall(a.get_grid(), inc, a); };
// REWRITE: auto later = [&] { dpstub::forall_spellings_cpp::forall_[[@LINE-1]]_22(a.get_grid(), inc, a); };
  later();
  RUN_ALL(a);
// DIAG: forall_spellings.cpp:[[@LINE-1]]:3: warning: dp::forall call-site left untouched: it is spelled inside a macro expansion
// REWRITE: RUN_ALL(a);
}
