/// \file
/// Tiled domains on the host: tiles in parallel (oneTBB), the threads of
/// one tile run cooperatively on one host thread so that a barrier really
/// waits for every thread of the tile (runtime/tile_runner.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "../error.hpp"
#include "../extent.hpp"
#include "../tiled_grid.hpp"
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

/// Calls fn(point) for every thread of every tile covering extent e in
/// tiles of te: tiles in parallel, the threads of a tile cooperatively.
/// Each thread's point has its own view of a tile memory of arena_bytes.
template <int N, class Fn>
void for_each_tile_thread(const std::string &call, const extent<N> &e, const extent<N> &te,
                          std::size_t arena_bytes, const Fn &fn) {
  std::int64_t tiles[N], tile[N], ext[N];
  std::int64_t ntiles = 1;
  for (int d = 0; d < N; ++d) {
    tile[d] = te[d];
    ext[d] = e[d];
    tiles[d] = (e[d] + te[d] - 1) / te[d];
    ntiles *= tiles[d];
  }
  if (ntiles == 0)
    return;
  check_tile_volume(call, te.size(), max_tile_threads);
  struct one_tile {
    const Fn &fn;
    const std::int64_t (&tile)[N];
    const std::int64_t (&ext)[N];
    std::size_t arena_bytes;
    index<N> at;
    static void run(void *ctx, std::int64_t k) {
      const one_tile &self = *static_cast<const one_tile *>(ctx);
      tile_memory memory{host_tile_arena(), static_cast<std::uint32_t>(self.arena_bytes), 0};
      tile_point<N> p;
      p.tile = self.at;
      raise_into(k, self.tile, p.local);
      p.place(self.tile, self.ext);
      p.memory = &memory;
      self.fn(p);
    }
  };
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, ntiles),
                    [&](const tbb::blocked_range<std::int64_t> &r) {
                      for (std::int64_t t = r.begin(); t < r.end(); ++t) {
                        one_tile job{fn, tile, ext, arena_bytes, index<N>()};
                        raise_into(t, tiles, job.at);
                        try {
                          run_tile_threads({te.size(), &one_tile::run, &job}, arena_bytes);
                        } catch (const dp::error &err) {
                          fail(call + ": tile " + position_string(job.at) + ": " + err.what());
                        }
                      }
                    });
}

} // namespace dp::detail
