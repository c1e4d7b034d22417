// Execution controls end to end: every call-site kind on named queues and
// with hints, the dependency rule across queues in both directions (a
// launch reading what another queue's pending launch writes waits for it;
// one writing what another queue's pending launch reads waits for it too),
// when(), bad hints, and errors. The producers are heavy, so that a missing
// dependency shows as a wrong result rather than by chance. Every run
// (untranslated, translated natively, on the emulated device under limits
// that force several launches) prints the same lines.
#include <dp/dp.hpp>

#include "e2e_checks.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

namespace {

using e2e::checksum;

/// A value that takes a while to compute.
long slow(long x) { return e2e::slow(x, 400); }

/// A value dpstub cannot see: bad hints it would reject at translation
/// time reach the runtime.
std::int64_t at_run_time(std::int64_t v) {
  static volatile std::int64_t zero = 0;
  return v + zero;
}

std::string error_of(void (*f)()) {
  try {
    f();
  } catch (const dp::error &e) {
    const std::string what = e.what();
    // What every build says: the kind, and the problem after the site.
    const std::size_t colon = what.find(": ");
    // ("dp::forall at file:line: ..." untranslated, "dp::forall at
    // file:line:col: ..." translated)
    return what.substr(0, what.find_first_of(" :", 4)) + " ..." +
           (colon == std::string::npos ? what : what.substr(colon));
  }
  return "no error";
}

} // namespace

int main() {
  const std::int64_t n = 1 << 14;
  const dp::grid<1> g(n);

  // Read after write across queues, and write after read.
  {
    dp::queue producer, consumer;
    dp::field<1, long> a(g, 0), b(g, 0), c(g, 1);
    dp::forall(dp::on(producer), g, [](dp::index<1> i, long &o) { o = slow(i[0]); }, dp::_index, a);
    dp::forall(dp::on(consumer), g, [](long &o, long x) { o = x + 1; }, b, a); // waits for a
    dp::forall(dp::on(producer), g, [](long &o, long x) { o = slow(x); }, c, a); // reads a slowly
    dp::forall(dp::on(consumer), g, [](long &o) { o = -1; }, a); // must wait for c's reads of a
    consumer.wait();
    producer.wait();
    std::printf("queues: RAW %ld, WAR %ld, a %ld\n", checksum(b), checksum(c), checksum(a));
  }

  // Every kind on queues, with hints; results read on the host.
  {
    dp::queue q1, q2;
    dp::field<2, int> m(dp::grid<2>(37, 53));
    dp::forall(dp::on(q1).group_size(32, 4), m.get_grid(),
               [](dp::index<2> i, int &x) { x = int((i[0] * 7 + i[1] * 11) % 29); }, dp::_index, m);
    dp::scalar<long> sum(3);
    dp::reduce(dp::on(q2).max_groups(2), m.get_grid(), std::plus<>(), sum,
               [](int x) { return long(x); }, m);
    dp::field<1, int> rows(dp::grid<1>(37));
    dp::reduce<1>(dp::group_size(64).on(q1), m.get_grid(), std::plus<>(), rows,
                  [](int x) { return x; }, m);
    dp::field<2, int> pre(m.get_grid());
    dp::scan<0>(dp::on(q2).when(n > 100).max_groups(3), m.get_grid(), std::plus<>(), pre,
                [](int x) { return x; }, m);
    dp::field<2, int> sorted = m.clone();
    dp::sort<1>(dp::on(q1).when(false), sorted.get_grid(), [](int x, int y) { return x < y; }, sorted);
    dp::field<2, int> tiled(m.get_grid(), 0);
    dp::forall(dp::on(q2).max_groups(5), dp::tile<8, 8>(tiled.get_grid()),
               [](dp::index<2> t, int &x) { x = int(t[0] * 10 + t[1]); }, dp::_tile_index, tiled);
    dp::scalar<long> kept(0);
    dp::reduce(dp::on(q1), dp::where(m.get_grid(), [](dp::index<2> i) { return i[0] % 2 == 0; }),
               std::plus<>(), kept, [](int x) { return long(x); }, m);
    dp::wait_all();
    std::printf("kinds: %ld %ld %ld %ld %ld %ld %ld\n", sum.get(), checksum(rows), checksum(pre),
                checksum(sorted), checksum(tiled), kept.get(), checksum(m));
  }

  // when(false) runs on the host with the data kept coherent: a field a
  // device launch wrote comes back first, and the next device launch sees
  // what the host launch wrote.
  {
    dp::field<1, long> v(g, 2);
    dp::forall(g, [](long &x) { x *= 3; }, v);
    dp::forall(dp::when(false), g, [](long &x) { x += 1; }, v);
    dp::forall(dp::group_size(256).when(true), g, [](long &x) { x *= 2; }, v);
    std::printf("when: %ld %ld\n", v(0), v(n - 1));
  }

  // Hints outside what every device allows are a dp::error naming the
  // call-site, on every backend (dpstub rejects the ones it can see at
  // translation time: tool/options_diagnostics.cpp).
  std::printf("group of 2048: %s\n", error_of([] {
                dp::field<1, int> f(dp::grid<1>(8));
                dp::forall(dp::group_size(at_run_time(64), 32), f.get_grid(), [](int &x) { x = 1; }, f);
              }).c_str());
  std::printf("no groups: %s\n", error_of([] {
                dp::field<1, int> f(dp::grid<1>(8));
                dp::forall(dp::max_groups(at_run_time(0)), f.get_grid(), [](int &x) { x = 1; }, f);
              }).c_str());
  return 0;
}
