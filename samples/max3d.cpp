// The largest value of a 3-d field, and where it is: a full reduce whose
// map function pairs each value with its index (the implicit index), folded
// by an operator that keeps the larger pair.
#include <dp/dp.hpp>

#include <cstdint>

#include "check.hpp"

/// A value and the flat position it came from.
struct located {
  double value;
  std::int64_t at;
};

int main() {
  const dp::grid<3> g(40, 50, 60);
  dp::field<3, double> temperature(g);
  dp::forall(g, [](dp::index<3> i, double &t) {
    const double x = double(i[0] - 21), y = double(i[1] - 17), z = double(i[2] - 44);
    t = 100.0 - 0.01 * (x * x + 2 * y * y + 3 * z * z);
  }, temperature);

  dp::scalar<located> hottest(located{-1e300, -1});
  dp::reduce(g, [](located a, located b) { return a.value > b.value || (a.value == b.value && a.at < b.at) ? a : b; },
             hottest,
             [](dp::index<3> i, double t) { return located{t, (i[0] * 50 + i[1]) * 60 + i[2]}; },
             temperature);

  located ref{-1e300, -1};
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 50; ++j)
      for (int k = 0; k < 60; ++k)
        if (temperature(i, j, k) > ref.value)
          ref = located{temperature(i, j, k), (std::int64_t(i) * 50 + j) * 60 + k};
  const std::int64_t at = hottest.get().at;
  std::printf("hottest %g at (%ld, %ld, %ld)\n", hottest.get().value, long(at / 3000),
              long(at / 60 % 50), long(at % 60));
  return report("max3d", at == ref.at && hottest.get().value == ref.value ? 0 : 1, 0);
}
