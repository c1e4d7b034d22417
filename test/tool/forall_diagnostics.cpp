// Each misuse is an error at the argument it concerns; nothing is written.
// EXIT: 1
#include <dp/dp.hpp>

void sum_rows(double &c, const dp::field<1, double> &a) { c = a(0); }
void add(float &c, float a) { c += a; }
void bump(float &x, float &by) { x += by; }
void two(float &a, float b) {}

void misuse(dp::field<1, float> &v, dp::field<2, float> &m, dp::field<1, double> &d,
            dp::field<3, double> &cube) {
  dp::forall(v.get_grid(), add, v, m);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:36: error: argument 2 ('m') has rank 2, but kernel parameter 'a' has rank 0 and the compute rank is 1: no conversion applies (elemental needs rank 1, partial projection rank 1 + 0, broadcast rank 0)
// DIAG: forall_diagnostics.cpp:6:{{[0-9]+}}: note: kernel parameter declared here
  float step = 1.0f;
  dp::forall(v.get_grid(), bump, v, step);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:37: error: argument 2 is a scalar broadcast to every point, but kernel parameter 'by' is a non-const reference; take it by value or const&
// DIAG: forall_diagnostics.cpp:7:{{[0-9]+}}: note: kernel parameter declared here
  dp::forall(v.get_grid(), add, dp::read_only(v), v);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:33: error: argument 1 is read-only, but kernel parameter 'c' is writable (a non-const reference)
  dp::forall(v.get_grid(), add, v, v);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:36: error: 'v' is bound to writable parameter 1 and also passed as argument 2; iterations would race (pass a clone())
  dp::forall(v.get_grid(), two, v);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:28: error: the kernel takes 2 parameters, but the call-site passes 1 argument (a kernel may take one extra leading dp::index<1> for the index)
  dp::forall(d.get_grid(), sum_rows, d, cube);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:41: error: argument 2 ('cube') has rank 3, but kernel parameter 'a' has rank 1 and the compute rank is 1: no conversion applies (elemental needs rank 1, partial projection rank 1 + 1, broadcast rank 1)
// DIAG: forall_diagnostics.cpp:5:{{[0-9]+}}: note: kernel parameter declared here
  dp::forall(v.get_grid(), [](dp::index<2> i, float &x) {}, dp::_index, v);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:61: error: argument 1 is a special index token, but kernel parameter 'i' is not a dp::index<1>
}

// A by-value parameter assigned in a kernel that writes nothing: lost.
void clamp01(float x) { if (x > 1) x = 1; }
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:38: warning: 'x' is a copy of its element and this kernel writes no argument, so the assignment changes nothing; take 'float &x' to write the element
void clamp_into(float x, float &out) { if (x > 1) x = 1; out = x; }
void more(dp::field<1, float> &v, dp::field<1, float> &w, dp::field<2, float> &m) {
  dp::forall(v.get_grid(), clamp01, v);
  dp::forall(v.get_grid(), clamp_into, v, w); // x is scratch here: no warning
  // One rank short: the note offers dp::spread<0>.
  dp::forall(m.get_grid(), add, m, v);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:36: error: argument 2 ('v') has rank 1, but kernel parameter 'a' has rank 0 and the compute rank is 2: no conversion applies (elemental needs rank 2, partial projection rank 2 + 0, broadcast rank 0)
// DIAG: forall_diagnostics.cpp:6:{{[0-9]+}}: note: kernel parameter declared here
// DIAG: forall_diagnostics.cpp:[[@LINE-3]]:36: note: to read 'v' at every point of the missing dimension, pass dp::spread<0>(v) (dp::spread<D> repeats it along dimension D)
}

// A kernel lambda that captures `this`: on a GPU the pointer is host
// memory. What it only reads is copied (lambda_objects.cpp); anything else
// it does through `this` is an error, not a program that faults.
struct Counter {
  dp::field<1, float> data;
  float total = 0;
  float scale() const { return 2.0f; }
  void writes(dp::field<1, float> &v) {
    dp::forall(v.get_grid(), [this](float &x) { total += x; }, v);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:30: error: kernel lambda captures 'this': on a GPU it would point to the object in host memory, and dpstub cannot copy what the kernel reads through it instead: it writes 'total' through 'this'; copy the members it needs into local variables and capture those
    dp::forall(v.get_grid(), [=](float &x, dp::index<1> i) { data(i[0]) = x; }, v, dp::_index);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:30: error: kernel lambda captures 'this': on a GPU it would point to the object in host memory, and dpstub cannot copy what the kernel reads through it instead: it writes 'data' through 'this'; copy the members it needs into local variables and capture those
  }
  void calls(dp::field<1, float> &v) {
    dp::forall(v.get_grid(), [=](float &x) { x *= scale(); }, v);
// DIAG: forall_diagnostics.cpp:[[@LINE-1]]:30: error: kernel lambda captures 'this': on a GPU it would point to the object in host memory, and dpstub cannot copy what the kernel reads through it instead: it calls 'scale' through 'this'; copy the members it needs into local variables and capture those
  }
};
