// An end-to-end program over tiled, dp::where and triangular domains: tiles
// of rank 1 to 4 that divide the grid exactly and that leave padding, tile
// memory shared through barriers, the tile tokens, filtered and triangular
// forall and full reduce. It prints checksums of every result: the
// untranslated build, the translated build run natively and the translated
// build run in dispatch emulation must print the same lines.
#include <dp/dp.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>

template <int N, class T> long checksum(const dp::field<N, T> &f) {
  long s = 0, k = 1;
  const T *p = f.data();
  for (std::int64_t i = 0; i < f.get_grid().size(); ++i, ++k)
    s += long(p[i]) * (k % 97 + 1);
  return s;
}

// A callee declaring tile memory: the stub sizes the tile's memory for it.
float tile_sum(const dp::tile_group<1> &t, float x) {
  dp::tile_static<float[8]> part(t);
  part[t.local()[0]] = t.in_domain() ? x : 0.0f;
  t.barrier();
  float s = 0;
  for (int k = 0; k < 8; ++k)
    s += part[k];
  t.barrier();
  return s;
}

/// Every element gets the sum of its tile (padding contributes nothing).
void tile_sums(int n) {
  dp::field<1, float> v{dp::grid<1>(n)}, out(dp::grid<1>(n), -1.0f);
  for (int i = 0; i < n; ++i)
    v(i) = float(i % 13);
  dp::forall(dp::tile<8>(v.get_grid()),
             [](const dp::tile_group<1> &t, const float &x, float &o) { o = tile_sum(t, x); },
             dp::_tile, v, out);
  std::printf("tile sums n=%d: %ld\n", n, checksum(out));
}

/// Transpose through a padded tile of memory (the classic T[8][9]).
void transpose(int n, int m) {
  dp::grid<2> g(n, m);
  dp::field<2, float> a(g), b(dp::grid<2>(m, n), -1.0f);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      a(i, j) = float(i * 100 + j);
  dp::forall(dp::tile<8, 8>(g),
             [](const dp::tile_group<2> &t, const float &x, dp::field<2, float> &out) {
               dp::tile_static<float[8][9]> s(t);
               const dp::index<2> l = t.local();
               s.get()[l[0]][l[1]] = x;
               t.barrier();
               const std::int64_t i = t.tile_origin()[0] + l[1], j = t.tile_origin()[1] + l[0];
               if (j < out.get_extent(0) && i < out.get_extent(1))
                 out(j, i) = s.get()[l[1]][l[0]];
             },
             dp::_tile, a, b);
  long bad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      bad += b(j, i) != a(i, j);
  std::printf("transpose %dx%d: bad=%ld sum=%ld\n", n, m, bad, checksum(b));
}

/// The tile tokens on rank 3: every point records its tile and local index.
void tokens3(int n0, int n1, int n2) {
  dp::field<3, int> f(dp::grid<3>(n0, n1, n2), 0);
  dp::forall(dp::tile<2, 3, 4>(f.get_grid()),
             [](dp::index<3> tile, dp::index<3> local, dp::index<3> i, int &v) {
               v = int(((tile[0] * 7 + tile[1]) * 5 + tile[2]) * 1000 +
                       (local[0] * 3 + local[1]) * 4 + local[2]) +
                   int(i[0] + i[1] + i[2]) % 3;
             },
             dp::_tile_index, dp::_local_index, dp::_index, f);
  std::printf("tokens %dx%dx%d: %ld\n", n0, n1, n2, checksum(f));
}

/// Rank 4 tiles, elemental arguments, broadcast scalar.
void rank4(int n) {
  dp::grid<4> g(n, 3, n + 1, 5);
  dp::field<4, long> f(g, 0);
  const long base = 17;
  dp::forall(dp::tile<2, 2, 2, 2>(g),
             [](const dp::tile_group<4> &t, long b, long &v) {
               const dp::index<4> l = t.local();
               v = b + t.tile()[0] * 11 + t.tile()[3] + l[0] + 2 * l[1] + 4 * l[2] + 8 * l[3];
             },
             dp::_tile, base, f);
  std::printf("rank4 n=%d: %ld\n", n, checksum(f));
}

// A callee folding a tile's neighbours through tile memory.
long neighbour_product(const dp::tile_group<2> &t, long x) {
  dp::tile_static<long[4][8]> row(t);
  const dp::index<2> l = t.local();
  row[l[0]][l[1]] = x; // 0 for a padding thread
  t.barrier();
  return x * (l[1] + 1 < 8 ? row[l[0]][l[1] + 1] : 3);
}

