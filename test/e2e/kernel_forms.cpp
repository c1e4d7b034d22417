// Every form of kernel, operator and comparator a user writes, as they
// write it: a const field captured by value, init-captures, generic
// lambdas (as kernels, operators, comparators and predicates, at the
// call-site and in variables), lambdas defined inside kernels, lambdas in
// function templates and in a function whose return type is deduced,
// constants read without a capture, class-template function objects (in
// templates too), lambdas in the member functions of a solver class
// template (a const local field captured by copy, a copy of *this, members
// read through this: a field, a const scalar; a nested class template)
// and a std::function. Untranslated, translated and
// emulated runs print the same checksums; the translation compiles with
// nvcc and hipcc (dpstub writes the lambdas nvcc refuses as function
// objects).
#include <dp/dp.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>

template <int N, class T> unsigned long checksum(const dp::field<N, T> &f) {
  unsigned long s = 0;
  const dp::grid<N> g = f.get_grid();
  for (std::int64_t k = 0; k < g.size(); ++k)
    s = s * 1000003u + static_cast<unsigned long>(static_cast<long>(f[g.map_index(k)]));
  return s;
}

/// A class template's function object, as kernel and as operator.
template <class T> struct Max {
  T operator()(T a, T b) const { return std::max(a, b); }
};
template <class T> struct Affine {
  T scale, shift;
  void operator()(T &o, T x) const { o = scale * x + shift; }
};

// The documented idiom: a const field captured by value is broadcast.
void by_value(dp::field<1, int> &v, const dp::field<1, int> &u) {
  dp::forall(v.get_grid(), [u](dp::index<1> i, int &o) { o = u(i[0]) * 2 + int(i[0]); },
             dp::_index, v);
}

// A deduced return type: nvcc takes no extended lambda in such a function.
auto scaled(dp::field<1, int> &v, int k) {
  dp::forall(v.get_grid(), [k](int &o) { o *= k; }, v);
  return checksum(v);
}

// In templates: a generic lambda capturing a T, class templates at T.
template <class T> T rowmax_sum(const dp::field<2, T> &m) {
  dp::field<1, T> rows(dp::grid<1>(m.get_extent(0)), T(-1000));
  dp::reduce<1>(m.get_grid(), Max<T>(), rows, [](T x) { return x; }, m);
  dp::field<1, T> out(rows.get_grid());
  dp::forall(rows.get_grid(), Affine<T>{T(2), T(1)}, out, rows);
  const T bias = T(3);
  dp::forall(out.get_grid(), [bias](auto &o) { o += bias; }, out);
  T s = 0;
  for (std::int64_t i = 0; i < out.size(); ++i)
    s += out(i);
  return s;
}

// A solver written as a class template, its kernels lambdas in its
// member functions: nvcc refuses the const field's copy, and `this` would
// point to host memory on a device; dpstub writes each as a function
// object over the class's parameters, with copies of what it reads.
template <class T> class Solver {
public:
  Solver(const dp::field<1, T> &data, T scale) : data_(data), scale_(scale) {}
  /// A const local field captured by copy: read-only.
  unsigned long doubled() const {
    const dp::field<1, T> in(data_);
    dp::field<1, T> out(data_.get_grid());
    dp::forall(out.get_grid(), [=](T &o, dp::index<1> i) { o = in(i[0]) * 2; }, out, dp::_index);
    return checksum(out);
  }
  /// A member field and a const member, read through `this`.
  unsigned long scaled() {
    dp::field<1, T> out(data_.get_grid());
    dp::forall(out.get_grid(), [=](T &o, dp::index<1> i) { o = data_(i[0]) * scale_ + 1; }, out,
               dp::_index);
    dp::forall(out.get_grid(), [this](T &o) { o -= this->scale_; }, out);
    return checksum(out);
  }
  /// A copy of *this.
  unsigned long copied() {
    dp::field<1, T> out(data_.get_grid());
    dp::forall(out.get_grid(), [*this](T &o, dp::index<1> i) { o = data_(i[0]) - scale_; }, out,
               dp::_index);
    return checksum(out);
  }
  /// A nested class template: a lambda over both classes' parameters.
  template <class U> struct Shifted {
    U shift;
    unsigned long of(const dp::field<1, T> &data) const {
      const dp::field<1, T> src(data);
      dp::field<1, U> out(data.get_grid());
      dp::forall(out.get_grid(), [=](U &o, dp::index<1> i) { o = U(src(i[0])) + shift; }, out,
                 dp::_index);
      return checksum(out);
    }
  };

private:
  dp::field<1, T> data_;
  const T scale_;
};

