/// \file
/// reduce, reduce<Dim>, scan<Dim> and sort<Dim> of generated stubs on the
/// host backend. Natively they are the host reference's oneTBB loops with
/// the stub's map function as the value source; under DP_HOST_MODE=emulate
/// they walk the index mapping the GPU path uses (the vendor library's
/// iterators, or the pencil kernels through the dispatch planner).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "../detail/host_fold.hpp"
#include "../extent.hpp"
#include "../index.hpp"
#include "pencil_kernels.hpp"
#include "positions.hpp"
#include "stub_run.hpp"

namespace dp::rt {

/// A generated stub's map function as a host fold source: the value at
/// each position of a row segment, given as a Position (a
/// dp::detail::unit_row_index<N> when every elemental projection steps by
/// one element along the rows).
template <int N, class Map, class Position = dp::index<N>> struct map_source {
  const Map &map;
  template <class Consume>
  void segment(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1,
               Consume &&consume) const {
    Position idx;
    for (int d = 0; d < N - 1; ++d)
      idx[d] = pos[d];
    for (std::int64_t j = j0; j < j1; ++j) {
      idx[N - 1] = j;
      consume(j, map(idx));
    }
  }
  template <class T, class R>
  T fold(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1, const R &r, T acc) const {
    const Map local = map; // a local: its members stay in registers across the loop
    Position idx;
    for (int d = 0; d < N - 1; ++d)
      idx[d] = pos[d];
    for (std::int64_t j = j0; j < j1; ++j) {
      idx[N - 1] = j;
      acc = static_cast<T>(r(acc, local(idx)));
    }
    return acc;
  }
};

/// Whether a tiled kernel can tell the tile it runs in: it takes a tile
/// token. One that cannot (no barrier, no tile memory, no tile index) runs
/// natively on the host as plain loops over the grid's rows, then once per
/// padding thread; on a GPU and emulated nothing changes.
enum class tile_sight { sees, blind };

/// The in-domain threads of a tiled grid along a row segment, as the stub's
/// tile_point: the tile and the place in it follow the position.
template <int N> struct tile_row {
  dp::extent<N> tile;

  void start(const std::int64_t (&pos)[N], std::int64_t j, tile_point<N> &at) const {
    for (int d = 0; d < N; ++d) {
      at.pos[d] = d == N - 1 ? j : pos[d];
      at.tile[d] = at.pos[d] / tile[d];
      at.local[d] = at.pos[d] % tile[d];
    }
    at.in_domain = true;
  }
  void next(tile_point<N> &at) const {
    ++at.pos[N - 1];
    if (++at.local[N - 1] == tile[N - 1]) {
      at.local[N - 1] = 0;
      ++at.tile[N - 1];
    }
  }
};

/// A tile-blind tiled stub's map function as a host fold source.
template <int N, class Map> struct tile_row_source {
  const Map &map;
  tile_row<N> row;
  template <class Consume>
  void segment(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1,
               Consume &&consume) const {
    tile_point<N> at;
    row.start(pos, j0, at);
    for (std::int64_t j = j0; j < j1; ++j, row.next(at))
      consume(j, map(at));
  }
  template <class T, class R>
  T fold(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1, const R &r, T acc) const {
    tile_point<N> at;
    row.start(pos, j0, at);
    for (std::int64_t j = j0; j < j1; ++j, row.next(at))
      acc = static_cast<T>(r(acc, map(at)));
    return acc;
  }
};

namespace host {

/// Full reduce, emulated: the values the device's input iterator yields,
/// point number by point number (fixed blocks, so the result is
/// reproducible). `positions` raises a point number to a position.
template <class T, class Positions, class Op, class Map>
std::optional<T> reduce_emulated(std::int64_t count, const Positions &positions, const Op &op,
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
void fold_segments_emulated(const dp::extent<N> &e, const Op &op, const Map &map,
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
void scan_segments_emulated(const dp::extent<N> &e, const Op &op, const Map &map,
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
void sort_emulated(const dp::extent<N> &e, const Less &less,
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

/// The pencils of e (e less dimension Dim): the domain of a pencil kernel.
template <int Dim, int N> dp::extent<N - 1> pencil_extent(const dp::extent<N> &e) {
  dp::extent<N - 1> p;
  for (int d = 0, k = 0; d < N; ++d)
    if (d != Dim)
      p[k++] = e[d];
  return p;
}

} // namespace host
} // namespace dp::rt
