/// \file
/// A full reduce over a tiled grid (approach 6 with a fold): each group
/// takes a run of consecutive tiles along the last dimension (the tile's
/// threads laid out as a tiled forall's) and walks them one after
/// another. Every thread of a tile, padding included, evaluates the map
/// function, so every thread reaches the kernel's barriers, and keeps a
/// running fold of its in-domain values; the group then folds its
/// threads' — by warp shuffles when none of its tiles has padding, else in
/// tile memory with a flag per value — and its first thread writes the
/// group's fold. The groups' folds are folded after the launch (the
/// vendor's reduce on a GPU). A group's barriers stay uniform: its threads
/// walk the same tiles, and wait for each other before a tile's memory is
/// used again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../../config.hpp"
#include "../../reference/host_tiles.hpp"
#include "../../reference/tile_point.hpp"
#include "../../tile_group.hpp"
#include "../device/partial_results.hpp"
#include "../stub/dispatch.hpp"
#include "../stub/domains.hpp"
#include "../stub/table.hpp"
#include "../stub/thread.hpp"
#include "raw_values.hpp"

namespace dp::rt {

/// What the fold kernel needs: the map function at a tile's thread, the
/// operator, the tiling, where the groups' folds go (row-major by group:
/// fold_groups), the tiles per dimension and how many a group walks
/// (tile_fold_run). TileBytes: the kernel's dp::tile_static objects
/// (dpstub sizes them); the fold's values and flags follow them. Pack:
/// tiles side by side in a group (tile_fold_pack), 1 for a kernel that
/// may wait for or share with its tile's other threads.
template <int N, class T, class Op, class Map, class Tiling, std::size_t TileBytes,
          std::int64_t Pack = 1>
struct tile_fold_job {
  static constexpr int rank = N;
  using value_type = T;
  static constexpr std::int64_t volume = Tiling::volume;
  static constexpr std::int64_t pack = Pack;
  static constexpr std::int64_t threads = volume * Pack; ///< a group's
  static constexpr std::size_t tile_bytes = TileBytes;
  static_assert(Pack == 1 || TileBytes == 0, "tiles with tile memory have a group each");
  static constexpr std::size_t values_offset =
      (TileBytes + dp::detail::tile_memory_alignment - 1) / dp::detail::tile_memory_alignment *
      dp::detail::tile_memory_alignment;
  static constexpr std::size_t flags_offset =
      values_offset + (threads * sizeof(T) + dp::detail::tile_memory_alignment - 1) /
                          dp::detail::tile_memory_alignment * dp::detail::tile_memory_alignment;
  static constexpr std::size_t shared_bytes = values_offset + dp::detail::tile_fold_bytes<T>(threads);
  static_assert(std::is_trivially_copyable<T>::value && alignof(T) <= dp::detail::tile_memory_alignment,
                "dp::reduce over a tiled grid folds its values in tile memory: the result's type "
                "must be trivially copyable, aligned to at most 16 bytes");
  static_assert(shared_bytes <= dp::max_tile_static_bytes,
                "dp::reduce over a tiled grid: the kernel's dp::tile_static objects and the "
                "tile's fold (a value and a flag per thread) need more than 48 KiB of tile memory");

  Map map;
  Op op;
  Tiling tiling;
  T *folds;
  std::int64_t tiles[N]; ///< tiles per dimension
  std::int64_t whole[N]; ///< of which the first whole[d] hold no padding along d
  std::int64_t run = 1;  ///< tiles along the last dimension each packed slot walks

