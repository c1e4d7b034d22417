#include <dp/dp.hpp>

#include <cstdio>

#include "kern.h"

int main() {
  dp::field<1, int> f(dp::grid<1>(4));
  dp::forall(f.get_grid(), [](int &x) { x = scale(); }, f);
  std::printf("scale %d\n", f(3));
}
