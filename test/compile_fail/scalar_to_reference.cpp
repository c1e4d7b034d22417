// The tool rejects a scalar bound to a non-const reference; so does the
// reference, at compile time.
#include <dp/dp.hpp>
void bump(float &x, float &by) { x += by; }
int main() {
  dp::field<1, float> v(dp::grid<1>(4));
  float step = 1.0f;
  dp::forall(v.get_grid(), bump, v, step);
}
// EXPECT-ERROR: a scalar argument is broadcast to every point but bound to a non-const reference parameter
