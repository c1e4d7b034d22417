// Same file name in two folders: each keeps its own stub.
#include <dp/dp.hpp>

static void kernel(int &x) { x = 1; }

int from_a() {
  dp::field<1, int> f(dp::grid<1>(4));
  dp::forall(f.get_grid(), kernel, f);
  return f(0) + f(1) + f(2) + f(3);
}
