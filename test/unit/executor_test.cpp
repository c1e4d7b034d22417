// The executors' bookkeeping in plain host code: the caching allocator,
// the in-order task queue (the emulated device's stream), a field block's
// writer and readers, and a scalar whose result arrives later. The GPU runs
// the same code over its vendor layer.
#include <dp/detail/pool.hpp>
#include <dp/dp.hpp>
#include <dp/rt/backend.hpp>
#include <dp/rt/counters.hpp>
#include <dp/rt/device/executor.hpp>
#include <dp/rt/device/memory.hpp>
#include <dp/rt/emulated/device.hpp>
#include <dp/rt/task_queue.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using dp::rt::counter;

// --- the pool of per-launch blocks ------------------------------------------

// A block given back is the next one taken on that thread (no lock: each
// thread keeps a few), and blocks given back on a thread that then ends
// are taken again elsewhere, not allocated anew. (A block size no other
// object of the runtime has, so the pool is this test's alone.)
TEST(Pool, BlocksComeBackOnTheirThreadAndAcrossThreads) {
  auto &pool = dp::detail::fixed_pool<72, 8>::get();
  void *a = pool.take();
  pool.give(a);
  EXPECT_EQ(pool.take(), a);
  std::vector<void *> blocks{a};
  for (int i = 1; i < 40; ++i)
    blocks.push_back(pool.take());
  std::thread([&] {
    for (void *b : blocks)
      pool.give(b);
  }).join();
  const std::set<void *> given(blocks.begin(), blocks.end());
  ASSERT_EQ(given.size(), blocks.size());
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    void *b = pool.take();
    EXPECT_TRUE(given.count(b)) << "block " << i << " was allocated anew";
    blocks[i] = b;
  }
  for (void *b : blocks)
    pool.give(b);
}

// --- the caching allocator ---------------------------------------------------

int raw_allocations = 0, raw_frees = 0;
bool refuse_next = false;
void *counting_allocate(std::size_t bytes) {
  if (refuse_next) {
    refuse_next = false;
    throw dp::error("out of memory");
  }
  ++raw_allocations;
  return std::malloc(bytes);
}
void counting_free(void *p) {
  ++raw_frees;
  std::free(p);
}

/// A completion the test finishes by hand.
class manual_completion final : public dp::detail::completion {
public:
  explicit manual_completion(const void *queue = nullptr) : queue_(queue) {}
  void wait() override {
    ++waits;
    finished = true;
  }
  void wait_quietly() noexcept override { finished = true; }
  bool done() const override { return finished; }
  const void *queue() const override { return queue_; }
  bool finished = false;
  int waits = 0;

private:
  const void *queue_;
};

struct Cache : ::testing::Test {
  void SetUp() override { raw_allocations = raw_frees = 0; }
  int q1 = 0, q2 = 0; // two queues' identities
};

TEST_F(Cache, SizeClassesArePowersOfTwoUpTo256MiBThenExact) {
  EXPECT_EQ(dp::rt::block_cache::size_class(1), 256u);
  EXPECT_EQ(dp::rt::block_cache::size_class(257), 512u);
  EXPECT_EQ(dp::rt::block_cache::size_class(4096), 4096u);
  EXPECT_EQ(dp::rt::block_cache::size_class(std::size_t(1) << 28), std::size_t(1) << 28);
  EXPECT_EQ(dp::rt::block_cache::size_class((std::size_t(1) << 28) + 1), (std::size_t(1) << 28) + 1);
}

// A cache with a smaller largest class (fields' page-locked host memory)
// rounds only small blocks up, and keeps at most so many bytes idle: a
// block past that is freed when given back, unless work still uses it.
TEST_F(Cache, ASmallerLargestClassAndAnIdleLimit) {
  EXPECT_EQ(dp::rt::block_cache::size_class(70000, 1 << 16), 70000u);
  EXPECT_EQ(dp::rt::block_cache::size_class(1000, 1 << 16), 1024u);
  dp::rt::block_cache cache(&counting_allocate, &counting_free, counter::device_bytes, 1 << 16,
                            200000);
  void *a = cache.allocate(100000, &q1), *b = cache.allocate(100000, &q1),
       *c = cache.allocate(100000, &q1);
  cache.release(a, &q1, nullptr);
  cache.release(b, &q1, nullptr); // 200000 idle: the limit
  EXPECT_EQ(raw_frees, 0);
  auto busy = std::make_shared<manual_completion>(&q1);
  cache.release(c, &q1, busy); // past it, but still in use: cached
  EXPECT_EQ(raw_frees, 0);
  EXPECT_EQ(cache.cached_blocks(), 3u);
  void *d = cache.allocate(100000, &q1);
  const dp::rt::counts before = dp::rt::counters();
  cache.release(d, &q1, nullptr); // past it and unused: freed
  EXPECT_EQ(raw_frees, 1);
  // A raw free (cudaFree, cudaFreeHost) waits for the whole device.
  EXPECT_EQ((dp::rt::counters() - before)[counter::device_syncs], 1);
  EXPECT_EQ(cache.cached_blocks(), 2u);
  busy->finished = true;
  cache.trim();
  EXPECT_EQ(raw_frees, 3);
}

