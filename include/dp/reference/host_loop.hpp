/// \file
/// The host backend's iteration: a parallel loop over the positions of a
/// compute grid, handed out as row segments so the innermost loop is a plain
/// counted loop over the last dimension.
#pragma once

#include <algorithm>
#include <cstdint>

#include "../detail/host_threads.hpp"
#include "../grid.hpp"

namespace dp::detail {

/// Raises a row-major position offset into per-dimension positions.
template <int N>
void raise_position(std::int64_t offset, const grid<N> &g, std::int64_t (&pos)[N]) {
  for (int d = N - 1; d >= 0; --d) {
    const std::int64_t e = g.extent(d);
    pos[d] = offset % e;
    offset /= e;
  }
}

/// Advances pos to the start of the next row.
template <int N> void next_row(const grid<N> &g, std::int64_t (&pos)[N]) {
  pos[N - 1] = 0;
  for (int d = N - 2; d >= 0; --d) {
    if (++pos[d] < g.extent(d))
      return;
    pos[d] = 0;
  }
}

/// Calls segment(pos, j0, j1) for row segments covering [begin, end) of the
/// row-major positions of g: pos holds the row's leading positions and the
/// segment covers last-dimension positions j0..j1-1.
template <int N, class Segment>
void for_each_segment(const grid<N> &g, std::int64_t begin, std::int64_t end,
                      Segment &&segment) {
  const std::int64_t inner = g.extent(N - 1);
  std::int64_t pos[N];
  raise_position(begin, g, pos);
  for (std::int64_t k = begin; k < end;) {
    const std::int64_t j0 = pos[N - 1];
    const std::int64_t j1 = std::min(inner, j0 + (end - k));
    segment(pos, j0, j1);
    k += j1 - j0;
    if (j1 == inner)
      next_row(g, pos);
    else
      pos[N - 1] = j1;
  }
}

/// Up to this many points, a host walk is split in one piece per thread;
/// beyond, in eight per thread (host_split).
inline constexpr std::int64_t even_split_points = std::int64_t(1) << 20;

/// body(begin, end) over [0, n) on the host's threads, in pieces of equal size
/// any thread may take: one per thread up to even_split_points, as
/// OpenMP's schedule(static) splits a loop, so a small forall pays one
/// task per thread, and a thread still asleep costs a wake-up, not a wait;
/// eight per thread beyond, so the others take the work of a thread the
/// machine holds up. One partitioner type for both: with two (static
/// or simple pieces below 2^20 points, adaptive above), the migrate
/// benchmark's borrowed_axpy ran 1.7 times as slow; the likeliest cause,
/// how GCC compiled the row loop in one of the two instantiations, is
/// not verified.
///
/// Measured on the project's 2-core machine, 2026-11-28, builds
/// alternated. TBB's adaptive splitting (the one before) cost a forall
/// 2-3 us a call: the migrated lib_axpy (bench/migrate_library.cpp) over
/// 1,024 and 16,384 doubles took 4.0 and 9.2 us, 0.9 and 5.4 now,
/// OpenMP's 1.9 and 6.1; host_bench's 16-point forall 0.91-0.94 us,
/// 0.17-0.29 now; 100 small foralls replayed from a dp::record took
/// 0.11-0.19 ms, 0.03 now. A static_partitioner pins each piece to a
/// thread: the triad over 2^26 floats then ran at 0.60-0.97 of
/// hand-written TBB (0.97-1.00 now, 0.79-1.14 before).
/// Up to this many points, a walk whose points are cheap runs on the
/// calling thread (walk_on_calling_thread).
inline constexpr std::int64_t calling_thread_points = 64;

/// Whether a host walk over n points runs on the calling thread: when its
/// points are cheap (a kernel with no loop of its own) and few. Handing
/// half of them to another thread and waiting for it costs about 0.75 us
/// on the project's 2-core machine (oneTBB's fork and join; OpenMP's
/// worksharing loop, whose threads spin at its barrier, 0.2-0.3 us), more
/// than 64 such points take alone. NPB SP's lhsx runs 34-point loops
/// inside serial j and k loops: 1.36 us a call on two threads, 0.61 on
/// one, OpenMP 0.47-0.54 (2026-12-07). A kernel that loops itself may
/// take any time per point, so it keeps the threads (from two points: one
/// point, or none, has nothing to share).
constexpr bool walk_on_calling_thread(std::int64_t n, bool cheap_points) {
  return n <= 1 || (cheap_points && n <= calling_thread_points);
}

template <class Body> void host_split(std::int64_t n, const Body &body) {
  const std::int64_t threads = host_concurrency();
  const std::int64_t pieces = n <= even_split_points ? threads : threads * 8;
  host_parallel(n, (n + pieces - 1) / pieces, host_split_kind::simple, body);
}

} // namespace dp::detail
