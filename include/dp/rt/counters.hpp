/// \file
/// What the runtime did, counted: launches, device allocations (and reuses
/// of cached ones), synchronisations, transfers. Every backend counts the
/// same things; DP_TRACE_DISPATCH=1 prints each call-site's share, and
/// tests read the totals (a return of per-call allocation or device-wide
/// synchronisation shows in either).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace dp::rt {

/// The things counted.
enum class counter : int {
  launches,           ///< kernel launches (one per launch of a plan, vendor calls included)
  device_allocations, ///< raw device allocations (cudaMalloc, hipMalloc, the emulated device's)
  cache_reuses,       ///< temporaries served from the caching allocator instead
  device_frees,       ///< raw device frees
  device_syncs,       ///< device-wide synchronisations (cudaDeviceSynchronize and kin: a raw free too)
  host_waits,         ///< the host blocking on an event (a result or a field it needs)
  to_device_bytes,
  to_device_copies,
  to_host_bytes,
  to_host_copies,
  device_copies,      ///< copies from one device block to another (a field cloned where its data
                      ///< is the device's: dp::read_apart of one field)
  device_zero_fills,  ///< device blocks set to zeros on the device: a value-initialised field's
                      ///< first device use, where its zeros would have crossed the bus
  pinned_allocations, ///< raw page-locked host allocations (read-back slots, staging)
  events_recorded, ///< device events recorded for completions (only when somebody waits)
  events_created,  ///< device events made (a steady state records its spare ones again)
  profiler_ranges, ///< call-sites' profiler ranges opened (NVTX or roctx on a GPU)
  launch_checks,   ///< a stub launch's error status asked for (GetLastError on a GPU)
  queue_waits,     ///< a device queue made to follow another's work (an event wait on a stream)
  host_follows,    ///< a device queue made to follow work that is no event of its device (the host waits, on a GPU)
  device_queries,  ///< questions to the device (its count, its limits): once per process
  launch_plans,    ///< launch plans made (a steady state reuses its call-site's: plan.hpp)
  host_registrations, ///< field blocks whose host memory was page-locked in place
  staged_copies,      ///< a field's transfers through a queue's page-locked chunks (device/transfers.hpp)
  reuploads,          ///< a block copied to the device again because the host wrote it
  host_copy_bytes,    ///< bytes the calling thread copied for a transfer (staging chunks, a
                      ///< read-back slot's delivery, a pageable copy the driver stages):
                      ///< none where fields' host memory is page-locked
  transfer_waits,     ///< transfers that held the calling thread until the device took their
                      ///< bytes (pageable and staged copies to the device)
  graph_launches,     ///< replays of a dp::record recording (one CUDA/HIP graph launch each)
  graphs_built,       ///< recordings made into a device graph (captured and instantiated)
  host_forks,         ///< host walks handed to the host's threads, a fork and a join each (a
                      ///< forall's rows; few cheap points run on the calling thread instead)
  device_bytes, ///< device memory allocated and not freed (raw blocks, cached ones included)
  pinned_bytes, ///< page-locked host memory allocated and not freed
  registered_bytes, ///< host memory page-locked in place and not yet released
  kinds_
};

/// A snapshot of every counter.
struct counts {
  std::int64_t value[static_cast<int>(counter::kinds_)] = {};
  std::int64_t operator[](counter c) const { return value[static_cast<int>(c)]; }
  counts operator-(const counts &o) const {
    counts d;
    for (int i = 0; i < static_cast<int>(counter::kinds_); ++i)
      d.value[i] = value[i] - o.value[i];
    return d;
  }
};

namespace detail {
/// One thread's counts. Only its thread writes them (a plain add, no
/// locked instruction: a steady-state launch counts several things, and a
/// locked add on a shared line per count was a fifth of its host work);
/// counters() sums every thread's. A block starts a cache line and
/// fills whole ones: two threads counting never write one line.
struct alignas(64) counter_block {
  std::atomic<std::int64_t> cell[static_cast<int>(counter::kinds_)] = {};
};
/// The calling thread's block; null until it first counts.
inline thread_local counter_block *this_thread_counters = nullptr;
/// Gives the calling thread a block of its own (runtime/counters.cpp),
/// handed to another thread once this one ends: blocks are never freed,
/// so counts survive their threads and counters() sums every block.
counter_block &attach_counter_block();
/// The sum over every block.
counts sum_counter_blocks();
inline bool tracing() {
  static const bool enabled = [] {
    const char *env = std::getenv("DP_TRACE_DISPATCH");
    return env && *env && std::string(env) != "0";
  }();
  return enabled;
}
} // namespace detail

/// Adds n to a counter (any thread).
inline void count(counter c, std::int64_t n = 1) {
  detail::counter_block *b = detail::this_thread_counters;
  std::atomic<std::int64_t> &cell =
      (b ? *b : detail::attach_counter_block()).cell[static_cast<int>(c)];
  cell.store(cell.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

/// Every counter now (totals since the program started, over every
/// thread; a count another thread is making may or may not be in it).
inline counts counters() { return detail::sum_counter_blocks(); }

/// "2 launches, 0 device allocations, ..." for a trace line.
inline std::string describe(const counts &c) {
  auto n = [&](counter k) { return std::to_string(c[k]); };
  return n(counter::launches) + " launch" + (c[counter::launches] == 1 ? "" : "es") + ", " +
         n(counter::device_allocations) + " device allocation" +
         (c[counter::device_allocations] == 1 ? "" : "s") + " (" + n(counter::cache_reuses) +
         " cached), " + n(counter::device_syncs) + " device-wide synchronisation" +
         (c[counter::device_syncs] == 1 ? "" : "s") + ", " + n(counter::host_waits) +
         " host wait" + (c[counter::host_waits] == 1 ? "" : "s") + ", to the device " +
         n(counter::to_device_bytes) + " bytes in " + n(counter::to_device_copies) +
         " cop" + (c[counter::to_device_copies] == 1 ? "y" : "ies") + ", to the host " +
         n(counter::to_host_bytes) + " bytes in " + n(counter::to_host_copies) + " cop" +
         (c[counter::to_host_copies] == 1 ? "y" : "ies");
}

/// DP_TRACE_DISPATCH=1: one line of what `what` did.
inline void trace_counts(const std::string &what, const counts &c) {
  if (detail::tracing())
    std::fprintf(stderr, "dp-count: %s: %s\n", what.c_str(), describe(c).c_str());
}

} // namespace dp::rt