TEST_F(Cache, ABlockGivenBackOnAQueueServesThatQueueAtOnce) {
  dp::rt::block_cache cache(&counting_allocate, &counting_free);
  const dp::rt::counts before = dp::rt::counters();
  void *a = cache.allocate(1000, &q1);
  auto busy = std::make_shared<manual_completion>(&q1);
  cache.release(a, &q1, busy); // work on q1 still uses it
  void *b = cache.allocate(900, &q1); // same class, same queue: in order, so free
  EXPECT_EQ(a, b);
  EXPECT_EQ(raw_allocations, 1);
  const dp::rt::counts spent = dp::rt::counters() - before;
  EXPECT_EQ(spent[counter::device_allocations], 1);
  EXPECT_EQ(spent[counter::cache_reuses], 1);
  cache.release(b, &q1, nullptr);
}

TEST_F(Cache, AnotherQueueWaitsUntilTheWorkThatUsedItIsDone) {
  dp::rt::block_cache cache(&counting_allocate, &counting_free);
  void *a = cache.allocate(1000, &q1);
  auto busy = std::make_shared<manual_completion>(&q1);
  cache.release(a, &q1, busy);
  void *b = cache.allocate(1000, &q2); // still in use on q1: a new block
  EXPECT_NE(a, b);
  EXPECT_EQ(raw_allocations, 2);
  busy->finished = true;
  cache.release(b, &q2, nullptr);
  void *c = cache.allocate(1000, &q2); // b or a: both free for q2 now
  EXPECT_TRUE(c == a || c == b);
  EXPECT_EQ(raw_allocations, 2);
  cache.release(c, &q2, nullptr);
}

TEST_F(Cache, ClassesDoNotMix) {
  dp::rt::block_cache cache(&counting_allocate, &counting_free);
  void *small = cache.allocate(100, &q1);
  cache.release(small, &q1, nullptr);
  void *large = cache.allocate(100000, &q1);
  EXPECT_NE(small, large);
  cache.release(large, &q1, nullptr);
  EXPECT_EQ(cache.cached_blocks(), 2u);
  EXPECT_EQ(cache.live_blocks(), 0u);
}

TEST_F(Cache, OutOfMemoryFreesWhatNothingUsesAndTriesAgain) {
  dp::rt::block_cache cache(&counting_allocate, &counting_free);
  void *a = cache.allocate(100, &q1);
  cache.release(a, &q1, nullptr);
  refuse_next = true;
  void *b = cache.allocate(100000, &q1); // refused once: the cached block goes, then it works
  EXPECT_NE(b, nullptr);
  EXPECT_EQ(raw_frees, 1);
  EXPECT_EQ(cache.cached_blocks(), 0u);
  cache.release(b, &q1, nullptr);
}

TEST_F(Cache, TrimKeepsBlocksWorkStillUses) {
  dp::rt::block_cache cache(&counting_allocate, &counting_free);
  void *a = cache.allocate(100, &q1), *b = cache.allocate(100, &q1);
  auto busy = std::make_shared<manual_completion>(&q1);
  cache.release(a, &q1, busy);
  cache.release(b, &q1, nullptr);
  cache.trim();
  EXPECT_EQ(raw_frees, 1);
  EXPECT_EQ(cache.cached_blocks(), 1u);
  busy->finished = true;
}

