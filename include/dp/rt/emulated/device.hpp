/// \file
/// The emulated device: host memory standing in for device memory, a task
/// queue for its stream, launches that walk every physical thread of the
/// GPU's plan through the stub on the CPU, and host stand-ins for the
/// vendor primitives that read the values through the same iterators the
/// GPU's CUB/rocPRIM calls read (DP_HOST_MODE=emulate). Fresh memory is
/// filled with a poison byte, so that data nobody copied in or wrote would
/// show in a result.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "../../detail/host_fold.hpp"
#include "../../error.hpp"
#include "../backend.hpp"
#include "../counters.hpp"
#include "../strided.hpp"
#include "../dispatch.hpp"
#include "../positions.hpp"
#include "../stub_run.hpp"
#include "../task_queue.hpp"
#include "../device/executor.hpp"
#include "../../options.hpp"

namespace dp::rt {

namespace emulated {


/// Full reduce, emulated: the values the device's input iterator yields,
/// point number by point number (fixed blocks, so the result is
/// reproducible). `positions` raises a point number to a position.
template <class T, class Positions, class Op, class Map>
std::optional<T> reduce_values(std::int64_t count, const Positions &positions, const Op &op,
                                 const Map &map) {
  using acc_t = std::optional<T>;
  const offset_iterator<mapped_values<T, Map, Positions>> in({map, positions}, 0);
  return tbb::parallel_deterministic_reduce(
      tbb::blocked_range<std::int64_t>(0, count, dp::detail::reduce_grain), acc_t(),
      [&](const tbb::blocked_range<std::int64_t> &r, acc_t acc) {
        for (std::int64_t i = r.begin(); i < r.end(); ++i)
          dp::detail::fold_into(acc, op, in[i]);
        return acc;
      },
      [&](acc_t a, const acc_t &b) {
        if (b)
          dp::detail::fold_into(a, op, *b);
        return a;
      });
}

/// reduce<Dim> along the contiguous dimension, emulated: the segmented
/// reduction's iterators, one pencil at a time.
template <int Dim, class T, int N, class Op, class Map>
void fold_segments(const dp::extent<N> &e, const Op &op, const Map &map,
                            const dp::detail::affine_projection<T, N - 1> &out) {
  const auto positions = pencil_positions<N, Dim>::of(e);
  const offset_iterator<present_values<T, Map, pencil_positions<N, Dim>>> in({map, positions}, 0);
  const pencil_result_writer<N, Dim, T, Op> writer(out, positions, op);
  const maybe_op<T, Op> combine{op};
  tbb::parallel_for(std::int64_t(0), positions.pencils(), [&](std::int64_t p) {
    maybe<T> acc = none<T>();
    for (std::int64_t k = 0; k < positions.length; ++k)
      acc = combine(acc, in[p * positions.length + k]);
    writer[p] = acc;
  });
}

/// scan<Dim> along the contiguous dimension, emulated: the segmented scan's
/// iterators (keys are pencil numbers), one pencil at a time.
template <int Dim, class T, int N, class Op, class Map>
void scan_segments(const dp::extent<N> &e, const Op &op, const Map &map,
                            const dp::detail::affine_projection<T, N> &out) {
  const auto positions = pencil_positions<N, Dim>::of(e);
  const offset_iterator<mapped_values<T, Map, pencil_positions<N, Dim>>> in({map, positions}, 0);
  const position_writer<T, pencil_positions<N, Dim>, N> writer(out, positions);
  tbb::parallel_for(std::int64_t(0), positions.pencils(), [&](std::int64_t p) {
    const std::int64_t first = p * positions.length;
    T acc = in[first];
    writer[first] = acc;
    for (std::int64_t k = 1; k < positions.length; ++k) {
      acc = static_cast<T>(op(acc, in[first + k]));
      writer[first + k] = acc;
    }
  });
}

/// sort<Dim>, emulated: gathered pencil by pencil through the positions the
/// device gathers with, sorted, scattered back.
template <int Dim, class T, int N, class Less>
void sort_pencils(const dp::extent<N> &e, const Less &less,
                   const dp::detail::affine_projection<T, N> &data) {
  const auto positions = pencil_positions<N, Dim>::of(e);
  const position_writer<T, pencil_positions<N, Dim>, N> writer(data, positions);
  tbb::parallel_for(std::int64_t(0), positions.pencils(), [&](std::int64_t p) {
    std::vector<T> pencil;
    pencil.reserve(static_cast<std::size_t>(positions.length));
    for (std::int64_t k = 0; k < positions.length; ++k)
      pencil.push_back(data[positions.at(p, k)]);
    std::sort(pencil.begin(), pencil.end(), less);
    for (std::int64_t k = 0; k < positions.length; ++k)
      writer[p * positions.length + k] = pencil[static_cast<std::size_t>(k)];
  });
}

} // namespace emulated

/// The emulated device's layer (device/executor.hpp lists what a layer is).
class emulated_device {
public:
  using queue_type = task_queue;
  static constexpr const char *name = "the emulated device";
  /// What a profile calls one of its queues.
  static constexpr const char *queue_kind = "emulated device queue";
  /// The byte fresh emulated device memory holds.
  static constexpr unsigned char poison = 0xA5;

  queue_type &default_queue() { return queue_; }
  /// A dp::queue's queue on this device: its host task queue.
  queue_type &queue_of(dp::detail::queue_state &q) { return q.host(); }
  static device_limits limits() { return emulated_limits(); }

