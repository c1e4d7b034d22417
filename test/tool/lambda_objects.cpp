// Lambdas nvcc cannot compile as __host__ __device__ lambdas (generic ones,
// init-captures, a captured const dp::field, some contexts) become function
// objects before the declaration that holds them, with their captures as
// members; the rest keep their mark, and a lambda defined inside a kernel
// needs none. Where no function object can be written, a warning says why.
#include <dp/dp.hpp>

#include <functional>

template <class T> struct Max {
  T operator()(T a, T b) const { return a < b ? b : a; }
// REWRITE:   DP_HOST_DEVICE T operator()(T a, T b) const { return a < b ? b : a; }
};

// REWRITE: /// dpstub: the lambda at lambda_objects.cpp:25:28, as a function object:
// REWRITE: /// nvcc copy-initialises the captures of a __host__ __device__ lambda, and 'u' is a const 'dp::field<1, float>', which refuses a copy that could write.
// REWRITE: struct lambda_25_28 {
// REWRITE:   const dp::field<1, float> u;
// REWRITE:   explicit lambda_25_28(const dp::field<1, float> &u_)
// REWRITE:       : u(u_) {}
// REWRITE:   DP_HOST_DEVICE auto operator()(dp::index<1> i, float &o) const { o = u(i[0]) * 2; }
// REWRITE: };
// REWRITE-NEXT: #line [[@LINE+1]] "{{.*}}/lambda_objects.cpp"
void by_value(dp::field<1, float> &v, const dp::field<1, float> &u) {
  dp::forall(v.get_grid(), [u](dp::index<1> i, float &o) { o = u(i[0]) * 2; }, dp::_index, v);
// REWRITE:   dpstub::lambda_objects_cpp::forall_[[@LINE-1]]_3(v.get_grid(), lambda_25_28(u), dp::_index, v);
}
// STUB: //   kernel:       void lambda_25_28::operator()(dp::index<1> i, float &o) [function object]

namespace physics {
// The enclosing function's return type is deduced: nvcc refuses the
// lambda in it, the function object goes into the namespace.
// REWRITE: namespace physics {
// REWRITE: /// dpstub: the lambda at lambda_objects.cpp:38:28, as a function object:
// REWRITE-NEXT: /// nvcc takes no __host__ __device__ lambda in a function whose return type is deduced, as 'scaled''s is.
// REWRITE-NEXT: struct lambda_38_28 {
auto scaled(dp::field<1, float> &v, float k) {
  dp::forall(v.get_grid(), [k](float &o) { o *= k; }, v);
// REWRITE:   dpstub::lambda_objects_cpp::forall_[[@LINE-1]]_3(v.get_grid(), lambda_38_28(k), v);
  return k;
}
} // namespace physics
// STUB: //   kernel:       void physics::lambda_38_28::operator()(float &o) [function object]

// In a function template: a class template over its parameters.
// REWRITE: template <class T>
// REWRITE-NEXT: struct lambda_[[@LINE+8]]_28 {
// REWRITE-NEXT:   T a;
// REWRITE-NEXT:   explicit lambda_[[@LINE+6]]_28(const T &a_)
// REWRITE-NEXT:       : a(a_) {}
// REWRITE-NEXT:   template <class P0, class P1>
// REWRITE-NEXT:   DP_HOST_DEVICE auto operator()(P0 &yi, P1 xi) const { yi += a * xi; }
// REWRITE-NEXT: };
template <class T> void axpy(dp::field<1, T> &y, const dp::field<1, T> &x, T a) {
  dp::forall(y.get_grid(), [a](auto &yi, auto xi) { yi += a * xi; }, y, x);
// REWRITE:   dpstub::lambda_objects_cpp::forall_[[@LINE-1]]_3(y.get_grid(), lambda_[[@LINE-1]]_28<T>(a), y, x);
// STUB: //   argument 1 `y` (dp::field<1, double>, rank 1) -> P0 &yi: elemental projection, read-write
  dp::forall(y.get_grid(), [b = a](T &yi) { yi += b; }, y);
// DIAG: lambda_objects.cpp:[[@LINE-1]]:28: warning: nvcc cannot compile this lambda for the device (nvcc takes no init-capture in a __host__ __device__ lambda), and dpstub cannot rewrite it as a function object: the type of its init-capture 'b' depends on its enclosing template; write it as a function object at namespace scope (hipcc and host builds take it as it is)
// REWRITE:   dpstub::lambda_objects_cpp::forall_[[@LINE-2]]_3(y.get_grid(), [b = a] DP_HOST_DEVICE (T &yi) { yi += b; }, y);
}

