/// \file
/// Launch configuration: the plan a call-site's launches follow on a
/// device, made from the domain's extents, the device's limits, the
/// call-site's hints (dp::group_size, .max_groups) and the process's
/// dispatch settings (DP_EMULATE_GROUP, DP_DISPATCH_POLICY); a tiled grid
/// and the runtime's tiled kernels as one group per tile. Pure host code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "../../error.hpp"
#include "../../extent.hpp"
#include "../../reference/host_tiles.hpp"
#include "../backend.hpp"
#include "../counters.hpp"
#include "../profile.hpp"
#include "../stub/dispatch.hpp"
#include "../stub/domains.hpp"

namespace dp::rt {

/// The process's dispatch settings, read from the environment once (at
/// the first launch that plans): the emulated device's limits
/// (DP_EMULATE_MAX_GROUPS), the group shape of planned launches
/// (DP_EMULATE_GROUP) and the policy (DP_DISPATCH_POLICY). A launch reads
/// no environment variable.
struct dispatch_settings {
  device_limits emulated_limits;
  triple group_shape;
  dispatch_policy policy;
  /// DP_EMULATE_RECORD_ONLY=1: the emulated device records its kernel
  /// launches and vendor calls (counters, request log, profile) and runs
  /// none of them, so that what a call-site costs the host on a device's
  /// path is measured alone (bench/launch_bench.cpp). Results are garbage.
  bool record_only = false;
};
const dispatch_settings &process_dispatch_settings();
/// Reads the settings again: for tests that change the environment
/// between cases (nothing else may plan meanwhile).
void reload_dispatch_settings();

/// A call-site's launch-shape hints (dp::group_size, .max_groups): zeros
/// where it gave none.
struct launch_hints {
  triple group{0, 0, 0};
  std::int64_t max_groups = 0;
};

/// The device's limits narrowed to at most n groups per launch: the
/// product of the per-dimension limits stays within n, the groups a direct
/// layout of `e` needs taken first (x, then y, then z), so that a direct
/// plan keeps fitting where it can.
template <int R>
device_limits limit_groups(device_limits limits, std::int64_t n, const dp::extent<R> &e,
                           const triple &shape) {
  if (n <= 0)
    return limits;
  std::int64_t budget = n;
  for (int k = 0; k < 3; ++k) {
    const int d = R - 1 - k;
    const std::int64_t direct = d >= 0 ? (e[d] + shape[k] - 1) / shape[k] : 1;
    std::int64_t take = std::min({limits.max_groups[k], budget, std::max<std::int64_t>(direct, 1)});
    if (k == 2)
      take = std::min(limits.max_groups[k], budget);
    limits.max_groups[k] = std::max<std::int64_t>(take, 1);
    budget = std::max<std::int64_t>(budget / limits.max_groups[k], 1);
  }
  return limits;
}

namespace detail {

/// A plan and every input it was made from: the domain, the device's
/// limits narrowed to the call-site's group budget, the group shape and
/// the policy.
template <int R> struct plan_memo {
  dp::extent<R> extent;
  device_limits limits{};
  triple shape{};
  dispatch_policy policy = dispatch_policy::automatic;
  launch_plan<R> plan{};
  bool made = false;

  bool holds(const dp::extent<R> &e, const device_limits &l, const triple &s,
             dispatch_policy p) const {
    if (!made || s != shape || p != policy || l.max_groups != limits.max_groups ||
        l.max_threads_per_group != limits.max_threads_per_group ||
        l.max_group_extent != limits.max_group_extent)
      return false;
    for (int d = 0; d < R; ++d)
      if (e[d] != extent[d])
        return false;
    return true;
  }
};

/// This thread's last plans, a slot per call-site (by the address of its
/// name; two call-sites sharing a slot plan again, never wrongly: a plan
/// is taken only when every input is the same).
template <int R> plan_memo<R> &plan_memo_of(const std::string &site) {
  static thread_local plan_memo<R> memos[16];
  return memos[(reinterpret_cast<std::uintptr_t>(&site) >> 5) % 16];
}

} // namespace detail

/// The launch plan for a domain, in the call-site's group shape (or
/// DP_EMULATE_GROUP's, or 256 threads) and within its group budget; a
/// dp::error naming the call-site when no plan fits the limits. A call-site
/// launching over the same extents again (a steady state) gets the plan
/// it got last time on this thread, made once (counter::launch_plans). The
/// plan stays valid until this thread's next plan_for.
template <int R>
const launch_plan<R> &plan_for(const std::string &site, const dp::extent<R> &e,
                          const device_limits &limits, const launch_hints &hints = {}) {
  const dispatch_settings &settings = process_dispatch_settings();
  const triple shape = hints.group[0] > 0 ? hints.group : settings.group_shape;
  const device_limits budget = limit_groups(limits, hints.max_groups, e, shape);
  detail::plan_memo<R> &memo = detail::plan_memo_of<R>(site);
  if (memo.holds(e, budget, shape, settings.policy))
    return memo.plan;
  count(counter::launch_plans);
  try {
    memo.made = false; // (a plan that throws leaves no memo)
    memo.plan = plan_launch(e, budget, settings.policy, shape);
  } catch (const dp::error &err) {
    throw dp::error(site + ": " + err.what());
  }
  memo.extent = e;
  memo.limits = budget;
  memo.shape = shape;
  memo.policy = settings.policy;
  memo.made = true;
  return memo.plan;
}

/// DP_TRACE_DISPATCH=1: one line per launch plan on stderr (tests use it to
/// prove which dispatch modes ran).
template <int R> void trace_plan(const std::string &site, const launch_plan<R> &p) {
  if (profile::on()) { // the call-site's profile record shows its plan
    profile::plan_note &note = profile::current_plan();
    note.mode = p.mode;
    note.launches += static_cast<std::int64_t>(p.pieces.size());
    for (const dispatch_piece<R> &piece : p.pieces)
      note.groups += piece.groups[0] * piece.groups[1] * piece.groups[2];
  }
  if (detail::tracing())
    std::fprintf(stderr, "dp-dispatch: %s: mode %d, %zu launch%s\n", site.c_str(), p.mode,
                 p.pieces.size(), p.pieces.size() == 1 ? "" : "es");
}

/// The launches of `groups` (a rank-N domain of groups) with `shape`
/// threads each: the groups laid out as the points of a plan with one
/// thread per group, so the planner's modes and its several launches with
/// origins apply with origins in group units. A dp::error when the shape
/// does not fit the device's groups. Tiled grids and the runtime's tiled
/// kernels (pencil_tiles.hpp) launch this way.
template <int N>
launch_plan<N> plan_groups(const std::string &site, const dp::extent<N> &groups,
                             const triple &shape, const device_limits &limits,
                             const launch_hints &hints = {}) {
  dp::detail::check_tile_volume(site, shape[0] * shape[1] * shape[2], limits.max_threads_per_group);
  for (int k = 0; k < 3; ++k)
    if (shape[k] > limits.max_group_extent[k])
      throw dp::error(site + ": the tile puts " + std::to_string(shape[k]) + " threads on the " +
                      "xyz"[k] + " dimension of a group, but the device allows " +
                      std::to_string(limits.max_group_extent[k]));
  device_limits per_group = limit_groups(limits, hints.max_groups, groups, {1, 1, 1});
  per_group.max_threads_per_group = 1;
  try {
    return plan_launch(groups, per_group, process_dispatch_settings().policy, {1, 1, 1});
  } catch (const dp::error &err) {
    throw dp::error(site + ": " + err.what());
  }
}

/// The launches of a tiled grid (approach 6 of docs/runtime.md): one group
/// per tile (plan_groups).
template <int N>
launch_plan<N> plan_tiles(const std::string &site, const dp::extent<N> &tiles,
                            const dp::extent<N> &tile, const device_limits &limits,
                            const launch_hints &hints = {}) {
  dp::detail::check_tile_volume(site, tile.size(), limits.max_threads_per_group);
  return plan_groups(site, tiles, tile_group_shape(tile), limits, hints);
}

/// Tiles per dimension: extents divided by the tile's, rounded up.
template <int N> dp::extent<N> tile_counts(const dp::extent<N> &e, const dp::extent<N> &tile) {
  dp::extent<N> t;
  for (int d = 0; d < N; ++d)
    t[d] = (e[d] + tile[d] - 1) / tile[d];
  return t;
}

/// True when tiles of `tile` cut e exactly: no padding thread.
template <int N> bool tiles_divide(const dp::extent<N> &e, const dp::extent<N> &tile) {
  for (int d = 0; d < N; ++d)
    if (e[d] % tile[d] != 0)
      return false;
  return true;
}

} // namespace dp::rt
