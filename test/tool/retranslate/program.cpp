// A program that is translated, edited, and translated again.
#include <dp/dp.hpp>

#include <cstdio>

void scale(float &x, float s) { x *= s; }

int main() {
  dp::field<1, float> a(dp::grid<1>(100), 1.0f);
  dp::forall(a.get_grid(), scale, a, 2.0f);
  // EDIT: a new call-site goes here
  float sum = 0;
  for (int i = 0; i < 100; ++i)
    sum += a(i);
  std::printf("sum %g\n", sum);
}
