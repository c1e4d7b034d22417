// dp::_tile gives the kernel a dp::tile_group of the compute rank.
#include <dp/dp.hpp>
int main() {
  dp::forall(dp::tile<4, 4>(dp::grid<2>(8, 8)), [](dp::tile_group<1>) {}, dp::_tile);
}
// EXPECT-ERROR: dp::_tile is bound to a kernel parameter that is not a dp::tile_group
