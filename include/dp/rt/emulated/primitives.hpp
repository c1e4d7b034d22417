/// \file
/// The emulated device's stand-ins for the vendor primitives (CUB and
/// rocPRIM on a GPU: gpu/primitives.hpp), each a task of the call-site's
/// queue on the host's threads: they read and write through the very
/// iterators and pointers device/algorithms.hpp hands a GPU's. Also the
/// packing of strided blocks for dp::mpi's halo messages.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <type_traits>

#include "../../detail/host_threads.hpp"
#include "../../reference/host_fold.hpp"
#include "../counters.hpp"
#include "../device/algorithms.hpp"
#include "../device/executor.hpp"
#include "../strided.hpp"
#include "../stub/iterators.hpp"
#include "device.hpp"

namespace dp::rt {

namespace emulated {

/// The fold of in[0..count) in fixed blocks (so the result is
/// reproducible), or nothing for no values.
template <class T, class In, class Op>
std::optional<T> reduce_input(std::int64_t count, const In &in, const Op &op) {
  using acc_t = std::optional<T>;
  return dp::detail::deterministic_reduce<acc_t>(
      count, dp::detail::reduce_grain,
      [&](std::int64_t begin, std::int64_t end, acc_t acc) {
        for (std::int64_t i = begin; i < end; ++i)
          dp::detail::fold_into(acc, op, in[i]);
        return acc;
      },
      [&](acc_t a, const acc_t &b) {
        if (b)
          dp::detail::fold_into(a, op, *b);
        return a;
      });
}

/// Elements loaded from a pointer, then transformed: a transform-reduce's
/// input.
template <class E, class F> struct transformed {
  const E *base;
  F f;
  auto operator[](std::int64_t i) const { return f(base[i]); }
};

} // namespace emulated

/// The emulated device's primitives: host code over the same inputs and
/// outputs as a GPU's, enqueued on the launch's queue (nothing runs under
/// DP_EMULATE_RECORD_ONLY=1).
template <> struct vendor_layer<emulated_device> {
  using launch_type = device_launch<emulated_device>;
  static constexpr const char *name = "the emulated device's";

  template <class Work> static void run(launch_type &L, Work &&work) {
    emulated_device::run(L.queue(), L.site().c_str(), std::forward<Work>(work));
  }

  template <class In, class Out, class Op, class T>
  static void reduce(launch_type &L, const char *, std::int64_t n, In in, Out out, Op op, T init) {
    run(L, [=] {
      const std::optional<T> total = emulated::reduce_input<T>(n, in, op);
      *out = total ? static_cast<T>(op(init, *total)) : init;
    });
  }

  template <class E, class Out, class Op, class F, class T>
  static void transform_reduce(launch_type &L, const char *what, std::int64_t n, const E *in,
                               Out out, Op op, F f, T init) {
    reduce(L, what, n, emulated::transformed<E, F>{in, f}, out, op, init);
  }

  template <class In, class Out, class Op, class Init>
  static void segmented_reduce(launch_type &L, std::int64_t segments, std::int64_t length, In in,
                               Out out, Op op, Init init) {
    run(L, [=] {
      dp::detail::host_for_each(segments, [&](std::int64_t p) {
        Init acc = init;
        for (std::int64_t k = 0; k < length; ++k)
          acc = static_cast<Init>(op(acc, in[p * length + k]));
        out[p] = acc;
      });
    });
  }

  /// Blocks of `length` items run in parallel; within one, the scan
  /// restarts wherever the key changes, as the vendor's does.
  template <class Keys, class In, class Out, class Op>
  static void scan_by_key(launch_type &L, std::int64_t n, std::int64_t length, Keys keys, In in,
                          Out out, Op op) {
    using T = typename std::iterator_traits<Out>::value_type;
    run(L, [=] {
      const std::int64_t blocks = length > 0 ? (n + length - 1) / length : 0;
      dp::detail::host_for_each(blocks, [&](std::int64_t b) {
        const std::int64_t first = b * length, last = std::min(n, first + length);
        T acc{};
        for (std::int64_t i = first; i < last; ++i) {
          acc = i == first || keys[i] != keys[i - 1] ? static_cast<T>(in[i])
                                                     : static_cast<T>(op(acc, in[i]));
          out[i] = acc;
        }
      });
    });
  }

  template <class T>
  static void segmented_sort(launch_type &L, std::int64_t n, std::int64_t segments,
                             std::int64_t length, const T *in, T *out, bool descending) {
    run(L, [=] {
      std::copy(in, in + n, out);
      dp::detail::host_for_each(segments, [&](std::int64_t p) {
        T *first = out + p * length, *last = first + length;
        if (descending)
          std::sort(first, last, std::greater<T>());
        else
          std::sort(first, last);
      });
    });
  }

  template <class K, class Less>
  static const K *merge_sort(launch_type &L, std::int64_t n, K *keys, K *spare, Less less) {
    run(L, [=] {
      std::copy(keys, keys + n, spare);
      std::stable_sort(spare, spare + n, less);
    });
    return spare;
  }

  static void copy(launch_type &L, void *to, const void *from, std::size_t bytes) {
    run(L, [=] { std::memcpy(to, from, bytes); });
  }

  template <class F> static void for_each(launch_type &L, const char *, std::int64_t n, F f) {
    count(counter::launch_checks); // as a GPU's kernel launch
    run(L, [=] { dp::detail::host_for_each(n, [&](std::int64_t i) { f(i); }); });
  }
};

/// A strided block of device memory packed into a contiguous device
/// buffer, and back (dp::mpi's halo messages).
inline void pack_block(device_launch<emulated_device> &L, const strided_block &b, void *out) {
  count(counter::launches);
  emulated_device::run(L.queue(), "dp: packing a block", [b, out] { dp::rt::pack(b, out); });
}
inline void unpack_block(device_launch<emulated_device> &L, const void *in,
                         const strided_block &b) {
  count(counter::launches);
  emulated_device::run(L.queue(), "dp: unpacking a block", [b, in] { dp::rt::unpack(in, b); });
}

} // namespace dp::rt