TEST_F(Cache, BlocksAboveTheLargestClassAreCachedTrimmedAndMadeAgain) {
  dp::rt::block_cache cache(&counting_allocate, &counting_free);
  const std::size_t big = dp::rt::block_cache::largest_class + 1; // an exact size: never touched
  void *a = cache.allocate(big, &q1);
  cache.release(a, &q1, nullptr);
  EXPECT_EQ(cache.allocate(big, &q1), a); // cached at its exact size
  cache.release(a, &q1, nullptr);
  cache.trim(); // frees it and forgets its size's list
  EXPECT_EQ(raw_frees, 1);
  EXPECT_EQ(cache.cached_blocks(), 0u);
  void *b = cache.allocate(big, &q1);
  EXPECT_EQ(raw_allocations, 2);
  cache.release(b, &q1, nullptr); // its list made again
  EXPECT_EQ(cache.cached_blocks(), 1u);
  EXPECT_EQ(cache.allocate(big, &q1), b);
  cache.release(b, &q1, nullptr);
}

// --- the task queue -----------------------------------------------------------

TEST(TaskQueue, RunsTasksInOrderBehindTheCaller) {
  dp::rt::task_queue q;
  std::vector<int> order;
  std::atomic<bool> release{false};
  q.enqueue("first", [&] {
    while (!release)
      std::this_thread::yield();
    order.push_back(1);
  });
  q.enqueue("second", [&] { order.push_back(2); });
  const dp::detail::pending done = q.record();
  EXPECT_FALSE(done->done()); // enqueue returned while the first task waits
  release = true;
  done->wait();
  EXPECT_TRUE(done->done());
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

// A cached device block remembers the last work that used it, and may be
// asked about it after that work's queue is gone (a dp::queue destroyed
// before the program's device state, at exit): the event still answers.
TEST(TaskRing, KeepsOrderAcrossWrapsAndGrowth) {
  dp::rt::task_ring<int> ring;
  int next_in = 0, next_out = 0;
  // Push and pop at uneven rates: the head wraps around while the ring
  // grows, and every value comes out once, in order.
  for (int round = 0; round < 200; ++round) {
    for (int k = 0; k < round % 7 + 1; ++k)
      ring.push_back(next_in++);
    for (int k = 0; k < round % 5 + 1 && !ring.empty(); ++k)
      EXPECT_EQ(ring.pop_front(), next_out++);
  }
  while (!ring.empty())
    EXPECT_EQ(ring.pop_front(), next_out++);
  EXPECT_EQ(next_out, next_in);
}

TEST(TaskQueue, AnEventOutlivesItsQueue) {
  dp::detail::pending done;
  const void *id = nullptr;
  {
    dp::rt::task_queue q;
    id = &q;
    q.enqueue("work", [] {});
    done = q.record();
  }
  EXPECT_TRUE(done->done());
  EXPECT_NO_THROW(done->wait());
  EXPECT_EQ(done->queue(), id);
}

// A mark refers to its queue's book by address: when the queue goes, its
// book serves the next queue, numbering on. The gone queue's mark is done
// and still names its own queue; the next queue's marks wait for its work.
TEST(Marks, AMarkOutlivesItsQueueWhoseBookServesTheNextQueue) {
  using device_t = dp::rt::emulated_device;
  device_t &device = dp::rt::device_executor<device_t>::get().device();
  std::atomic<bool> go{false};
  auto held = [&] {
    while (!go.load())
      std::this_thread::yield();
  };
  dp::detail::pending old;
  const void *old_id = nullptr, *old_book = nullptr;
  {
    dp::rt::task_queue q;
    old_id = &q;
    q.enqueue("held", held);
    old = dp::rt::mark_in(device, q, "old work");
    old_book = &dp::rt::marks_of(device, q);
    EXPECT_FALSE(old->done());
    go = true;
  } // the queue runs its work and goes
  EXPECT_TRUE(old->done());
  EXPECT_EQ(old->queue(), old_id);

  go = false;
  dp::rt::task_queue next;
  next.enqueue("held", held);
  const dp::detail::pending fresh = dp::rt::mark_in(device, next, "new work");
  EXPECT_EQ(&dp::rt::marks_of(device, next), old_book) << "a gone queue's book is handed on";
  EXPECT_EQ(fresh->queue(), &next);
  EXPECT_FALSE(fresh->done());
  EXPECT_TRUE(old->done());
  EXPECT_NO_THROW(old->wait());
  go = true;
  EXPECT_NO_THROW(fresh->wait());
  EXPECT_TRUE(fresh->done());
}

// Counters are a block per thread, summed when read: counts made on
// threads that ended, and on two threads at once, are all in the totals.
TEST(Counters, EveryThreadsCountsAreInTheTotals) {
  const dp::rt::counts before = dp::rt::counters();
  auto many = [] {
    for (int i = 0; i < 100000; ++i)
      dp::rt::count(counter::device_queries);
  };
  std::thread(many).join();
  std::thread a(many), b(many);
  a.join();
  b.join();
  std::thread(many).join(); // takes the block of a thread that ended
  many();
  EXPECT_EQ((dp::rt::counters() - before)[counter::device_queries], 500000);
}

// Two threads' counts never share a cache line: a line both write moves
// between their cores at every count (a host axpy's call-site ran at 0.6
// of OpenMP's when one more counter moved the blocks' boundaries).
TEST(Counters, TwoThreadsBlocksShareNoCacheLine) {
  constexpr std::uintptr_t line = 64;
  std::uintptr_t first = 0, second = 0;
  std::atomic<int> attached{0};
  auto block_of = [&attached](std::uintptr_t &at) {
    dp::rt::count(counter::device_queries, 0);
    at = reinterpret_cast<std::uintptr_t>(dp::rt::detail::this_thread_counters);
    ++attached;
    while (attached.load() < 2) // both alive: neither takes a block the other gave back
      std::this_thread::yield();
  };
  std::thread a(block_of, std::ref(first)), b(block_of, std::ref(second));
  a.join();
  b.join();
  const std::uintptr_t size = sizeof(dp::rt::detail::counter_block);
  EXPECT_EQ(first % line, 0u);
  EXPECT_EQ(second % line, 0u);
  EXPECT_EQ(size % line, 0u);
  EXPECT_TRUE(first + size <= second || second + size <= first);
}

TEST(TaskQueue, AnErrorIsThrownOnceByTheFirstWaitCoveringIt) {
  dp::rt::task_queue q;
  const dp::detail::pending before = q.record();
  q.enqueue("dp::forall at k.cpp:3:5", [] { throw dp::error("the tile's threads diverged"); });
  const dp::detail::pending after_error = q.record();
  bool later_ran = false;
  q.enqueue("later", [&] { later_ran = true; });
  const dp::detail::pending last = q.record();
  EXPECT_NO_THROW(before->wait()); // it does not cover the failing task
  try {
    after_error->wait();
    FAIL() << "no error";
  } catch (const dp::error &e) {
    EXPECT_STREQ(e.what(), "dp::forall at k.cpp:3:5: the tile's threads diverged");
  }
  EXPECT_NO_THROW(last->wait()); // reported once
  EXPECT_TRUE(later_ran);
}

TEST(TaskQueue, AQuietWaitLeavesTheErrorForTheNext) {
  dp::rt::task_queue q;
  q.enqueue("site", [] { throw dp::error("site: failed"); });
  q.record()->wait_quietly();
  EXPECT_THROW(q.wait(), dp::error);
  EXPECT_NO_THROW(q.wait());
}

// --- a block's writer and readers -------------------------------------------

TEST(PendingBlock, HostReadsWaitForTheWriterAndWritesForTheReaders) {
  dp::field<1, int> f(dp::grid<1>(8), 1);
  dp::detail::storage *block = dp::detail::field_access::owner(f);

  auto writer = std::make_shared<manual_completion>();
  block->launch_writes(writer, /*on_device=*/false); // a host task writing it
  EXPECT_FALSE(block->host_current());
  const dp::field<1, int> &view = f;
  EXPECT_EQ(view(3), 1); // waits for the writer
  EXPECT_EQ(writer->waits, 1);
  EXPECT_TRUE(block->host_current());

  auto reader = std::make_shared<manual_completion>();
  block->launch_reads(reader);
  EXPECT_EQ(view(3), 1); // reading beside a reader: no wait
  EXPECT_EQ(reader->waits, 0);
  f(3) = 5; // writing: waits for the reader first
  EXPECT_EQ(reader->waits, 1);
  EXPECT_EQ(view(3), 5);
}

TEST(PendingBlock, OneReaderPerQueueIsKept) {
  dp::field<1, int> f(dp::grid<1>(8), 1);
  dp::detail::storage *block = dp::detail::field_access::owner(f);
  int q = 0, r = 0;
  block->launch_reads(std::make_shared<manual_completion>(&q));
  block->launch_reads(std::make_shared<manual_completion>(&q));
  block->launch_reads(std::make_shared<manual_completion>(&r));
  EXPECT_EQ(block->readers().size(), 2u);
  block->launch_writes(std::make_shared<manual_completion>(&q), true);
  EXPECT_TRUE(block->readers().empty()); // done when the writer is
  block->launch_writes(nullptr, true);
}

/// Work a test holds on a queue's thread until it opens the gate, or for
/// 5 s (then too_long): where the host wrongly waits for that work, the
/// test fails instead of hanging.
struct gate {
  std::atomic<bool> go{false}, too_long{false};
  void hold() {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!go.load() && !too_long.load())
      if (std::chrono::steady_clock::now() > until)
        too_long = true;
      else
        std::this_thread::yield();
  }
  void open() { go = true; }
  void close() { go = false; }
};

