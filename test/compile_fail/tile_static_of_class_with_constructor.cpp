// No initializer runs for tile memory, so its type must not need one.
#include <dp/dp.hpp>
#include <string>
int main() {
  dp::forall(dp::tile<4>(dp::grid<1>(8)),
             [](const dp::tile_group<1> &t) { dp::tile_static<std::string> s(t); }, dp::_tile);
}
// EXPECT-ERROR: dp::tile_static<T>: T must be trivially constructible and destructible
