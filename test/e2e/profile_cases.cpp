// DP_PROFILE end to end (run_profile.cmake reads this file): each call-site
// marked "profiled: N" runs N times, and the fields a and b (1000 floats
// each) go to the device once each under emulation and b comes back once.
// A named queue's work shows on a track of its own.
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
  dp::queue q;
  dp::scalar<double> on_queue(0.0);
  dp::reduce(dp::on(q), g, std::plus<>(), on_queue, [](float x) { return double(x); }, a); // profiled: 1
  q.wait();
  std::printf("total %.1f, on a queue %.1f, b[999] %.1f\n", total.get(), on_queue.get(), b(999));
  return 0;
}