// A block going away while a launch on a device still reads it: its
// device copy goes back to the device's cache behind the launch, and the
// host does not wait. Another queue gets other memory until the launch is
// done (its queue, in order, may take it at once), and the launch reads
// the values the block held.
TEST(PendingBlock, ABlocksEndLeavesItsDeviceCopyToTheLaunchStillReadingIt) {
  using device_t = dp::rt::emulated_device;
  auto &ex = dp::rt::device_executor<device_t>::get();
  dp::rt::task_queue q, other;
  constexpr std::size_t n = 64, bytes = n * sizeof(float);
  dp::detail::storage *block = dp::detail::storage::create<float>(n, 2.0f);
  block->attach_mirror(ex.mirror(*block, q));
  block->make_device_current(&q); // q idle: copied at once, from the heap
  const auto *dev = static_cast<const float *>(block->mirror()->device_data());

  gate held;
  float seen = 0.0f;
  q.enqueue("a launch reading the block", [&] {
    held.hold();
    for (std::size_t i = 0; i < n; ++i)
      seen += dev[i];
  });
  block->launch_reads(dp::rt::mark_in(ex.device(), q, "the launch"));

  const dp::rt::counts before = dp::rt::counters();
  block->release(); // the last reference: the block goes, the launch held
  EXPECT_FALSE(held.too_long) << "the block's end waited for the launch";
  EXPECT_EQ((dp::rt::counters() - before)[counter::host_waits], 0);
  void *elsewhere = ex.cache().allocate(bytes, &other);
  EXPECT_NE(elsewhere, static_cast<const void *>(dev)) << "another queue took memory a launch still reads";
  ex.cache().release(elsewhere, &other, nullptr);

  held.open();
  q.wait();
  EXPECT_EQ(seen, 2.0f * n);
  void *again = ex.cache().allocate(bytes, &other); // the launch is done: free for any queue
  ex.cache().release(again, &other, nullptr);
}

