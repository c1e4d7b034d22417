// The compute domain must be a grid.
#include <dp/dp.hpp>
int main() {
  dp::field<1, float> v(dp::grid<1>(4));
  dp::forall(v, [](float &x) { x = 0; }, v);
}
// EXPECT-ERROR: dp::forall: the compute domain must be a dp::grid<N>
