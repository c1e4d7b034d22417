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

// Instantiated for int and float: one stub, a template over the element type.
template <class T> void mixed(dp::field<1, T> &f) {
  forall(f.get_grid(), [](T &x) { x = 1; }, f);
// REWRITE: dpstub::forall_spellings_cpp::forall_[[@LINE-1]]_3(f.get_grid(), [] DP_HOST_DEVICE (T &x) { x = 1; }, f);
}
// STUB: //   kernel:       void lambda(int &x) | void lambda(float &x) [lambda]
// STUB: //   argument 1 `f` (dp::field<1, int> or dp::field<1, float>, rank 1) -> int &x | float &x: elemental projection, read-write
// STUB: //   template:     T0 is the element type of argument 1 in each instantiation
// STUB: template <class Kernel, class T0> struct forall_{{[0-9]+}}_3_params {
// STUB:   dp::rt::projection<T0, 1> a0; // `f`: elemental projection, read-write
// STUB:   auto v0 = p.a0[pos]; // written back below
// STUB:   using T0 = dp::rt::element_t<dp::rt::arg_t<0, A...>>;
// STUB:       launch.project<T0>(a0, 0, dp::rt::access::write)};

// Instantiated at ranks 1 and 2: the conversions really differ.
template <int N> void ranks(dp::field<N, int> &f) {
  dp::forall(f.get_grid(), [](int &x) { x = N; }, f);
// DIAG: forall_spellings.cpp:[[@LINE-1]]:3: warning: dp::forall call-site left untouched: the instantiations of the enclosing template convert its arguments differently (the compute rank is 1 in one instantiation and 2 in another)
// REWRITE: dp::forall(f.get_grid(), [](int &x) { x = N; }, f);
}

template <class T> void never_used(dp::field<1, T> &f) {
  dp::forall(f.get_grid(), [](T &x) { x = 0; }, f);
// DIAG: forall_spellings.cpp:[[@LINE-1]]:3: warning: dp::forall call-site left untouched: the enclosing template is never instantiated in this translation unit, so its argument types are unknown
}

#define RUN_ALL(f) dp::forall(f.get_grid(), inc, f)

void use(dp::field<1, int> &a, dp::field<1, float> &b, dp::field<2, int> &m) {
  twice(a);
  mixed(a);
  mixed(b);
  ranks(a);
  ranks(m);
  forall(a.get_grid(), inc, a);
// REWRITE: dpstub::forall_spellings_cpp::forall_[[@LINE-1]]_3(a.get_grid(), inc, a);
  auto later = [&] { dp::forall(a.get_grid(), inc, a); };
// REWRITE: auto later = [&] { dpstub::forall_spellings_cpp::forall_[[@LINE-1]]_22(a.get_grid(), inc, a); };
  later();
  RUN_ALL(a);
// DIAG: forall_spellings.cpp:[[@LINE-1]]:3: warning: dp::forall call-site left untouched: it is spelled inside a macro expansion
// REWRITE: RUN_ALL(a);
}
