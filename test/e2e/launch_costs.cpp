// What one steady-state call-site costs beside the launch it makes, counted
// on a CPU: heap allocations and getenv calls (this program interposes
// malloc, calloc, realloc and getenv) and what it asks of the device layer
// (dp::rt's counters: launches, device queries, allocations, events,
// copies, waits). A time-step code makes thousands of small launches; each
// of these costs shows on a GPU as time between kernels.
//
// Run translated on the host backend and on the emulated device
// (DP_HOST_MODE=emulate), and there with DP_EMULATE_RECORD_ONLY=1 (the
// recording device layer bench/launch_bench.cpp measures over: the same
// costs, and no work run); exits non-zero naming every cost over its limit.
#include <dp/dp.hpp>
#include <dp/rt/backend.hpp>
#include <dp/rt/counters.hpp>
#include <dp/rt/plan/plan.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

extern "C" void *__libc_malloc(std::size_t);
extern "C" void *__libc_calloc(std::size_t, std::size_t);
extern "C" void *__libc_realloc(void *, std::size_t);

namespace {
std::atomic<long> allocations{0}, environment_reads{0};
} // namespace

extern "C" void *malloc(std::size_t n) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
extern "C" void *calloc(std::size_t a, std::size_t b) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(a, b);
}
extern "C" void *realloc(void *p, std::size_t n) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, n);
}
extern "C" char *getenv(const char *name) {
  environment_reads.fetch_add(1, std::memory_order_relaxed);
  return secure_getenv(name);
}

namespace {
using dp::rt::counter;

int failures = 0;

/// What `calls` steady-state runs of `site` cost, each against its limit.
struct cost {
  const char *site;
  long calls;
  long allocations, environment_reads;
  dp::rt::counts device;

  void check(const char *what, double per_call, double limit) const {
    const bool over = per_call > limit;
    std::printf("%-24s %-22s %6.2f per call (limit %g)%s\n", site, what, per_call, limit,
                over ? "  OVER" : "");
    failures += over;
  }
  /// Exactly `expected` per call: neither more nor fewer.
  void exactly(const char *what, double per_call, double expected) const {
    const bool off = per_call != expected;
    std::printf("%-24s %-22s %6.2f per call (exactly %g)%s\n", site, what, per_call, expected,
                off ? "  OFF" : "");
    failures += off;
  }
  double per(long n) const { return double(n) / double(calls); }
  double per(counter c) const { return per(static_cast<long>(device[c])); }
};

/// Runs `body` (one call-site) after a warm-up (longer than a chain of
/// reduces nobody reads grows: scalar_access::max_chained), then `rounds`
/// times `calls` times, waiting on q after each; returns each count's
/// least over the rounds. The task ring and the pools of completions and
/// events grow to the deepest backlog the timing makes, once: on a loaded
/// machine a measured round can run further ahead of the queue than the
/// warm-up did (one stop's CI saw 2.02 allocations a call against 2.01;
/// a round that allocated least once made an event, 2026-12-03). A cost
/// every call pays shows in every round.
constexpr long warm_up = 100, calls = 1000, rounds = 3;
template <class Body> cost measure(const char *site, dp::queue &q, Body body) {
  for (int i = 0; i < warm_up; ++i)
    body();
  q.wait();
  cost least{site, calls, -1, 0, {}};
  for (int round = 0; round < rounds; ++round) {
    const long a0 = allocations, e0 = environment_reads;
    const dp::rt::counts c0 = dp::rt::counters();
    for (long i = 0; i < calls; ++i)
      body();
    const dp::rt::counts spent = dp::rt::counters() - c0;
    const long a = allocations - a0, e = environment_reads - e0;
    if (round == 0) {
      least = {site, calls, a, e, spent};
    } else {
      least.allocations = std::min(least.allocations, a);
      least.environment_reads = std::min(least.environment_reads, e);
      for (int k = 0; k < static_cast<int>(counter::kinds_); ++k)
        least.device.value[k] = std::min(least.device.value[k], spent.value[k]);
    }
    q.wait();
  }
  return least;
}

/// What one call-site may cost, per call.
struct limits {
  double allocations;
  double launches;
  double host_waits = 0, to_host_copies = 0, events = 0;
};

void check(const cost &c, const limits &l) {
  c.check("heap allocations", c.per(c.allocations), l.allocations);
  c.check("getenv calls", c.per(c.environment_reads), 0);
  c.check("launches", c.per(counter::launches), l.launches);
  c.check("device queries", c.per(counter::device_queries), 0);
  c.check("device allocations", c.per(counter::device_allocations), 0);
  c.check("events recorded", c.per(counter::events_recorded), l.events);
  // The spare events grow to the deepest backlog of unfinished work,
  // which a loaded machine may deepen in every round: a few events in a
  // round, never one a call (0.01: up to 10 in each of the rounds).
  c.check("events created", c.per(counter::events_created), 0.01);
  c.check("host waits", c.per(counter::host_waits), l.host_waits);
  c.check("device-wide syncs", c.per(counter::device_syncs), 0);
  c.check("copies to the device", c.per(counter::to_device_copies), 0);
  c.check("copies to the host", c.per(counter::to_host_copies), l.to_host_copies);
  c.check("host follows", c.per(counter::host_follows), 0);
}
} // namespace

