// User indexable types: read elementally or whole in stubs (copied by
// value to the device); partial projection of them stays on the host.
#include <dp/dp.hpp>

struct diagonal {
  static constexpr int rank = 2;
  double scale;
  double operator[](const dp::index<2> &i) const { return i[0] == i[1] ? scale : 0.0; }
// REWRITE: DP_HOST_DEVICE double operator[](const dp::index<2> &i) const { return i[0] == i[1] ? scale : 0.0; }
};

void run(dp::field<2, double> &out, dp::field<1, double> &col) {
  dp::forall(out.get_grid(), [](double &o, double d) { o = d; }, out, diagonal{2.0});
  dp::forall(col.get_grid(),
             [](double &t, const dp::partial_view<diagonal, 1, 1> &c) { t = c[dp::index<1>(0)]; },
             col, diagonal{1.0});
// DIAG: forall_user_types.cpp:[[@LINE-1]]:19: warning: dp::forall call-site left untouched: partial projection of a user indexable type is not supported in stubs
}

// STUB: //   argument 2 `diagonal{2.0}` (diagonal, rank 2) -> double d: elemental projection, read-only
// STUB:   diagonal a1; // `diagonal{2.0}`: elemental projection, read-only
// STUB:   const auto &v1 = p.a1[p.indices[pos]];
// STUB:       a1};
