// An end-to-end program for dp::reduce, dp::reduce<Dim>, dp::scan<Dim> and
// dp::sort<Dim>: every Dim of 1-, 2- and 3-d grids, pencils of length 0, 1,
// odd, just above an emulated group and beyond one launch, sub-grids with
// lower bounds and descending strides, int, float, double and a struct with
// its own comparator. Values are small integers, so float and double sums
// are exact whatever the order of the fold: the untranslated build, the
// translated build run natively and the translated build run in dispatch
// emulation must print the same lines.
#include <dp/dp.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>

struct item {
  int key;
  int tag;
};
/// The struct's own order: by key, then by tag (a merge sort on a GPU).
struct by_key_then_tag {
  bool operator()(const item &a, const item &b) const {
    return a.key < b.key || (a.key == b.key && a.tag < b.tag);
  }
};

int larger(int a, int b) { return a > b ? a : b; }

template <int N, class T> unsigned long checksum(const dp::field<N, T> &f) {
  const dp::grid<N> g = f.get_grid();
  unsigned long s = 0;
  for (std::int64_t k = 0; k < g.size(); ++k)
    s = s * 1000003 + static_cast<unsigned long>(static_cast<long>(f[g.map_index(k)])) + 7;
  return s;
}
unsigned long checksum(const dp::field<1, item> &f) {
  unsigned long s = 0;
  for (std::int64_t k = 0; k < f.get_extent(0); ++k)
    s = s * 1000003 + static_cast<unsigned long>(f(k).key * 131 + f(k).tag) + 7;
  return s;
}

/// Small integer values (exact in float), a pattern that depends on the
/// index values so sub-grids see different data. One function per rank: a
/// template over the rank would convert differently per instantiation.
inline long hash_value(long h) { return (h % 23 + 23) % 23 - 11; }
template <class T> dp::field<1, T> pattern1(const dp::grid<1> &g, int salt) {
  dp::field<1, T> f(g);
  dp::forall(g, [salt](dp::index<1> i, T &x) { x = static_cast<T>(hash_value(salt * 31 + i[0])); }, f);
  return f;
}
template <class T> dp::field<2, T> pattern2(const dp::grid<2> &g, int salt) {
  dp::field<2, T> f(g);
  dp::forall(g, [salt](dp::index<2> i, T &x) {
    x = static_cast<T>(hash_value((salt * 31 + i[0]) * 31 + i[1]));
  }, f);
  return f;
}
template <class T> dp::field<3, T> pattern3(const dp::grid<3> &g, int salt) {
  dp::field<3, T> f(g);
  dp::forall(g, [salt](dp::index<3> i, T &x) {
    x = static_cast<T>(hash_value(((salt * 31 + i[0]) * 31 + i[1]) * 31 + i[2]));
  }, f);
  return f;
}

// Full reductions: a sum and a max with the implicit index, in one
// template instantiated for three element types (one stub each call-site).
template <class T> void full_reductions(const dp::grid<2> &g, const char *name) {
  dp::field<2, T> a = pattern2<T>(g, 3), b = pattern2<T>(g, 5);
  dp::scalar<T> sum(T(100));
  dp::reduce(g, std::plus<>(), sum, [](T x, const T &y) { return x * y; }, a, b);
  dp::scalar<T> top(T(-1000));
  dp::reduce(g, [](T x, T y) { return x > y ? x : y; }, top,
             [](dp::index<2> i, T x) { return x + T(i[0] % 3); }, a);
  std::printf("reduce %s %s: %ld %ld\n", name, g.to_string().c_str(), long(sum.get()), long(top.get()));
}

void reductions_with_functions(const dp::grid<1> &g) {
  dp::field<1, int> a = pattern1<int>(g, 11);
  dp::scalar<int> top(-1000);
  dp::reduce(g, larger, top, [](int x) { return x; }, a);
  std::printf("reduce larger %s: %d\n", g.to_string().c_str(), top.get());
}

// reduce<Dim> along every dimension of a 3-d grid; results are indexed by
// the index values less Dim, so a sub-grid writes part of a bigger field.
template <class T> void pencil_reductions(const dp::grid<3> &g, const char *name) {
  dp::field<3, T> a = pattern3<T>(g, 7);
  dp::field<2, T> r0(dp::grid<2>(g.dimension(1), g.dimension(2)), T(1));
  dp::field<2, T> r1(dp::grid<2>(g.dimension(0), g.dimension(2)), T(2));
  dp::field<2, T> r2(dp::grid<2>(g.dimension(0), g.dimension(1)), T(3));
  dp::reduce<0>(g, std::plus<>(), r0, [](T x) { return x; }, a);
  dp::reduce<1>(g, std::plus<>(), r1, [](T x) { return 2 * x; }, a);
  dp::reduce<2>(g, [](T x, T y) { return x < y ? x : y; }, r2, [](T x) { return x; }, a);
  std::printf("reduce<Dim> %s %s: %lu %lu %lu\n", name, g.to_string().c_str(), checksum(r0),
              checksum(r1), checksum(r2));
}