/// Full reduce over tiled grids of rank 1 to 4, exact and padded: a plain
/// map, tile memory through a callee, the tile tokens, a float sum.
void tiled_reduces(int n) {
  dp::field<1, int> v{dp::grid<1>(n * 7 + 3)};
  for (int i = 0; i < n * 7 + 3; ++i)
    v(i) = i % 17 - 8;
  dp::scalar<long> s1(11);
  dp::reduce(dp::tile<8>(v.get_grid()), std::plus<>(), s1, [](int x) { return long(x) * x; }, v);
  dp::scalar<int> top(-1000);
  dp::reduce(dp::tile<32>(v.get_grid()), [](int a, int b) { return a > b ? a : b; }, top,
             [](dp::index<1> i, int x) { return x * 3 + int(i[0] % 5); }, dp::_index, v);

  dp::grid<2> g2(n + 1, 2 * n + 5);
  dp::field<2, long> m(g2);
  for (int i = 0; i < n + 1; ++i)
    for (int j = 0; j < 2 * n + 5; ++j)
      m(i, j) = (i * 31 + j * 7) % 23 - 11;
  dp::scalar<long> s2(0);
  dp::reduce(dp::tile<4, 8>(g2), std::plus<>(), s2,
             [](const dp::tile_group<2> &t, const long &x) { return neighbour_product(t, x); },
             dp::_tile, m);

  dp::grid<3> g3(n, 3, n + 2);
  dp::scalar<long> s3(0);
  dp::reduce(dp::tile<2, 2, 4>(g3), std::plus<>(), s3,
             [](dp::index<3> tile, dp::index<3> local, dp::index<3> i) {
               return long((tile[0] * 3 + tile[1]) * 5 + tile[2]) * 1000 +
                      (local[0] * 2 + local[1]) * 4 + local[2] + i[0] * i[2];
             },
             dp::_tile_index, dp::_local_index, dp::_index);

  dp::grid<4> g4(n, 2, 3, n + 1);
  dp::field<4, long> w(g4);
  for (std::int64_t k = 0; k < g4.size(); ++k)
    w[g4.map_index(k)] = k % 29;
  dp::scalar<long> s4(1);
  dp::reduce(dp::tile<2, 2, 2, 2>(g4), std::plus<>(), s4,
             [](const dp::tile_group<4> &t, long x) {
               dp::tile_static<long> first(t);
               if (t.local() == dp::index<4>(0, 0, 0, 0))
                 first.get() = x;
               t.barrier();
               return x + first.get();
             },
             dp::_tile, w);

  dp::field<2, float> f(g2);
  for (int i = 0; i < n + 1; ++i)
    for (int j = 0; j < 2 * n + 5; ++j)
      f(i, j) = float((i + j) % 9) * 0.25f; // exact in float: every fold order agrees
  dp::scalar<float> sf(0.5f);
  dp::reduce(dp::tile<16, 16>(g2), std::plus<>(), sf, [](float x) { return x; }, f);

  // Whole tiles of whole warps (no padding): folded by warps, through a
  // kernel that uses tile memory and a barrier of its own first.
  const dp::grid<2> g5(8, 32 * n);
  dp::scalar<long> s5(2);
  dp::reduce(dp::tile<4, 16>(g5), std::plus<>(), s5,
             [](const dp::tile_group<2> &t, dp::index<2> i) {
               dp::tile_static<long> corner(t);
               if (t.local() == dp::index<2>(0, 0))
                 corner.get() = i[0] * 1000 + i[1];
               t.barrier();
               return long(t.local()[0] * 16 + t.local()[1]) * (i[0] + 1) + i[1] % 7 + corner.get();
             },
             dp::_tile, dp::_index);
  dp::field<1, int> u{dp::grid<1>(128 * n)};
  for (int i = 0; i < 128 * n; ++i)
    u(i) = (i * 37) % 1001 - 500;
  dp::scalar<int> top5(-1000);
  dp::reduce(dp::tile<128>(u.get_grid()), [](int a, int b) { return a > b ? a : b; }, top5,
             [](dp::index<1> local, int x) { return x + int(local[0] % 3); }, dp::_local_index, u);
  std::printf("tiled reduces n=%d: %ld %d %ld %ld %ld %.2f %ld %d\n", n, s1.get(), top.get(),
              s2.get(), s3.get(), s4.get(), double(sf.get()), s5.get(), top5.get());
}

