// Data regions end to end: every clause, host access inside a region,
// update_host / update_device (now and on a queue), nesting, the errors,
// and the copy that fills a device block ordered before other queues'
// launches. Every run (untranslated, translated natively, on the emulated
// device, whose fresh memory is poison) prints the same lines; where a
// region moves data (the emulated device), a missing transfer shows as
// a wrong checksum.
#include <dp/dp.hpp>

#include "e2e_checks.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

namespace {

using e2e::checksum;

/// A value that takes a while to compute.
long slow(long x) { return e2e::slow(x, 300); }

template <class F> std::string error_of(F f) {
  try {
    f();
  } catch (const dp::error &e) {
    return e.what();
  }
  return "no error";
}

const char *yes(bool b) { return b ? "yes" : "no"; }

} // namespace

int main() {
  const std::int64_t n = 5000;
  const dp::grid<1> g(n);

  // Every clause; host access inside stays coherent.
  {
    dp::field<1, long> a(g), b(g), c(g), d(g, 7), tmp(g);
    dp::forall(g, [](dp::index<1> i, long &x, long &y, long &z) { x = i[0]; y = 2 * i[0]; z = 1; },
               dp::_index, a, b, c);
    {
      dp::data_region region(dp::copyin(a, b), dp::copy(c), dp::copyout(d), dp::create(tmp));
      std::printf("present inside: %s %s %s %s %s\n", yes(dp::present(a)), yes(dp::present(b)),
                  yes(dp::present(c)), yes(dp::present(d)), yes(dp::present(tmp)));
      dp::forall(g, [](long &t, long x, long y) { t = x + y; }, tmp, a, b);
      dp::forall(g, [](long &z, long t) { z += t; }, c, tmp);
      std::printf("c inside: %ld %ld\n", c(0), c(n - 1)); // comes back for the host
      a(3) = 1000;                                        // the host writes a copyin field
      dp::update_device(a);
      dp::forall(g, [](long &z, long x) { z += x; }, c, a);
      dp::forall(g, [](long &o, long z) { o = 2 * z; }, d, c); // every element of d
      dp::update_host(c);
      std::printf("c updated: %ld\n", checksum(c));
    }
    std::printf("after: c %ld d %ld a %ld; present %s %s %s\n", checksum(c), checksum(d),
                checksum(a), yes(dp::present(a)), yes(dp::present(c)), yes(dp::present(d)));
  }

  // Nested regions: the same clause again is fine (and moves nothing), the
  // inner end releases nothing; another clause is an error naming both.
  {
    dp::field<1, int> f(g, 1), h(g, 0);
    {
      dp::data_region outer(dp::copy(f), dp::create(h));
      {
        dp::data_region inner(dp::copy(f));
        dp::forall(g, [](int &x) { x += 1; }, f);
      }
      std::printf("nested: still present %s\n", yes(dp::present(f)));
      dp::forall(g, [](int &x, int y) { x = y * 3; }, h, f);
      dp::forall(g, [](int &x, int y) { x += y; }, f, h);
      std::printf("nested clash: %s\n", error_of([&] { dp::data_region clash(dp::copyin(f)); }).c_str());
    }
    std::printf("nested after: %ld\n", checksum(f));
  }

  // A field named twice, directly or through a view: an error, and the
  // refused region holds nothing.
  {
    dp::field<2, int> m(dp::grid<2>(20, 30), 4);
    dp::field<1, int> v(dp::grid<1>(20), 1);
    std::printf("twice: %s\n",
                error_of([&] { dp::data_region r(dp::copyin(v), dp::copy(m, v)); }).c_str());
    std::printf("view: %s\n",
                error_of([&] { dp::data_region r(dp::copy(m), dp::create(dp::read_only(m))); }).c_str());
    std::printf("refused holds nothing: %s\n", yes(dp::present(v)));
    dp::data_region fine(dp::create(v));
    std::printf("then fine: %s\n", yes(dp::present(v)));
  }

  // update_host and update_device on queues, ordered with other queues.
  {
    dp::queue q1, q2;
    dp::field<1, long> src(g), out(g, 0), mid(g, 0);
    dp::forall(g, [](dp::index<1> i, long &x) { x = i[0] % 13; }, dp::_index, src);
    {
      dp::data_region region(dp::copyin(src), dp::copyout(mid));
      dp::forall(dp::on(q1), g, [](long &m, long s) { m = slow(s); }, mid, src);
      dp::update_host(q1, mid);                        // after the slow launch, on q1
      dp::forall(dp::on(q2), g, [](long &o, long m) { o = m + 1; }, out, mid); // waits for q1
      src(0) = 99;                                     // the host writes a resident field
      dp::update_device(q2, src);                      // the push, on q2
      dp::forall(dp::on(q1), g, [](long &m, long s) { m += s; }, mid, src); // waits for it
      dp::wait_all();
      std::printf("queues: out %ld mid %ld\n", checksum(out), checksum(mid));
    }
  }

  // Without a region: a launch on q2 reading a field whose copy to the
  // device a launch on a busy q1 started waits for that copy.
  {
    dp::queue q1, q2;
    dp::field<1, long> busy(g, 3), fresh(g, 5), out(g, 0);
    dp::forall(dp::on(q1), g, [](long &x) { x = slow(x); }, busy);
    dp::forall(dp::on(q1), g, [](long &x, long y) { x += y; }, busy, fresh); // fresh filled on q1
    dp::forall(dp::on(q2), g, [](long &o, long y) { o = y * 2; }, out, fresh);
    dp::wait_all();
    std::printf("fill: %ld %ld\n", checksum(out), checksum(busy));
  }
  return 0;
}