int main() {
  const std::int64_t n = 1000;
  const dp::grid<1> g(n);
  dp::field<1, int> a(g), b(g), c(g);
  for (std::int64_t i = 0; i < n; ++i)
    a(i) = int((i * 37) % 101) - 50, b(i) = int(i % 13);

  by_value(c, a);
  std::printf("const field by value %lu\n", checksum(c));

  dp::forall(g, [k = 3, m = b](int &o, int x) { o = x * k + m(0); }, c, a);
  std::printf("init-captures %lu\n", checksum(c));

  dp::forall(g, [](auto &o, auto x, const auto &y) { o = x * y; }, c, a, b);
  std::printf("generic lambda %lu\n", checksum(c));

  auto twice = [](auto &o) { o *= 2; };
  dp::forall(g, twice, c);
  dp::forall(g, twice, c);
  std::printf("generic lambda in a variable, twice %lu\n", checksum(c));

  dp::forall(g, [](int &o, int x) {
    auto sq = [](int y) { return y * y; };
    auto plus = [&](int y) { return sq(y) + x; };
    o = plus(x);
  }, c, a);
  std::printf("lambdas inside a kernel %lu\n", checksum(c));

  constexpr int Offset = 7;
  dp::forall(g, [](auto &o) { o += Offset; }, c);
  std::printf("a constant without capture %lu\n", checksum(c));

  std::printf("deduced return type %lu\n", scaled(c, 3));

  dp::field<2, int> m(dp::grid<2>(17, 23));
  for (std::int64_t i = 0; i < 17; ++i)
    for (std::int64_t j = 0; j < 23; ++j)
      m(i, j) = int((i * 7 + j * 11) % 29);
  std::printf("class templates in a template %d\n", rowmax_sum(m));

  dp::scalar<long> total(0);
  dp::reduce(g, [](auto x, auto y) { return x + y; }, total, [](int x) { return long(x); }, c);
  std::printf("generic operator %ld\n", total.get());

  dp::field<2, int> prefix(m.get_grid());
  dp::scan<1>(m.get_grid(), [](const auto &x, const auto &y) { return x + y; }, prefix,
              [](int x) { return x; }, m);
  std::printf("generic scan operator %lu\n", checksum(prefix));

  dp::field<2, int> keys = m.clone();
  dp::sort<1>(keys.get_grid(), [](auto x, auto y) { return x > y; }, keys);
  std::printf("generic comparator %lu\n", checksum(keys));
  dp::sort<0>(keys.get_grid(), [](const auto &x, const auto &y) { return x % 5 < y % 5; },
              keys);
  std::printf("generic custom comparator, per column mod 5 ordered %d\n", [&] {
    for (std::int64_t j = 0; j < 23; ++j)
      for (std::int64_t i = 1; i < 17; ++i)
        if (keys(i - 1, j) % 5 > keys(i, j) % 5)
          return 0;
    return 1;
  }());

  dp::scalar<long> kept(0);
  dp::reduce(dp::where(g, [](const auto &i) { return i[0] % 3 == 0; }), std::plus<long>(), kept,
             [](int x) { return long(x); }, c);
  std::printf("generic predicate %ld\n", kept.get());

  Solver<int> solver(a, 3);
  std::printf("class template: const local field %lu, members through this %lu, a copy of *this "
              "%lu, nested class template %lu\n",
              solver.doubled(), solver.scaled(), solver.copied(),
              Solver<int>::Shifted<long>{7}.of(b));

  // A std::function hides which callable it holds: dpstub leaves this
  // call-site on the host, with a warning.
  std::function<void(int &, int)> k = [](int &o, int x) { o = 2 * x + 1; };
  dp::forall(g, k, c, a);
  std::printf("std::function, on the host %lu\n", checksum(c));
  return 0;
}
