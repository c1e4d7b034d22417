// c = a + b over a million elements, one kernel invocation per element.
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>

#include "check.hpp"

void vector_add(float &c, float a, float b) { c = a + b; }

int main() {
  const std::int64_t n = 1 << 20;
  const dp::grid<1> g(n);
  dp::field<1, float> a(g), b(g), c(g);
  for (std::int64_t i = 0; i < n; ++i)
    a(i) = float(i) * 0.5f, b(i) = float(n - i);

  dp::forall(g, vector_add, c, a, b);

  double err = 0;
  for (std::int64_t i = 0; i < n; ++i)
    err = std::max(err, double(std::fabs(c(i) - (float(i) * 0.5f + float(n - i)))));
  std::printf("c[0] = %g, c[n-1] = %g\n", c(0), c(n - 1));
  return report("vector_add", err, 0.0);
}