// Rank 4: reduce<1> and scan<0> run the tiled pencil kernels over a rank-4
// domain of groups (dispatch modes 3 and 7 under the emulated limits).
void rank4(const dp::grid<4> &g) {
  dp::field<4, int> a(g);
  dp::forall(g, [](dp::index<4> i, int &x) { x = int(hash_value(((i[0] * 31 + i[1]) * 31 + i[2]) * 31 + i[3])); }, a);
  dp::field<3, int> r(dp::grid<3>(g.dimension(0), g.dimension(2), g.dimension(3)), 5);
  dp::reduce<1>(g, std::plus<>(), r, [](int x) { return x; }, a);
  dp::field<4, int> s(g);
  dp::scan<0>(g, std::plus<>(), s, [](int x) { return x; }, a);
  std::printf("rank4 %s: %lu %lu\n", g.to_string().c_str(), checksum(r), checksum(s));
}

// Across the last dimension on a device, a group covers up to 32
// neighbouring pencils: over (n, 2, 130) the groups' domain is
// (splits, 2, 5), which the emulated limits of 3 groups on x lay out in
// dispatch mode 5 (and (n, 5, 130) in mode 6).
void pencil_groups(std::int64_t n, std::int64_t m) {
  const dp::grid<3> g(n, m, 130);
  dp::field<3, int> a(g);
  dp::forall(g, [](dp::index<3> i, int &x) { x = int(hash_value((i[0] * 31 + i[1]) * 131 + i[2])); }, a);
  dp::field<2, int> r(dp::grid<2>(m, 130), 1);
  dp::reduce<0>(g, std::plus<>(), r, [](int x) { return x; }, a);
  dp::field<3, int> s(g);
  dp::scan<0>(g, std::plus<>(), s, [](int x) { return x; }, a);
  std::printf("pencil groups %s: %lu %lu\n", g.to_string().c_str(), checksum(r), checksum(s));
}

// A matrix multiply-accumulate: reduce<2> with spread and transpose.
void matmul(int M, int N, int K) {
  dp::field<2, long> A = pattern2<long>(dp::grid<2>(M, K), 1), B = pattern2<long>(dp::grid<2>(K, N), 2);
  dp::field<2, long> C(dp::grid<2>(M, N), 1);
  dp::reduce<2>(dp::grid<3>(M, N, K), std::plus<>(), C, [](long x, long y) { return x * y; },
                dp::spread<1>(A), dp::spread<0>(dp::transpose(B)));
  std::printf("matmul %dx%dx%d: %lu\n", M, N, K, checksum(C));
}

// scan<Dim> along every dimension of a 2-d grid, into a larger result.
template <class T> void scans(const dp::grid<2> &g, const char *name) {
  dp::field<2, T> a = pattern2<T>(g, 13);
  dp::field<2, T> s0(dp::grid<2>(dp::arithmetic_sequence(-20, 80), dp::arithmetic_sequence(-20, 80)), T(-9));
  dp::field<2, T> s1 = s0.clone();
  dp::scan<0>(g, std::plus<>(), s0, [](T x) { return x; }, a);
  dp::scan<1>(g, [](T x, T y) { return x > y ? x : y; }, s1, [](dp::index<2> i, T x) { return x - T(i[1] % 2); }, a);
  std::printf("scan %s %s: %lu %lu\n", name, g.to_string().c_str(), checksum(s0), checksum(s1));
}

void scans_3d(const dp::grid<3> &g) {
  dp::field<3, int> a = pattern3<int>(g, 17);
  dp::field<3, int> s0(g), s1(g), s2(g);
  dp::scan<0>(g, std::plus<>(), s0, [](int x) { return x; }, a);
  dp::scan<1>(g, std::plus<>(), s1, [](int x) { return x; }, a);
  dp::scan<2>(g, std::plus<>(), s2, [](int x) { return x; }, a);
  std::printf("scan 3d %s: %lu %lu %lu\n", g.to_string().c_str(), checksum(s0), checksum(s1), checksum(s2));
}

