/// \file
/// The dispatch planner (docs/runtime.md): how a logical domain is laid onto GPU
/// launches, and the inverse map a stub runs to find its logical index.
/// Pure host code for planning; the mapping functions are host+device and
/// allocate nothing, so generated stubs compile them for the GPU.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "../../config.hpp"
#include "../../extent.hpp"
#include "../../index.hpp"
#include "../../detail/small_vector.hpp"
#include "fast_divmod.hpp"
#include "modes.hpp"

namespace dp::rt {

/// A physical triple in dim3 order: x (fastest), y, z.
using triple = std::array<std::int64_t, 3>;

/// What a device allows: groups per physical dimension and threads per group.
struct device_limits {
  triple max_groups;
  std::int64_t max_threads_per_group;
  /// Threads per group along each physical dimension (a tile's shape).
  triple max_group_extent{1024, 1024, 64};
  /// Threads the device runs at once: its multiprocessors times the threads
  /// each holds (what kernels that size their grid to the machine fill,
  /// as CUB sizes its reduce grid). The default: 128 x 2048.
  std::int64_t resident_threads = 128 * 2048;
};

/// How to lay a domain onto launches.
enum class dispatch_policy {
  automatic,    ///< the planner's best choice
  load_balance, ///< one launch where possible; indirect when direct does not fit
  split         ///< direct launches, several with origins when one does not reach
};


/// Above this many physical threads per logical point a direct plan is
/// wasteful and the planner prefers the indirect mode.
inline constexpr double wastage_threshold = 2.0;

/// One launch: its group counts and the logical origin added to its indices
/// (for indirect launches, the origin is where its linear range starts).
template <int N> struct dispatch_piece {
  triple groups;
  dp::index<N> origin;
};

/// A complete plan: one mode for all launches, one piece per launch.
template <int N> struct dispatch_plan {
  dispatch_mode mode;                  ///< 1-3 direct, 4-6 partially direct, 7 indirect
  triple group_shape;                  ///< threads per group
  std::vector<dispatch_piece<N>> pieces;
  dp::extent<N> domain;                ///< the logical extents planned for

  /// Physical threads over logical points (1.0 is a perfect fit).
  double wastage() const;
};

/// A plan as the runtime's launches use it: a dispatch_plan whose pieces
/// live inside it when they are few (the usual one), so planning a launch
/// allocates nothing.
template <int N> struct launch_plan {
  dispatch_mode mode;
  triple group_shape;
  dp::detail::small_vector<dispatch_piece<N>, 2> pieces;
  dp::extent<N> domain;
};

/// A physical thread: its group id and its id within the group (dim3 order).
struct physical_thread {
  triple group;
  triple local;
};

/// Plans the launches that cover `domain`. Throws dp::error when no plan
/// fits `limits` (a group shape above the thread limit, a limit below 1, or
/// more launches than a plan may hold).
///
///     auto plan = dp::rt::plan_dispatch(dp::extent<2>(289, 2050), limits);
///     // plan.mode == 2, one piece with groups {9, 289, 1}
template <int N>
dispatch_plan<N> plan_dispatch(const dp::extent<N> &domain, const device_limits &limits,
                               dispatch_policy policy = dispatch_policy::automatic,
                               triple group_shape = {256, 1, 1});

/// The launch parameters a stub needs, flattened into plain arrays so they
/// travel to the device as a kernel argument.
template <int N> struct launch_geometry {
  std::int64_t extent[N];
  std::int64_t group_shape[3];
  std::int64_t groups[3];
  std::int64_t origin[N];
  /// Every linear position of the domain fits 32 bits: the raises of modes
  /// 4-7 divide with the precomputed divisors below (no hardware divide),
  /// in 32-bit arithmetic; otherwise with 64-bit `/` and `%`.
  bool narrow;
  fast_divmod by_extent[N]; ///< mode 7: by each logical extent
  fast_divmod by_virt[3];   ///< modes 4-6: by each dimension's count of groups
};

namespace detail {
DP_HOST_DEVICE inline std::int64_t div_ceil(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

/// The one decision: a domain whose points all have 32-bit linear
/// positions is raised in 32-bit arithmetic.
inline bool narrow_domain(const std::int64_t *extent, int n) {
  std::int64_t total = 1;
  for (int d = 0; d < n; ++d) {
    if (extent[d] > std::int64_t(UINT32_MAX))
      return false;
    total *= extent[d];
    if (total > std::int64_t(UINT32_MAX))
      return false;
  }
  return true;
}
} // namespace detail

/// The geometry of one piece of a plan (a dispatch_plan or a launch_plan).
template <int N, class Plan>
launch_geometry<N> make_geometry(const Plan &plan, const dispatch_piece<N> &piece) {
  launch_geometry<N> g{};
  for (int d = 0; d < N; ++d)
    g.extent[d] = plan.domain[d], g.origin[d] = piece.origin[d];
  for (int k = 0; k < 3; ++k)
    g.group_shape[k] = plan.group_shape[k], g.groups[k] = piece.groups[k];
  // The divisors of the modes that divide, nothing for direct launches.
  g.narrow = detail::narrow_domain(g.extent, N);
  if (g.narrow && plan.mode == indirect)
    for (int d = 0; d < N; ++d)
      g.by_extent[d] = fast_divmod(std::uint32_t(g.extent[d]));
  if constexpr (N == 3)
    if (g.narrow && plan.mode >= partial_x && plan.mode <= partial_z)
      for (int d = 0; d < 3; ++d)
        g.by_virt[d] = fast_divmod(std::uint32_t(detail::div_ceil(g.extent[d], g.group_shape[2 - d])));
  return g;
}

/// The logical index of a physical thread in mode `Mode`; false when the
/// thread maps to no point. This is the code a stub instantiates per mode.
template <int Mode, int N>
DP_HOST_DEVICE bool map_thread(const launch_geometry<N> &g, const std::int64_t (&group)[3],
                               const std::int64_t (&local)[3], dp::index<N> &out) {
  std::int64_t global[3];
  for (int k = 0; k < 3; ++k)
    global[k] = group[k] * g.group_shape[k] + local[k];
  if constexpr (Mode == 1 && N > 1) {
    // The row mode: every leading extent is 1 (the planner checked), so
    // the leading coordinates are the constant 0, which the stub's
    // projections fold away; x carries the last dimension alone.
    if (global[1] != 0 || global[2] != 0)
      return false;
    for (int d = 0; d + 1 < N; ++d)
      out[d] = 0;
    out[N - 1] = g.origin[N - 1] + global[0];
    return out[N - 1] < g.extent[N - 1];
  } else if constexpr (Mode >= 1 && Mode <= 3) {
    // Direct: physical k carries logical dimension N-1-k; the leading
    // dimensions (rank > 3) come from the origin.
    constexpr int direct = N < 3 ? N : 3;
    for (int k = direct; k < 3; ++k)
      if (global[k] != 0)
        return false;
    for (int d = 0; d < N; ++d)
      out[d] = g.origin[d];
    for (int k = 0; k < direct; ++k) {
      const int d = N - 1 - k;
      out[d] += global[k];
      if (out[d] >= g.extent[d])
        return false;
    }
    return true;
  } else if constexpr (Mode >= 4 && Mode <= 6) {
    static_assert(N == 3 || Mode < 4, "modes 4-6 are for rank 3");
    // One logical dimension's groups go on x; the other two are flattened
    // into the (y, z) groups. Tiles keep their logical orientation.
    constexpr partial_axes axes = partial_axes_of(Mode);
    constexpr int c = axes.direct, a = axes.spread_major, b = axes.spread_minor;
    std::int64_t tile[3], virt[3], vgroup[3];
    for (int d = 0; d < 3; ++d) {
      tile[d] = g.group_shape[2 - d];
      virt[d] = g.narrow ? g.by_virt[d].divisor() : detail::div_ceil(g.extent[d], tile[d]);
    }
    const std::int64_t spread = group[2] * g.groups[1] + group[1];
    if (spread >= virt[a] * virt[b])
      return false;
    vgroup[c] = group[0];
    if (g.narrow) {
      std::uint32_t q, r;
      g.by_virt[b].divmod(std::uint32_t(spread), q, r);
      vgroup[a] = q, vgroup[b] = r;
    } else {
      vgroup[a] = spread / virt[b];
      vgroup[b] = spread % virt[b];
    }
    for (int d = 0; d < 3; ++d) {
      out[d] = g.origin[d] + vgroup[d] * tile[d] + local[2 - d];
      if (out[d] >= g.extent[d])
        return false;
    }
    return true;
  } else {
    static_assert(Mode == 7, "dispatch modes are 1-7");
    const std::int64_t px = g.groups[0] * g.group_shape[0];
    const std::int64_t py = g.groups[1] * g.group_shape[1];
    std::int64_t start = 0, total = 1;
    for (int d = 0; d < N; ++d) {
      start = start * g.extent[d] + g.origin[d];
      total *= g.extent[d];
    }
    std::int64_t offset = start + (global[2] * py + global[1]) * px + global[0];
    if (offset >= total)
      return false;
    if (g.narrow) {
      std::uint32_t rest = std::uint32_t(offset), q, r;
      for (int d = N - 1; d >= 0; --d) {
        g.by_extent[d].divmod(rest, q, r);
        out[d] = r;
        rest = q;
      }
      return true;
    }
    for (int d = N - 1; d >= 0; --d) {
      out[d] = offset % g.extent[d];
      offset /= g.extent[d];
    }
    return true;
  }
}

/// The logical index reached by thread `th` of `piece`; false when the
/// thread maps to no point (it must then do nothing).
namespace detail {
template <int N, class Plan>
bool logical_index_in(const Plan &plan, const dispatch_piece<N> &piece, const physical_thread &th,
                      dp::index<N> &out) {
  const launch_geometry<N> g = make_geometry(plan, piece);
  const std::int64_t group[3] = {th.group[0], th.group[1], th.group[2]};
  const std::int64_t local[3] = {th.local[0], th.local[1], th.local[2]};
  for (int k = 0; k < 3; ++k)
    if (group[k] < 0 || group[k] >= piece.groups[k] || local[k] < 0 ||
        local[k] >= plan.group_shape[k])
      return false;
  switch (plan.mode) {
  case direct_1: return map_thread<direct_1>(g, group, local, out);
  case direct_2: return map_thread<direct_2>(g, group, local, out);
  case direct_3: return map_thread<direct_3>(g, group, local, out);
  case partial_x: if constexpr (N == 3) return map_thread<partial_x>(g, group, local, out); else return false;
  case partial_y: if constexpr (N == 3) return map_thread<partial_y>(g, group, local, out); else return false;
  case partial_z: if constexpr (N == 3) return map_thread<partial_z>(g, group, local, out); else return false;
  case indirect: return map_thread<indirect>(g, group, local, out);
  default: return false;
  }
}
} // namespace detail

template <int N>
bool logical_index(const dispatch_plan<N> &plan, const dispatch_piece<N> &piece,
                   const physical_thread &th, dp::index<N> &out) {
  return detail::logical_index_in(plan, piece, th, out);
}
/// The same for the runtime's own plans.
template <int N>
bool logical_index(const launch_plan<N> &plan, const dispatch_piece<N> &piece,
                   const physical_thread &th, dp::index<N> &out) {
  return detail::logical_index_in(plan, piece, th, out);
}

// ---------------------------------------------------------------------------
// The planner proper is rank-generic host code in runtime/planner.cpp.

namespace detail {
/// A plan with runtime rank, as the out-of-line planner produces it.
struct raw_plan {
  dispatch_mode mode = no_mode;
  triple group_shape{};
  dp::detail::small_vector<triple, 4> groups;        ///< per piece
  dp::detail::small_vector<std::int64_t, 32> origins; ///< per piece, `rank` values each
};
raw_plan plan_raw(const std::int64_t *extent, int rank, const device_limits &limits,
                  dispatch_policy policy, const triple &group_shape);
double wastage(const std::int64_t *extent, int rank, const triple &group_shape,
               const std::vector<triple> &groups);
} // namespace detail

namespace detail {
/// The pieces of a raw plan, into a plan of rank N (either kind).
template <int N, class Plan> Plan plan_from(const raw_plan &raw, const dp::extent<N> &domain) {
  Plan plan{raw.mode, raw.group_shape, {}, domain};
  plan.pieces.resize(raw.groups.size());
  for (std::size_t p = 0; p < raw.groups.size(); ++p) {
    plan.pieces[p].groups = raw.groups[p];
    for (int d = 0; d < N; ++d)
      plan.pieces[p].origin[d] = raw.origins[p * N + d];
  }
  return plan;
}
template <int N>
raw_plan plan_raw_of(const dp::extent<N> &domain, const device_limits &limits,
                     dispatch_policy policy, const triple &group_shape) {
  std::int64_t e[N];
  for (int d = 0; d < N; ++d)
    e[d] = domain[d];
  return plan_raw(e, N, limits, policy, group_shape);
}
} // namespace detail

template <int N>
dispatch_plan<N> plan_dispatch(const dp::extent<N> &domain, const device_limits &limits,
                               dispatch_policy policy, triple group_shape) {
  return detail::plan_from<N, dispatch_plan<N>>(
      detail::plan_raw_of(domain, limits, policy, group_shape), domain);
}

/// plan_dispatch, as a launch_plan.
template <int N>
launch_plan<N> plan_launch(const dp::extent<N> &domain, const device_limits &limits,
                           dispatch_policy policy, const triple &group_shape) {
  return detail::plan_from<N, launch_plan<N>>(
      detail::plan_raw_of(domain, limits, policy, group_shape), domain);
}

template <int N> double dispatch_plan<N>::wastage() const {
  std::int64_t e[N];
  for (int d = 0; d < N; ++d)
    e[d] = domain[d];
  std::vector<triple> g;
  for (const auto &p : pieces)
    g.push_back(p.groups);
  return detail::wastage(e, N, group_shape, g);
}

} // namespace dp::rt