  /// Consecutive tiles along the last dimension per group.
  DP_HOST_DEVICE std::int64_t span() const { return run * Pack; }
};

/// The threads a group of a tiled full reduce holds at most.
inline constexpr std::int64_t tile_fold_group_threads = 256;

/// Tiles of `volume` threads side by side in a group of a tiled full
/// reduce whose kernel neither waits for nor shares with its tile's other
/// threads (tile_sight::sees_place): up to 256 threads, whole warps where
/// a multiple of 32 allows it (a 32-thread tile is one warp, not one
/// group). 1 otherwise.
constexpr std::int64_t tile_fold_pack(std::int64_t volume, bool independent_threads) {
  if (!independent_threads || volume >= tile_fold_group_threads)
    return 1;
  const std::int64_t most = tile_fold_group_threads / volume;
  for (std::int64_t p = most; p > 1; --p)
    if (p * volume % 32 == 0)
      return p;
  return most;
}

/// Tiles per packed slot of a group of a tiled full reduce, walked one
/// after another along the last dimension (of which there are
/// `along_last`): about tile_fold_points points per thread-group (CUB's
/// reduce gives a group of 256 threads 16 items; a tile's thread holds
/// one point at a time), at most max_fold_run. Fewer groups mean fewer
/// group folds and partial results.
inline constexpr std::int64_t tile_fold_points = 2048;
inline constexpr std::int64_t max_fold_run = 16;
constexpr std::int64_t tile_fold_run(std::int64_t threads, std::int64_t along_last,
                                     std::int64_t pack = 1) {
  const std::int64_t run = tile_fold_points / threads;
  const std::int64_t slots = (along_last + pack - 1) / pack; // tiles a slot could walk
  return run < 1 ? 1 : run > max_fold_run ? max_fold_run : run > slots ? slots : run;
}

/// The groups of a fold: its tiles per dimension, the last in spans.
template <class Job> DP_HOST_DEVICE std::int64_t fold_groups(const Job &job, int d) {
  return d + 1 < Job::rank ? job.tiles[d] : (job.tiles[d] + job.span() - 1) / job.span();
}

/// A thread's fold step: the barrier of its tile.
DP_HOST_DEVICE inline void tile_fold_barrier() {
#if DP_DEVICE_COMPILE
  __syncthreads();
#else
  dp::detail::host_tile_barrier();
#endif
}

/// The threads of a warp in a group fold (32: NVIDIA's warp, half an AMD
/// wavefront, whose shuffles take a width).
inline constexpr int fold_warp = 32;

/// The value of the thread `delta` lanes up in this thread's warp (its own
/// past the warp's end). On a GPU a shuffle of its words; on the emulated
/// device the same exchange through `scratch` (one T per thread of the
/// group, at `id`, the thread's number) between barriers.
template <class T>
DP_HOST_DEVICE T warp_shuffle_down(const T &v, int delta, std::int64_t id, T *scratch) {
#if DP_DEVICE_COMPILE
  (void)scratch;
  raw_values<T> in, out; // any trivially copyable value, shuffled word by word
  in.v[0] = v;
  for (unsigned i = 0; i < sizeof(in.word) / sizeof(unsigned); ++i) {
#if DP_CUDA_DEVICE_COMPILE
    out.word[i] = __shfl_down_sync(0xffffffffu, in.word[i], delta, fold_warp);
#else
    out.word[i] = __shfl_down(in.word[i], static_cast<unsigned>(delta), fold_warp);
#endif
  }
  return (id % fold_warp) + delta < fold_warp ? out.v[0] : v;
#else
  scratch[id] = v;
  tile_fold_barrier();
  const T r = (id % fold_warp) + delta < fold_warp ? scratch[id + delta] : v;
  tile_fold_barrier();
  return r;
#endif
}

/// The fold of a whole group's values, every thread holding one (no
/// padding), the group a multiple of fold_warp threads: each warp folds by
/// shuffles, then thread 0 folds the warps' folds (CUB's
/// BlockReduceWarpReductions). `id`: the thread's number in the group (a
/// warp is 32 consecutive numbers); `scratch`: one T per thread of tile
/// memory. The result is thread 0's.
template <std::int64_t Threads, class T, class Op>
DP_HOST_DEVICE T fold_whole_group(T v, std::int64_t id, T *scratch, const Op &op) {
  static_assert(Threads % fold_warp == 0, "whole warps");
  for (int delta = fold_warp / 2; delta > 0; delta /= 2)
    v = static_cast<T>(op(v, warp_shuffle_down(v, delta, id, scratch)));
  if (id % fold_warp == 0)
    scratch[id / fold_warp] = v;
  tile_fold_barrier();
  if (id == 0)
    for (std::int64_t w = 1; w < Threads / fold_warp; ++w)
      v = static_cast<T>(op(v, scratch[w]));
  return v;
}

/// Whether the job's groups are whole warps (their threads a multiple of
/// fold_warp), the first condition of a fold by warps.
template <class Job> inline constexpr bool whole_warps = Job::threads % fold_warp == 0;

/// Whether a group's fold goes warp by warp: whole warps and no padding in
/// any tile of the group's run (the same for all its threads; tiles at the
/// grid's far edges may be padded where interior ones are not).
template <class Job>
DP_HOST_DEVICE bool folds_by_warps(const Job &job, const dp::index<Job::rank> &group) {
  constexpr int N = Job::rank;
  bool whole = whole_warps<Job>;
  for (int d = 0; d + 1 < N; ++d)
    whole = whole && group[d] < job.whole[d];
  const std::int64_t last = (group[N - 1] + 1) * job.span(); // one past the span's last tile
  return whole && (last < job.tiles[N - 1] ? last : job.tiles[N - 1]) <= job.whole[N - 1];
}

/// What a launch of the fold kernel does, as the request log names it:
/// every group by warps, the groups of interior tiles by warps and those
/// with padded edge tiles with flags, or every group with flags.
template <class Job> const char *tile_fold_name(const Job &job) {
  constexpr int N = Job::rank;
  bool all = whole_warps<Job>, some = all;
  for (int d = 0; d < N; ++d) {
    all = all && job.whole[d] == job.tiles[d];
    some = some && job.whole[d] >= (d + 1 < N ? 1 : job.span()); // the first group's span is whole
  }
  return all ? "warp tile fold" : some ? "warp tile fold, flagged edges" : "tile fold";
}

/// The row-major number of `group` among the job's groups.
template <class Job>
DP_HOST_DEVICE std::int64_t group_number(const Job &job, const dp::index<Job::rank> &group) {
  std::int64_t n = 0;
  for (int d = 0; d < Job::rank; ++d)
    n = n * fold_groups(job, d) + group[d];
  return n;
}

/// Tiles whose maps a thread evaluates before folding their values (their
/// loads in flight together), when the tiles need no tile memory.
inline constexpr int tile_fold_batch = 4;

/// One group of a tiled full reduce: job.folds[group] = the fold of the
/// map's values over the in-domain threads of the group's span of tiles,
/// Pack tiles side by side (each slot walking every Pack-th tile of the
/// span). A thread finds its place in its tile once; each thread folds its
/// own values tile by tile (tile_fold_batch at a time when there is no
/// tile memory to wait for); a group whose tiles are whole warps with no
/// padding then folds warp by warp (fold_whole_group), another in tile
/// memory, halving the live threads at each step, with a flag per thread
/// that holds a value.
template <int Mode, class Job>
DP_GLOBAL void fold_tile(const launch_geometry<Job::rank> geometry, const Job job) {
  constexpr int N = Job::rank;
  using T = typename Job::value_type;
  const thread_ids thread = this_thread();
  static constexpr std::int64_t first[3] = {0, 0, 0};
  dp::index<N> group;
  if (!map_thread<Mode>(geometry, thread.group, first, group))
    return; // the whole group: surplus groups map to no tile
  unsigned char *shared = tile_shared<Job::shared_bytes>();
  raw_values<T> own; // this thread's fold so far
  bool has = false;
  tile_point<N> at;
  at.tile = group;
  // Its number in the group (a warp is 32 consecutive numbers), its slot
  // and its place in its tile: the same for every tile it walks.
  std::int64_t id, slot = 0;
  if constexpr (Job::pack == 1) {
    job.tiling.locate(thread.local, at);
    id = job.tiling.offset(at.local); // row-major in the tile: x fastest
  } else {
    id = thread.local[0]; // a packed group is flat on x
    slot = id / Job::volume;
    job.tiling.locate(id % Job::volume, at);
  }
  dp::detail::tile_memory memory{shared, Job::tile_bytes, 0};
  at.memory = &memory;
  const std::int64_t from = group[N - 1] * job.span();
  const std::int64_t to = from + job.span() < job.tiles[N - 1] ? from + job.span() : job.tiles[N - 1];
  const auto fold_in = [&](const auto &value) {
    own.v[0] = has ? static_cast<T>(job.op(own.v[0], static_cast<T>(value))) : static_cast<T>(value);
    has = true;
  };
  std::int64_t t = from + slot;
  if constexpr (Job::tile_bytes == 0) {
    constexpr std::int64_t B = tile_fold_batch;
    for (; t + (B - 1) * Job::pack < to; t += B * Job::pack) {
      raw_values<T, B> v;
      bool in[B];
      for (std::int64_t b = 0; b < B; ++b) {
        at.tile[N - 1] = t + b * Job::pack;
        job.tiling.position(at);
        const auto value = job.map(at); // padding threads too: they reach the barriers
        in[b] = at.in_domain;
        if (in[b])
          v.v[b] = static_cast<T>(value);
      }
      for (std::int64_t b = 0; b < B; ++b)
        if (in[b])
          fold_in(v.v[b]);
    }
  }
  for (; t < to; t += Job::pack) {
    if constexpr (Job::tile_bytes > 0)
      if (t > from)
        tile_fold_barrier(); // the previous tile is done with the tile memory
    at.tile[N - 1] = t;
    job.tiling.position(at);
    memory = dp::detail::tile_memory{shared, Job::tile_bytes, 0};
    const auto value = job.map(at); // padding threads too: they reach the barriers
    if (at.in_domain)
      fold_in(value);
  }
  T *values = reinterpret_cast<T *>(shared + Job::values_offset);
  bool *present = reinterpret_cast<bool *>(shared + Job::flags_offset);
  if constexpr (whole_warps<Job>) {
    if (folds_by_warps(job, group)) { // the same for every thread of the group
#if DP_DEVICE_COMPILE
      id = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
#endif
      const T total = fold_whole_group<Job::threads>(own.v[0], id, values, job.op);
      if (id == 0)
        job.folds[group_number(job, group)] = total;
      return;
    }
  }
  present[id] = has;
  if (has)
    values[id] = own.v[0];
  std::int64_t half = 1;
  while (half * 2 < Job::threads)
    half *= 2;
  for (; half > 0 && Job::threads > 1; half /= 2) {
    tile_fold_barrier();
    if (id < half && id + half < Job::threads && present[id + half]) {
      values[id] = present[id] ? static_cast<T>(job.op(values[id], values[id + half])) : values[id + half];
      present[id] = true;
    }
  }
  if (id == 0)
    job.folds[group_number(job, group)] = values[0];
}

/// The fold kernel, by mode (stub_modes).
template <class Job> struct fold_tile_kernel {
  template <int Mode> static auto at() { return &fold_tile<Mode, Job>; }
};

/// The per-mode instantiations of the fold kernel, for the planner to pick.
template <class Job> const stub_table<Job::rank, Job> &tile_fold_stubs() {
  return stub_modes<Job::rank, Job, fold_tile_kernel<Job>>();
}

/// The groups' folds as a map function over their row-major numbers, or
/// called on a fold the vendor loaded from their pointer.
template <class T> struct tile_folds {
  static constexpr bool returns_its_element = true; ///< a vendor reads the folds themselves
  const T *folds;
  DP_HOST_DEVICE T operator()(const dp::index<1> &tile) const { return folds[tile[0]]; }
  DP_HOST_DEVICE T operator()(const dp::detail::element_at<1, T> &fold) const { return *fold.at; }
};
template <class T> struct partial_results<tile_folds<T>> : std::true_type {};

} // namespace dp::rt
