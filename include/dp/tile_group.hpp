/// \file
/// What a kernel on a tiled domain sees of its tile: dp::tile_group<N>
/// (positions, padding, barrier) and dp::tile_static<T> (memory the
/// threads of one tile share).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "config.hpp"
#include "index.hpp"

#if defined(DP_COMPILER_HIP)
#include <hip/hip_runtime.h> // __syncthreads
#endif

namespace dp {

/// The tile memory a tile's dp::tile_static variables may hold together:
/// the static shared memory every GPU gives a group without opting in.
inline constexpr std::size_t max_tile_static_bytes = 48 * 1024;

template <int N> class tile_group;
template <class T> class tile_static;

namespace detail {

/// Alignment of every dp::tile_static object's storage.
inline constexpr std::size_t tile_memory_alignment = 16;

/// Out of line (runtime/tile_runner.cpp): the host side of a barrier and of
/// a full tile memory.
void host_tile_barrier();
[[noreturn]] void host_tile_memory_full(std::size_t needed, std::size_t capacity);

/// One thread's view of its tile's memory: the arena the tile shares and
/// how much of it this thread's live dp::tile_static objects take. Every
/// thread of a tile constructs the same tile_static objects in the same
/// order, so each gets the same offsets; destruction releases in reverse
/// (a stack), so a tile_static in a loop reuses its storage.
struct tile_memory {
  unsigned char *arena = nullptr;
  std::uint32_t capacity = 0;
  std::uint32_t used = 0;

  DP_HOST_DEVICE std::uint32_t push(std::size_t size, std::size_t align) {
    const std::size_t offset = (used + align - 1) / align * align;
    if (offset + size > capacity) {
#if DP_DEVICE_COMPILE
      DP_DEVICE_TRAP(); // dpstub sized the tile memory from the kernel: unreachable
#else
      host_tile_memory_full(offset + size, capacity);
#endif
    }
    used = static_cast<std::uint32_t>(offset + size);
    return static_cast<std::uint32_t>(offset);
  }
  DP_HOST_DEVICE void pop(std::uint32_t offset) { used = offset; }
};

/// Builds tile groups; only the runtime and generated stubs make them.
struct tile_access {
  template <int N>
  DP_HOST_DEVICE static tile_group<N> make(const index<N> &global, const index<N> &local,
                                           const index<N> &tile, const index<N> &origin,
                                           bool in_domain, tile_memory *memory) {
    tile_group<N> t;
    t.global_ = global, t.local_ = local, t.tile_ = tile, t.origin_ = origin;
    t.in_ = in_domain;
    t.memory_ = memory;
    return t;
  }
  template <int N> DP_HOST_DEVICE static tile_memory *memory(const tile_group<N> &t) {
    return t.memory_;
  }
};

} // namespace detail

/// A thread of a tiled domain and its tile: what a kernel parameter bound
/// to `dp::_tile` receives (by value or `const&`).
///
///     dp::forall(dp::tile<16, 16>(g), [](dp::tile_group<2> t, ...) {
///       dp::tile_static<float[16][16]> a(t);
///       a[t.local()[0]][t.local()[1]] = ...;
///       t.barrier();
///       ...
///     }, dp::_tile, ...);
template <int N> class tile_group {
public:
  static constexpr int rank = N;

  /// The thread's index value in the grid (as `dp::_index` gives it); past
  /// the grid's last value for a padding thread.
  DP_HOST_DEVICE const index<N> &global() const { return global_; }
  /// The thread's position within its tile, 0-based.
  DP_HOST_DEVICE const index<N> &local() const { return local_; }
  /// The tile's position among the tiles, 0-based.
  DP_HOST_DEVICE const index<N> &tile() const { return tile_; }
  /// The index value of the tile's first point (local position 0).
  DP_HOST_DEVICE const index<N> &tile_origin() const { return origin_; }
  /// False for a padding thread: a point of the last tiles that lies past
  /// the grid. Padding threads run the kernel so that they reach every
  /// barrier; their elemental reads see a value-initialised element and
  /// their elemental writes are dropped.
  DP_HOST_DEVICE bool in_domain() const { return in_; }
  /// Waits until every thread of the tile has reached this barrier; tile
  /// memory written before it is visible to every thread of the tile after
  /// it. Every thread of a tile must reach the same barriers: a barrier
  /// under a condition that differs between the threads of a tile is an
  /// error (dpstub reports the ones it can see; the host reports the rest
  /// at run time).
  DP_HOST_DEVICE void barrier() const {
#if DP_DEVICE_COMPILE
    __syncthreads();
#else
    detail::host_tile_barrier();
#endif
  }

private:
  friend struct detail::tile_access;
  index<N> global_, local_, tile_, origin_;
  bool in_ = false;
  detail::tile_memory *memory_ = nullptr;
};

/// One T (an array type too) shared by the threads of a tile: `__shared__`
/// memory on a GPU. Construct it in a tiled kernel from the kernel's
/// tile_group; every thread of the tile gets the same object. No
/// initializer runs: write it, then `barrier()`, then read it.
///
///     dp::tile_static<float[16][17]> a(t);   // a padded tile
///     a[t.local()[0]][t.local()[1]] = A(i, j);
///     t.barrier();
///     float x = a[t.local()[1]][t.local()[0]];
///     dp::tile_static<int> count(t);
///     count.get() = 0;
template <class T> class tile_static {
  static_assert(std::is_trivially_default_constructible<T>::value &&
                    std::is_trivially_destructible<T>::value,
                "dp::tile_static<T>: T must be trivially constructible and destructible "
                "(no initializer runs, as for GPU shared memory)");
  static_assert(alignof(T) <= detail::tile_memory_alignment,
                "dp::tile_static<T>: T may be aligned to at most 16 bytes");
  static_assert(sizeof(T) <= max_tile_static_bytes,
                "dp::tile_static<T>: T is larger than the tile memory (48 KiB)");

public:
  using element_type = T;

  template <int N>
  DP_HOST_DEVICE explicit tile_static(const tile_group<N> &t)
      : memory_(detail::tile_access::memory(t)) {
    offset_ = memory_->push(sizeof(T), alignof(T));
    data_ = reinterpret_cast<T *>(memory_->arena + offset_);
  }
  DP_HOST_DEVICE ~tile_static() { memory_->pop(offset_); }
  tile_static(const tile_static &) = delete;
  tile_static &operator=(const tile_static &) = delete;

  /// The shared object.
  DP_HOST_DEVICE T &get() const { return *data_; }
  /// Element i of a shared array.
  template <class U = T, std::enable_if_t<std::is_array<U>::value, int> = 0>
  DP_HOST_DEVICE std::remove_extent_t<U> &operator[](std::size_t i) const {
    return (*data_)[i];
  }

private:
  detail::tile_memory *memory_;
  T *data_;
  std::uint32_t offset_;
};

} // namespace dp
