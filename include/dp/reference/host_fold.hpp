/// \file
/// The host backend's reductions, scans and sorts: parallel loops over the
/// positions of a compute domain, generic over where the values come from.
/// A `Source` is the host reference's bound kernel or a generated stub's map
/// function; it has
///
///     template <class Consume>
///     void segment(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1,
///                  Consume &&consume) const;   // consume(j, value) for j0 <= j < j1
///     template <class T, class R>
///     T fold(const std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1, const R &r,
///            T acc) const;                     // acc r value(j0) r ... r value(j1 - 1)
///
/// Results are written through affine projections of the result field,
/// checked once against the domain's index values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "../detail/host_threads.hpp"
#include "../extent.hpp"
#include "../grid.hpp"
#include "domain_walk.hpp"
#include "host_loop.hpp"
#include "pencils.hpp"
#include "projection.hpp"

namespace dp::detail {

/// Fixed chunking keeps floating-point reductions reproducible run to run,
/// whatever the number of threads.
inline constexpr std::int64_t reduce_grain = 16384;

/// acc = r(acc, v), or v for the first value.
template <class T, class R, class V> void fold_into(std::optional<T> &acc, const R &r, V &&v) {
  if (acc)
    acc = static_cast<T>(r(*acc, std::forward<V>(v)));
  else
    acc.emplace(std::forward<V>(v));
}

/// Folds the values `src` yields at positions j0..j1-1 of the row at pos
/// into acc, which may start empty. The first value is taken apart so that
/// the loop over the others is a plain accumulation.
template <class T, int N, class R, class Source>
void fold_segment(const Source &src, const std::int64_t (&pos)[N], std::int64_t j0,
                  std::int64_t j1, const R &r, std::optional<T> &acc) {
  if (j0 >= j1)
    return;
  if (!acc) {
    src.segment(pos, j0, j0 + 1, [&](std::int64_t, auto &&v) { acc.emplace(v); });
    ++j0;
  }
  // The source folds the rest itself: the accumulator stays a local of
  // the loop (in a register), not a variable reached through a lambda.
  *acc = src.fold(pos, j0, j1, r, std::move(*acc));
}

/// Where the result of row `pos` lands: element j of the row is
/// row[j * step].
template <class T, int N> struct result_row {
  T *row;
  std::int64_t step;
  result_row(const affine_projection<T, N> &out, const std::int64_t (&pos)[N]) {
    std::int64_t at[N];
    for (int d = 0; d < N; ++d)
      at[d] = pos[d];
    at[N - 1] = 0;
    row = out.at(at);
    step = out.step[N - 1];
  }
  T &operator[](std::int64_t j) const { return row[j * step]; }
};

/// The fold of every value `src` yields over the points of a walk
/// (domain_walk.hpp); nothing for an empty domain.
template <class T, class Walk, class R, class Source>
std::optional<T> fold_walk(const Walk &walk, const R &r, const Source &src) {
  using acc_t = std::optional<T>;
  constexpr int N = Walk::rank;
  if (walk.size() == 0)
    return acc_t();
  return deterministic_reduce<acc_t>(
      walk.size(), reduce_grain,
      [&](std::int64_t begin, std::int64_t end, acc_t acc) {
        walk.segments(begin, end,
                      [&](const std::int64_t(&pos)[N], std::int64_t j0, std::int64_t j1) {
                        fold_segment(src, pos, j0, j1, r, acc);
                      });
        return acc;
      },
      [&](acc_t a, const acc_t &b) {
        if (b)
          fold_into(a, r, *b);
        return a;
      });
}

/// The fold of every value `src` yields over the positions of e.
template <class T, int N, class R, class Source>
std::optional<T> fold_all(const extent<N> &e, const R &r, const Source &src) {
  return fold_walk<T>(grid_walk<N>(grid<N>(e)), r, src);
}

/// reduce<Dim>: out(q) = r(out(q), fold of the pencil through q), where q is
/// a position with dimension Dim removed. Pencils across the contiguous
/// dimension are folded a tile of neighbours at a time, row by row, so the
/// loads stay contiguous (the cache-blocked loop one would write by hand).
template <int Dim, class T, int N, class R, class Source>
void fold_pencils(const extent<N> &e, const R &r, const Source &src,
                  const affine_projection<T, N - 1> &out) {
  static_assert(N >= 2 && Dim >= 0 && Dim < N, "fold_pencils: Dim names a dimension");
  if (e.size() == 0)
    return;
  parallel_pencil_tiles(e, Dim, [&](std::int64_t(&pos)[N], std::int64_t j0, std::int64_t j1) {
    std::int64_t q[N - 1];
    if constexpr (Dim == N - 1) {
      std::optional<T> acc;
      fold_segment(src, pos, j0, j1, r, acc);
      drop_dimension(pos, Dim, q);
      T &c = *out.at(q);
      c = static_cast<T>(r(c, *acc));
    } else {
      std::vector<T> acc;
      acc.reserve(static_cast<std::size_t>(j1 - j0));
      pos[Dim] = 0;
      src.segment(pos, j0, j1, [&](std::int64_t, auto &&v) { acc.emplace_back(v); });
      // The accumulators' row and its first column by value: with the
      // vector and j0 reached through the frame, GCC kept the row's bound
      // on the stack (host_bench's reduce<1> of 64x256x1024 floats: a
      // median of 3.5 ms against 2.7-3.0 ms, 2-core VM, 2026-12-02).
      T *const row = acc.data();
      const std::int64_t first = j0;
      for (std::int64_t k = 1; k < e[Dim]; ++k) {
        pos[Dim] = k;
        src.segment(pos, j0, j1, [row, first, &r](std::int64_t j, auto &&v) {
          T &a = row[j - first];
          a = static_cast<T>(r(a, v));
        });
      }
      pos[Dim] = 0;
      for (std::int64_t j = j0; j < j1; ++j) {
        pos[N - 1] = j;
        drop_dimension(pos, Dim, q);
        T &c = *out.at(q);
        c = static_cast<T>(r(c, acc[static_cast<std::size_t>(j - j0)]));
      }
    }
  });
}

/// Scans the values at positions j0..j1-1 of the row at pos into out;
/// returns the fold of the segment.
template <class T, int N, class R, class Source>
std::optional<T> scan_segment(const Source &src, const std::int64_t (&pos)[N], std::int64_t j0,
                              std::int64_t j1, const R &r, const result_row<T, N> &out) {
  if (j0 >= j1)
    return std::nullopt;
  std::optional<T> first;
  src.segment(pos, j0, j0 + 1, [&](std::int64_t, auto &&v) { first.emplace(v); });
  T a = *first;
  out[j0] = a;
  src.segment(pos, j0 + 1, j1, [&](std::int64_t j, auto &&v) {
    a = static_cast<T>(r(a, v));
    out[j] = a;
  });
  return a;
}

/// One long pencil along the last dimension, scanned in two passes over
/// fixed blocks: local prefixes in parallel, then each block's carry-in.
template <class T, int N, class R, class Source>
void scan_long_row(const Source &src, const R &r, const std::int64_t (&pos)[N],
                   std::int64_t length, const affine_projection<T, N> &out) {
  const std::int64_t blocks = (length + reduce_grain - 1) / reduce_grain;
  std::vector<std::optional<T>> totals(static_cast<std::size_t>(blocks));
  const result_row<T, N> out_at(out, pos);
  host_for_each(blocks, [&](std::int64_t b) {
    const std::int64_t j0 = b * reduce_grain, j1 = std::min(length, j0 + reduce_grain);
    totals[static_cast<std::size_t>(b)] = scan_segment<T>(src, pos, j0, j1, r, out_at);
  });
  std::vector<std::optional<T>> carry(static_cast<std::size_t>(blocks));
  for (std::int64_t b = 1; b < blocks; ++b) {
    carry[b] = carry[b - 1];
    fold_into(carry[b], r, *totals[b - 1]);
  }
  host_for_each(blocks - 1, [&](std::int64_t b1) {
    const std::int64_t b = b1 + 1;
    const std::int64_t j0 = b * reduce_grain, j1 = std::min(length, j0 + reduce_grain);
    for (std::int64_t j = j0; j < j1; ++j)
      out_at[j] = static_cast<T>(r(*carry[b], out_at[j]));
  });
}

/// scan<Dim>: out(p) = the r-fold of the pencil through p up to p.
template <int Dim, class T, int N, class R, class Source>
void scan_pencils(const extent<N> &e, const R &r, const Source &src,
                  const affine_projection<T, N> &out) {
  static_assert(Dim >= 0 && Dim < N, "scan_pencils: Dim names a dimension");
  if (e.size() == 0)
    return;
  const std::int64_t length = e[Dim];
  const std::int64_t pencils = e.size() / length;
  if (Dim == N - 1 && pencils < 4 && length > 4 * reduce_grain) {
    std::int64_t pos[N] = {};
    for (std::int64_t p = 0; p < pencils; ++p) {
      std::int64_t o = p;
      for (int d = N - 2; d >= 0; --d)
        pos[d] = o % e[d], o /= e[d];
      scan_long_row(src, r, pos, length, out);
    }
    return;
  }
  parallel_pencil_tiles(e, Dim, [&](std::int64_t(&pos)[N], std::int64_t j0, std::int64_t j1) {
    if constexpr (Dim == N - 1) {
      scan_segment<T>(src, pos, j0, j1, r, result_row<T, N>(out, pos));
    } else if (out.step[N - 1] == 1) {
      // Across the contiguous dimension into rows of unit stride: a tile
      // of neighbouring pencils walked row by row, each result the
      // previous row's (just written, in cache) combined with the value,
      // as a plain loop does: no accumulator array.
      pos[Dim] = 0;
      T *row = result_row<T, N>(out, pos).row;
      src.segment(pos, j0, j1, [row](std::int64_t j, auto &&v) { row[j] = static_cast<T>(v); });
      for (std::int64_t k = 1; k < length; ++k) {
        pos[Dim] = k;
        const T *prev = row;
        row = result_row<T, N>(out, pos).row;
        src.segment(pos, j0, j1, [prev, row, &r](std::int64_t j, auto &&v) {
          row[j] = static_cast<T>(r(prev[j], v));
        });
      }
    } else {
      // Across the contiguous dimension: a tile of neighbouring pencils
      // walked row by row, each row's results written through its pointer.
      std::vector<T> acc;
      acc.reserve(static_cast<std::size_t>(j1 - j0));
      pos[Dim] = 0;
      const result_row<T, N> first(out, pos);
      src.segment(pos, j0, j1, [&](std::int64_t j, auto &&v) {
        acc.emplace_back(v);
        first[j] = acc.back();
      });
      for (std::int64_t k = 1; k < length; ++k) {
        pos[Dim] = k;
        const result_row<T, N> row(out, pos);
        T *a = acc.data();
        src.segment(pos, j0, j1, [&](std::int64_t j, auto &&v) {
          T &x = a[j - j0];
          x = static_cast<T>(r(x, v));
          row[j] = x;
        });
      }
    }
  });
}

/// Neighbouring pencils a sort<Dim> across the last dimension gathers
/// together: up to 64, within 256 KiB of values. A tile's rows are read
/// and written as contiguous stretches, not a cache line per value, and
/// narrow tiles let the threads share the work evenly (the sorts, not the
/// prefetcher, dominate).
template <class T> std::int64_t sort_tile_width(std::int64_t length) {
  const std::int64_t fit = (std::int64_t(1) << 18) / (length * std::int64_t(sizeof(T)));
  return std::clamp<std::int64_t>(fit, 1, 64);
}

/// Sorts the pencils of `data` along Dim at last-dimension positions
/// j0..j1-1 (pos: the other dimensions): gathered row by row into one
/// buffer (pencil after pencil), each sorted, scattered back row by row.
template <int Dim, class T, int N, class Less>
void sort_pencil_tile(std::int64_t (&pos)[N], std::int64_t j0, std::int64_t j1,
                      std::int64_t length, const Less &less,
                      const affine_projection<T, N> &data) {
  const std::int64_t w = j1 - j0, step = data.step[N - 1];
  std::vector<T> buffer(static_cast<std::size_t>(w * length));
  T *b = buffer.data();
  pos[N - 1] = j0;
  for (std::int64_t k = 0; k < length; ++k) {
    pos[Dim] = k;
    const T *row = data.at(pos);
    for (std::int64_t c = 0; c < w; ++c)
      b[c * length + k] = row[c * step];
  }
  for (std::int64_t c = 0; c < w; ++c)
    std::sort(b + c * length, b + (c + 1) * length, less);
  for (std::int64_t k = 0; k < length; ++k) {
    pos[Dim] = k;
    T *row = data.at(pos);
    for (std::int64_t c = 0; c < w; ++c)
      row[c * step] = b[c * length + k];
  }
}

/// sort<Dim>: each pencil of `data` sorted with `less`. A pencil of
/// consecutive elements is sorted where it lies; pencils across the last
/// dimension a tile at a time (sort_pencil_tile), values that cannot be
/// default-constructed one pencil at a time.
template <int Dim, class T, int N, class Less>
void sort_pencils(const extent<N> &e, const Less &less, const affine_projection<T, N> &data) {
  static_assert(Dim >= 0 && Dim < N, "sort_pencils: Dim names a dimension");
  if (e.size() == 0)
    return;
  const std::int64_t length = e[Dim];
  const bool contiguous = data.step[Dim] == 1;
  auto sort_pencil = [&](const std::int64_t(&start)[N], bool parallel) {
    T *first = data.at(start);
    const auto sort = [&](auto begin, auto end) {
      if (parallel)
        parallel_sort(begin, end, less);
      else
        std::sort(begin, end, less);
    };
    if (contiguous)
      return sort(first, first + length);
    std::vector<T> pencil;
    pencil.reserve(static_cast<std::size_t>(length));
    for (std::int64_t k = 0; k < length; ++k)
      pencil.push_back(first[k * data.step[Dim]]);
    sort(pencil.begin(), pencil.end());
    for (std::int64_t k = 0; k < length; ++k)
      first[k * data.step[Dim]] = pencil[static_cast<std::size_t>(k)];
  };
  if (e.size() == length) { // one pencil: sort it in parallel
    const std::int64_t zero[N] = {};
    sort_pencil(zero, true);
    return;
  }
  constexpr bool tiles = Dim != N - 1 && std::is_default_constructible<T>::value;
  const std::int64_t width = tiles ? sort_tile_width<T>(length) : pencil_tile_width;
  parallel_pencil_tiles(
      e, Dim,
      [&](std::int64_t(&pos)[N], std::int64_t j0, std::int64_t j1) {
        if constexpr (tiles) {
          sort_pencil_tile<Dim>(pos, j0, j1, length, less, data);
        } else if (Dim == N - 1) {
          sort_pencil(pos, false);
        } else {
          for (std::int64_t j = j0; j < j1; ++j) {
            pos[N - 1] = j;
            sort_pencil(pos, false);
          }
        }
      },
      width);
}

} // namespace dp::detail