void scan_1d(std::int64_t n) {
  const dp::grid<1> g(n);
  dp::field<1, long> a = pattern1<long>(g, 19), s(g);
  dp::scan<0>(g, std::plus<>(), s, [](long x) { return x; }, a);
  std::printf("scan 1d %ld: %lu\n", long(n), checksum(s));
}

// sort<Dim>: natural orders (radix sort on a GPU) and a custom comparator
// (merge sort), in place over sub-grids.
template <class T> void sorts(const dp::grid<2> &g, const char *name) {
  dp::field<2, T> up = pattern2<T>(dp::grid<2>(dp::arithmetic_sequence(-20, 80), dp::arithmetic_sequence(-20, 80)), 23);
  dp::field<2, T> down = up.clone();
  dp::sort<1>(g, [](T a, T b) { return a < b; }, up);
  dp::sort<0>(g, std::greater<>(), down);
  std::printf("sort %s %s: %lu %lu\n", name, g.to_string().c_str(), checksum(up), checksum(down));
}

void sort_3d(const dp::grid<3> &g) {
  dp::field<3, int> f = pattern3<int>(g, 29);
  dp::sort<0>(g, [](int a, int b) { return a < b; }, f);
  dp::sort<2>(g, [](const int &a, const int &b) { return a % 5 < b % 5 || (a % 5 == b % 5 && a < b); }, f);
  std::printf("sort 3d %s: %lu\n", g.to_string().c_str(), checksum(f));
}

void sort_structs(std::int64_t n) {
  const dp::grid<1> g(n);
  dp::field<1, item> items(g);
  dp::forall(g, [](dp::index<1> i, item &it) { it = item{int((i[0] * 7) % 5), int(i[0] % 3)}; }, items);
  dp::sort<0>(g, by_key_then_tag{}, items);
  std::printf("sort items %ld: %lu\n", long(n), checksum(items));
}

// An argsort: a permutation sorted by keys held in another field, passed
// whole to the comparator.
void argsort(std::int64_t n) {
  const dp::grid<1> g(n);
  dp::field<1, int> keys = pattern1<int>(g, 31), perm(g);
  dp::forall(g, [](dp::index<1> i, int &p) { p = int(i[0]); }, perm);
  dp::sort<0>(g, [](int a, int b, const dp::field<1, int> &k) { return k(a) < k(b) || (k(a) == k(b) && a < b); },
              perm, dp::read_only(keys));
  std::printf("argsort %ld: %lu\n", long(n), checksum(perm));
}

int main() {
  for (std::int64_t n : {0, 1, 7, 9, 33}) {
    const dp::grid<2> g(n, 5);
    full_reductions<int>(g, "int");
    full_reductions<float>(g, "float");
    full_reductions<double>(g, "double");
    reductions_with_functions(dp::grid<1>(n * 7));
  }
  const dp::grid<2> strided(dp::arithmetic_sequence(30, -10, -3), dp::arithmetic_sequence(-5, 40, 2));
  full_reductions<int>(strided, "int");

  const dp::grid<3> shapes[] = {
      dp::grid<3>(2, 3, 5),
      dp::grid<3>(1, 9, 1),
      dp::grid<3>(0, 4, 4),
      dp::grid<3>(17, 3, 9),
      dp::grid<3>(dp::arithmetic_sequence(10, 0, -2), dp::arithmetic_sequence(-3, 4), dp::arithmetic_sequence(1, 40, 3)),
  };
  for (const dp::grid<3> &g : shapes) {
    pencil_reductions<int>(g, "int");
    pencil_reductions<double>(g, "double");
    scans_3d(g);
    sort_3d(g);
  }
  rank4(dp::grid<4>(3, 4, 6, 40));
  rank4(dp::grid<4>(2, 3, 7, 5));
  rank4(dp::grid<4>(8, 3, 4, 40));
  pencil_groups(40, 2);
  pencil_groups(50, 5);
  matmul(7, 9, 11);
  matmul(1, 40, 3);

  const dp::grid<2> planes[] = {
      dp::grid<2>(1, 1),
      dp::grid<2>(9, 33),
      dp::grid<2>(40, 3),
      dp::grid<2>(dp::arithmetic_sequence(50, -10, -3), dp::arithmetic_sequence(-20, 79, 4)),
  };
  for (const dp::grid<2> &g : planes) {
    scans<int>(g, "int");
    scans<float>(g, "float");
    sorts<int>(g, "int");
    sorts<double>(g, "double");
  }
  for (std::int64_t n : {0, 1, 5, 300})
    scan_1d(n);
  for (std::int64_t n : {0, 1, 2, 17, 1000}) {
    sort_structs(n);
    argsort(n);
  }
  return 0;
}
