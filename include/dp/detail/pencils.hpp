/// \file
/// Walking a compute grid as pencils along one dimension (reduce<Dim>,
/// scan<Dim>, sort<Dim>), and addressing the field that holds per-pencil or
/// per-point results by position.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "../field.hpp"
#include "../grid.hpp"
#include "../indexable.hpp"
#include "call_info.hpp"

namespace dp::detail {

/// Pencils that share a tile are walked together so the innermost loop stays
/// on the grid's last dimension.
inline constexpr std::int64_t pencil_tile_width = 256;

/// Calls tile(pos, j0, j1) in parallel for tiles that together cover every
/// pencil along `dim` once. pos holds the positions of the other dimensions
/// (pos[dim] is 0). When dim is the last dimension a tile is one pencil and
/// j0..j1 spans it; otherwise a tile is the pencils at last-dimension
/// positions j0..j1-1.
template <int N, class Tile> void parallel_pencil_tiles(const grid<N> &g, int dim, Tile &&tile) {
  if (g.size() == 0)
    return;
  const std::int64_t inner = g.extent(N - 1);
  const bool along_last = dim == N - 1;
  const std::int64_t width = along_last ? inner : std::min(inner, pencil_tile_width);
  const std::int64_t tiles_per_row = along_last ? 1 : (inner + width - 1) / width;
  std::int64_t others = 1; // positions of the dimensions other than dim and N-1
  for (int d = 0; d < N - 1; ++d)
    if (d != dim)
      others *= g.extent(d);
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, others * tiles_per_row),
                    [&](const tbb::blocked_range<std::int64_t> &r) {
                      for (std::int64_t t = r.begin(); t < r.end(); ++t) {
                        std::int64_t o = t / tiles_per_row;
                        const std::int64_t jt = t % tiles_per_row;
                        std::int64_t pos[N] = {};
                        for (int d = N - 2; d >= 0; --d) {
                          if (d == dim)
                            continue;
                          pos[d] = o % g.extent(d);
                          o /= g.extent(d);
                        }
                        const std::int64_t j0 = along_last ? 0 : jt * width;
                        tile(pos, j0, std::min(inner, j0 + width));
                      }
                    });
}

/// Element addressing of a result field by *positions*: element k of each
/// dimension pairs with position k of the matching compute dimension.
template <class T, int M> struct positional_cursor {
  T *data = nullptr;
  std::int64_t mem_stride[M] = {};
  T &at(const std::int64_t (&pos)[M]) const {
    std::int64_t off = 0;
    for (int d = 0; d < M; ++d)
      off += pos[d] * mem_stride[d];
    return data[off];
  }
};

/// Checks that `result` has exactly the extents `expected` (the compute
/// grid's, less the reduced dimension for reduce<Dim>) and returns its
/// positional cursor, host-current and marked written.
template <int M, class T>
positional_cursor<T, M> result_cursor(field<M, T> &result, const extent<M> &expected,
                                      const call_info &call, const char *what) {
  extent<M> got;
  for (int d = 0; d < M; ++d)
    got[d] = result.get_extent(d);
  if (got != expected)
    fail(call.name() + ": " + what + " has extents " + got.to_string() + ", but " +
         "the compute grid needs " + expected.to_string());
  positional_cursor<T, M> c;
  c.data = result.data(); // makes the host copy current and marks it written
  for (int d = 0; d < M; ++d)
    c.mem_stride[d] = field_access::dim(result, d).mem_stride;
  return c;
}

/// A dp::error when Dim does not name a dimension of the compute grid.
inline void check_dimension(const call_info &call, int dim, int rank) {
  if (dim < 0 || dim >= rank)
    fail(call.name() + ": dimension " + std::to_string(dim) +
         " does not exist in a compute grid of rank " + std::to_string(rank));
}

/// A dp::error when a written field's data also feeds the call's arguments.
template <int M, class T, class... Args>
void check_result_not_aliased(const call_info &call, const field<M, T> &result,
                              const Args &...args) {
  int position = 0;
  [[maybe_unused]] auto check = [&](const auto &a) {
    if constexpr (is_field_v<decltype(a)>)
      if (field_access::owner(a) && field_access::owner(a) == field_access::owner(result))
        fail(call.name() + ": the result field's data is also argument " +
             std::to_string(position + 1) + "; pass a clone()");
    ++position;
  };
  (check(args), ...);
}

} // namespace dp::detail