/// Kernels that take no tile token cannot tell their tile, yet their
/// padding threads run as on a GPU: here they mark their index values in a
/// broadcast field as wide as the padded grid, and a reduce counts them.
void tile_blind(int n) {
  const dp::grid<2> g(n, 2 * n + 1);
  const std::int64_t padded0 = (n + 3) / 4 * 4, padded1 = (2 * n + 1 + 7) / 8 * 8;
  dp::field<2, int> seen(dp::grid<2>(padded0, padded1), 0);
  dp::forall(dp::tile<4, 8>(g), [](dp::index<2> i, dp::field<2, int> &s) { s[i] += 1; },
             dp::_index, seen);
  dp::field<1, int> v{dp::grid<1>(n * 5 + 2)};
  for (int i = 0; i < n * 5 + 2; ++i)
    v(i) = i % 11 - 5;
  dp::scalar<long> s(3);
  dp::reduce(dp::tile<16>(v.get_grid()), std::plus<>(), s,
             [](dp::index<1> i, int x) { return long(x) * (i[0] % 4 + 1); }, dp::_index, v);
  std::printf("tile-blind n=%d: %ld %ld\n", n, checksum(seen), s.get());

  // A strided interior of a bigger rank-3 field: its projection steps by two
  // along a row (the host's rows take plain positions), the forall writes
  // each in-domain point once and the padding threads write nothing.
  dp::field<3, int> big(dp::grid<3>(n + 2, 3, 2 * n + 9), -1);
  const dp::grid<3> inner(dp::arithmetic_sequence(1, n + 1), dp::arithmetic_sequence(3),
                          dp::arithmetic_sequence(1, 2 * n + 9, 2));
  dp::forall(dp::tile<2, 2, 4>(inner),
             [](int &x, dp::index<3> i) { x = int(i[0] * 100 + i[1] * 10 + i[2]); }, big, dp::_index);
  dp::scalar<long> sb(5);
  dp::reduce(dp::tile<1, 2, 8>(inner), std::plus<>(), sb, [](int x) { return long(x) * 3; }, big);
  std::printf("tile-blind strided n=%d: %ld %ld\n", n, checksum(big), sb.get());
}

/// Filtered forall and reduce.
void where_cases(int n) {
  dp::field<2, int> c(dp::grid<2>(n, n), 0);
  dp::forall(dp::where(c.get_grid(), [](dp::index<2> i) { return (i[0] * 3 + i[1]) % 4 == 1; }),
             [](dp::index<2> i, int &x) { x = int(i[0] - i[1]); }, dp::_index, c);
  dp::scalar<long> s(5);
  dp::reduce(dp::where(dp::grid<1>(n * 10), [](dp::index<1> i) { return i[0] % 3 == 0; }),
             std::plus<>(), s, [](dp::index<1> i) { return long(i[0]); }, dp::_index);
  std::printf("where n=%d: %ld %ld\n", n, checksum(c), s.get());
}

/// Lower and upper triangles: forall writing the pairs, reduce counting
/// pairwise products.
void triangles(int n) {
  dp::field<2, int> d(dp::grid<2>(n, n), 0);
  dp::forall(dp::lower_triangle(n), [](dp::index<2> i, int &x) { x = 1 + int(i[0] - i[1]); },
             dp::_index, d);
  dp::field<1, long> v{dp::grid<1>(n)};
  for (int i = 0; i < n; ++i)
    v(i) = i % 7 - 3;
  dp::scalar<long> pairs(0);
  dp::reduce(dp::upper_triangle(n), std::plus<>(), pairs,
             [](dp::index<2> i, const dp::field<1, long> &w) { return w(i[0]) * w(i[1]); },
             dp::_index, v);
  std::printf("triangles n=%d: %ld %ld\n", n, checksum(d), pairs.get());
}

int main() {
  for (int n : {1, 8, 37, 64})
    tile_sums(n);
  transpose(37, 50);
  transpose(16, 24);
  tokens3(4, 6, 8);
  tokens3(5, 7, 3);
  tokens3(12, 15, 160); // 6 x 5 x 40 tiles and 3 x 7 x 40: the emulated
  tokens3(6, 21, 160);  // limits force the partially direct modes
  rank4(2);
  rank4(3);
  for (int n : {1, 9, 40})
    where_cases(n);
  for (int n : {1, 6, 33})
    tile_blind(n);
  for (int n : {1, 4, 13, 60})
    tiled_reduces(n);
  for (int n : {1, 2, 33, 200})
    triangles(n);
}