// A field read back while its writer is the last work of its queue: the
// copy follows it there (no event). With later work behind the writer on
// that queue, the copy goes on the default queue behind the writer's
// event where one marks the writer's place already (the read then waits
// for none of the later work); where none does, an event recorded then
// would cover the later work too, so the copy waits behind that work on
// the writer's queue, with no event.
TEST(PendingBlock, AReadBackFollowsItsWriterNotLaterWorkWhereAnEventMarksIt) {
  using device_t = dp::rt::emulated_device;
  auto &ex = dp::rt::device_executor<device_t>::get();
  dp::rt::task_queue q;
  constexpr std::size_t n = 32;
  dp::detail::storage *block = dp::detail::storage::create<float>(n, 1.0f);
  block->attach_mirror(ex.mirror(*block, q));
  block->make_device_current(&q);
  auto *dev = static_cast<float *>(block->mirror()->device_data());
  const auto *host = static_cast<const float *>(block->host_data());
  const auto write = [&](float v) {
    q.enqueue("a launch writing the block", [dev, v] {
      for (std::size_t i = 0; i < n; ++i)
        dev[i] = v;
    });
    block->launch_writes(dp::rt::mark_in(ex.device(), q, "the writer"), true);
  };
  gate held;
  const auto later_work = [&] { // as a launch's: enqueued, then marked
    held.close();
    q.enqueue("later work on the writer's queue", [&] { held.hold(); });
    return dp::rt::mark_in(ex.device(), q, "later work");
  };

  write(2.0f);
  dp::rt::counts before = dp::rt::counters();
  block->make_host_current();
  dp::rt::counts spent = dp::rt::counters() - before;
  EXPECT_EQ(host[n - 1], 2.0f);
  EXPECT_EQ(spent[counter::host_waits], 1);
  EXPECT_EQ(spent[counter::events_recorded], 0) << "the copy went behind the writer on its own queue";

  // The writer's place marked by an event (a question whether it is done
  // records one), then later work: the read does not wait for that work.
  write(3.0f);
  (void)block->writer()->done();
  dp::detail::pending later = later_work();
  before = dp::rt::counters();
  block->make_host_current();
  spent = dp::rt::counters() - before;
  EXPECT_FALSE(held.too_long) << "the read waited for later work on the writer's queue";
  EXPECT_EQ(host[n - 1], 3.0f);
  EXPECT_EQ(spent[counter::host_waits], 1);
  EXPECT_EQ(spent[counter::events_recorded], 0) << "the writer's event serves";
  held.open();
  q.wait();

  // No event at the writer's place: behind the later work on its queue.
  write(4.0f);
  later = later_work();
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    held.open();
  });
  before = dp::rt::counters();
  block->make_host_current();
  spent = dp::rt::counters() - before;
  release.join();
  EXPECT_FALSE(held.too_long);
  EXPECT_EQ(host[n - 1], 4.0f);
  EXPECT_EQ(spent[counter::host_waits], 1);
  EXPECT_EQ(spent[counter::events_recorded], 0) << "an event recorded now would cover the later work";
  EXPECT_EQ(spent[counter::queue_waits], 0);
  q.wait();
  block->release();
}

