// An end-to-end program exercising every conversion and kernel kind through
// dp::forall, on 1-4 dimensional, strided and lower-bound grids. It prints
// checksums of every result: the untranslated build, the translated build
// run natively and the translated build run in dispatch emulation must
// print the same lines.
#include <dp/dp.hpp>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <string>

struct cell {
  int a;
  float b;
};

int mix(int x, int y) { return x * 31 + y; }
// A helper the kernels call: dpstub marks it for the device as well.
int mix3(int x, int y, int z) { return mix(mix(x, y), z); }

void elemental(int &out, int a, const int &b) { out = mix(a, b); }

void with_index(dp::index<2> i, int &out) { out = mix(int(i[0]), int(i[1])); }

void sum_column(long &s, const dp::field<1, int> &column) {
  s = 0;
  for (std::int64_t k = 0; k < column.get_extent(0); ++k)
    s += column(k) * (k + 1);
}

void inner(long &c, const dp::field<1, int> &a, const dp::field<1, int> &b) {
  long s = 0;
  for (std::int64_t k = 0; k < a.get_extent(0); ++k)
    s += long(a(k)) * b(k);
  c = s;
}

struct offset_by {
  int by;
  void operator()(cell &c, int a) const {
    c.a = a + by;
    c.b = float(a) * 0.5f;
  }
};

/// A user indexable type (not a field): read elementally by index value.
struct checker {
  static constexpr int rank = 2;
  int period;
  int operator[](const dp::index<2> &i) const { return int((i[0] + i[1]) % period); }
};

struct doubler {
  template <class T> void operator()(T &out, const T &in) const { out = 2 * in; }
};

/// A generic function object reading the same field twice: const T& is
/// read-only, so this is no data race.
struct add_pair {
  template <class T> void operator()(T &out, const T &x, const T &y) const { out = x + y; }
};

/// A dp::error's message without the call-site's location, which only the
/// translated program knows: the rest must read the same in both.
std::string without_location(const std::string &what) {
  const std::size_t at = what.find(" at ");
  const std::size_t colon = what.find(": ");
  if (at != std::string::npos && colon != std::string::npos && at < colon)
    return what.substr(0, at) + what.substr(colon);
  return what;
}

template <int N, class T> unsigned long checksum(const dp::field<N, T> &f) {
  const dp::grid<N> g = f.get_grid();
  unsigned long s = 0;
  for (std::int64_t k = 0; k < g.size(); ++k)
    s = s * 1000003 + static_cast<unsigned long>(f[g.map_index(k)]) + 7;
  return s;
}
unsigned long checksum(const dp::field<1, cell> &f) {
  unsigned long s = 0;
  for (std::int64_t k = 0; k < f.get_extent(0); ++k)
    s = s * 1000003 + static_cast<unsigned long>(f(k).a + long(f(k).b * 4));
  return s;
}

/// A call-site in a function template whose fields' element type differs
/// between its instances (what --migrate makes of a `template <class T>
/// void copy(T *dst, T *src, int n)` loop).
template <class T> void rotate_into(dp::field<1, T> &dst, const dp::field<1, T> &src, int n) {
  dp::forall(dp::grid<1>(n), [=](dp::index<1> i, dp::field<1, T> &d, const dp::field<1, T> &s) {
    d(i[0]) = s((i[0] + 1) % n);
  }, dst, src);
}

