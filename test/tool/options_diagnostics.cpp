// Execution options dpstub can judge from constants are errors at the
// hint that is wrong; the runtime says the same at run time where the
// value is known only then (e2e/queue_cases.cpp).
// EXIT: 1
#include <dp/dp.hpp>

#include <functional>

void hints(dp::field<1, float> &v, dp::field<2, float> &m, int n) {
  dp::queue q;
  dp::forall(dp::group_size(64, 32), v.get_grid(), [](float &x) { x = 1; }, v);
// DIAG: options_diagnostics.cpp:[[@LINE-1]]:14: error: dp::group_size(64, 32, 1) asks for 2048 threads per group; no device takes more than 1024
  dp::forall(dp::on(q).group_size(2048), v.get_grid(), [](float &x) { x = 1; }, v);
// DIAG: options_diagnostics.cpp:[[@LINE-1]]:24: error: dp::group_size(2048, 1, 1) asks for 2048 threads per group; no device takes more than 1024
  dp::forall(dp::group_size(0), v.get_grid(), [](float &x) { x = 1; }, v);
// DIAG: options_diagnostics.cpp:[[@LINE-1]]:14: error: dp::group_size(0, 1, 1): every extent of a group must be at least 1
  dp::forall(dp::on(q).group_size(8, 8), dp::tile<16, 16>(m.get_grid()),
             [](dp::index<2> t, float &x) { x = float(t[0]); }, dp::_tile_index, m);
// DIAG: options_diagnostics.cpp:[[@LINE-2]]:24: error: dp::group_size on a tiled domain: its group is its tile (dp::tile<16, 16>), so a group shape of its own conflicts with it
  dp::scalar<float> s(0);
  dp::reduce(dp::max_groups(0), v.get_grid(), std::plus<>(), s, [](float x) { return x; }, v);
// DIAG: options_diagnostics.cpp:[[@LINE-1]]:14: error: .max_groups(0): a launch needs at least one group
  dp::field<2, float> out(m.get_grid());
  dp::scan<1>(dp::group_size(1024).max_groups(-3), m.get_grid(), std::plus<>(), out,
              [](float x) { return x; }, m);
// DIAG: options_diagnostics.cpp:[[@LINE-2]]:36: error: .max_groups(-3): a launch needs at least one group
  // Fine: at the limit, and values known only at run time.
  dp::forall(dp::group_size(32, 32).max_groups(1), v.get_grid(), [](float &x) { x = 1; }, v);
  dp::sort<1>(dp::group_size(n).max_groups(n), m.get_grid(), std::less<>(), m);
}