int main() {
  const bool device = dp::rt::launches_on_device();
  const dp::grid<1> g(16);
  dp::field<1, float> a(g, 1.0f), b(g, 2.0f);
  dp::queue q;
  // Heap allocations a call: on the host the queue's task; on the emulated
  // device its tasks, which stand for a GPU's launches; on the recording
  // device layer, which runs no task, none: what a GPU build allocates on
  // the host per call-site (planning a launch once built a message string).
  const bool recorded = dp::rt::process_dispatch_settings().record_only;
  const auto tasks = [&](double n) { return !device ? 1.01 : recorded ? 0.0 : n + 0.01; };

  // A forall: the launch and nothing else. On the host the queue's task
  // holds the kernel (one allocation: the queue's ring of tasks has room
  // in steady state); on a device the completion comes from a pool, the
  // name is made once per call-site and no event is recorded.
  const cost forall = measure("forall, 16 points", q, [&] {
    dp::forall(dp::on(q), g, [](float &x, float y) { x += y; }, a, b);
  });
  check(forall, {tasks(1), 1});
  // What a GPU build does per call-site beside the launch, done (or, on
  // the emulated device, counted) the same: one profiler range, made from
  // the call-site's name (built once: no allocation above), one check of
  // the launch's status.
  forall.exactly("profiler ranges", forall.per(counter::profiler_ranges), device ? 1 : 0);
  forall.exactly("launch checks", forall.per(counter::launch_checks), device ? 1 : 0);
  // Its plan is the one it made at its first launch (plan.hpp's memo).
  forall.exactly("launch plans", forall.per(counter::launch_plans), 0);

  // On the host, few cheap points run on the calling thread: a fork and a
  // join of the host's threads cost more than 64 of them take alone
  // (walk_on_calling_thread; NPB SP's 34-point sweeps in serial loops ran
  // at half the speed of OpenMP's). More points, or a kernel that loops
  // itself however few its points, are one fork a call.
  if (!device) {
    const auto forks = [&](const char *site, double expected, auto body) {
      for (int i = 0; i < warm_up; ++i)
        body();
      q.wait();
      const dp::rt::counts c0 = dp::rt::counters();
      for (long i = 0; i < calls; ++i)
        body();
      q.wait();
      const cost c{site, calls, 0, 0, dp::rt::counters() - c0};
      c.exactly("host forks", c.per(counter::host_forks), expected);
    };
    for (const int n : {1, 64, 65}) {
      const dp::grid<1> points(n);
      dp::field<1, float> x(points, 1.0f), y(points, 2.0f);
      const std::string site = "forall, " + std::to_string(n) + " points";
      forks(site.c_str(), n <= 64 ? 0 : 1, [&] {
        dp::forall(dp::on(q), points, [](float &x, float y) { x += y; }, x, y);
      });
      if (x(n - 1) != 1.0f + 2.0f * float(warm_up + calls)) {
        std::printf("%s: %g, not %g\n", site.c_str(), double(x(n - 1)), 1.0 + 2.0 * (warm_up + calls));
        ++failures;
      }
    }
    dp::field<2, float> m(dp::grid<2>(2, 8), 1.0f);
    dp::field<1, float> sums(dp::grid<1>(2), 0.0f);
    forks("looping forall, 2 points", 1, [&] {
      dp::forall(dp::on(q), sums.get_grid(), [](dp::index<1> i, float &s, const dp::field<2, float> &m) {
        float t = 0;
        for (int j = 0; j < m.get_grid().extent(1); ++j)
          t += m(i[0], j);
        s = t;
      }, sums, m);
    });
    if (sums(1) != 8.0f) {
      std::printf("looping forall: %g, not 8\n", double(sums(1)));
      ++failures;
    }
  }

  // A reduce into one scalar, again and again, nobody reading it between:
  // each folds into the value before it without the host waiting for that
  // value. On the host the queue's task folds into the scalar (its earlier
  // reduction ran before it on the same queue); on a device the vendor
  // folds from no value and the read-back combines into the scalar after
  // the earlier read-back has delivered. Per call, a chain that long is
  // settled once every 64 calls (scalar_access::max_chained), where the
  // earlier results have long arrived. The device's scratch, its pinned
  // result slot and the read-back's completion come from caches and pools
  // with no host allocation; what is left on the emulated device are its
  // two tasks (the fold, the copy to the slot), which stand for a GPU's
  // launches. With std::plus<> the fold starts from its identity instead,
  // the vendor call a first reduce makes.
  dp::scalar<float> total(0.0f);
  const cost reduce = measure("reduce, 16 points", q, [&] {
    dp::reduce(dp::on(q), g, [](float x, float y) { return x + y; }, total,
               [](float x) { return x; }, b);
  });
  limits reduce_limits{tasks(2), 1, 0.02, device ? 1.0 : 0.0, device ? 1.0 : 0.0};
  check(reduce, reduce_limits);
  dp::scalar<float> plus_total(0.0f);
  const cost plus_reduce = measure("reduce with plus<>", q, [&] {
    dp::reduce(dp::on(q), g, std::plus<>(), plus_total, [](float x) { return x; }, b);
  });
  check(plus_reduce, reduce_limits);
  // What the chain delivers is what waiting each time gives: 16 points of
  // 2, folded 1,100 times into each scalar (a recording device layer runs
  // no fold: nothing to compare there).
  const float want = float(warm_up + rounds * calls) * 16.0f * 2.0f;
  if (!dp::rt::process_dispatch_settings().record_only &&
      (total.get() != want || plus_total.get() != want)) {
    std::printf("chained reduces: %g and %g, not %g\n", double(total.get()),
                double(plus_total.get()), double(want));
    ++failures;
  }

  // A reduce whose value the host reads each time: one read-back and one
  // wait, and in steady state its event is a spare one recorded again
  // (the wait once left every event it had waited for out of the spares,
  // so each read made a new one and searched all the old ones: a cost per
  // call that grew with the calls made).
  dp::scalar<float> read(0.0f);
  const cost reduce_read = measure("reduce read each time", q, [&] {
    dp::reduce(dp::on(q), g, std::plus<>(), read, [](float x) { return x; }, b);
    (void)read.get();
  });
  check(reduce_read, {tasks(2), 1, 1, device ? 1.0 : 0.0, device ? 1.0 : 0.0});

  // What a migrated reduction does in a host loop (trisolv's rows): a
  // fresh scalar from the variable each time, read back into it. The
  // scalar is a host value, so it costs what the reused one above does.
  float row_sum = 0.0f;
  const cost reduce_fresh = measure("reduce, fresh scalar", q, [&] {
    dp::scalar<float> dp_row_sum(row_sum);
    dp::reduce(dp::on(q), g, std::plus<>(), dp_row_sum, [](float x) { return x; }, b);
    row_sum = dp_row_sum.get();
  });
  check(reduce_fresh, {tasks(2), 1, 1, device ? 1.0 : 0.0, device ? 1.0 : 0.0});

  // A call-site over a caller's memory (what --migrate writes in a file
  // without main: dp::borrow in a block around it, dp::borrow_read for a
  // pointer it only reads, which costs what dp::borrow does apart from the
  // written memory). The borrowed blocks
  // are made afresh at each call: on a device each crosses to it, the one
  // written comes back when the block ends, and that end waits for it.
  // The block's end waits for the launch, which reads the caller's memory
  // on the host (one host wait there, for the queue's task); on a device
  // the read block's device copy goes back to the device's cache behind
  // the launch, no wait (it was a wait for the launch until 2026-12-03),
  // and the written one's end waits for its copy back, which follows the
  // launch on its queue: one wait, no event.
  {
    std::vector<float> y(16, 0.0f), x(16, 1.0f);
    const auto step = [&] {
      dp::field<1, float> dp_y = dp::borrow(y.data(), 16);
      dp::field<1, const float> dp_x = dp::borrow_read(static_cast<const float *>(x.data()), 16, dp_y);
      dp::forall(dp::on(q), g, [](float &v, float u) { v += u; }, dp_y, dp_x);
    };
    const cost borrowed = measure("forall, borrowed", q, step);
    // No device allocation (the pool's blocks serve each fresh mirror);
    // on the host, the two blocks and their places in the registry of
    // borrowed memory beside the queue's task (a device build adds the
    // mirrors and the completions of the copies).
    borrowed.exactly("device allocations", borrowed.per(counter::device_allocations), 0);
    borrowed.exactly("launches", borrowed.per(counter::launches), 1);
    borrowed.exactly("copies to the device", borrowed.per(counter::to_device_copies), device ? 2 : 0);
    borrowed.exactly("copies to the host", borrowed.per(counter::to_host_copies), device ? 1 : 0);
    borrowed.exactly("host waits", borrowed.per(counter::host_waits), 1);
    borrowed.exactly("events recorded", borrowed.per(counter::events_recorded), 0);
    borrowed.check("heap allocations", borrowed.per(borrowed.allocations),
                   !device ? 6.01 : recorded ? 10.01 : 11.01);

    // The same call-site inside a region that borrowed both first (a data
    // region over a caller's memory): its borrows share the region's
    // blocks, so nothing crosses and nothing waits per call.
    dp::field<1, float> region_y = dp::borrow(y.data(), 16);
    dp::field<1, const float> region_x = dp::borrow(static_cast<const float *>(x.data()), 16);
    const cost inside = measure("forall, borrowed again", q, step);
    inside.exactly("device allocations", inside.per(counter::device_allocations), 0);
    inside.exactly("copies to the device", inside.per(counter::to_device_copies), 0);
    inside.exactly("copies to the host", inside.per(counter::to_host_copies), 0);
    inside.exactly("host waits", inside.per(counter::host_waits), 0);
    region_y = dp::field<1, float>(); // the region's end: y is current again
    region_x = dp::field<1, const float>();

    // The same call-site between dp::enter_data and dp::exit_data (what
    // --migrate writes for a class's `enter data` over its arrays): the
    // same, and the host's copy comes back at dp::update_host.
    dp::enter_data(y.data(), 16);
    dp::enter_data(static_cast<const float *>(x.data()), 16);
    const cost entered = measure("forall, borrowed, entered", q, step);
    entered.exactly("device allocations", entered.per(counter::device_allocations), 0);
    entered.exactly("copies to the device", entered.per(counter::to_device_copies), 0);
    entered.exactly("copies to the host", entered.per(counter::to_host_copies), 0);
    entered.exactly("host waits", entered.per(counter::host_waits), 0);
    const cost brought = measure("dp::update_host, entered", q, [&] { dp::update_host(y.data(), 16); });
    brought.exactly("copies to the host", brought.per(counter::to_host_copies), 0); // current already
    dp::exit_data(y.data());
    dp::exit_data(x.data());

    // A loop of no iteration, its length measured from its accesses
    // (`dp::borrow(y, n > 0 ? n : 0)`, n = 0): nothing borrowed, so
    // nothing crosses, nothing is allocated on the device, nothing waits.
    const int none = 0;
    const cost empty = measure("forall, borrowed, no iteration", q, [&] {
      dp::field<1, float> dp_y = dp::borrow(y.data(), none > 0 ? none : 0);
      dp::field<1, const float> dp_x = dp::borrow(static_cast<const float *>(x.data()), none > 0 ? none : 0);
      dp::forall(dp::on(q), dp::grid<1>(dp::arithmetic_sequence(0, none)),
                 [](dp::index<1> i, dp::field<1, float> &v, const dp::field<1, const float> &u) { v(i[0]) += u(i[0]); },
                 dp_y, dp_x);
    });
    empty.exactly("device allocations", empty.per(counter::device_allocations), 0);
    empty.exactly("copies to the device", empty.per(counter::to_device_copies), 0);
    empty.exactly("copies to the host", empty.per(counter::to_host_copies), 0);
    empty.exactly("host waits", empty.per(counter::host_waits), 0);
    const float want = float(3 * (warm_up + calls * rounds));
    if (!dp::rt::process_dispatch_settings().record_only && y[3] != want) {
      std::printf("borrowed: y[3] = %g, not %g\n", double(y[3]), double(want));
      ++failures;
    }

    // One array passed for both pointers (axpy(n, a, z, z)): the read one is
    // a copy made on the host, which crosses to the device as the borrowed
    // one would; nothing more is allocated on the device, nothing more waits.
    std::vector<float> z(16, 1.0f);
    const cost aliased = measure("forall, borrowed twice", q, [&] {
      dp::field<1, float> dp_y = dp::borrow(z.data(), 16);
      dp::field<1, const float> dp_x = dp::borrow_read(static_cast<const float *>(z.data()), 16, dp_y);
      dp::forall(dp::on(q), g, [](float &v, float u) { v += u; }, dp_y, dp_x);
    });
    aliased.exactly("device allocations", aliased.per(counter::device_allocations), 0);
    aliased.exactly("launches", aliased.per(counter::launches), 1);
    aliased.exactly("copies to the device", aliased.per(counter::to_device_copies), device ? 2 : 0);
    aliased.exactly("copies to the host", aliased.per(counter::to_host_copies), device ? 1 : 0);
    aliased.exactly("host waits", aliased.per(counter::host_waits), 1);

    // One field passed as two parameters (miniWeather's
    // semi_discrete_step(state, state, ...)), the read one through
    // dp::read_apart, as --migrate writes it: where a kernel wrote the
    // field, its copy is made on the device, so nothing crosses the bus
    // and nothing waits (through the host: a copy each way and a wait).
    dp::field<1, float> state(g, 1.0f);
    const auto relax = [&] {
      dp::field<1, const float> dp_in = dp::read_apart(dp::field<1, const float>(state), state);
      dp::forall(dp::on(q), g, [](float &v, float u) { v = 0.5f * (v + u) + 1.0f; }, state, dp_in);
    };
    const cost apart = measure("forall, read apart", q, relax);
    apart.exactly("launches", apart.per(counter::launches), 1);
    apart.exactly("copies on the device", apart.per(counter::device_copies), device ? 1 : 0);
    apart.exactly("copies to the device", apart.per(counter::to_device_copies), 0);
    apart.exactly("copies to the host", apart.per(counter::to_host_copies), 0);
    apart.exactly("host waits", apart.per(counter::host_waits), device ? 0 : 1); // the host copies after the writer
    apart.exactly("device allocations", apart.per(counter::device_allocations), 0);
    if (!dp::rt::process_dispatch_settings().record_only) { // each element read as it was: one more
      const float before = state(0);
      relax();
      for (int k = 0; k < 16; ++k)
        if (state(k) != before + 1.0f) {
          std::printf("read apart: state(%d) = %g, not %g\n", k, double(state(k)), double(before + 1.0f));
          ++failures;
        }
    }

    // A window (a loop whose first element need not be the pointer's):
    // the borrow of a range from an offset costs what one from the first does.
    std::vector<float> w(32, 0.0f), v(32, 1.0f);
    const auto window_step = [&] {
      const dp::grid<1> part(dp::arithmetic_sequence(8, 24));
      dp::field<1, float> dp_w = dp::borrow(w.data() + 8, part);
      dp::field<1, const float> dp_v = dp::borrow_read(static_cast<const float *>(v.data()) + 8, part, dp_w);
      dp::forall(
          dp::on(q), part, [](dp::index<1> i, dp::field<1, float> &a, const dp::field<1, const float> &b) { a(i[0]) += b(i[0]); },
          dp_w, dp_v);
    };
    const cost window = measure("forall, borrowed window", q, window_step);
    window.exactly("device allocations", window.per(counter::device_allocations), 0);
    window.exactly("launches", window.per(counter::launches), 1);
    window.exactly("copies to the device", window.per(counter::to_device_copies), device ? 2 : 0);
    window.exactly("copies to the host", window.per(counter::to_host_copies), device ? 1 : 0);
    window.exactly("host waits", window.per(counter::host_waits), 1);
    // The same window while the whole arrays are entered (dp::enter_data,
    // a class's or a data region's arrays): served by their blocks, so
    // nothing crosses per call.
    dp::enter_data(w.data(), 32);
    dp::enter_data(static_cast<const float *>(v.data()), 32);
    const cost window_in = measure("forall, borrowed window, entered", q, window_step);
    window_in.exactly("device allocations", window_in.per(counter::device_allocations), 0);
    window_in.exactly("copies to the device", window_in.per(counter::to_device_copies), 0);
    window_in.exactly("copies to the host", window_in.per(counter::to_host_copies), 0);
    window_in.exactly("host waits", window_in.per(counter::host_waits), 0);
    dp::exit_data(w.data());
    dp::exit_data(v.data());
    if (!dp::rt::process_dispatch_settings().record_only && (w[7] != 0.0f || w[24] != 0.0f || w[8] == 0.0f)) {
      std::printf("borrowed window: w[7] = %g, w[8] = %g, w[24] = %g\n", double(w[7]), double(w[8]), double(w[24]));
      ++failures;
    }
  }

  // An array of rows (`float **w` read as w[i][j]: what --migrate writes,
  // dp::borrowed_rows in a block around the call-site). Rows of one block
  // are one borrowed block, and cost what dp::borrow does; so do rows
  // evenly spaced a few bytes apart, whose copy back is one copy of the
  // rows alone (the bytes between them stay as the host has them). Rows
  // lying otherwise are gathered into a field of the runtime's on the
  // host: still one copy to the device and, written, one back, never one
  // per row. Read-only, nothing comes back. A block's end waits once, or
  // not at all: read, on the host for the launch, on a device for nothing
  // (the device copy goes back to the device's cache behind the launch);
  // written, on a device for the copy back, which
  // the device runs behind the launch on the launch's queue (it was a
  // wait for the launch, then the copy's; in place, since 2026-12-03, as
  // the gathered write-back, which reads the field as host code does),
  // on the host for the launch.
  {
    constexpr int n = 4, m = 8;
    // Rows apart: in one pool, rows 1 and 2 swapped and 24 floats
    // between them, as rows allocated in another order lie; rows evenly
    // spaced: 2 floats between them, as a C heap gives rows allocated one
    // after another; downwards, each below the one before, as a heap maps
    // rows too large for its arena.
    std::vector<float> block(n * m, 0.0f), pool(n * (m + 24), 0.0f), heap(n * (m + 2), 0.0f),
        mapped(n * (m + 2), 0.0f);
    std::vector<float *> in_block(n), apart(n), spaced(n), down(n);
    for (int i = 0; i < n; ++i) {
      in_block[i] = block.data() + i * m;
      apart[i] = pool.data() + (i == 1 ? 2 : i == 2 ? 1 : i) * (m + 24);
      spaced[i] = heap.data() + i * (m + 2);
      down[i] = mapped.data() + (n - 1 - i) * (m + 2);
    }
    const dp::grid<2> g2(n, m);
    const auto written = [&](float **w) {
      return [&q, &g2, w] {
        dp::borrowed_rows<float> dp_w(w, n, m);
        dp::forall(dp::on(q), g2, [](float &v) { v += 1.0f; }, dp_w.get());
      };
    };
    // The same through a dp::rows view (what --migrate writes): on the
    // host the kernel indexes the caller's rows, nothing gathered, rows
    // apart too; on a device their block crosses as above, and a table of
    // where each row lies there with it (one copy more each way in).
    const auto written_rows = [&](float **w) {
      return [&q, &g2, w] {
        dp::borrowed_rows<float> dp_w(w, n, m);
        dp::forall(dp::on(q), g2, [](dp::index<2> ij, const dp::rows<float> &v) { v[ij] += 1.0f; }, dp_w.rows());
      };
    };
    dp::field<2, float> sums(g2, 0.0f);
    const auto read_rows = [&](float **w) {
      return [&q, &g2, &sums, w] {
        dp::borrowed_rows<const float> dp_w(w, n, m);
        dp::forall(dp::on(q), g2, [](dp::index<2> ij, float &s, const dp::rows<const float> &v) { s += v[ij]; },
                   sums, dp_w.rows());
      };
    };
    const auto read = [&](float **w) {
      return [&q, &g2, &sums, w] {
        dp::borrowed_rows<const float> dp_w(w, n, m);
        dp::forall(dp::on(q), g2, [](float &s, float v) { s += v; }, sums, dp_w.get());
      };
    };
    // What crosses to a device: rows in place carry their span, the bytes
    // between them included; a block or gathered rows, the rows alone.
    // Back, always the rows alone (a 2D copy where they lie apart).
    const double rows_bytes = n * m * sizeof(float), span_bytes = ((n - 1) * (m + 2) + m) * sizeof(float);
    const struct {
      const char *site, *read_site, *view_site, *read_view_site;
      float **rows;
      bool gathered;
      double to_device_bytes;
    } layouts[] = {{"forall, rows of a block", "forall, read rows of a block", "rows view of a block",
                    "read rows view, block", in_block.data(), false, rows_bytes},
                   {"forall, rows evenly spaced", "forall, read rows evenly spaced", "rows view evenly spaced",
                    "read rows view, spaced", spaced.data(), false, span_bytes},
                   {"forall, rows downwards", "forall, read rows downwards", "rows view downwards",
                    "read rows view, down", down.data(), false, span_bytes},
                   {"forall, rows apart", "forall, read rows apart", "rows view apart", "read rows view, apart",
                    apart.data(), true, rows_bytes}};
    const double table_bytes = n * sizeof(float *);
    // One call-site's costs, written or read: `copies` copies of
    // `to_device` bytes in on a device; written rows come back once.
    const auto expect_written = [&](const cost &c, int copies, double to_device, double heap) {
      c.exactly("device allocations", c.per(counter::device_allocations), 0);
      c.exactly("launches", c.per(counter::launches), 1);
      c.exactly("copies to the device", c.per(counter::to_device_copies), device ? copies : 0);
      c.exactly("copies to the host", c.per(counter::to_host_copies), device ? 1 : 0);
      c.exactly("bytes to the device", c.per(counter::to_device_bytes), device ? to_device : 0);
      c.exactly("bytes to the host", c.per(counter::to_host_bytes), device ? rows_bytes : 0);
      c.exactly("host waits", c.per(counter::host_waits), 1);
      c.check("heap allocations", c.per(c.allocations), heap);
    };
    const auto expect_read = [&](const cost &r, int copies, double to_device) {
      r.exactly("device allocations", r.per(counter::device_allocations), 0);
      r.exactly("launches", r.per(counter::launches), 1);
      r.exactly("copies to the device", r.per(counter::to_device_copies), device ? copies : 0);
      r.exactly("copies to the host", r.per(counter::to_host_copies), 0);
      r.exactly("bytes to the device", r.per(counter::to_device_bytes), device ? to_device : 0);
      r.exactly("host waits", r.per(counter::host_waits), device ? 0 : 1);
    };
    for (const auto &l : layouts) {
      if (dp::borrowed_rows<float>(l.rows, n, m).gathered() != l.gathered) {
        std::printf("%s: gathered() is not %d\n", l.site, int(l.gathered));
        ++failures;
      }
      // Through get() (a field) and through rows() (a view): on the host
      // a view moves nothing (no gather where the rows lie apart); on a
      // device the table crosses with the rows, one copy more in.
      // A gathered handle adds its field (block and host memory) and
      // the registry's entry for the rows it will write back; on the
      // emulated device either's copy back is a task of the launch's
      // queue (a GPU's is a copy on its stream). A view over rows apart
      // adds the registry's entry, and on the host a token the handle's
      // end waits on; on a device the table (block, host memory, device
      // copy) where get() had none.
      expect_written(measure(l.site, q, written(l.rows)), 1, l.to_device_bytes,
                     l.gathered ? (!device ? 7.01 : recorded ? 9.01 : 10.01)
                                : (!device ? 3.01 : recorded ? 6.01 : 7.01));
      expect_read(measure(l.read_site, q, read(l.rows)), 1, l.to_device_bytes);
      expect_written(measure(l.view_site, q, written_rows(l.rows)), 2, l.to_device_bytes + table_bytes,
                     l.gathered ? (!device ? 7.01 : recorded ? 13.01 : 14.01)
                                : (!device ? 3.01 : recorded ? 8.01 : 9.01));
      expect_read(measure(l.read_view_site, q, read_rows(l.rows)), 2, l.to_device_bytes + table_bytes);
    }
    // Each layout's rows written twice a call: through get() and rows().
    const float want = float(2 * (warm_up + calls * rounds));
    const float last[] = {block[n * m - 1], spaced[n - 1][m - 1], apart[n - 1][m - 1], down[n - 1][m - 1]};
    if (!dp::rt::process_dispatch_settings().record_only &&
        (last[0] != want || last[1] != want || last[2] != want || last[3] != want || heap[m] != 0.0f ||
         mapped[m] != 0.0f)) {
      std::printf("rows: %g, %g, %g and %g, not %g (between rows: %g, %g)\n", double(last[0]), double(last[1]),
                  double(last[2]), double(last[3]), double(want), double(heap[m]), double(mapped[m]));
      ++failures;
    }
  }

  // A recorded time step of three foralls (dp::record): a replay costs no
  // more than one direct call-site, and on a device it is one graph launch
  // (its kernels were launched into the graph once, at the recording).
  dp::field<1, float> c(g, 0.0f);
  dp::graph step = dp::record(q, [&] {
    dp::forall(dp::on(q), g, [](float &x, float y) { x += y; }, a, b);
    dp::forall(dp::on(q), g, [](float &x, float y) { x = 0.5f * y; }, c, a);
    dp::forall(dp::on(q), g, [](float &x, float y) { x -= y; }, b, c);
  });
  const cost replay = measure("replay of 3 foralls", q, [&] { step.run(); });
  check(replay, {1.1, device ? 0.0 : 3.0});
  replay.exactly("graph launches", replay.per(counter::graph_launches), device ? 1 : 0);
  replay.exactly("graphs built", replay.per(counter::graphs_built), 0);

  // A recorded step with a reduce into a scalar: on a device each replay
  // reads the result back behind the graph (one copy) and makes no kernel
  // launch and no device allocation. Like the direct reduce, each replay
  // folds into the value before it, which the host waits for. Beyond the
  // emulated device's two tasks (the replay, the copy to the pinned slot)
  // it allocates nothing: the read-back's completion, holding the cell the
  // result lands in and the fold into the scalar, comes from a pool.
  dp::scalar<float> residual(0.0f);
  dp::graph solve = dp::record(q, [&] {
    dp::forall(dp::on(q), g, [](float &x, float y) { x = 0.5f * (x + y); }, a, b);
    dp::reduce(dp::on(q), g, [](float x, float y) { return x > y ? x : y; }, residual,
               [](float x, float y) { return x > y ? x - y : y - x; }, a, b);
  });
  const cost reduce_replay = measure("replay of forall+reduce", q, [&] { solve.run(); });
  check(reduce_replay, {device ? 2.01 : 1.01, device ? 0.0 : 2.0, 1, device ? 1.0 : 0.0,
                        device ? 1.0 : 0.0});
  reduce_replay.exactly("graph launches", reduce_replay.per(counter::graph_launches), device ? 1 : 0);
  reduce_replay.exactly("copies to the host", reduce_replay.per(counter::to_host_copies),
                        device ? 1 : 0);
  reduce_replay.exactly("graphs built", reduce_replay.per(counter::graphs_built), 0);

  // The copy/compute pipeline of bench/gpu_bench.cpp (and the
  // overlap_pipeline sample): chunks pushed, transformed and read back on
  // two queues, the host writing each input between passes. Where
  // call-sites run on a device, fields' host memory is page-locked from the
  // start: each transfer is one copy on its queue, the calling thread
  // copying no byte and waiting for no transfer, and a read-back takes no
  // slot (rt/device/transfers.hpp). Pageable, the first pass staged every
  // 2 MiB block through the calling thread and every read-back was copied
  // out of a slot by it.
  {
    const int chunks = 4;
    const dp::grid<1> big(std::int64_t(1) << 19);
    std::vector<dp::field<1, float>> in, out;
    for (int c = 0; c < chunks; ++c)
      in.emplace_back(big, 0.5f), out.emplace_back(big, 0.0f);
    dp::queue queues[2];
    auto pass = [&] {
      for (int c = 0; c < chunks; ++c) {
        dp::queue &on = queues[c % 2];
        in[c](0) = float(c); // the host wrote the input: it crosses again
        dp::update_device(on, in[c]);
        dp::forall(dp::on(on), big, [](float &o, float x) { o = 2.0f * x; }, out[c], in[c]);
        dp::update_host(on, out[c]);
      }
      for (const auto &o : std::as_const(out))
        (void)o(0); // the results on the host: read, not written
    };
    dp::rt::counts c0 = dp::rt::counters();
    for (int run = 0; run < 2; ++run) {
      pass();
      const cost pipeline{run == 0 ? "pipeline, first pass" : "pipeline, again", chunks, 0, 0,
                          dp::rt::counters() - c0};
      c0 = dp::rt::counters();
      pipeline.exactly("bytes the host copied", pipeline.per(counter::host_copy_bytes), 0);
      pipeline.exactly("transfer waits", pipeline.per(counter::transfer_waits), 0);
      pipeline.exactly("staged copies", pipeline.per(counter::staged_copies), 0);
      pipeline.exactly("host registrations", pipeline.per(counter::host_registrations), 0);
      // The outputs' zeros are set on the device, not copied (the sample
      // opens a create region for them instead).
      pipeline.exactly("copies to the device", pipeline.per(counter::to_device_copies), device ? 1 : 0);
      pipeline.exactly("zeros set on the device", pipeline.per(counter::device_zero_fills),
                       device && run == 0 ? 1 : 0);
      pipeline.exactly("copies to the host", pipeline.per(counter::to_host_copies), device ? 1 : 0);
      if (run == 1) // the slots and blocks it needs are cached
        pipeline.exactly("pinned allocations", pipeline.per(counter::pinned_allocations), 0);
    }
    if (!dp::rt::process_dispatch_settings().record_only) {
      const float got = std::as_const(out[3])(0), want = 6.0f;
      if (got != want) {
        std::printf("pipeline: out[3](0) = %g, not %g\n", double(got), double(want));
        ++failures;
      }
    }
  }

  // Waiting is where events belong: one per wait at most; dp::wait_all()
  // waits for each queue directly (no event, no device-wide sync).
  auto check_wait = [](const char *what, auto wait) {
    const dp::rt::counts before = dp::rt::counters();
    wait();
    const dp::rt::counts spent = dp::rt::counters() - before;
    const cost c{what, 1, 0, 0, spent};
    c.check("events recorded", c.per(counter::events_recorded), 1);
    c.check("device-wide syncs", c.per(counter::device_syncs), 0);
  };
  dp::forall(dp::on(q), g, [](float &x, float y) { x += y; }, a, b);
  check_wait("queue::wait", [&] { q.wait(); });
  dp::forall(dp::on(q), g, [](float &x, float y) { x += y; }, a, b);
  dp::forall(g, [](float &x, float y) { x += y; }, a, b);
  check_wait("dp::wait_all", [] { dp::wait_all(); });

  if (dp::rt::process_dispatch_settings().record_only) {
    // The device layer recorded every launch above and ran none: a keeps
    // its first values.
    const float first = std::as_const(a)(0);
    std::printf("recorded only: a(0) = %g\n", double(first));
    failures += first != 1.0f;
    return failures ? 1 : 0;
  }
  std::printf("a(0) = %g, total = %g\n", double(a(0)), double(total.get()));
  if (failures)
    std::printf("%d costs over their limits\n", failures);
  return failures ? 1 : 0;
}