// A block whose data is the device's copied into a new block on the
// device (dp::read_apart of one field): behind the launch still writing
// it, the host waiting for nothing and nothing crossing the bus; the new
// block's data is then the device's, and a launch on another queue that
// writes the block waits for the copy. A block the host holds current is
// left to a host copy.
TEST(PendingBlock, ACopyOnTheDeviceFollowsItsWriterAndHoldsBackLaterWriters) {
  using device_t = dp::rt::emulated_device;
  auto &ex = dp::rt::device_executor<device_t>::get();
  dp::rt::task_queue q, other;
  constexpr std::size_t n = 48;
  dp::detail::storage *block = dp::detail::storage::create<float>(n, 1.0f);
  block->attach_mirror(ex.mirror(*block, q));
  block->make_device_current(&q);
  dp::detail::storage *host_held = dp::detail::storage::create_for_overwrite<float>(n);
  EXPECT_FALSE(block->copy_on_device_into(*host_held)) << "the host's copy is current";

  auto *dev = static_cast<float *>(block->mirror()->device_data());
  gate held;
  q.enqueue("a launch writing the block", [&held, dev] {
    held.hold();
    for (std::size_t i = 0; i < n; ++i)
      dev[i] = 5.0f;
  });
  block->launch_writes(dp::rt::mark_in(ex.device(), q, "the writer"), true);

  const dp::rt::counts before = dp::rt::counters();
  dp::detail::storage *copy = dp::detail::storage::create_for_overwrite<float>(n);
  ASSERT_TRUE(block->copy_on_device_into(*copy));
  dp::rt::counts spent = dp::rt::counters() - before;
  EXPECT_FALSE(held.too_long) << "the copy waited for the writer on the host";
  EXPECT_EQ(spent[counter::device_copies], 1);
  EXPECT_EQ(spent[counter::host_waits], 0);
  EXPECT_EQ(spent[counter::to_host_copies] + spent[counter::to_device_copies], 0);
  EXPECT_TRUE(copy->device_current());
  EXPECT_FALSE(copy->host_current());
  EXPECT_FALSE(block->foreign_work(&other, /*writes=*/true).empty()) << "a writer elsewhere must wait for the copy";

  held.open();
  copy->make_host_current();
  const auto *copied = static_cast<const float *>(copy->host_data());
  EXPECT_EQ(copied[0], 5.0f) << "copied before its writer was done";
  EXPECT_EQ(copied[n - 1], 5.0f);
  q.wait();
  copy->release();
  host_held->release();
  block->release();
}

