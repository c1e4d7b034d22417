// r must combine two values of the result's type.
#include <dp/dp.hpp>
struct point { int x, y; };
int main() {
  dp::field<1, int> a(dp::grid<1>(3));
  dp::scalar<int> sum(0);
  dp::reduce(a.get_grid(), [](point p, point q) { return p.x + q.x; }, sum, [](int x) { return x; }, a);
}
// EXPECT-ERROR: dp::reduce: r must be callable as r(T, T)
