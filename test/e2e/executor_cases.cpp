// The executors' bookkeeping, end to end: what a call-site costs in steady
// state, which transfers happen, that a call-site on a device returns
// before its work is done and host access waits for exactly what it needs,
// that data a launch does not write survives its round trip, and that an
// error in a launch still running is thrown by the next wait, naming the
// call-site. Every run prints the same lines (results and verdicts); where
// the call-sites run on a device (the emulated device, DP_HOST_MODE=emulate,
// or a GPU) the program also checks the counters (dp/rt/counters.hpp) and
// exits 1, saying what it found, when one is off.
#include <dp/dp.hpp>

#include "e2e_checks.hpp"
#include <dp/rt/backend.hpp>
#include <dp/rt/counters.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using dp::rt::counter;

/// True when translated call-sites run on a device (their data moves).
bool on_device() { return dp::rt::launches_on_device(); }

int failures = 0;
/// On a device: `what` must have counted `want` (a translated program only;
/// the untranslated one counts nothing and is not checked).
void expect(const char *what, std::int64_t got, std::int64_t want, bool translated) {
  if (!translated || !on_device() || got == want)
    return;
  std::printf("COUNT MISMATCH: %s: %lld, expected %lld\n", what, static_cast<long long>(got),
              static_cast<long long>(want));
  ++failures;
}

using e2e::checksum;

} // namespace

