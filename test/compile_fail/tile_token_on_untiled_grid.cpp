// A tile token needs a tiled domain: on a plain grid there is no tile.
#include <dp/dp.hpp>
int main() {
  dp::field<1, int> v(dp::grid<1>(8));
  dp::forall(dp::grid<1>(8), [](dp::index<1> t, int &x) { x = int(t[0]); }, dp::_tile_index, v);
}
// EXPECT-ERROR: dp::forall: dp::_tile, dp::_tile_index and dp::_local_index need a tiled domain
