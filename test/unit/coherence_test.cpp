// Host/device coherence of field data (docs/runtime.md): a device copy is
// refreshed only when stale, and host access copies back only when the
// device wrote. A counting mirror stands in for the GPU.
#include <dp/dp.hpp>
#include <gtest/gtest.h>

#include "counting_mirror.hpp"

#include <cstring>
#include <vector>

namespace {

using dp_test::counting_mirror;

struct Coherence : ::testing::Test {
  dp::field<1, int> f{dp::grid<1>(16), 3};
  dp::detail::storage *block = dp::detail::field_access::owner(f);
  counting_mirror *mirror = nullptr;
  void SetUp() override {
    mirror = new counting_mirror(block->bytes());
    block->attach_mirror(mirror); // the storage owns it
  }
  int *device_ints() const { return static_cast<int *>(mirror->device_data()); }
};

TEST_F(Coherence, ReadOnlyLaunchesCopyInOnce) {
  block->make_device_current();
  block->make_device_current();
  EXPECT_EQ(mirror->to_device, 1);
  EXPECT_EQ(device_ints()[5], 3);
  EXPECT_EQ(f(5), 3); // host still current: no copy back
  EXPECT_EQ(mirror->to_host, 0);
}

TEST_F(Coherence, DeviceWritesCopyBackOnFirstHostAccessOnly) {
  block->make_device_current();
  device_ints()[2] = 42; // the kernel writes
  block->device_wrote();
  const dp::field<1, int> &view = f;
  EXPECT_EQ(view(2), 42);
  EXPECT_EQ(view(3), 3);
  EXPECT_EQ(mirror->to_host, 1);
  // A later launch finds the device copy current: nothing moves.
  block->make_device_current();
  EXPECT_EQ(mirror->to_device, 1);
}

TEST_F(Coherence, HostWritesMakeTheDeviceCopyStale) {
  block->make_device_current();
  f(7) = 9; // non-const access: the device copy is stale now
  block->make_device_current();
  EXPECT_EQ(mirror->to_device, 2);
  EXPECT_EQ(device_ints()[7], 9);
  // Reads through a read-only view keep the device copy current.
  const dp::field<1, const int> ro = dp::read_only(f);
  EXPECT_EQ(ro(7), 9);
  block->make_device_current();
  EXPECT_EQ(mirror->to_device, 2);
}

TEST_F(Coherence, HostLoopsSeeDeviceResults) {
  block->make_device_current();
  for (int i = 0; i < 16; ++i)
    device_ints()[i] = i;
  block->device_wrote();
  // A host forall reading f copies back first.
  dp::field<1, int> out(dp::grid<1>(16));
  dp::forall(f.get_grid(), [](int &o, int x) { o = 2 * x; }, out, f);
  EXPECT_EQ(mirror->to_host, 1);
  EXPECT_EQ(out(15), 30);
}

} // namespace
