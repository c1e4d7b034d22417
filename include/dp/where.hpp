/// \file
/// dp::where(grid, pred): the points of a grid whose index value satisfies
/// a predicate, as a compute domain.
#pragma once

#include <type_traits>
#include <utility>

#include "grid.hpp"
#include "index.hpp"

namespace dp {

/// The points of a grid whose index value `idx` satisfies `pred(idx)`: a
/// compute domain for dp::forall and the full dp::reduce. A GPU launches
/// the grid and each thread tests the predicate after mapping its index,
/// so the predicate must be callable in host and device code (dpstub marks
/// it, as it marks kernels). Arguments are projected on the whole grid: a
/// field must hold every index value of the grid, kept or not.
///
///     // the strictly upper part of a matrix
///     dp::forall(dp::where(dp::grid<2>(n, n), [](dp::index<2> i) { return i[1] > i[0]; }),
///                [](float &a) { a = 0; }, A);
template <int N, class Pred> class where_domain {
public:
  static constexpr int rank = N;
  using predicate_type = Pred;

  where_domain(const dp::grid<N> &g, Pred pred) : grid_(g), pred_(std::move(pred)) {}

  /// The grid the points are taken from.
  const dp::grid<N> &domain() const { return grid_; }
  const Pred &predicate() const { return pred_; }
  /// True when idx is an index value of the grid that the predicate keeps.
  bool contains(const index<N> &idx) const { return grid_.contains(idx) && keep(idx); }
  /// The predicate at an index value, as bool.
  bool keep(const index<N> &idx) const { return static_cast<bool>(pred_(idx)); }
  bool empty() const { return grid_.empty(); }

private:
  dp::grid<N> grid_;
  Pred pred_;
};

/// The points of `g` whose index value satisfies `pred`.
template <int N, class Pred> where_domain<N, std::decay_t<Pred>> where(const grid<N> &g, Pred &&pred) {
  static_assert(std::is_invocable_r<bool, const std::decay_t<Pred> &, const index<N> &>::value,
                "dp::where(grid, pred): pred must be callable as pred(dp::index<N>) with the "
                "grid's rank N, returning a value convertible to bool");
  return where_domain<N, std::decay_t<Pred>>(g, std::forward<Pred>(pred));
}

} // namespace dp
