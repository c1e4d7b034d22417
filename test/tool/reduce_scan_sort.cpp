// reduce, reduce<Dim>, scan<Dim> and sort<Dim>: the rewrite, the stub and
// the --list report of each.
#include <dp/dp.hpp>

#include <functional>

int larger(int a, int b) { return a > b ? a : b; }
// REWRITE: DP_HOST_DEVICE int larger(int a, int b) { return a > b ? a : b; }

struct by_magnitude {
  bool operator()(int a, int b) const { return (a < 0 ? -a : a) < (b < 0 ? -b : b); }
// REWRITE: DP_HOST_DEVICE bool operator()(int a, int b) const { return (a < 0 ? -a : a) < (b < 0 ? -b : b); }
};

void run(dp::field<2, float> &A, dp::field<2, float> &B, dp::field<2, float> &C,
         dp::field<1, int> &v, dp::field<1, int> &perm, dp::field<2, int> &m) {
  dp::scalar<float> dot(0.0f);
  dp::reduce(A.get_grid(), std::plus<>(), dot, [](float a, float b) { return a * b; }, A, B);
// REWRITE: dpstub::reduce_scan_sort_cpp::reduce_[[@LINE-1]]_3(A.get_grid(), std::plus<>(), dot, [] DP_HOST_DEVICE (float a, float b) { return a * b; }, A, B);
// The full reduce: a map function fused into the vendor's reduction.
// STUB: // dp::reduce at reduce_scan_sort.cpp:[[@LINE-3]]:3
// STUB: //   map:          float lambda(float a, float b) [lambda]
// STUB: //   operator:     std::plus<>() [function object]
// STUB: //   result:       `dot` (dp::scalar<float>), combined with its prior value
// STUB: //   compute rank: 2
// STUB: // Pos: a dp::index<2>; on the host's rows where every elemental
// STUB: // projection steps by one element and every whole field is dense, a
// STUB: // dp::detail::unit_row_index<2>.
// STUB: template <class Pos, class Params>
// STUB: DP_HOST_DEVICE DP_INLINE auto reduce_[[@LINE-12]]_3_body(const Pos &pos, const Params &p) {
// STUB:   return p.kernel(v0, v1);
// STUB: template <class Params> struct reduce_[[@LINE-14]]_3_map {
// STUB:   template <class Pos> DP_HOST_DEVICE DP_INLINE auto operator()(const Pos &pos) const {
// STUB:     return reduce_[[@LINE-16]]_3_body(pos, p);
// STUB: void reduce_[[@LINE-17]]_3(const Domain &domain, Op &&op, Result &result, Kernel &&kernel, A &&...a) {
// STUB:   launch.reduce(result, launch.capture(op, false), reduce_[[@LINE-18]]_3_map<params_type>{params});
  dp::scalar<int> top(0);
  dp::reduce(v.get_grid(), larger, top, [](int x) { return x; }, v);
// A function as the operator is called by name on the device. A map
// reading one argument's element alone says so: over a dense row the
// vendor loads the elements from their pointer.
// STUB: // dp::reduce at reduce_scan_sort.cpp:[[@LINE-4]]:3
// STUB: //   operator:     larger [function]
// STUB:   DP_HOST_DEVICE const auto &elements() const { return p.a0; }
// STUB:   static constexpr bool returns_its_element = true;
// STUB: struct reduce_[[@LINE-8]]_3_op {
// STUB:     return static_cast<T>(::larger(a, b));
// STUB:   launch.reduce(result, reduce_[[@LINE-10]]_3_op(), reduce_[[@LINE-10]]_3_map<params_type>{params});
  dp::reduce<2>(dp::grid<3>(4, 5, 6), std::plus<>(), C, [](float a, float b) { return a * b; },
                dp::spread<1>(A), dp::spread<0>(dp::transpose(B)));
// REWRITE: dpstub::reduce_scan_sort_cpp::reduce_[[@LINE-2]]_3<2>(dp::grid<3>(4, 5, 6), std::plus<>(), C, [] DP_HOST_DEVICE (float a, float b) { return a * b; },
// reduce<Dim>: the result is indexed by the index values less Dim.
// STUB: // dp::reduce<2> at reduce_scan_sort.cpp:[[@LINE-4]]:3
// STUB: //   result:       `C` (dp::field<2, float>), indexed by the index values less dimension 2
// STUB: template <int Dim, class Domain, class Op, class Result, class Kernel, class... A>
// STUB:   static_assert(Dim == 2 && sizeof...(A) == 2,
// STUB:   launch.reduce_pencils<Dim>(result, launch.capture(op, false), reduce_[[@LINE-8]]_3_map<params_type>{params});
  dp::scan<1>(m.get_grid(), [](int a, int b) { return a + b; }, m, [](dp::index<2> i) { return int(i[1]); });
// REWRITE: dpstub::reduce_scan_sort_cpp::scan_[[@LINE-1]]_3<1>(m.get_grid(), [] DP_HOST_DEVICE (int a, int b) { return a + b; }, m, [] DP_HOST_DEVICE (dp::index<2> i) { return int(i[1]); });
// scan<Dim> with the implicit index and no other argument.
// STUB: // dp::scan<1> at reduce_scan_sort.cpp:[[@LINE-3]]:3
// STUB: //   index:        the kernel's first parameter receives the logical index
// STUB:   return p.kernel(p.indices[pos]);
// STUB:   launch.scan<Dim>(result, launch.capture(op, false), scan_[[@LINE-6]]_3_map<params_type>{params});
  dp::scan<1>(A.get_grid(), std::plus<>(), C, [](float x) { return 2 * x; }, A);
// A scan along the last dimension reading one argument's element alone
// says so: over dense rows the vendor scans from the elements' pointer.
// STUB: // dp::scan<1> at reduce_scan_sort.cpp:[[@LINE-3]]:3
// STUB:   DP_HOST_DEVICE const auto &elements() const { return p.a0; }
// STUB-NOT: returns_its_element
// STUB:   launch.scan<Dim>(result, launch.capture(op, false), scan_[[@LINE-6]]_3_map<params_type>{params});
  dp::scan<0>(A.get_grid(), std::plus<>(), C, [](float x) { return 2 * x; }, A);
// Across the rows too: over dense rows the chained scan loads neighbouring
// pencils' elements as one vector from their pointer.
// STUB: // dp::scan<0> at reduce_scan_sort.cpp:[[@LINE-3]]:3
// STUB:   DP_HOST_DEVICE const auto &elements() const { return p.a0; }
// STUB:   launch.scan<Dim>(result, launch.capture(op, false), scan_[[@LINE-5]]_3_map<params_type>{params});
  dp::reduce<1>(A.get_grid(), std::plus<>(), v, [](float x) { return 2 * x; }, A);
// A reduce<Dim> says so too: the vendor's segmented reduce or the tiled
// kernel's vectors then load the elements from their pointer.
// STUB: // dp::reduce<1> at reduce_scan_sort.cpp:[[@LINE-3]]:3
// STUB:   DP_HOST_DEVICE const auto &elements() const { return p.a0; }
// STUB:   launch.reduce_pencils<Dim>(result, launch.capture(op, false), reduce_[[@LINE-5]]_3_map<params_type>{params});
  dp::reduce(v.get_grid(), std::plus<>(), top, [](const auto &x) { return x; }, v);
// A generic map returning what it takes hands its element on as well.
// STUB: // dp::reduce at reduce_scan_sort.cpp:[[@LINE-2]]:3
// STUB:   static constexpr bool returns_its_element = true;
// STUB:   launch.reduce(result, launch.capture(op, false), reduce_[[@LINE-4]]_3_map<params_type>{params});
  dp::reduce(A.get_grid(), std::plus<>(), top, [](int x) { return x; }, A);
// A parameter that converts the element (float to int) does not.
// STUB: // dp::reduce at reduce_scan_sort.cpp:[[@LINE-2]]:3
// STUB-NOT: returns_its_element
// STUB:   launch.reduce(result, launch.capture(op, false), reduce_[[@LINE-4]]_3_map<params_type>{params});
  dp::sort<0>(v.get_grid(), std::greater<>(), v);
// sort<Dim>: a natural order sorts by radix on a GPU, a comparator by merge.
// STUB: // dp::sort<0> at reduce_scan_sort.cpp:[[@LINE-2]]:3
// STUB: //   sort field:   `v` (dp::field<1, int>), radix sort, descending (the natural order) on a GPU
// STUB:   launch.sort<Dim>(sort_field, sort_[[@LINE-4]]_3_less<params_type>{params}, dp::rt::sort_order::descending);
  dp::sort<0>(v.get_grid(), by_magnitude{}, v);
// STUB: // dp::sort<0> at reduce_scan_sort.cpp:[[@LINE-1]]:3
// STUB: //   sort field:   `v` (dp::field<1, int>), merge sort with the comparator on a GPU
// STUB:   launch.sort<Dim>(sort_field, sort_[[@LINE-3]]_3_less<params_type>{params}, dp::rt::sort_order::custom);
  dp::sort<0>(perm.get_grid(), [](int a, int b, const dp::field<1, int> &key) { return key(a) < key(b); },
              perm, dp::read_only(v));
// An argsort: the keys reach the comparator whole.
// STUB: // dp::sort<0> at reduce_scan_sort.cpp:[[@LINE-3]]:3
// STUB: //   comparator:   bool lambda(int a, int b, const dp::field<1, int> &key) [lambda]
// STUB: //   argument 1 `dp::read_only(v)` (dp::field<1, const int>, rank 1) -> const dp::field<1, int> &key: broadcast field, read-only (const int *__restrict__)
// STUB: template <class Params> struct sort_[[@LINE-6]]_3_less {
// STUB:   template <class R> DP_HOST_DEVICE bool operator()(const R &a, const R &b) const {
// STUB:     dp::field<1, int> v0 = dp::rt::launch_handle<int>(p.a0); // a handle on the launch's copy
// STUB:     return static_cast<bool>(p.kernel(a, b, v0));
}
// REWRITE: #include "reduce_scan_sort.cpp.dpstub.hpp" // dpstub: their invocation stubs







// LIST: "kind": "reduce",
// LIST: "kind": "reduce",
// LIST: "kind": "reduce",
// LIST-NEXT: "dim": 2,
// LIST: "operator": {
// LIST-NEXT: "text": "std::plus<>()",
// LIST: "result": {
// LIST-NEXT: "text": "C",
// LIST-NEXT: "type": "dp::field<2, float>",
// LIST-NEXT: "rank": 2
// LIST: "kind": "scan",
// LIST-NEXT: "dim": 1,
// LIST: "kind": "sort",
// LIST: "order": "descending",
// LIST: "kind": "sort",
// LIST: "order": "custom",