// The function objects of forms() come before it; a constant the lambda
// reads without capturing it is copied in.
// REWRITE:   static constexpr int Scale = static_cast<int>(4LL);
// REWRITE: void forms(dp::field<1, float> &v, dp::field<1, float> &u, dp::field<2, float> &m,
void forms(dp::field<1, float> &v, dp::field<1, float> &u, dp::field<2, float> &m,
           dp::field<1, float> &rows, dp::field<2, int> &keys) {
  const dp::grid<1> g = v.get_grid();
  dp::forall(g, [k = 3.0f](float &o, float x) { o = x * k; }, v, u);
// REWRITE:   dpstub::lambda_objects_cpp::forall_[[@LINE-1]]_3(g, lambda_[[@LINE-1]]_17(3.0f), v, u);
  dp::forall(g, [](auto &o, auto x) { o = 2 * x; }, v, u);
// REWRITE:   dpstub::lambda_objects_cpp::forall_[[@LINE-1]]_3(g, lambda_[[@LINE-1]]_17(), v, u);
// STUB: //   kernel:       ::lambda_[[@LINE-2]]_17 (generic) [function object]
  auto twice = [](auto &o) { o *= 2; };
// REWRITE:   auto twice = lambda_[[@LINE-1]]_16();
  dp::forall(g, twice, v);
  constexpr int Scale = 4;
  dp::forall(g, [](auto &o) { o *= Scale; }, v);
  dp::forall(g, [](float &o, float x) {
    auto sq = [](float y) { return y * y; };
    o = sq(x);
  }, v, u);
// REWRITE:   dpstub::lambda_objects_cpp::forall_[[@LINE-4]]_3(g, [] DP_HOST_DEVICE (float &o, float x) {
// REWRITE-NEXT:     auto sq = [](float y) { return y * y; };
  dp::reduce<1>(m.get_grid(), Max<float>(), rows, [](float x) { return x; }, m);
// REWRITE:   dpstub::lambda_objects_cpp::reduce_[[@LINE-1]]_3<1>(m.get_grid(), Max<float>(), rows, [] DP_HOST_DEVICE (float x) { return x; }, m);
  dp::reduce<1>(m.get_grid(), [](auto a, auto b) { return a + b; }, rows,
                [](float x) { return x; }, m);
// REWRITE:   dpstub::lambda_objects_cpp::reduce_[[@LINE-2]]_3<1>(m.get_grid(), lambda_[[@LINE-2]]_31(), rows,
// STUB: //   operator:     lambda_[[@LINE-3]]_31() [function object]
  dp::sort<1>(keys.get_grid(), [](auto a, auto b) { return a < b; }, keys);
// STUB: //   sort field:   `keys` (dp::field<2, int>), radix sort, ascending (the natural order) on a GPU
  struct Local { float k; };
  dp::forall(g, [](auto &o) { o = Local{2.0f}.k; }, v);
// DIAG: lambda_objects.cpp:[[@LINE-1]]:17: warning: nvcc cannot compile this lambda for the device (nvcc takes no generic lambda, one with auto parameters, as a __host__ __device__ lambda), and dpstub cannot rewrite it as a function object: it names 'Local', a type local to its enclosing function; write it as a function object at namespace scope (hipcc and host builds take it as it is)
  std::function<void(float &, float)> k = [](float &o, float x) { o = 2 * x; };
  dp::forall(g, k, v, u);
// DIAG: lambda_objects.cpp:[[@LINE-1]]:17: warning: dp::forall call-site left untouched: a 'std::function<void (float &, float)>' calls the callable it holds through host code, and which callable that is is known only at run time; pass the lambda, function or function object itself
// REWRITE:   std::function<void(float &, float)> k = [](float &o, float x) { o = 2 * x; };
// REWRITE-NEXT:   dp::forall(g, k, v, u);
}

void run(dp::field<1, double> &y, const dp::field<1, double> &x) { axpy(y, x, 2.0); }

