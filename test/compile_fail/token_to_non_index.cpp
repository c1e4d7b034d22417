// An index token must reach a dp::index of the compute rank.
#include <dp/dp.hpp>
int main() {
  dp::field<1, float> v(dp::grid<1>(4));
  dp::forall(v.get_grid(), [](dp::index<2>, float &x) { x = 0; }, dp::_index, v);
}
// EXPECT-ERROR: an index token (dp::_index, dp::_tile_index, dp::_local_index) is bound to a kernel parameter that is not a dp::index of the compute rank
