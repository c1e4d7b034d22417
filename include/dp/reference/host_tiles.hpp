/// \file
/// Tiled domains on the host: tiles in parallel (oneTBB), the threads of
/// one tile run cooperatively on one host thread so that a barrier really
/// waits for every thread of the tile (runtime/tile_runner.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <algorithm>
#include <optional>
#include <vector>

#include "../detail/host_threads.hpp"

#include "../error.hpp"
#include "../extent.hpp"
#include "../tiled_grid.hpp"
#include "host_fold.hpp"
#include "tile_point.hpp"

namespace dp::detail {

/// The threads of one tile: run(ctx, k) runs thread k, 0 <= k < count.
struct tile_threads {
  std::int64_t count;
  void (*run)(void *ctx, std::int64_t thread);
  void *ctx;
};

/// Runs every thread of one tile on the calling host thread. The first
/// thread runs on a fiber; when it returns without reaching a barrier the
/// others run as plain calls, else every thread runs on its own fiber and a
/// barrier switches to the next thread until all have reached it. A
/// barrier that some threads reach while others return is a dp::error, as
/// is one a plain call reaches. An exception a thread throws ends the tile
/// and is rethrown. The tile's memory (arena_bytes, aligned to 16) is
/// host_tile_arena() while it runs.
void run_tile_threads(const tile_threads &threads, std::size_t arena_bytes);

/// The memory of the tile the calling host thread is running.
unsigned char *host_tile_arena();

/// "(1, 2)".
template <int N> std::string position_string(const index<N> &p) {
  std::string s = "(";
  for (int d = 0; d < N; ++d)
    s += (d ? ", " : "") + std::to_string(p[d]);
  return s + ")";
}

/// A dp::error when a tile has more threads than a group may.
inline void check_tile_volume(const std::string &call, std::int64_t volume, std::int64_t limit) {
  if (volume > limit)
    fail(call + ": a tile of " + std::to_string(volume) + " threads is larger than the " +
         std::to_string(limit) + " threads a group may have");
}

/// The tiles covering extent e in tiles of te: how many per dimension,
/// and how one of them runs.
template <int N> struct tile_cover {
  std::int64_t tiles[N], tile[N], ext[N];
  std::int64_t count = 1;  ///< tiles
  std::int64_t volume = 1; ///< threads per tile

  tile_cover(const extent<N> &e, const extent<N> &te) {
    for (int d = 0; d < N; ++d) {
      tile[d] = te[d];
      ext[d] = e[d];
      tiles[d] = (e[d] + te[d] - 1) / te[d];
      count *= tiles[d];
      volume *= te[d];
    }
  }

  /// Runs every thread of tile number t (row-major among the tiles) as
  /// fn(point, k), k the thread's row-major number in the tile, with
  /// arena_bytes of tile memory. A dp::error names the tile.
  template <class Fn>
  void run(const std::string &call, std::int64_t t, std::size_t arena_bytes, const Fn &fn) const {
    struct one_tile {
      const Fn &fn;
      const tile_cover &cover;
      std::size_t arena_bytes;
      index<N> at;
      static void run(void *ctx, std::int64_t k) {
        const one_tile &self = *static_cast<const one_tile *>(ctx);
        tile_memory memory{host_tile_arena(), static_cast<std::uint32_t>(self.arena_bytes), 0};
        tile_point<N> p;
        p.tile = self.at;
        raise_into(k, self.cover.tile, p.local);
        p.place(self.cover.tile, self.cover.ext);
        p.memory = &memory;
        self.fn(p, k);
      }
    };
    one_tile job{fn, *this, arena_bytes, index<N>()};
    raise_into(t, tiles, job.at);
    try {
      run_tile_threads({volume, &one_tile::run, &job}, arena_bytes);
    } catch (const dp::error &err) {
      fail(call + ": tile " + position_string(job.at) + ": " + err.what());
    }
  }
};

/// Calls fn(point) for every thread of every tile covering extent e in
/// tiles of te: tiles in parallel, the threads of a tile cooperatively.
/// Each thread's point has its own view of a tile memory of arena_bytes.
template <int N, class Fn>
void for_each_tile_thread(const std::string &call, const extent<N> &e, const extent<N> &te,
                          std::size_t arena_bytes, const Fn &fn) {
  const tile_cover<N> cover(e, te);
  if (cover.count == 0)
    return;
  check_tile_volume(call, cover.volume, max_tile_threads);
  host_for_each(cover.count, [&](std::int64_t t) {
    cover.run(call, t, arena_bytes, [&](const tile_point<N> &p, std::int64_t) { fn(p); });
  });
}

/// For a kernel that cannot tell its tile, which runs at the grid's points
/// as plain loops: checks the tile against the threads a group may have,
/// then calls fn(point) for every padding thread of the tiles covering
/// extent e in tiles of te (the threads past e), one after the other: the
/// boxes with dimensions before d inside e, dimension d past it.
template <int N, class Fn>
void for_each_padding_thread(const std::string &call, const extent<N> &e, const extent<N> &te,
                             const Fn &fn) {
  const tile_cover<N> cover(e, te);
  check_tile_volume(call, cover.volume, max_tile_threads);
  for (int d = 0; d < N; ++d) {
    std::int64_t lo[N], hi[N], volume = 1;
    for (int k = 0; k < N; ++k) {
      const std::int64_t padded = cover.tiles[k] * te[k];
      lo[k] = k == d ? e[k] : 0;
      hi[k] = k < d ? e[k] : padded;
      volume *= hi[k] - lo[k];
    }
    tile_point<N> p;
    for (std::int64_t n = 0; n < volume; ++n) {
      for (std::int64_t k = N - 1, rest = n; k >= 0; --k) {
        p.pos[k] = lo[k] + rest % (hi[k] - lo[k]);
        rest /= hi[k] - lo[k];
        p.tile[k] = p.pos[k] / te[k];
        p.local[k] = p.pos[k] % te[k];
      }
      fn(p); // in_domain stays false
    }
  }
}

/// Bytes of tile memory a reduce over a tiled grid takes for its fold on a
/// GPU: a T and a presence flag per thread of the tile. The kernel's
/// dp::tile_static objects get what the tile memory has left.
template <class T> constexpr std::size_t tile_fold_bytes(std::int64_t volume) {
  const auto round = [](std::size_t n) {
    return (n + tile_memory_alignment - 1) / tile_memory_alignment * tile_memory_alignment;
  };
  return round(static_cast<std::size_t>(volume) * sizeof(T)) +
         round(static_cast<std::size_t>(volume));
}

/// The fold under r of fn(point) over the points of every tile covering
/// extent e in tiles of te, padding excluded: every thread of a tile runs
/// (so that it reaches the tile's barriers), then the tile's in-domain
/// values are folded in the order of their threads, and the tiles' folds
/// in the order of the tiles (a fixed chunking: reproducible whatever the
/// number of host threads). Nothing for an empty extent.
template <class T, int N, class R, class Fn>
std::optional<T> fold_tile_values(const std::string &call, const extent<N> &e, const extent<N> &te,
                                  std::size_t arena_bytes, const R &r, const Fn &fn) {
  using acc_t = std::optional<T>;
  const tile_cover<N> cover(e, te);
  if (cover.count == 0)
    return acc_t();
  check_tile_volume(call, cover.volume, max_tile_threads);
  const std::int64_t grain = std::max<std::int64_t>(1, reduce_grain / cover.volume);
  return deterministic_reduce<acc_t>(
      cover.count, grain,
      [&](std::int64_t begin, std::int64_t end, acc_t acc) {
        std::vector<acc_t> values(static_cast<std::size_t>(cover.volume));
        for (std::int64_t t = begin; t < end; ++t) {
          cover.run(call, t, arena_bytes, [&](const tile_point<N> &p, std::int64_t k) {
            auto &&v = fn(p); // padding threads too: they reach the barriers
            if (p.in_domain)
              values[static_cast<std::size_t>(k)].emplace(static_cast<T>(v));
          });
          for (acc_t &v : values)
            if (v) {
              fold_into(acc, r, std::move(*v));
              v.reset();
            }
        }
        return acc;
      },
      [&](acc_t a, const acc_t &b) {
        if (b)
          fold_into(a, r, *b);
        return a;
      });
}

} // namespace dp::detail
