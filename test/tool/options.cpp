// Execution options at every call-site kind and domain kind: the options
// argument is passed to the launcher first, shown in the stub's comment
// and in --list, and the rewritten source translates again unchanged.
#include <dp/dp.hpp>

#include <functional>

void run(dp::field<1, float> &v, dp::field<2, float> &m, bool big) {
  dp::queue q;
  dp::forall(dp::on(q).when(big).group_size(128), v.get_grid(), [](float &x) { x = 1; }, v);
// REWRITE:   dpstub::options_cpp::forall_10_3(dp::on(q).when(big).group_size(128), v.get_grid(), [] DP_HOST_DEVICE (float &x) { x = 1; }, v);
// STUB: //   options:      dp::on(q).when(big).group_size(128) (queue, when, group shape: the launcher passes them to the runtime)
// STUB: void forall_10_3(const dp::exec_options &options, const Domain &domain, Kernel &&kernel, A &&...a) {
// STUB:   dp::rt::launch_context<1> launch(options, "dp::forall", "options.cpp:10:3", domain);
// LIST:     "options": "dp::on(q).when(big).group_size(128)",
  dp::scalar<float> s(0);
  dp::reduce(dp::max_groups(8).on(q), dp::where(v.get_grid(), [](dp::index<1> i) { return i[0] > 2; }),
             std::plus<>(), s, [](float x) { return x; }, v);
// STUB: //   options:      dp::max_groups(8).on(q) (queue, when, group shape: the launcher passes them to the runtime)
// STUB: void reduce_17_3(const dp::exec_options &options, const Domain &domain, Op &&op, Result &result, Kernel &&kernel, A &&...a) {
// LIST:     "options": "dp::max_groups(8).on(q)",
  dp::field<1, float> rows(dp::grid<1>(m.get_extent(0)));
  dp::reduce<1>(dp::group_size(16, 16), m.get_grid(), std::plus<>(), rows, [](float x) { return x; }, m);
// STUB: //   options:      dp::group_size(16, 16) (queue, when, group shape: the launcher passes them to the runtime)
// LIST:     "options": "dp::group_size(16, 16)",
  dp::field<2, float> pre(m.get_grid());
  dp::scan<0>(dp::when(false), m.get_grid(), std::plus<>(), pre, [](float x) { return x; }, m);
// STUB: //   options:      dp::when(false) (queue, when, group shape: the launcher passes them to the runtime)
// LIST:     "options": "dp::when(false)",
  dp::sort<1>(dp::on(q), m.get_grid(), std::less<>(), m);
// STUB: void sort_[[@LINE-1]]_3(const dp::exec_options &options, const Domain &domain, Kernel &&kernel, Field &sort_field, A &&...a) {
  dp::forall(dp::on(q), dp::tile<8, 8>(m.get_grid()), [](dp::index<2> t, float &x) { x = float(t[0]); },
             dp::_tile_index, m);
// STUB: void forall_[[@LINE-2]]_3(const dp::exec_options &options, const Domain &domain, Kernel &&kernel, A &&...a) {
  dp::forall(dp::on(q), dp::lower_triangle(m.get_extent(0)), [](float &x) { x = 0; }, m);
  q.wait();
}
