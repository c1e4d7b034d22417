// Data regions over the emulated device: what moves when, what stays
// resident, what is freed, and the errors (data.hpp, rt/regions.hpp).
// The tests install the emulated device's transfers themselves, so they
// do not depend on DP_HOST_MODE.
#include <dp/dp.hpp>
#include <dp/rt/counters.hpp>
#include <dp/rt/regions.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <utility>

namespace {

using dp::rt::counter;
using transfers = dp::rt::region_transfers<dp::rt::emulated_device>;

const dp::detail::device_data_ops *emulated() {
  static const dp::detail::device_data_ops table{&transfers::to_device, &transfers::assume_device,
                                                 &transfers::to_host};
  return &table;
}
const dp::detail::device_data_ops *none() { return nullptr; }
/// Fields' host memory: the emulated device's page-locked cache, as a
/// translated program's runtime installs it (rt/regions.hpp), or none.
dp::detail::host_memory_ref page_locked() {
  return dp::rt::device_executor<dp::rt::emulated_device>::get().host_memory();
}
dp::detail::host_memory_ref c_heap() { return nullptr; }

struct Region : ::testing::Test {
  void SetUp() override { dp::detail::set_device_data(&emulated); }
  void TearDown() override { dp::detail::set_device_data(&none); }
  static dp::detail::storage *block(const dp::field<1, int> &f) {
    return dp::detail::field_access::owner(f);
  }
  /// The emulated device's default queue has run what it was given (the
  /// copies a region started).
  static void settle() {
    dp::rt::device_executor<dp::rt::emulated_device>::get().default_queue().wait();
  }
  /// A device launch's write of v everywhere in f's device copy.
  static void device_writes(const dp::field<1, int> &f, int v) {
    settle();
    dp::detail::storage *b = block(f);
    int *dev = static_cast<int *>(b->mirror()->device_data());
    for (std::size_t k = 0; k < b->bytes() / sizeof(int); ++k)
      dev[k] = v;
    b->device_wrote();
  }
};

TEST_F(Region, MovesCopyinAndCopyOnceAndNothingForCopyoutAndCreate) {
  dp::field<1, int> a(dp::grid<1>(100), 1), c(dp::grid<1>(100), 2), d(dp::grid<1>(100), 3),
      t(dp::grid<1>(100), 4);
  const auto before = dp::rt::counters();
  {
    dp::data_region r(dp::copyin(a), dp::copy(c), dp::copyout(d), dp::create(t));
    const auto opened = dp::rt::counters() - before;
    EXPECT_EQ(opened[counter::to_device_copies], 2);
    EXPECT_EQ(opened[counter::to_device_bytes], 800);
    EXPECT_TRUE(dp::present(a) && dp::present(c) && dp::present(d) && dp::present(t));
    dp::update_device(a); // current already: nothing moves
    EXPECT_EQ((dp::rt::counters() - before)[counter::to_device_copies], 2);
    device_writes(c, 20);
    device_writes(d, 30);
    device_writes(t, 40);
  }
  const auto closed = dp::rt::counters() - before;
  EXPECT_EQ(closed[counter::to_host_copies], 2); // c and d: copy and copyout
  EXPECT_EQ(c(5), 20);
  EXPECT_EQ(d(5), 30);
  EXPECT_FALSE(dp::present(a)); // host current: freed
  EXPECT_FALSE(dp::present(c));
  EXPECT_TRUE(dp::present(t)); // its only current copy is the device's: kept
  EXPECT_EQ(t(5), 40);         // and host access still gets it
  EXPECT_EQ(a(5), 1);
}

TEST_F(Region, HostAccessInsideStaysCoherent) {
  dp::field<1, int> a(dp::grid<1>(10), 1);
  dp::data_region r(dp::copyin(a));
  device_writes(a, 7);
  EXPECT_EQ(a(0), 7); // comes back
  a(1) = 8;           // the device copy is stale now
  EXPECT_FALSE(dp::present(a));
  dp::update_device(a);
  EXPECT_TRUE(dp::present(a));
  settle();
  EXPECT_EQ(static_cast<int *>(block(a)->mirror()->device_data())[1], 8);
}

TEST_F(Region, ARefusedRegionHoldsNothing) {
  dp::field<1, int> a(dp::grid<1>(10), 1), b(dp::grid<1>(10), 1);
  try {
    dp::data_region r(dp::copyin(b), dp::copy(a, b));
    FAIL() << "no error";
  } catch (const dp::error &e) {
    EXPECT_STREQ(e.what(), "dp::data_region(copyin(#1), copy(#1, #2)): copy's field #2 is copyin's "
                           "field #1 again (the same data, perhaps through a view): a region "
                           "names a field once");
  }
  EXPECT_FALSE(dp::present(a));
  dp::data_region other(dp::create(a), dp::copyout(b)); // other clauses now: fine
  EXPECT_TRUE(dp::present(a));
}

TEST_F(Region, NestedRegionsShareAHoldAndOnlyTheOutermostMovesData) {
  dp::field<1, int> a(dp::grid<1>(10), 1);
  const auto before = dp::rt::counters();
  {
    dp::data_region outer(dp::copy(a));
    {
      dp::data_region inner(dp::copy(a));
      device_writes(a, 5);
    }
    EXPECT_EQ((dp::rt::counters() - before)[counter::to_host_copies], 0);
    EXPECT_TRUE(dp::present(a));
    EXPECT_THROW(dp::data_region clash(dp::create(a)), dp::error);
  }
  EXPECT_EQ((dp::rt::counters() - before)[counter::to_host_copies], 1);
  EXPECT_EQ(a(0), 5);
}

TEST_F(Region, UpdateHostOnAQueueFollowsItsWork) {
  dp::queue q;
  dp::field<1, int> a(dp::grid<1>(10), 1);
  dp::data_region r(dp::copyin(a));
  device_writes(a, 9);
  std::atomic<bool> go{false};
  dp::rt::task_queue &stream = q.state()->host(); // the emulated device's queue for q
  stream.enqueue("blocker", [&] {
    while (!go)
      std::this_thread::yield();
  });
  dp::update_host(q, a);
  EXPECT_FALSE(block(a)->host_current()); // behind the blocker
  go = true;
  EXPECT_EQ(a(3), 9);
}

// A copy to the device enqueued on a busy queue: another queue's launch
// that reads the block waits for it (it used not to: it read the
// emulated device's poison).
TEST_F(Region, AnotherQueueWaitsForTheCopyThatFillsTheDeviceBlock) {
  dp::queue q1, q2;
  dp::field<1, int> a(dp::grid<1>(10), 1);
  std::atomic<bool> go{false};
  q1.state()->host().enqueue("blocker", [&] {
    while (!go)
      std::this_thread::yield();
  });
  dp::update_device(q1, a);
  const void *other = &q2.state()->host();
  const auto work = block(a)->foreign_work(other, false);
  ASSERT_EQ(work.size(), 1u);
  EXPECT_FALSE(work[0]->done());
  go = true;
  work[0]->wait();
  EXPECT_TRUE(block(a)->foreign_work(other, false).empty());
}

// A read-back on a queue that a later write replaces as the block's
// writer is dropped unwaited: its page-locked slot goes back all the same
// (it once stayed allocated until exit, 64 KiB per field on the H100).
TEST_F(Region, AReadBackDroppedUnwaitedGivesItsSlotBack) {
  dp::queue q;
  dp::field<1, int> a(dp::grid<1>(1000), 1);
  dp::data_region r(dp::copyin(a));
  device_writes(a, 9);
  auto &pinned = dp::rt::device_executor<dp::rt::emulated_device>::get().pinned();
  const std::size_t live = pinned.live_blocks();
  dp::update_host(q, a);
  EXPECT_EQ(pinned.live_blocks(), live + 1);
  q.wait();
  device_writes(a, 7); // the read-back, never waited for, is no longer the writer
  EXPECT_EQ(pinned.live_blocks(), live);
  EXPECT_EQ(a(0), 7);
}

// The paths across the bus (device/transfers.hpp), as a GPU takes them:
// a large block's first copy is staged through the queue's chunks; copied
// again (the host wrote it), its host memory is registered in place and it
// crosses in one asynchronous copy, as it does back; the registration
// goes with the field. A small block is never staged nor registered.
TEST_F(Region, ABlockCopiedAgainIsRegisteredAndCrossesInOneCopy) {
  const auto before = dp::rt::counters();
  {
    dp::field<1, int> a(dp::grid<1>(1 << 19), 1); // 2 MiB
    dp::data_region r(dp::copy(a));
    auto spent = dp::rt::counters() - before;
    EXPECT_EQ(spent[counter::staged_copies], 1);
    EXPECT_EQ(spent[counter::host_registrations], 0);
    a(0) = 5; // through a non-const field: a write, the device copy stale
    dp::update_device(a);
    spent = dp::rt::counters() - before;
    EXPECT_EQ(spent[counter::reuploads], 1);
    EXPECT_EQ(spent[counter::host_registrations], 1);
    EXPECT_EQ(spent[counter::staged_copies], 1); // the second copy was not
    EXPECT_EQ(spent[counter::registered_bytes], std::int64_t(1) << 21);
    device_writes(a, 9);
    dp::update_host(a);
    EXPECT_EQ(std::as_const(a)(0), 9);
    spent = dp::rt::counters() - before;
    EXPECT_EQ(spent[counter::staged_copies], 1);
    EXPECT_EQ(spent[counter::host_registrations], 1);
    (void)std::as_const(a)(1); // a read: nothing moves again
    dp::update_device(a);
    EXPECT_EQ((dp::rt::counters() - before)[counter::reuploads], 1);
  }
  settle();
  const auto spent = dp::rt::counters() - before;
  EXPECT_EQ(spent[counter::registered_bytes], 0);
  {
    dp::field<1, int> small(dp::grid<1>(1000), 1);
    dp::data_region r(dp::copy(small));
    small(0) = 2;
    dp::update_device(small);
  }
  const auto after = dp::rt::counters() - before;
  EXPECT_EQ(after[counter::staged_copies], 1);
  EXPECT_EQ(after[counter::host_registrations], 1);
}

// Where call-sites run on a device, a field's host memory is page-locked
// from the start: each transfer, the first included, is one copy on its
// queue, the calling thread copying no byte and waiting for nothing, and a
// read-back on a queue lands in the field's memory itself (no slot). The
// same steps over a field on the C heap: the calling thread stages the
// first copy and delivers the read-back from a slot.
TEST_F(Region, APageLockedFieldCrossesWithoutTheCallingThread) {
  auto &slots = dp::rt::device_executor<dp::rt::emulated_device>::get().pinned();
  // The steps; how many read-back slots the read-back held.
  auto steps = [&slots](dp::field<1, int> &a) {
    dp::queue q;
    dp::data_region r(dp::copy(a));
    a(0) = 5; // a write: the device copy stale
    dp::update_device(q, a);
    q.wait(); // the copy landed: the device's write comes after it
    device_writes(a, 9);
    const std::size_t live = slots.live_blocks();
    dp::update_host(q, a);
    const std::size_t taken = slots.live_blocks() - live;
    q.wait();
    EXPECT_EQ(std::as_const(a)(0), 9);
    return taken;
  };
  dp::detail::set_page_locked_memory(&page_locked);
  auto before = dp::rt::counters();
  {
    dp::field<1, int> a(dp::grid<1>(1 << 19), 1); // 2 MiB: staged were it pageable
    EXPECT_TRUE(block(a)->page_locked());
    EXPECT_EQ(steps(a), 0u);
    const auto spent = dp::rt::counters() - before;
    EXPECT_EQ(spent[counter::to_device_copies], 2);
    EXPECT_EQ(spent[counter::to_host_copies], 1);
    EXPECT_EQ(spent[counter::host_copy_bytes], 0);
    EXPECT_EQ(spent[counter::transfer_waits], 0);
    EXPECT_EQ(spent[counter::staged_copies], 0);
    EXPECT_EQ(spent[counter::host_registrations], 0);
    EXPECT_EQ(spent[counter::pinned_allocations], 1); // the field's memory
  }
  settle();
  before = dp::rt::counters();
  { // its memory back in the cache: the next field of its size reuses it
    dp::field<1, int> b(dp::grid<1>(1 << 19), 0);
    EXPECT_TRUE(block(b)->page_locked());
    EXPECT_EQ(std::as_const(b)(12345), 0); // zeroed
  }
  EXPECT_EQ((dp::rt::counters() - before)[counter::pinned_allocations], 0);

  dp::detail::set_page_locked_memory(&c_heap);
  before = dp::rt::counters();
  {
    dp::field<1, int> a(dp::grid<1>(1 << 19), 1);
    EXPECT_FALSE(block(a)->page_locked());
    EXPECT_EQ(steps(a), 1u);
  }
  const auto spent = dp::rt::counters() - before;
  EXPECT_EQ(spent[counter::staged_copies], 1);
  EXPECT_EQ(spent[counter::transfer_waits], 1); // the first copy: staged
  EXPECT_EQ(spent[counter::host_copy_bytes], 2 * (std::int64_t(1) << 21)); // and the slot
}

// A value-initialised field's device copy is zeros set on the device, not
// a copy of the host's zeros (the emulated device fills fresh memory with a
// poison byte, so a missing fill shows); the host's first write ends that:
// its data crosses as any other. Only in a device's page-locked memory: on
// the C heap (no device installed any) a fresh field is host-exclusive
// from the start, and its zeros cross as its data.
TEST_F(Region, AValueInitialisedFieldIsZeroedOnTheDeviceNotCopied) {
  auto device_ints = [](const dp::field<1, int> &f) {
    settle();
    return static_cast<const int *>(block(f)->mirror()->device_data());
  };
  dp::detail::set_page_locked_memory(&page_locked);
  dp::field<1, int> z(dp::grid<1>(1000)), w(dp::grid<1>(1000));
  w(3) = 4; // written before its first device use: uploaded
  auto before = dp::rt::counters();
  {
    dp::data_region r(dp::copyin(z, w));
    const auto spent = dp::rt::counters() - before;
    EXPECT_EQ(spent[counter::device_zero_fills], 1);
    EXPECT_EQ(spent[counter::to_device_bytes], 4000); // w's alone
    EXPECT_EQ(device_ints(z)[0], 0);
    EXPECT_EQ(device_ints(z)[999], 0);
    EXPECT_EQ(device_ints(w)[3], 4);
    EXPECT_EQ(std::as_const(z)(500), 0); // the host's zeros, without a copy back
    EXPECT_EQ((dp::rt::counters() - before)[counter::to_host_copies], 0);
    z(7) = 8; // a host write: the device's zeros stale, the next use copies
    dp::update_device(z);
    EXPECT_EQ(device_ints(z)[7], 8);
    EXPECT_EQ((dp::rt::counters() - before)[counter::to_device_bytes], 8000);
  }
  before = dp::rt::counters();
  { // first written on the host through data(): that write crosses too
    dp::field<1, int> y(dp::grid<1>(1000));
    y.data()[9] = 10;
    dp::data_region r(dp::copyin(y));
    EXPECT_EQ(device_ints(y)[9], 10);
    EXPECT_EQ((dp::rt::counters() - before)[counter::device_zero_fills], 0);
  }
  { // used on the device only, then read: the device's data comes back
    dp::field<1, int> d(dp::grid<1>(1000));
    {
      dp::data_region r(dp::copy(d));
      device_writes(d, 6);
    }
    EXPECT_EQ(std::as_const(d)(999), 6);
  }
  dp::detail::set_page_locked_memory(&c_heap);
  before = dp::rt::counters();
  {
    dp::field<1, int> h(dp::grid<1>(1000));
    dp::data_region r(dp::copyin(h));
    EXPECT_EQ(device_ints(h)[999], 0);
    const auto spent = dp::rt::counters() - before;
    EXPECT_EQ(spent[counter::device_zero_fills], 0);
    EXPECT_EQ(spent[counter::to_device_bytes], 4000);
  }
}

// A queue that must follow a result read back on another queue follows
// its copy on the device (an event), and the host does not wait for it.
TEST_F(Region, AQueueFollowsAReadBackOnTheDeviceNotOnTheHost) {
  dp::queue q1, q2;
  dp::field<1, int> a(dp::grid<1>(1000), 1);
  dp::data_region r(dp::copyin(a));
  device_writes(a, 9);
  std::atomic<bool> go{false};
  q1.state()->host().enqueue("blocker", [&] {
    while (!go)
      std::this_thread::yield();
  });
  dp::update_host(q1, a); // a read-back behind the blocker
  auto &ex = dp::rt::device_executor<dp::rt::emulated_device>::get();
  dp::rt::task_queue &other = q2.state()->host();
  const auto before = dp::rt::counters();
  ex.follow(other, block(a)->foreign_work(&other, true)); // q2 is about to write a
  const auto spent = dp::rt::counters() - before;
  EXPECT_EQ(spent[counter::host_follows], 0);
  EXPECT_EQ(spent[counter::queue_waits], 1);
  go = true;
  EXPECT_EQ(std::as_const(a)(0), 9);
}

// What the check at exit counts: a device state that goes while a block
// of its cache is still handed out leaves that block's bytes counted (a
// leak), one whose blocks all came back leaves none.
TEST(MemoryAtExit, ABlockNeverGivenBackStaysCounted) {
  using state_t = dp::rt::device_state<dp::rt::emulated_device>;
  const auto before = dp::rt::counters();
  {
    state_t clean;
    clean.cache.release(clean.cache.allocate(1000, nullptr), nullptr, nullptr);
    clean.pinned.release(clean.pinned.allocate(10, nullptr), nullptr, nullptr);
  }
  const auto after_clean = dp::rt::counters() - before;
  EXPECT_EQ(after_clean[counter::device_bytes], 0);
  EXPECT_EQ(after_clean[counter::pinned_bytes], 0);
  void *leaked = nullptr;
  {
    state_t leaky;
    leaked = leaky.cache.allocate(1000, nullptr); // never given back
  }
  EXPECT_EQ((dp::rt::counters() - before)[counter::device_bytes], 1024);
  dp::rt::emulated_device::deallocate(leaked);
  dp::rt::count(counter::device_bytes, -1024);
}

TEST(RegionOnTheHost, MovesNothingAndIsCheckedTheSame) {
  dp::field<1, int> a(dp::grid<1>(10), 1);
  const auto before = dp::rt::counters();
  {
    dp::data_region r(dp::copy(a));
    EXPECT_TRUE(dp::present(a));
    EXPECT_THROW(dp::data_region clash(dp::copyin(a)), dp::error);
  }
  EXPECT_FALSE(dp::present(a));
  const auto moved = dp::rt::counters() - before;
  EXPECT_EQ(moved[counter::to_device_copies] + moved[counter::to_host_copies], 0);
}

} // namespace