// Page-locked host memory a copy to the device may still read goes back
// to the runtime's blocks behind that copy: not handed out before it is
// done, then handed out again without a new allocation.
TEST(PendingBlock, PageLockedMemoryAfterACopyStillReadingIt) {
  using device_t = dp::rt::emulated_device;
  const auto &host = dp::rt::device_executor<device_t>::get().host_memory();
  void *p = host->allocate(4096);
  ASSERT_NE(p, nullptr);
  auto reading = std::make_shared<manual_completion>();
  host->deallocate_after(p, 4096, reading);
  EXPECT_EQ(reading->waits, 0);
  void *meanwhile = host->allocate(4096);
  EXPECT_NE(meanwhile, p);
  reading->finished = true;
  void *after = host->allocate(4096);
  EXPECT_EQ(after, p);
  host->deallocate(meanwhile, 4096);
  host->deallocate(after, 4096);
}

// --- a scalar whose value arrives later --------------------------------------

TEST(PendingScalar, GetWaitsAndTheContinuationStoresTheValue) {
  dp::scalar<double> s(1.0);
  auto work = std::make_shared<manual_completion>();
  double *slot = dp::detail::scalar_access::slot(s);
  dp::detail::scalar_access::later(
      s, dp::detail::then_after(work, [slot] { *slot = 42.0; }));
  const dp::scalar<double> copy = s; // copying waits too
  EXPECT_EQ(work->waits, 1);
  EXPECT_EQ(copy.get(), 42.0);
  EXPECT_EQ(s.get(), 42.0);
}

} // namespace

// --- the backend, chosen once -------------------------------------------------

int device_queries = 0;
bool device_answers = true;
bool fake_device_present() {
  ++device_queries;
  return device_answers;
}

TEST(BackendChoice, AFailingDeviceQueryAfterStartUpCannotChangeIt) {
  // A GPU build's choice: the device is asked once, at the first launch;
  // later launches (after a sticky error makes the query fail, say) keep it.
  ASSERT_EQ(std::getenv("DP_BACKEND"), nullptr);
  device_queries = 0;
  device_answers = true;
  dp::rt::backend_choice choice(dp::rt::backend::cuda, &fake_device_present);
  EXPECT_EQ(choice.get(), dp::rt::backend::cuda);
  device_answers = false;
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(choice.get(), dp::rt::backend::cuda);
  EXPECT_EQ(device_queries, 1);
  // Without a device at start-up, the host, for good as well.
  dp::rt::backend_choice none(dp::rt::backend::hip, &fake_device_present);
  EXPECT_EQ(none.get(), dp::rt::backend::host);
  device_answers = true;
  EXPECT_EQ(none.get(), dp::rt::backend::host);
  EXPECT_EQ(device_queries, 2);
}

TEST(SiteNames, EveryCallSiteKeepsOneNameAcrossCallsAndThreads) {
  // More call-sites than a thread's table holds, their locations a few
  // bytes apart as a stub's literals are: each keeps one name, the same
  // object for every call and every thread, found in the table or, past
  // it, in the process's map.
  std::string text;
  std::vector<std::size_t> at;
  for (int i = 0; i < 700; ++i) {
    at.push_back(text.size());
    text += "t.cpp:" + std::to_string(i) + ":5";
    text.push_back('\0');
  }
  const char *kinds[] = {"dp::forall", "dp::reduce"};
  std::vector<const std::string *> first;
  for (int round = 0; round < 3; ++round)
    for (std::size_t i = 0; i < at.size(); ++i) {
      const char *location = text.c_str() + at[i];
      const std::string &name = dp::rt::site_name(kinds[i % 2], location);
      ASSERT_EQ(name, std::string(kinds[i % 2]) + " at " + location);
      if (round == 0)
        first.push_back(&name);
      else
        ASSERT_EQ(&name, first[i]) << location;
    }
  // The same location under another kind is another call-site.
  EXPECT_EQ(dp::rt::site_name("dp::scan", text.c_str()), std::string("dp::scan at t.cpp:0:5"));
  std::thread other([&] {
    for (std::size_t i = 0; i < at.size(); ++i)
      EXPECT_EQ(&dp::rt::site_name(kinds[i % 2], text.c_str() + at[i]), first[i]);
  });
  other.join();
}

TEST(BackendChoice, AHostBuildRunsOnTheHostWithoutAskingAnyDevice) {
  // No translated GPU program registered a device here.
  EXPECT_EQ(dp::rt::process_backend(), dp::rt::backend::host);
  dp::rt::backend_choice choice(dp::rt::backend::host, nullptr);
  EXPECT_EQ(choice.get(), dp::rt::backend::host);
}
