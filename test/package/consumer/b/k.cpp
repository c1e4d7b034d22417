// Same file name in two folders: each keeps its own stub.
#include <dp/dp.hpp>

static void kernel(int &x) { x = 2; }

int from_b() {
  dp::field<1, int> f(dp::grid<1>(4));
  dp::forall(f.get_grid(), kernel, f);
  return f(0) + f(1) + f(2) + f(3);
}
