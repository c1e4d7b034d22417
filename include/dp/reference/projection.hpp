/// \file
/// Projection of a field on a compute grid, reduced to affine pointer
/// arithmetic: the element for compute position p is `base + sum p[d]*step[d]`.
/// Checked once per call, so the loops that use it do no bounds work.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "../field.hpp"
#include "../grid.hpp"
#include "../detail/call_info.hpp"

namespace dp::detail {

/// A position on a row along which every elemental projection of a launch
/// steps by one element (the last step is 1): a projection indexes it as
/// `base[lead + pos[Rc - 1]]`, which the compiler hoists and walks as a
/// unit-stride loop, as the host reference's rows do. Anything else takes
/// it as the dp::index<Rc> it is.
template <int Rc> struct unit_row_index : index<Rc> {};

/// A unit row on which, besides, every broadcast field starts at index 0
/// and the compute grid steps by 1 in every dimension: a field handle
/// states its lower bounds as 0 in constants, and the kernel's index is
/// the grid's first value plus the position, so an element access costs
/// what a raw pointer loop's does.
template <int Rc> struct origin_row_index : unit_row_index<Rc> {};

/// The element a vendor algorithm loaded from a dense row, standing for
/// its position: a projection indexes it as that element. A full reduce
/// whose map reads one argument's element alone (dpstub marks it) hands the
/// vendor the elements' pointer, so that it loads them as vectors, and
/// calls the map on each element it loaded.
template <int Rc, class E> struct element_at {
  const E *at;
};

/// Where compute position p lands in a field's memory.
template <class T, int Rc> struct affine_projection {
  T *DP_RESTRICT base = nullptr;
  std::int64_t step[Rc] = {};

  DP_HOST_DEVICE T *at(const std::int64_t (&pos)[Rc]) const {
    std::int64_t off = 0;
    for (int d = 0; d < Rc; ++d)
      off += pos[d] * step[d];
    return base + off;
  }
  /// The element at compute positions pos (0-based, per dimension).
  DP_HOST_DEVICE T &operator[](const index<Rc> &pos) const {
    return (base + lead(pos, std::make_index_sequence<Rc - 1>()))[pos[Rc - 1] * step[Rc - 1]];
  }
  /// The same element, when step[Rc - 1] is 1 (the caller checked).
  DP_HOST_DEVICE T &operator[](const unit_row_index<Rc> &pos) const {
    return (base + lead(pos, std::make_index_sequence<Rc - 1>()))[pos[Rc - 1]];
  }
  /// The element a vendor loaded from this projection's dense row.
  template <class E> DP_HOST_DEVICE T &operator[](const element_at<Rc, E> &pos) const {
    return *pos.at;
  }

private:
  /// The row's offset, unrolled: the same along the row, so the compiler
  /// hoists it out of the row's loop at any rank.
  template <std::size_t... D>
  DP_HOST_DEVICE std::int64_t lead(const index<Rc> &pos, std::index_sequence<D...>) const {
    return (std::int64_t(0) + ... + (pos[int(D)] * step[D]));
  }
};

/// The first of the trailing dimensions of extents e along which p is
/// contiguous: each dimension's step spans the ones after it, in units of
/// the last dimension's step (a strided row folds only with rows of the
/// same stride). Rc - 1 when p is contiguous along the last alone.
template <class T, int Rc>
int contiguous_from(const affine_projection<T, Rc> &p, const dp::extent<Rc> &e) {
  int first = Rc - 1;
  for (std::int64_t span = e[Rc - 1] * p.step[Rc - 1]; first > 0 && p.step[first - 1] == span;
       --first)
    span *= e[first - 1];
  return first;
}

/// e with dimensions from..Rc-2 folded into the last (each left as 1): the
/// rows a walk takes when every projection is contiguous from `from` on.
template <int Rc> dp::extent<Rc> fold_trailing(dp::extent<Rc> e, int from) {
  for (int d = Rc - 2; d >= from && d >= 0; --d)
    e[Rc - 1] *= e[d], e[d] = 1;
  return e;
}

/// Positions of what is not a kernel argument, in messages.
inline constexpr int result_position = -1;     ///< a reduce<Dim> or scan result
inline constexpr int sort_field_position = -2; ///< the field a sort sorts

/// "argument 2" (kernel arguments count from 1, as dpstub counts them), "the
/// result field" or "the sort field", for messages.
inline std::string describe_argument(int position) {
  if (position == result_position)
    return "the result field";
  if (position == sort_field_position)
    return "the sort field";
  return "argument " + std::to_string(position + 1);
}

/// Projects the trailing Rc dimensions of f on the compute grid g after
/// checking that every index value of g is one of f's; a dp::error names the
/// call-site, the argument, the dimension and the offending value otherwise.
template <int Rc, int Ra, class T>
affine_projection<T, Rc> project_on(const field<Ra, T> &f, const grid<Rc> &g,
                                    const call_info &call, int position) {
  static_assert(Ra >= Rc, "projection needs the actual's rank >= compute rank");
  affine_projection<T, Rc> p;
  p.base = field_access::data(f);
  if (g.empty())
    return p;
  for (int d = 0; d < Rc; ++d) {
    const int a = Ra - Rc + d;
    const dim_layout &L = field_access::dim(f, a);
    const arithmetic_sequence &s = g.dimension(d);
    if (L.is_spread())
      continue; // a dummy dimension: every value maps to the same element
    const std::int64_t last = s.value(s.extent - 1);
    bool ok = true;
    std::int64_t bad = 0;
    if (!L.contains(s.lb)) {
      ok = false, bad = s.lb;
    } else if (!L.contains(last)) {
      ok = false, bad = last;
    } else if (s.extent > 1 && s.stride % L.stride != 0) {
      ok = false, bad = s.value(1); // between two of the field's values
    }
    if (!ok)
      fail(call.name() + ": " + describe_argument(position) + " (rank " +
           std::to_string(Ra) + ") is projected on the compute grid " +
           g.to_string() + ", but index value " + std::to_string(bad) +
           " of compute dimension " + std::to_string(d) +
           " is not in its dimension " + std::to_string(a) + " " +
           arithmetic_sequence::from_extent(L.lb, L.extent, L.stride).to_string() +
           (Ra > Rc && position >= 0
                ? std::string(" (a partial projection indexes the field's trailing ") +
                      (Rc > 1 ? std::to_string(Rc) + " dimensions" : "dimension") +
                      " by the compute grid; to index its leading one, as for the rows "
                      "of a row-major matrix, pass dp::transpose(...) of the field)"
                : ""));
    p.base += L.position(s.lb) * L.mem_stride;
    p.step[d] = (s.stride / L.stride) * L.mem_stride;
  }
  return p;
}

} // namespace dp::detail
