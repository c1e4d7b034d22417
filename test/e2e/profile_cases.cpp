// DP_PROFILE end to end (run_profile.cmake reads this file): each call-site
// marked "profiled: N" runs N times; under emulation f4 (3000 floats of
// 1) goes to the device once, the fields a and b (1000 floats each,
// value-initialised) do not (their zeros are set there), and b and f4
// come back once. A named queue's work shows on a track of its own.
// "launch: mode M, N groups" is what the emulated device must have planned:
// a rank-4 forall over a whole field runs as one direct launch over its
// 3000 elements (its contiguous dimensions folded into one), where the
// grid's own shape would take 3 launches.
#include <dp/dp.hpp>

#include <cstdio>
#include <functional>

int main() {
  const dp::grid<1> g(1000);
  dp::field<1, float> a(g), b(g);
  dp::forall(g, [](dp::index<1> i, float &x) { x = float(i[0] % 7); }, a); // profiled: 1
  for (int k = 0; k < 3; ++k)
    dp::forall(g, [](float &y, float x) { y = 2 * x; }, b, a); // profiled: 3
  dp::scalar<double> total(0.0);
  dp::reduce(g, std::plus<>(), total, [](float y) { return double(y); }, b); // profiled: 1
  dp::field<4, float> f4(dp::grid<4>(3, 4, 5, 50), 1.0f);
  dp::forall(f4.get_grid(), [](float &x) { x += 1; }, f4); // profiled: 1, launch: mode 1, 12 groups
  dp::queue q;
  dp::scalar<double> on_queue(0.0);
  dp::reduce(dp::on(q), g, std::plus<>(), on_queue, [](float x) { return double(x); }, a); // profiled: 1
  q.wait();
  std::printf("total %.1f, on a queue %.1f, b[999] %.1f, f4 %.1f\n", total.get(), on_queue.get(),
              b(999), f4(2, 3, 4, 49));
  return 0;
}