int main() {
  // Whether the call-sites below were translated: an untranslated dp::forall
  // runs on the host and counts nothing.
  const dp::rt::counts before_probe = dp::rt::counters();
  dp::field<1, int> probe(dp::grid<1>(4));
  dp::forall(probe.get_grid(), [](int &x) { x = 1; }, probe);
  const bool translated = (dp::rt::counters() - before_probe)[counter::launches] > 0;

  const std::int64_t n = 1 << 16;
  const dp::grid<1> g(n);
  dp::field<1, float> a(g, 1.0f), b(g, 2.0f), c(g);
  dp::field<2, float> m(dp::grid<2>(64, 256), 0.5f);
  dp::field<1, float> rows(dp::grid<1>(64)), cols(dp::grid<1>(256));
  dp::field<2, float> scanned(m.get_grid());
  dp::field<2, int> keys(m.get_grid());

  // Every call-site kind, three times: the first rounds allocate the
  // device copies and fill the cache (a temporary of one call-site may go
  // on to be a device copy of another's); the last allocates nothing. None
  // waits for the whole device.
  for (int round = 0; round < 3; ++round) {
    const dp::rt::counts start = dp::rt::counters();
    dp::forall(g, [](float &o, float x, float y) { o = x + 2 * y; }, c, a, b);
    dp::scalar<float> sum(0.0f);
    dp::reduce(g, std::plus<>(), sum, [](float x) { return x; }, c);
    dp::reduce<1>(m.get_grid(), std::plus<>(), rows, [](float x) { return x; }, m);
    dp::reduce<0>(m.get_grid(), std::plus<>(), cols, [](float x) { return x; }, m);
    dp::scan<1>(m.get_grid(), std::plus<>(), scanned, [](float x) { return x; }, m);
    dp::forall(keys.get_grid(), [](dp::index<2> i, int &k) { k = int((i[0] * 37 + i[1] * 11) % 97); },
               dp::_index, keys);
    dp::sort<1>(keys.get_grid(), [](int x, int y) { return x < y; }, keys);
    dp::sort<0>(keys.get_grid(), [](int x, int y) { return x % 7 < y % 7 || (x % 7 == y % 7 && x < y); },
                keys);
    std::printf("round %d: sum %g, rows %g, cols %g, scan %g, keys %ld\n", round, sum.get(),
                rows(0), cols(255), scanned(63, 255), checksum(keys));
    const dp::rt::counts spent = dp::rt::counters() - start;
    if (round == 2)
      expect("device allocations in steady state", spent[counter::device_allocations], 0,
             translated);
    expect("device-wide synchronisations", spent[counter::device_syncs], 0, translated);
  }

  // Transfers: a fresh field's first launch copies it in once (a
  // value-initialised one is set to zeros on the device instead); reading
  // it again copies nothing; the host reading a result the device wrote
  // copies it back once; reading it again copies nothing.
  {
    dp::field<1, float> fresh(g, 3.0f), out(g);
    dp::rt::counts t0 = dp::rt::counters();
    dp::forall(g, [](float &o, float x) { o = 2 * x; }, out, fresh);
    dp::rt::counts t1 = dp::rt::counters();
    expect("bytes to the device, first launch", (t1 - t0)[counter::to_device_bytes],
           n * std::int64_t(sizeof(float)), translated); // fresh's: out's zeros are set there
    expect("zeros set on the device, first launch", (t1 - t0)[counter::device_zero_fills], 1,
           translated);
    expect("host waits inside a call-site", (t1 - t0)[counter::host_waits], 0, translated);
    dp::forall(g, [](float &o, float x) { o += x; }, out, fresh);
    dp::rt::counts t2 = dp::rt::counters();
    expect("bytes to the device, second launch", (t2 - t1)[counter::to_device_bytes], 0, translated);
    const float first = out(0), last = out(n - 1);
    dp::rt::counts t3 = dp::rt::counters();
    expect("bytes to the host, first read", (t3 - t2)[counter::to_host_bytes],
           n * std::int64_t(sizeof(float)), translated);
    // One wait, for the copy back, which the device runs behind the launch
    // that wrote it (two before: the launch's, then the copy's).
    expect("host waits, first read", (t3 - t2)[counter::host_waits], 1, translated);
    const float again = out(n / 2);
    expect("bytes to the host, second read", (dp::rt::counters() - t3)[counter::to_host_bytes], 0,
           translated);
    std::printf("transfers: %g %g %g\n", first, last, again);
  }

  // A launch that writes a field only in part (a dp::where, a triangle)
  // brings back every element it did not write as the host had it, never
  // device memory nobody wrote (the emulated device fills fresh memory with
  // a poison byte, so a loss would show).
  {
    dp::field<2, int> part(dp::grid<2>(40, 40), 7);
    dp::forall(dp::where(part.get_grid(), [](dp::index<2> i) { return (i[0] + 2 * i[1]) % 5 == 0; }),
               [](dp::index<2> i, int &x) { x = int(i[0] * 100 + i[1]); }, dp::_index, part);
    dp::field<2, int> tri(dp::grid<2>(30, 30), -1);
    dp::forall(dp::lower_triangle(30), [](dp::index<2> i, int &x) { x = int(i[0] - i[1]); },
               dp::_index, tri);
    long sevens = 0, minus_ones = 0;
    for (std::int64_t i = 0; i < 40; ++i)
      for (std::int64_t j = 0; j < 40; ++j)
        sevens += (i + 2 * j) % 5 != 0 && part(i, j) == 7;
    for (std::int64_t i = 0; i < 30; ++i)
      for (std::int64_t j = i + 1; j < 30; ++j)
        minus_ones += tri(i, j) == -1;
    std::printf("partial writes: %ld of 1280 kept, %ld of 435 kept, checksums %ld %ld\n", sevens,
                minus_ones, checksum(part), checksum(tri));
  }

  // Host writes wait for the launches still reading: the launch reads the
  // values from before the write.
  {
    dp::field<1, long> src(g, 5), dst(g);
    dp::forall(g, [](long &o, long x) { o = x * 3; }, dst, src);
    src(0) = 1000; // after the launch, in program order
    std::printf("write after read: %ld %ld\n", dst(0), dst(1));
  }

  // A scalar's reduction is read where it is needed; reducing into it
  // again starts from its value.
  {
    dp::scalar<long> s(10);
    dp::field<1, long> ones(g, 1);
    dp::reduce(g, std::plus<>(), s, [](long x) { return x; }, ones);
    dp::reduce(g, std::plus<>(), s, [](long x) { return 2 * x; }, ones);
    dp::scalar<long> copy = s;
    std::printf("scalar: %ld %ld\n", s.get(), copy.get());
  }

  // An error in a launch (here, threads of a tile that do not all meet at
  // a barrier, which dpstub cannot see: it goes through tile memory) is a
  // dp::error naming the call-site; on a device it is thrown by the next
  // operation that waits for the launch. Not on a GPU, where it would hang:
  // there the line says what the other runs say (the process's backend is
  // fixed, so asking cannot throw here).
  if (dp::rt::process_backend() != dp::rt::backend::host) {
    std::printf("a failing launch: dp::error naming its call-site\n");
  } else {
    dp::field<1, int> marks(dp::grid<1>(6), 0);
    bool returned = false;
    std::string what;
    // The error cites the line of this file (a literal: __LINE__ in the
    // rewritten file would move with it), though dpstub inserts lines.
    const std::string site = "executor_cases.cpp:173:";
    try {
      dp::forall(dp::tile<8>(marks.get_grid()),
                 [](const dp::tile_group<1> &t, int &mark) {
                   dp::tile_static<std::int64_t> last(t);
                   last.get() = t.local()[0];
                   if (last.get() % 2 == 0)
                     t.barrier();
                   mark = 1;
                 },
                 dp::_tile, marks);
      returned = true;
      (void)marks(0); // waits for the launch
    } catch (const dp::error &e) {
      what = e.what();
    }
    const bool named = what.find("dp::forall") != std::string::npos &&
                       (!translated || what.find(site) != std::string::npos);
    std::printf("a failing launch: %s\n", named ? "dp::error naming its call-site" : what.c_str());
    if (translated && on_device() && !returned) {
      std::printf("the call-site itself threw: its launch should have run behind it\n");
      ++failures;
    }
  }

  // A field read back while later work follows its writer on the queue:
  // no event marks the writer's place (events are recorded when needed,
  // covering the queue's work so far), so one recorded now would cover
  // the later work too; the copy goes behind that work on the writer's
  // queue, with no event and no queue wait. One host wait, the copy's.
  // (Where an event marks the writer's place, the default queue follows
  // it instead: PendingBlock.AReadBackFollowsItsWriterNotLaterWork...)
  {
    const dp::grid<1> g(1 << 12);
    dp::queue q;
    dp::field<1, float> out(g, 0.0f), other(g, 0.0f);
    dp::forall(dp::on(q), g, [](float &o) { o = 5; }, out);
    dp::forall(dp::on(q), g, [](float &o) { o += 1; }, other);
    const dp::rt::counts t0 = dp::rt::counters();
    const float read = out(7);
    expect("host waits, a read with later work on the writer's queue",
           (dp::rt::counters() - t0)[counter::host_waits], 1, translated);
    expect("queue waits, a read with later work on the writer's queue",
           (dp::rt::counters() - t0)[counter::queue_waits], 0, translated);
    std::printf("read behind later work: %g %g\n", read, other(7));
  }

  dp::wait_all();
  return failures == 0 ? 0 : 1;
}
