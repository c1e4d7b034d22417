// Every conversion (docs/conversions.md) as the stub renders it.
#include <dp/dp.hpp>

void sum_rows(double &c, const dp::field<1, double> &a) {
  double s = 0;
  for (std::int64_t k = 0; k < a.get_extent(0); ++k)
    s += a(k);
  c = s;
}

void fill_column(dp::index<1> k, dp::field<1, int> &column) {
  for (std::int64_t r = 0; r < column.get_extent(0); ++r)
    column(r) = int(k[0] + r);
}

void inner(float &c, const dp::field<1, float> &a, const dp::field<1, float> &b) {
  float s = 0;
  for (std::int64_t k = 0; k < a.get_extent(0); ++k)
    s += a(k) * b(k);
  c = s;
}

void run(dp::field<2, double> &A, dp::field<1, double> &C, dp::field<2, int> &M,
         dp::field<2, float> &X, dp::field<2, float> &Y, dp::field<2, float> &Z) {
  dp::forall(C.get_grid(), sum_rows, C, A);
// STUB: //   argument 2 `A` (dp::field<2, double>, rank 2) -> const dp::field<1, double> &a: partial projection, read-only (const double *__restrict__)
// STUB:   dp::rt::partial_projection<1, const double, 1> a1; // `A`: partial projection, read-only (const double *__restrict__)
// STUB:   const dp::field<1, double> v1 = dp::rt::formal_view(p.a1.view(pos));
// STUB:       launch.project_partial<1, const double>(a1, 1, dp::rt::access::read)};
  dp::forall(dp::grid<1>(4), fill_column, M);
// STUB: //   index:        the kernel's first parameter receives the logical index
// STUB: //   argument 1 `M` (dp::field<2, int>, rank 2) -> dp::field<1, int> &column: partial projection, read-write
// STUB:   dp::rt::index_values<1> indices; // position -> index value
// STUB:   dp::field<1, int> v0 = p.a0.view(pos);
// STUB:   ::fill_column(p.indices[pos], v0);
// STUB:       launch.project_partial<1, int>(a0, 0, dp::rt::access::write)};
  dp::forall(Z.get_grid(), inner, Z, dp::spread<2>(dp::transpose(X)), dp::spread<1>(Y));
// STUB: //   argument 2 `dp::spread<2>(dp::transpose(X))` (dp::field<3, float>, rank 3) -> const dp::field<1, float> &a: partial projection, read-only (const float *__restrict__)
// STUB: //   argument 3 `dp::spread<1>(Y)` (dp::field<3, float>, rank 3) -> const dp::field<1, float> &b: partial projection, read-only (const float *__restrict__)
// STUB:   static const dp::rt::stub_table<2, params_type> stubs{{[{][{]}}
// STUB:       nullptr,
// STUB:       &dp_forall__forall_conversions_cpp__[[@LINE-5]]<1, params_type>,
// STUB:       &dp_forall__forall_conversions_cpp__[[@LINE-6]]<2, params_type>, nullptr, nullptr, nullptr, nullptr,
// STUB:       &dp_forall__forall_conversions_cpp__[[@LINE-7]]<7, params_type>}};
  dp::forall(Z.get_grid(), [](dp::index<2> i, float &z, const dp::field<2, float> &x) { z = x(i[1], i[0]); },
             dp::_index, Z, dp::read_only(X));
// STUB: //   argument 1 `dp::_index` -> dp::index<2> i: special index (logical index), value
// STUB: //   argument 3 `dp::read_only(X)` (dp::field<2, const float>, rank 2) -> const dp::field<2, float> &x: broadcast field, read-only (const float *__restrict__)
// STUB:   dp::field<2, float> a2; // `dp::read_only(X)`: broadcast field, read-only (const float *__restrict__)
// STUB:   const dp::index<2> v0 = p.indices[pos];
// STUB:   dp::field<2, float> v2 = dp::rt::launch_handle<float>(p.a2, pos); // a handle on the launch's copy
// STUB:       launch.whole<float>(a2, 2, dp::rt::access::read)};
  dp::forall(dp::tile<1, 3, 2>(dp::grid<3>(2, 3, 4)), [](dp::index<3> t, dp::index<3> l) {}, dp::_tile_index,
             dp::_local_index);
// STUB:   const dp::index<3> v0 = at.tile;
// STUB:   const dp::index<3> v1 = at.local;
// STUB:       &dp_forall__forall_conversions_cpp__[[@LINE-4]]<3, params_type>,
// STUB:       &dp_forall__forall_conversions_cpp__[[@LINE-5]]<4, params_type>,
// STUB:       &dp_forall__forall_conversions_cpp__[[@LINE-6]]<5, params_type>,
// STUB:       &dp_forall__forall_conversions_cpp__[[@LINE-7]]<6, params_type>,
// STUB:       &dp_forall__forall_conversions_cpp__[[@LINE-8]]<7, params_type>}};
}

// An array of rows (dp::borrowed_rows::rows()): broadcast as it is, and
// moved by the launch (the caller's rows on the host, a table of rows in
// the device's copy there); read-only rows are only read.
void adjust(float **w, float *const *prev, int n, int m) {
  dp::borrowed_rows<float> dp_w(w, n, m);
  dp::borrowed_rows<const float> dp_prev(prev, n, m);
  dp::forall(dp::grid<2>(n, m), [](dp::index<2> ij, const dp::rows<float> &w, const dp::rows<const float> &prev) {
    w(ij[0], ij[1]) += prev[ij];
  }, dp_w.rows(), dp_prev.rows());
// STUB: //   argument 1 `dp_w.rows()` (dp::rows<float>, rank 0) -> const dp::rows<float> &w: broadcast scalar, rows read-write (moved where the launch runs)
// STUB: //   argument 2 `dp_prev.rows()` (dp::rows<const float>, rank 0) -> const dp::rows<const float> &prev: broadcast scalar, rows read-only (moved where the launch runs)
// STUB:   dp::rows<float> a0; // `dp_w.rows()`: broadcast scalar, rows read-write (moved where the launch runs)
// STUB:   const auto &v0 = p.a0;
// STUB:       launch.rows(a0, 0, dp::rt::access::write),
// STUB:       launch.rows(a1, 1, dp::rt::access::read)};
}
