/// \file
/// How data regions and dp::update_host / dp::update_device move data in a
/// translated program whose call-sites run on a device (the build's GPU, or
/// the emulated device): through the same device executor, mirrors and
/// queues as its launches; and where fields' host memory comes from there
/// (page-locked from the start). Installed before main; where call-sites
/// run on the host, regions move nothing and fields live on the C heap.
#pragma once

#include "../data.hpp"
#include "backend.hpp"
#include "executors.hpp"
#include "profile.hpp"

namespace dp::rt {

template <class Device> struct region_transfers {
  using queue_type = typename Device::queue_type;
  static queue_type &queue_for(dp::detail::queue_state *q) {
    auto &ex = device_executor<Device>::get();
    return q ? ex.device().queue_of(*q) : ex.default_queue();
  }
  static void attach(dp::detail::storage &block, queue_type &queue) {
    if (!block.mirror())
      block.attach_mirror(device_executor<Device>::get().mirror(block, queue));
  }
  static void to_device(dp::detail::storage &block, dp::detail::queue_state *q) {
    queue_type &queue = queue_for(q);
    if (block.device_current() && block.mirror())
      return;
    // The copy writes the device block: other queues' work on it first.
    device_executor<Device>::get().follow(queue, block.foreign_work(&queue, true));
    attach(block, queue);
    block.make_device_current(&queue);
  }
  static void assume_device(dp::detail::storage &block) {
    attach(block, device_executor<Device>::get().default_queue());
    block.assume_device_current();
  }
  static void to_host(dp::detail::storage &block, dp::detail::queue_state *q) {
    if (!q || !block.mirror() || !block.device_current() || block.host_current()) {
      block.make_host_current();
      return;
    }
    queue_type &queue = queue_for(q);
    Device &device = device_executor<Device>::get().device();
    device_executor<Device>::get().follow(queue, block.foreign_work(&queue, false)); // its writer first
    dp::detail::pending back;
    profile::timed_transfer(device, queue, profile::category::to_host, block.bytes(), [&] {
      back = device_executor<Device>::get().read_back(queue, block.host_data(),
                                                      block.mirror()->device_data(), block.bytes(),
                                                      block.page_locked());
    });
    block.host_copy_pending(std::move(back));
  }
  static const dp::detail::device_data_ops *ops() {
    static const dp::detail::device_data_ops table{&to_device, &assume_device, &to_host};
    return launches_on_device() ? &table : nullptr;
  }
};

/// Where call-sites run on a device, fields' host memory is page-locked
/// from the start (the device's cache of it), so that every transfer is
/// one asynchronous copy on its queue's stream (device/transfers.hpp).
template <class Device> dp::detail::host_memory_ref device_host_memory() {
  if (!launches_on_device())
    return nullptr;
  return device_executor<Device>::get().host_memory();
}

/// Installed by every translated program's first include of the launch runtime.
inline const bool region_transfers_installed =
    (dp::detail::set_device_data(&region_transfers<build_device>::ops),
     dp::detail::set_page_locked_memory(&device_host_memory<build_device>), true);

} // namespace dp::rt
