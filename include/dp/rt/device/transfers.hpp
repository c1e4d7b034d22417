/// \file
/// How a field's block crosses the bus, decided in one place for every
/// device layer (the GPU's and the emulated device's count the same
/// paths, so tests on a CPU see what a GPU would do). Where call-sites run
/// on a device a field's host memory is page-locked from the start (the
/// device's cache of it, rt/regions.hpp): each of its transfers is one
/// asynchronous copy on its queue's stream, as a registered block's is,
/// the calling thread copying nothing and waiting for nothing. The other
/// paths are for blocks whose memory is not (a field made before the
/// runtime was installed, or when the driver refuses page-locked memory):
///   direct      one copy from pageable memory (small blocks: the driver
///               stages them itself, and the call costs less than ours);
///   staged      through the queue's own page-locked chunks, the host
///               filling one while the bus empties another;
///   registered  the block's host memory is page-locked in place
///               (cudaHostRegister / hipHostRegister): one asynchronous
///               DMA on the queue's stream, the host free at once.
/// A block is registered from its second transfer on: registering costs
/// about what one staged copy does, so a block copied once never pays it,
/// and one that goes back and forth (a time step's field read on the host
/// every few steps) pays it once.
#pragma once

#include <cstddef>

namespace dp::rt {

enum class transfer_path { direct, staged, registered };

/// Blocks at or below this go in one direct copy.
inline constexpr std::size_t direct_transfer_bytes = std::size_t(1) << 20;

/// Whether a block of `bytes` should be registered before its transfer
/// number `transfers` (0 for its first).
constexpr bool should_register(std::size_t bytes, int transfers) {
  return bytes > direct_transfer_bytes && transfers >= 1;
}

/// The path a transfer of `bytes` takes.
constexpr transfer_path path_of(std::size_t bytes, bool registered) {
  return registered ? transfer_path::registered
                    : bytes <= direct_transfer_bytes ? transfer_path::direct : transfer_path::staged;
}

} // namespace dp::rt