// In the member functions of a class template: function objects over the
// class template's parameters (a nested one's too), written before it.
// What the kernel reads through `this` is copied into members named alike,
// so the body is kept as written; a copy of *this travels as it is.
// REWRITE: /// dpstub: the lambda at lambda_objects.cpp:{{[0-9]+}}:32, as a function object:
// REWRITE-NEXT: /// nvcc copy-initialises the captures of a __host__ __device__ lambda, and 'in' is a const 'dp::field<1, float>', which refuses a copy that could write.
// REWRITE-NEXT: template <class T>
// REWRITE-NEXT: struct lambda_{{[0-9]+}}_32 {
// REWRITE-NEXT:   const dp::field<1, T> in;
// REWRITE-NEXT:   explicit lambda_{{[0-9]+}}_32(const dp::field<1, T> &in_)
// REWRITE-NEXT:       : in(in_) {}
// REWRITE-NEXT:   DP_HOST_DEVICE auto operator()(T &o, dp::index<1> i) const { o = in(i[0]) * 2; }
// REWRITE-NEXT: };
// REWRITE-NEXT: /// dpstub: the lambda at lambda_objects.cpp:{{[0-9]+}}:32, as a function object:
// REWRITE-NEXT: /// on a device, the 'this' it captures would point to the object in host memory.
// REWRITE-NEXT: template <class T>
// REWRITE-NEXT: struct lambda_{{[0-9]+}}_32 {
// REWRITE-NEXT:   dp::field<1, T> data_;
// REWRITE-NEXT:   const T scale_;
// REWRITE-NEXT:   explicit lambda_{{[0-9]+}}_32(const dp::field<1, T> &data_in, const T &scale_in)
// REWRITE-NEXT:       : data_(data_in), scale_(scale_in) {}
// REWRITE-NEXT:   DP_HOST_DEVICE auto operator()(T &o, dp::index<1> i) const { o = data_(i[0]) * scale_; }
// REWRITE-NEXT: };
// REWRITE-NEXT: /// dpstub: the lambda at lambda_objects.cpp:{{[0-9]+}}:34, as a function object:
// REWRITE-NEXT: /// nvcc copy-initialises the captures of a __host__ __device__ lambda, and 'src' is a const 'dp::field<1, double>', which refuses a copy that could write.
// REWRITE-NEXT: template <class T, class U>
// REWRITE-NEXT: struct lambda_{{[0-9]+}}_34 {
// REWRITE-NEXT:   const dp::field<1, U> src;
// REWRITE-NEXT:   U k;
// REWRITE-NEXT:   explicit lambda_{{[0-9]+}}_34(const dp::field<1, U> &src_, const U &k_)
// REWRITE-NEXT:       : src(src_), k(k_) {}
// REWRITE-NEXT:   DP_HOST_DEVICE auto operator()(U &o, dp::index<1> i) const { o = src(i[0]) + k; }
// REWRITE-NEXT: };
// REWRITE-NEXT: #line {{[0-9]+}} "{{.*}}/lambda_objects.cpp"
template <class T> class Solver {
public:
  explicit Solver(const dp::field<1, T> &data) : data_(data), scale_(T(3)) {}
  void run(dp::field<1, T> &out) const {
    const dp::field<1, T> in(data_);
    dp::forall(out.get_grid(), [=](T &o, dp::index<1> i) { o = in(i[0]) * 2; }, out, dp::_index);
// REWRITE:     dpstub::lambda_objects_cpp::forall_[[@LINE-1]]_5(out.get_grid(), lambda_[[@LINE-1]]_32<T>(in), out, dp::_index);
  }
  void members(dp::field<1, T> &out) {
    dp::forall(out.get_grid(), [=](T &o, dp::index<1> i) { o = data_(i[0]) * scale_; }, out, dp::_index);
// REWRITE:     dpstub::lambda_objects_cpp::forall_[[@LINE-1]]_5(out.get_grid(), lambda_[[@LINE-1]]_32<T>(data_, scale_), out, dp::_index);
    dp::forall(out.get_grid(), [*this](T &o) { o += scale_; }, out);
// REWRITE:     dpstub::lambda_objects_cpp::forall_[[@LINE-1]]_5(out.get_grid(), [*this] DP_HOST_DEVICE (T &o) { o += scale_; }, out);
  }
  template <class U> struct Inner {
    U k;
    void go(dp::field<1, U> &out) const {
      const dp::field<1, U> src(out.get_grid(), U(5));
      dp::forall(out.get_grid(), [=](U &o, dp::index<1> i) { o = src(i[0]) + k; }, out, dp::_index);
// REWRITE:       dpstub::lambda_objects_cpp::forall_[[@LINE-1]]_7(out.get_grid(), lambda_[[@LINE-1]]_34<T, U>(src, k), out, dp::_index);
    }
  };

private:
  dp::field<1, T> data_;
  const T scale_;
};

void solve(dp::field<1, float> &out, const dp::field<1, float> &data) {
  Solver<float> s(data);
  s.run(out);
  s.members(out);
  dp::field<1, double> wide(out.get_grid());
  Solver<float>::Inner<double>{1.5}.go(wide);
}
