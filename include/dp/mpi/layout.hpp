/// \file
/// Where every rank's part of a decomposed grid lies: the Cartesian split,
/// the halos and who sends what to whom. Pure arithmetic over positions
/// (0-based along each dimension of the global grid), no MPI, so the unit
/// tests check it exhaustively on one process.
///
/// A message from rank r to rank q carries owned(r) ∩ with_halo(q); the two
/// sides compute the same box, so sends and receives agree without a
/// handshake, and the boxes rank q receives tile with_halo(q) \ owned(q)
/// exactly once (owned parts tile the grid). A halo wider than a
/// neighbour's part reaches the ranks beyond it: "neighbour" means "owns a
/// cell of my halo", not "adjacent in the process grid".
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../error.hpp"

namespace dp::mpi::detail {

/// Positions [lo, hi) of one dimension.
struct interval {
  std::int64_t lo = 0, hi = 0;
  std::int64_t size() const { return hi > lo ? hi - lo : 0; }
};

/// Part k of n positions split over p parts: the first n % p parts hold one
/// position more, so parts differ by at most one.
inline interval split(std::int64_t n, int p, int k) {
  const std::int64_t q = n / p, r = n % p;
  const std::int64_t lo = k * q + std::min<std::int64_t>(k, r);
  return {lo, lo + q + (k < r ? 1 : 0)};
}

/// The part of split(n, p, .) that holds position x (0 <= x < n).
inline int part_of(std::int64_t n, int p, std::int64_t x) {
  const std::int64_t q = n / p, r = n % p;
  if (x < r * (q + 1))
    return static_cast<int>(x / (q + 1));
  return static_cast<int>(r + (x - r * (q + 1)) / q);
}

/// A box of positions.
template <int N> struct box {
  std::array<interval, N> dim{};
  bool empty() const {
    for (const interval &i : dim)
      if (i.size() == 0)
        return true;
    return false;
  }
  std::int64_t size() const {
    std::int64_t s = 1;
    for (const interval &i : dim)
      s *= i.size();
    return s;
  }
  friend box intersect(const box &a, const box &b) {
    box c;
    for (int d = 0; d < N; ++d)
      c.dim[d] = {std::max(a.dim[d].lo, b.dim[d].lo), std::min(a.dim[d].hi, b.dim[d].hi)};
    return c;
  }
  friend bool operator==(const box &a, const box &b) {
    for (int d = 0; d < N; ++d)
      if (a.dim[d].lo != b.dim[d].lo || a.dim[d].hi != b.dim[d].hi)
        return false;
    return true;
  }
};

/// outer \\ inner (inner within outer, or empty) as at most 2N disjoint
/// boxes: slabs peeled off dimension by dimension.
template <int N> std::vector<box<N>> peel(const box<N> &outer, const box<N> &inner) {
  std::vector<box<N>> out;
  if (outer.empty())
    return out;
  if (inner.empty()) {
    out.push_back(outer);
    return out;
  }
  box<N> rest = outer;
  for (int d = 0; d < N; ++d) {
    box<N> below = rest, above = rest;
    below.dim[d] = {rest.dim[d].lo, inner.dim[d].lo};
    above.dim[d] = {inner.dim[d].hi, rest.dim[d].hi};
    if (!below.empty())
      out.push_back(below);
    if (!above.empty())
      out.push_back(above);
    rest.dim[d] = inner.dim[d];
  }
  return out;
}

/// The split of a global box of `extent` positions over a process grid of
/// `dims` ranks (row-major rank order, the last dimension fastest: MPI's
/// Cartesian order), each part widened by `halo` positions.
template <int N> class cart_layout {
public:
  cart_layout(const std::array<std::int64_t, N> &extent, const std::array<int, N> &dims,
              std::int64_t halo)
      : extent_(extent), dims_(dims), halo_(halo) {
    ranks_ = 1;
    for (int d = 0; d < N; ++d) {
      if (dims_[d] < 1)
        dp::detail::fail("dp::mpi: dimension " + std::to_string(d) + " of the process grid has " +
                         std::to_string(dims_[d]) + " ranks");
      ranks_ *= dims_[d];
    }
    if (halo_ < 0)
      dp::detail::fail("dp::mpi: halo width " + std::to_string(halo_) + " is negative");
  }

  int ranks() const { return ranks_; }
  const std::array<int, N> &dims() const { return dims_; }
  std::int64_t halo() const { return halo_; }

  std::array<int, N> coords(int rank) const {
    std::array<int, N> c{};
    for (int d = N - 1; d >= 0; --d) {
      c[d] = rank % dims_[d];
      rank /= dims_[d];
    }
    return c;
  }
  int rank_of(const std::array<int, N> &c) const {
    int r = 0;
    for (int d = 0; d < N; ++d)
      r = r * dims_[d] + c[d];
    return r;
  }

  /// The positions rank owns (empty where it has no part: more ranks than
  /// positions along a dimension).
  box<N> owned(int rank) const {
    const std::array<int, N> c = coords(rank);
    box<N> b;
    for (int d = 0; d < N; ++d)
      b.dim[d] = split(extent_[d], dims_[d], c[d]);
    return b;
  }
  /// owned(rank) widened by the halo, clipped to the global box; empty
  /// where owned(rank) is.
  box<N> with_halo(int rank) const {
    box<N> b = owned(rank);
    if (b.empty())
      return b;
    for (int d = 0; d < N; ++d)
      b.dim[d] = {std::max<std::int64_t>(0, b.dim[d].lo - halo_),
                  std::min<std::int64_t>(extent_[d], b.dim[d].hi + halo_)};
    return b;
  }

  /// The other ranks that own a cell of rank's halo (equivalently: whose
  /// halo holds a cell rank owns), in rank order.
  std::vector<int> neighbors(int rank) const {
    std::vector<int> out;
    const box<N> h = with_halo(rank);
    if (h.empty())
      return out;
    std::array<int, N> first{}, last{}, c{};
    for (int d = 0; d < N; ++d) {
      first[d] = part_of(extent_[d], dims_[d], h.dim[d].lo);
      last[d] = part_of(extent_[d], dims_[d], h.dim[d].hi - 1);
    }
    c = first;
    for (;;) {
      const int q = rank_of(c);
      if (q != rank && !owned(q).empty())
        out.push_back(q);
      int d = N - 1;
      while (d >= 0 && c[d] == last[d]) {
        c[d] = first[d];
        --d;
      }
      if (d < 0)
        break;
      ++c[d];
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  /// What rank `from` sends rank `to` (and `to` receives from `from`).
  box<N> message(int from, int to) const { return intersect(owned(from), with_halo(to)); }

private:
  std::array<std::int64_t, N> extent_;
  std::array<int, N> dims_;
  std::int64_t halo_;
  int ranks_ = 1;
};

} // namespace dp::mpi::detail