  static void *allocate(std::size_t bytes) {
    void *p = ::operator new(bytes, std::nothrow);
    if (!p)
      throw dp::error("the emulated device is out of memory (" + std::to_string(bytes) +
                      " bytes)");
    std::memset(p, poison, bytes);
    return p;
  }
  static void deallocate(void *p) { ::operator delete(p); }
  /// Page-locked memory: host memory, counted apart like a GPU's.
  static void *pinned_allocate(std::size_t bytes) { return allocate(bytes); }
  static void pinned_deallocate(void *p) { deallocate(p); }
  /// Every task of the default queue run; errors are left unreported (at
  /// exit). A dp::queue's tasks finish when the queue goes.
  void synchronize_quietly() noexcept { queue_.record()->wait_quietly(); }

  void copy_to_host(queue_type &q, void *host, const void *dev, std::size_t bytes) {
    count(counter::to_host_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_host_copies);
    q.enqueue("dp: a copy to the host", [=] { std::memcpy(host, dev, bytes); });
    q.record()->wait(); // counts the host's wait
  }
  dp::detail::pending copy_to_device(queue_type &q, void *dev, const void *host,
                                     std::size_t bytes) {
    count(counter::to_device_bytes, static_cast<std::int64_t>(bytes));
    count(counter::to_device_copies);
    q.enqueue("dp: a copy to the device", [=] { std::memcpy(dev, host, bytes); });
    return q.record(); // it reads host memory until then
  }
  /// `bytes` at `dev` into the page-locked `slot`, behind q's work.
  void copy_to_pinned(queue_type &q, void *slot, const void *dev, std::size_t bytes) {
    q.enqueue("dp: a result to the host", [=] { std::memcpy(slot, dev, bytes); });
  }
  dp::detail::pending record(queue_type &q, const std::string &) { return q.record(); }
  /// DP_PROFILE's stamp of the point q's work has reached: a task.
  profile::stamp_ptr stamp(queue_type &q) { return q.stamp(); }
  /// q's later work waits for `work` (other queues'): a task that waits.
  void wait_for(queue_type &q, const std::vector<dp::detail::pending> &work) {
    q.enqueue("dp: waiting for another queue", [work] {
      for (const dp::detail::pending &p : work)
        p->wait_quietly(); // an error there belongs to its own queue
    });
  }

  /// A stub over a plan's launches.
  template <int R, class Params>
  void launch(queue_type &q, const std::string &site, const dispatch_plan<R> &plan,
              const stub_table<R, Params> &stubs, const Params &params) {
    count(counter::launches, static_cast<std::int64_t>(plan.pieces.size()));
    q.enqueue(site, [plan, table = &stubs, params] { walk_plan(plan, *table, params); });
  }
  /// A tiled stub: a group of `shape` threads per tile, sharing
  /// `arena_bytes` of tile memory and meeting at barriers.
  template <int R, class Params>
  void launch_tiles(queue_type &q, const std::string &site, const dispatch_plan<R> &plan,
                    const triple &shape, std::size_t arena_bytes,
                    const stub_table<R, Params> &stubs, const Params &params) {
    count(counter::launches, static_cast<std::int64_t>(plan.pieces.size()));
    q.enqueue(site, [site, plan, shape, arena_bytes, table = &stubs, params] {
      walk_tiles(site, plan, shape, arena_bytes, *table, params);
    });
  }

  /// A strided block of device memory packed into a contiguous device
  /// buffer, and back (dp::mpi's halo messages).
  void pack(queue_type &q, const strided_block &b, void *out) {
    count(counter::launches);
    q.enqueue("dp: packing a block", [b, out] { dp::rt::pack(b, out); });
  }
  void unpack(queue_type &q, const void *in, const strided_block &b) {
    count(counter::launches);
    q.enqueue("dp: unpacking a block", [b, in] { dp::rt::unpack(in, b); });
  }

  // The vendor primitives (gpu/device.hpp has the real ones).

  /// out[0] = init r (the values of point numbers 0..n-1).
  template <class T, class Positions, class Op, class Values>
  void reduce(device_launch<emulated_device> &L, std::int64_t n, const Positions &positions,
              const Op &op, const Values &values, T init, T *out) {
    count(counter::launches);
    L.queue().enqueue(L.site(), [=] {
      const std::optional<T> total = emulated::reduce_values<T>(n, positions, op, values);
      *out = total ? static_cast<T>(op(init, *total)) : init;
    });
  }
  /// reduce<Dim> along the contiguous dimension: a segmented reduction.
  template <int Dim, class T, int N, class Op, class Map>
  void fold_segments(device_launch<emulated_device> &L, const dp::extent<N> &e, const Op &op,
                     const Map &map, const dp::detail::affine_projection<T, N - 1> &out) {
    count(counter::launches);
    L.queue().enqueue(L.site(), [=] { emulated::fold_segments<Dim>(e, op, map, out); });
  }
  /// scan<Dim> along the contiguous dimension: a scan by key.
  template <int Dim, class T, int N, class Op, class Map>
  void scan_segments(device_launch<emulated_device> &L, const dp::extent<N> &e, const Op &op,
                     const Map &map, const dp::detail::affine_projection<T, N> &out) {
    count(counter::launches);
    L.queue().enqueue(L.site(), [=] { emulated::scan_segments<Dim>(e, op, map, out); });
  }
  /// sort<Dim>: every pencil gathered, sorted and scattered back.
  template <int Dim, class T, int N, class Less>
  void sort(device_launch<emulated_device> &L, const dp::extent<N> &e, const Less &less, bool,
            bool, const dp::detail::affine_projection<T, N> &data) {
    count(counter::launches);
    L.queue().enqueue(L.site(), [=] { emulated::sort_pencils<Dim>(e, less, data); });
  }

private:
  task_queue queue_;
};

} // namespace dp::rt
