#include <dp/dp.hpp>

#include <cstdio>

#include "helper.hpp"

int from_a();
int from_b();

int main() {
  dp::field<1, int> f(dp::grid<1>(10));
  dp::forall(f.get_grid(), [](dp::index<1> i, int &x) { x = scale() * int(i[0]); }, f);
  int sum = 0;
  for (int i = 0; i < 10; ++i)
    sum += f(i);
  std::printf("sum %d a %d b %d\n", sum, from_a(), from_b());
}