int main() {
  // Rank 1, edge sizes around a group, elemental read/write and a scalar.
  for (int n : {1, 255, 257, 1000}) {
    const dp::grid<1> g(n);
    dp::field<1, int> a(g), b(g), out(g);
    dp::forall(g, [](dp::index<1> i, int &x) { x = int(i[0] % 97); }, a);
    dp::forall(g, [](dp::index<1> i, int &x) { x = int(i[0] % 13); }, b);
    dp::forall(g, elemental, out, a, b);
    dp::forall(g, [](int &o, int s) { o += s; }, out, 5);
    std::printf("rank1 n=%d %lu\n", n, checksum(out));
  }

  // Rank 1 as migrated loops write it (`const int i = idx[0]`, a whole
  // field indexed by value) over index values below 0 and at either end
  // of int's range, which the host counts as ints; and values past it,
  // which it counts as positions (the kernel then takes a 64-bit index).
  for (const auto &[lo, hi] : {std::pair<std::int64_t, std::int64_t>{-5, 300},
                               {INT32_MAX - 200LL, INT32_MAX},
                               {INT32_MIN, INT32_MIN + 300LL}}) {
    dp::field<1, long> f{dp::grid<1>(dp::arithmetic_sequence(lo, hi))};
    dp::forall(f.get_grid(), [=](dp::index<1> idx, dp::field<1, long> &f) {
      const int i = idx[0];
      f(i) = long(i % 1000) * 3 + 1;
    }, f);
    std::printf("rank1 int values [%lld, %lld) %lu %ld %ld\n", (long long)lo, (long long)hi, checksum(f), f(lo),
                f(hi - 1));
  }
  {
    const std::int64_t lo = INT32_MAX - 100LL, hi = INT32_MAX + 100LL;
    dp::field<1, long> f{dp::grid<1>(dp::arithmetic_sequence(lo, hi))};
    dp::forall(f.get_grid(), [=](dp::index<1> idx, dp::field<1, long> &f) {
      const std::int64_t i = idx[0];
      f(i) = long(i % 1000) * 3 + 1;
    }, f);
    std::printf("rank1 values past int %lu %ld %ld\n", checksum(f), f(lo), f(hi - 1));
  }

  // Rank 2 with the _index token and the implicit index, over a strided,
  // lower-bound interior of a bigger field.
  {
    dp::field<2, int> m(dp::grid<2>(40, 300), -1);
    const dp::grid<2> interior(dp::arithmetic_sequence(1, 39, 2), dp::arithmetic_sequence(3, 297));
    dp::forall(interior, with_index, m);
    dp::forall(interior, [](dp::index<2> i, int &x) { x += int(i[0] + i[1]); }, dp::_index, m);
    dp::forall(interior, [](int &x, int c) { x = x * 3 + c; }, m, checker{5});
    std::printf("rank2 interior %lu\n", checksum(m));
  }

  // Partial projection (sum_rows style), spread/transpose matrix product.
  {
    dp::field<2, int> A(dp::grid<2>(17, 45));
    dp::forall(A.get_grid(), [](dp::index<2> i, int &x) { x = int((i[0] * 7 + i[1] * 3) % 11) - 5; }, A);
    dp::field<1, long> S{dp::grid<1>(45)};
    dp::forall(S.get_grid(), sum_column, S, A);
    std::printf("partial %lu\n", checksum(S));
    dp::field<2, int> B(dp::grid<2>(45, 23));
    dp::forall(B.get_grid(), [](dp::index<2> i, int &x) { x = int((i[0] + 2 * i[1]) % 7) - 3; }, B);
    dp::field<2, long> C(dp::grid<2>(17, 23));
    dp::forall(C.get_grid(), inner, C, dp::spread<2>(dp::transpose(A)), dp::spread<1>(B));
    std::printf("matmul %lu\n", checksum(C));
    // The same product with whole-field broadcasts and captured fields.
    dp::field<2, long> D(dp::grid<2>(17, 23));
    dp::forall(D.get_grid(), [A, B](dp::index<2> i, long &d) {
      long s = 0;
      for (std::int64_t k = 0; k < A.get_extent(1); ++k)
        s += long(A(i[0], k)) * B(k, i[1]);
      d = s;
    }, D);
    std::printf("matmul captured %lu\n", checksum(D));
    dp::field<2, long> E(dp::grid<2>(17, 23));
    dp::forall(E.get_grid(), [](dp::index<2> i, long &e, const dp::field<2, int> &a, const dp::field<2, int> &b) {
      long s = 0;
      for (std::int64_t k = 0; k < a.get_extent(1); ++k)
        s += long(a(i[0], k)) * b(k, i[1]);
      e = s;
    }, E, dp::read_only(A), B);
    std::printf("matmul broadcast %lu\n", checksum(E));
  }

  // Whole fields broadcast to an indexed kernel, the loop form dpstub
  // --migrate writes: fields at index 0 over a grid stepping by 1 (the
  // host's origin rows: handles state lower bound 0), a field whose index
  // values start at 1, and a grid stepping by 2 (neither may take them).
  {
    const int n = 300;
    dp::field<1, double> src{dp::grid<1>(n)}, dst{dp::grid<1>(n)};
    dp::field<1, double> from1{dp::grid<1>(dp::arithmetic_sequence(1, n + 1))};
    dp::forall(src.get_grid(), [](dp::index<1> i, double &x) { x = double(i[0] % 17); }, src);
    dp::forall(from1.get_grid(), [](dp::index<1> i, double &x) { x = double(i[0] % 5); }, from1);
    dp::forall(dp::grid<1>(dp::arithmetic_sequence(1, n - 1)), [](dp::index<1> idx, dp::field<1, double> &d,
                                                                  const dp::field<1, const double> &s) {
      const int i = int(idx[0]);
      d(i) = 0.5 * (s(i - 1) + s(i + 1));
    }, dst, dp::read_only(src));
    std::printf("broadcast at origin %lu\n", checksum(dst));
    dp::forall(dp::grid<1>(dp::arithmetic_sequence(1, n)), [](dp::index<1> idx, dp::field<1, double> &d,
                                                              const dp::field<1, double> &f) {
      const int i = int(idx[0]);
      d(i) += f(i) * 3 + f(i + 1);
    }, dst, from1);
    std::printf("broadcast from 1 %lu\n", checksum(dst));
    dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n, 2)), [](dp::index<1> idx, dp::field<1, double> &d,
                                                                 const dp::field<1, double> &s) {
      const int i = int(idx[0]);
      d(i) = s(i) - d(i);
    }, dst, src);
    std::printf("broadcast stepping by 2 %lu\n", checksum(dst));
  }

  // Writable partial projection and a mutable lambda writing a capture.
  {
    dp::field<2, int> M(dp::grid<2>(6, 50));
    dp::forall(dp::grid<1>(50), [](dp::index<1> k, dp::field<1, int> &col) {
      for (std::int64_t r = 0; r < col.get_extent(0); ++r)
        col(r) = int(r * 100 + k[0]);
    }, M);
    std::printf("writable partial %lu\n", checksum(M));
    dp::field<1, int> hist(dp::grid<1>(50));
    dp::forall(dp::grid<1>(50), [hist](dp::index<1> k) mutable { hist(k[0]) = mix(int(k[0]), 3); });
    std::printf("mutable capture %lu\n", checksum(hist));
  }

  // Function object over a struct element type; a generic lambda.
  {
    const dp::grid<1> g(300);
    dp::field<1, int> a(g);
    dp::forall(g, [](dp::index<1> i, int &x) { x = int(i[0]); }, a);
    dp::field<1, cell> cells(g);
    dp::forall(g, offset_by{10}, cells, a);
    std::printf("functor %lu\n", checksum(cells));
    dp::field<1, int> twice(g);
    dp::forall(g, doubler{}, twice, a);
    std::printf("generic functor %lu\n", checksum(twice));
    dp::field<1, int> pair(g);
    dp::forall(g, add_pair{}, pair, a, a);
    std::printf("generic functor, one field twice %lu\n", checksum(pair));
    // nvcc takes no generic __host__ __device__ lambda: dpstub writes it
    // as a function object.
    dp::field<1, int> thrice(g);
    dp::forall(g, [](auto &o, auto x) { o = 3 * x; }, thrice, a);
    std::printf("generic lambda %lu\n", checksum(thrice));
  }

  // Rank 3 (two shapes, so partially direct modes 4, 5 and 6 can all be
  // forced by the emulated limits) and rank 4 (indirect or split).
  for (const dp::grid<3> &g : {dp::grid<3>(6, 5, 40), dp::grid<3>(3, 7, 40)}) {
    dp::field<3, int> t(g);
    dp::forall(g, [](dp::index<3> i, int &x) { x = mix3(int(i[0]), int(i[1]), int(i[2])); }, t);
    std::printf("rank3 %lu\n", checksum(t));
  }
  {
    const dp::grid<4> g(3, 4, 5, 6);
    dp::field<4, int> q(g);
    dp::forall(g, [](dp::index<4> i, int &x) { x = mix(mix3(int(i[0]), int(i[1]), int(i[2])), int(i[3])); }, q);
    std::printf("rank4 %lu\n", checksum(q));
  }
  // Elemental projections that do not step by one element along a row: a
  // transposed view beside contiguous fields, a last dimension spread, a
  // grid that strides. The native host path walks unit-stride rows only
  // when every projection of the call allows it.
  {
    dp::field<2, int> T(dp::grid<2>(23, 17)), R(dp::grid<2>(17, 23));
    dp::forall(T.get_grid(), [](dp::index<2> i, int &x) { x = mix(int(i[0]), int(i[1])); }, T);
    dp::forall(R.get_grid(), [](int &r, int t) { r = t * 2 + 1; }, R, dp::transpose(T));
    std::printf("transposed %lu\n", checksum(R));
    dp::field<1, int> column(dp::grid<1>(17));
    dp::forall(column.get_grid(), [](dp::index<1> i, int &c) { c = int(i[0]) * 5 - 40; }, column);
    dp::forall(R.get_grid(), [](int &r, int c) { r = mix(r, c); }, R, dp::spread<1>(column));
    std::printf("spread last %lu\n", checksum(R));
    dp::field<1, int> every(dp::grid<1>(100), 1);
    dp::forall(dp::grid<1>(dp::arithmetic_sequence(2, 98, 3)), [](int &x) { x = x * 7 + 2; }, every);
    std::printf("stride 3 %lu\n", checksum(every));
  }
  // Whole fields walk as one row on the host; an interior merges only the
  // dimensions along which it is contiguous (here the last two, not the
  // first); a kernel that takes its index or a partial projection does not
  // merge at all.
  {
    const dp::grid<3> g(4, 5, 6);
    dp::field<3, int> t(g), u(g);
    dp::forall(g, [](dp::index<3> i, int &x) { x = mix3(int(i[0]), int(i[1]), int(i[2])); }, t);
    dp::forall(g, [](dp::index<3> i, int &x) { x = int(i[0] * 2 + i[1] * 3 + i[2]); }, u);
    dp::forall(g, [](int &x, int y) { x = mix(x, y); }, t, u);
    std::printf("merged whole %lu\n", checksum(t));
    dp::field<3, int> big(dp::grid<3>(6, 7, 8), 1);
    const dp::grid<3> inside(dp::arithmetic_sequence(1, 5), dp::arithmetic_sequence(1, 6),
                             dp::arithmetic_sequence(8));
    dp::forall(inside, [](int &x) { x = x * 5 + 1; }, big);
    dp::forall(inside, [](dp::index<3> i, int &x) { x = mix(x, int(i[1])); }, dp::_index, big);
    std::printf("merged interior %lu\n", checksum(big));
  }
  // Errors read the same translated or not, arguments counted alike.
  {
    dp::field<1, int> small(dp::grid<1>(10)), out(dp::grid<1>(12));
    try {
      dp::forall(dp::grid<1>(12), [](int &o, int x) { o = x; }, out, small);
      std::printf("no error\n");
    } catch (const dp::error &e) {
      std::printf("error: %s\n", without_location(e.what()).c_str());
    }
  }
  // One call-site, two instances: int and double elements.
  {
    const int n = 300;
    dp::field<1, int> ri{dp::grid<1>(n)}, si{dp::grid<1>(n)};
    dp::field<1, double> rd{dp::grid<1>(n)}, sd{dp::grid<1>(n)};
    for (int k = 0; k < n; ++k) {
      si(k) = k * 7 % 31;
      sd(k) = k * 0.5;
    }
    rotate_into(ri, si, n);
    rotate_into(rd, sd, n);
    std::printf("template instances %lu %lu\n", checksum(ri), checksum(rd));
  }
  return 0;
}
