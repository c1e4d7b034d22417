// Two sources named k.cpp, translated in separate runs and linked into one
// program: each must keep its own stub (here: set every element to 2).
#include <dp/dp.hpp>

static void kernel(int &x) { x = 2; }

int run_b() {
  dp::field<1, int> f(dp::grid<1>(100));
  dp::forall(f.get_grid(), kernel, f);
  int sum = 0;
  for (int i = 0; i < 100; ++i)
    sum += f(i);
  return sum;
}
