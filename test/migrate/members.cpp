// Loops in member functions over the object's members, read by their
// names (BabelStream's host OpenMP version, the OpenACC guide's
// class-data): the member arrays borrow for the call-site and the member
// values come in as the kernel's parameters, so the kernel never reaches
// the object through `this`; members written, `this->` spelled out and
// member functions called stay refused.
#include <cstdio>
#include <vector>

class Vec {
  int n;
  double scale;
  double *x, *y;

public:
  explicit Vec(int n) : n(n), scale(2.0), x(new double[n]), y(new double[n]) {
#pragma acc enter data create(x[0:n], y[0:n])
  }
// The directive stays for the loops OpenACC may still run (its warning
// comes last, with the other directives'; line 17).
// REWRITE: #pragma acc enter data create(x[0:n], y[0:n])
  ~Vec() {
    delete[] x;
    delete[] y;
  }

  void fill() {
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
      x[i] = i;
      y[i] = 1;
    }
  }
// DIAG: members.cpp:[[@LINE-5]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_x = dp::borrow(x, n > 0 ? n : 0);
// REWRITE-NEXT: dp::field<1, double> dp_y = dp::borrow(y, n > 0 ? n : 0);

  void axpy() {
#pragma acc parallel loop present(x[0:n], y[0:n])
    for (int i = 0; i < n; i++)
      y[i] += scale * x[i];
  }
// DIAG: members.cpp:[[@LINE-3]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_y = dp::borrow(y, n);
// REWRITE-NEXT: dp::field<1, const double> dp_x = dp::borrow_read(x, n, dp_y);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &y, const dp::field<1, const double> &x, double scale) {
// REWRITE:      y(i) += scale * x(i);
// REWRITE-NEXT: }, dp_y, dp_x, scale);

  double sum() const {
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
      s += y[i];
    return s;
  }
// DIAG: members.cpp:[[@LINE-4]]:5: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]

  void count() {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      scale += x[i];
  }
// DIAG: members.cpp:[[@LINE-2]]:7: warning: not converted: 'scale' is a member of the object, which the loop writes; copy it into a local variable and back [dp-migrate]

  void spelled() {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      this->x[i] = 0;
  }
// DIAG: members.cpp:[[@LINE-2]]:7: warning: not converted: 'this' is used in the loop (a member of the object), and a kernel cannot reach the object in host memory; copy the members into local variables first [dp-migrate]

  double at(int i) const { return x[i] + y[i]; }
  void called() {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      y[i] = at(i);
  }
// DIAG: members.cpp:[[@LINE-2]]:14: warning: not converted: 'this' is used in the loop (a member of the object), and a kernel cannot reach the object in host memory; copy the members into local variables first [dp-migrate]
};

// A struct the object points to: its arrays and values are reached
// from the member by its name (`c->v[i]` for this->c->v[i]), and borrow
// and pass as another object's members do (paths.c).
struct Cells {
  int n;
  double *v;
};
class Holder {
  Cells *c;

public:
  explicit Holder(Cells *c) : c(c) {}
  void zero() {
#pragma omp parallel for
    for (int i = 0; i < c->n; i++)
      c->v[i] = 0;
  }
// DIAG: members.cpp:[[@LINE-3]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_c_v = dp::borrow(c->v, c->n > 0 ? c->n : 0);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, c->n)), [=](dp::index<1> idx, dp::field<1, double> &c_v) {
// REWRITE:      c_v(i) = 0;
};

// std::vector members, the object's own and another's: a call-site
// borrows each through data() for all of its size(), read-only where the
// object is const (refusals.cpp has the forms that stay).
struct Layer {
  std::vector<float> w;
  void scale(float s) {
#pragma omp parallel for
    for (size_t i = 0; i < w.size(); ++i)
      w[i] *= s;
  }
};
// DIAG: members.cpp:[[@LINE-4]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, float> dp_w = dp::borrow(w.data(), w.size());
// REWRITE-NEXT: dp::forall(dp::grid<1>(w.size()), [=](dp::index<1> idx, dp::field<1, float> &w) {
// REWRITE:      w(i) *= s;
// In a const member function the object's vector is const: so is the
// borrow (it was a field of writable elements over w.data()'s const ones,
// which did not compile, before 2026-12-05). The kernel's size() is the
// borrowed field's, all of the vector (refused before the same day).
struct Smooth {
  std::vector<float> w;
  void into(std::vector<float> &out) const {
#pragma omp parallel for
    for (int i = 0; i < (int)w.size(); ++i)
      out[i] = i + 1 < (int)w.size() ? 0.5f * (w[i] + w[i + 1]) : w[i];
  }
};
// DIAG: members.cpp:[[@LINE-4]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, const float> dp_w = dp::borrow(w.data(), w.size());
// REWRITE-NEXT: dp::forall(dp::grid<1>((int)w.size()), [=](dp::index<1> idx, dp::field<1, float> &out, const dp::field<1, const float> &w) {
// REWRITE:      out(i) = i + 1 < (int)w.size() ? 0.5f * (w(i) + w(i + 1)) : w(i);
// A pointer member's elements stay writable in a const member function
// (only the pointer is const): its borrow too.
struct Zeros {
  double *p;
  int n;
  void clear() const {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      p[i] = 0;
  }
};
// DIAG: members.cpp:[[@LINE-4]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, double> dp_p = dp::borrow(p, n > 0 ? n : 0);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, double> &p) {
void blend(Layer &to, const Layer &from) {
#pragma acc parallel loop
  for (int i = 0; i < (int)to.w.size(); ++i)
    to.w[i] = 0.5f * (to.w[i] + from.w[i]);
}
// DIAG: members.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, float> dp_to_w = dp::borrow(to.w.data(), to.w.size());
// REWRITE-NEXT: dp::field<1, const float> dp_from_w = dp::borrow_read(from.w.data(), from.w.size(), dp_to_w);
// REWRITE:      to_w(i) = 0.5f * (to_w(i) + from_w(i));
// Another object's vector sized in the kernel: its field's size().
void shift(Layer &to, const Layer &from) {
#pragma omp parallel for
  for (int i = 0; i < (int)to.w.size(); ++i)
    to.w[i] = i + 1 < (int)from.w.size() ? from.w[i + 1] : 0.0f;
}
// DIAG: members.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      to_w(i) = i + 1 < (int)from_w.size() ? from_w(i + 1) : 0.0f;

int main() {
  Vec v(16);
  v.fill();
  v.axpy();
  std::printf("%f\n", v.sum());
  Layer a{std::vector<float>(4, 1.0f)}, b{std::vector<float>(4, 3.0f)};
  a.scale(2);
  blend(a, b);
  shift(b, a);
  Smooth m{a.w};
  std::vector<float> out(4);
  m.into(out);
  double cleared[3] = {1, 2, 3};
  const Zeros z{cleared + 1, 2};
  z.clear();
  std::printf("%f %f %f %f\n", a.w[3], b.w[2], out[0], cleared[0] + cleared[2]);
  return 0;
}
// DIAG: members.cpp:17:1: warning: 'acc enter data' is not carried over: 'x' is a member, which stays a pointer, not a dp::field [dp-migrate]
// SUMMARY: migrated 9 of 12 loops (3 refused)
