// Each misuse of reduce, scan or sort is an error at what it concerns; the
// host reference rejects the same programs at compile time.
// EXIT: 1
#include <dp/dp.hpp>

#include <functional>

struct point {
  int x, y;
};

void misuse(dp::field<2, int> &a, dp::field<1, int> &v, dp::field<1, float> &f,
            const dp::field<1, int> &frozen) {
  dp::field<1, int> out(dp::grid<1>(3));
  dp::reduce<5>(a.get_grid(), std::plus<>(), out, [](int x) { return x; }, a);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:3: error: dp::reduce<5>: dimension 5 does not exist in a compute grid of rank 2
  dp::field<2, int> wrong_rank(dp::grid<2>(3, 4));
  dp::reduce<1>(a.get_grid(), std::plus<>(), wrong_rank, [](int x) { return x; }, a);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:46: error: dp::reduce<1>: the result must be a dp::field of rank 1 (the compute rank less the reduced dimension), not 'dp::field<2, int>'
  dp::reduce(a.get_grid(), std::plus<>(), out, [](int x) { return x; }, a);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:43: error: dp::reduce: dp::reduce without <Dim> reduces into a dp::scalar<T>, not 'dp::field<1, int>'; to reduce along dimension Dim into a field, write dp::reduce<Dim>
  dp::scalar<int> sum(0);
  dp::reduce(a.get_grid(), std::plus<>(), sum, [](int x) { return point{x, x}; }, a);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:48: error: dp::reduce: the map function returns 'point', which does not convert to the result's element type 'int'
  dp::reduce(a.get_grid(), [](point p, point q) { return p.x + q.x; }, sum, [](int x) { return x; }, a);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:28: error: the operator of dp::reduce must be callable as r(T, T) with T = 'int', the result's element type, but its parameter 1 is 'point'
  dp::reduce(a.get_grid(), [](int &p, int q) { return p + q; }, sum, [](int x) { return x; }, a);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:28: error: the operator of dp::reduce must be callable as r(T, T) with T = 'int', the result's element type, but its parameter 1 is a non-const reference; take it by value or const&
  dp::scan<0>(v.get_grid(), std::plus<>(), v, [](int x) { return x; }, v);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:72: error: dp::scan<0>: the result 'v' is also argument 1; the call would read values it is overwriting: read a clone()
  dp::scan<0>(v.get_grid(), std::plus<>(), frozen, [](int x) { return x; }, v);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:44: error: dp::scan<0>: the result 'frozen' is read-only; it must be writable
  dp::sort<0>(v.get_grid(), [](int &p, int &q) { return p < q; }, v);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:29: error: the comparator of dp::sort must be callable as cmp(const R &, const R &, extra...) and return bool, but it takes operand 1 ('int &') by non-const reference; take it by value or const&
  dp::sort<0>(v.get_grid(), [](int p, int q, float key) { return p < q; }, v, f);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:79: error: extra argument 1 ('f') has rank 1, but comparator parameter 'key' has rank 0: dp::sort passes extra arguments to the comparator whole, so the ranks must be equal
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-2]]:{{[0-9]+}}: note: kernel parameter declared here
  dp::sort<1>(v.get_grid(), std::less<>(), v);
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:3: error: dp::sort<1>: dimension 1 does not exist in a compute grid of rank 1
}

// A result also read through a view of it (the reference would abort at
// run time): refused where it is written.
void through_view(dp::field<2, float> &X, dp::field<1, float> &m) {
  dp::reduce<1>(X.get_grid(), std::plus<>(), m, [](float x, float mm) { return x * mm; }, X, dp::spread<1>(m));
// DIAG: reduce_scan_sort_diagnostics.cpp:[[@LINE-1]]:94: error: dp::reduce<1>: the result 'm' is also read through argument 2 (dp::spread<1>(m)); the call would read values it is overwriting: read a clone()
}
