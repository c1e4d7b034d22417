// The dispatch planner: rank-generic host code behind dp::rt::plan_dispatch.
// It follows the patent's approaches 2-4: direct mapping for ranks 1-3,
// partially direct mapping for rank 3 (modes 4-6), indirect mapping for any
// rank (mode 7), and several launches with origins when one cannot reach.

#include <dp/error.hpp>
#include <dp/rt/stub/dispatch.hpp>
#include <dp/rt/stub/modes.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace dp::rt::detail {
namespace {

using dp::detail::fail;

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
/// A plan holding more launches than this is refused.
constexpr std::int64_t max_pieces = std::int64_t(1) << 20;

std::int64_t mul_sat(std::int64_t a, std::int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  return a > int64_max / b ? int64_max : a * b;
}

std::string show(const triple &t) {
  return "(" + std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " +
         std::to_string(t[2]) + ")";
}

/// Everything the candidate plans are computed from.
struct problem {
  const std::int64_t *extent;
  int rank;
  device_limits limits;
  triple shape;
  std::int64_t total;        ///< logical points
  std::int64_t shape_threads; ///< threads per group

  /// Logical dimension carried by physical dimension k in direct mode, or -1.
  int logical_of(int k) const { return k < direct_mode_of_rank(rank) ? rank - 1 - k : -1; }
  bool fits(const triple &groups) const {
    for (int k = 0; k < 3; ++k)
      if (groups[k] > limits.max_groups[k])
        return false;
    return true;
  }
  double wastage_of(const triple &groups) const {
    return double(groups[0]) * double(groups[1]) * double(groups[2]) *
           double(shape_threads) / double(total);
  }
};

/// Groups per physical dimension for direct mapping (not checked against
/// the limits).
triple direct_groups(const problem &p) {
  triple g{1, 1, 1};
  for (int k = 0; k < 3; ++k)
    if (p.logical_of(k) >= 0)
      g[k] = div_ceil(p.extent[p.logical_of(k)], p.shape[k]);
  return g;
}

/// Groups for `required` groups laid out in one indirect launch with as
/// little waste as the limits allow: x first, then y, then z.
triple indirect_groups(const problem &p, std::int64_t required) {
  const std::int64_t mx = p.limits.max_groups[0], my = p.limits.max_groups[1];
  triple g{required, 1, 1};
  if (required > mx) {
    const std::int64_t rows = div_ceil(required, mx);
    if (rows <= my) {
      g = {div_ceil(required, rows), rows, 1};
    } else {
      const std::int64_t slabs = div_ceil(required, mul_sat(mx, my));
      const std::int64_t per_slab = div_ceil(required, slabs);
      const std::int64_t y = div_ceil(per_slab, mx);
      g = {div_ceil(per_slab, y), y, slabs};
    }
  }
  return g;
}

/// Modes 4-6 for rank 3: the first of them that fits, as mode and groups.
bool partially_direct(const problem &p, dispatch_mode &mode, triple &groups) {
  std::int64_t virt[3];
  for (int d = 0; d < 3; ++d)
    virt[d] = div_ceil(p.extent[d], p.shape[2 - d]);
  for (int m = partial_x; m <= partial_z; ++m) {
    const partial_axes axes = partial_axes_of(m);
    const int c = axes.direct, a = axes.spread_major, b = axes.spread_minor;
    if (virt[c] > p.limits.max_groups[0])
      continue;
    const std::int64_t spread = mul_sat(virt[a], virt[b]);
    const std::int64_t z = div_ceil(spread, p.limits.max_groups[1]);
    const std::int64_t y = div_ceil(spread, z);
    const triple g{virt[c], y, z};
    if (p.fits(g)) {
      mode = static_cast<dispatch_mode>(m);
      groups = g;
      return true;
    }
  }
  return false;
}

raw_plan single(const problem &p, dispatch_mode mode, const triple &groups) {
  raw_plan plan;
  plan.mode = mode;
  plan.group_shape = p.shape;
  plan.groups.push_back(groups);
  plan.origins.resize(static_cast<std::size_t>(p.rank));
  return plan;
}

/// Direct launches with origins (approach 3). The trailing min(rank,3)
/// dimensions are cut into chunks of at most max_groups groups; leading
/// dimensions of a higher rank are iterated one value at a time.
raw_plan split_direct(const problem &p) {
  const int direct = std::min(p.rank, 3);
  const int leading = p.rank - direct;
  std::int64_t chunks[3] = {1, 1, 1}; // per physical dimension
  std::int64_t count = 1;
  for (int k = 0; k < direct; ++k) {
    chunks[k] = div_ceil(div_ceil(p.extent[p.logical_of(k)], p.shape[k]), p.limits.max_groups[k]);
    count = mul_sat(count, chunks[k]);
  }
  for (int d = 0; d < leading; ++d)
    count = mul_sat(count, p.extent[d]);
  if (count > max_pieces)
    fail("dp::rt::plan_dispatch: splitting this domain would need " +
         (count == int64_max ? std::string("too many") : std::to_string(count)) +
         " launches (at most " + std::to_string(max_pieces) +
         " allowed); use the automatic or load_balance policy");
  raw_plan plan;
  plan.mode = direct_mode_of_rank(p.rank);
  plan.group_shape = p.shape;
  // Row-major over (leading values, z chunk, y chunk, x chunk): origins come
  // out in row-major order.
  std::vector<std::int64_t> counter(static_cast<std::size_t>(leading + direct), 0);
  for (std::int64_t n = 0; n < count; ++n) {
    std::int64_t rest = n;
    for (int i = leading + direct - 1; i >= 0; --i) {
      const std::int64_t span = i < leading ? p.extent[i] : chunks[p.rank - 1 - i];
      counter[i] = rest % span;
      rest /= span;
    }
    triple groups{1, 1, 1};
    for (int d = 0; d < p.rank; ++d) {
      std::int64_t origin = counter[d];
      if (d >= leading) {
        const int k = p.rank - 1 - d;
        const std::int64_t step = mul_sat(p.limits.max_groups[k], p.shape[k]);
        origin = counter[d] * step;
        groups[k] = std::min(p.limits.max_groups[k],
                             div_ceil(p.extent[d] - origin, p.shape[k]));
      }
      plan.origins.push_back(origin);
    }
    plan.groups.push_back(groups);
  }
  return plan;
}

/// Indirect launches (approach 4 beyond one launch): consecutive linear
/// ranges, each as large as the limits allow; the origin of each is the
/// logical index where its range starts.
raw_plan split_indirect(const problem &p) {
  const std::int64_t required = div_ceil(p.total, p.shape_threads);
  const std::int64_t per_launch_groups =
      mul_sat(mul_sat(p.limits.max_groups[0], p.limits.max_groups[1]), p.limits.max_groups[2]);
  const std::int64_t launches = div_ceil(required, per_launch_groups);
  if (launches > max_pieces)
    fail("dp::rt::plan_dispatch: the domain needs " + std::to_string(launches) +
         " indirect launches (at most " + std::to_string(max_pieces) + " allowed)");
  raw_plan plan;
  plan.mode = indirect;
  plan.group_shape = p.shape;
  const std::int64_t per_launch_points = mul_sat(per_launch_groups, p.shape_threads);
  for (std::int64_t n = 0; n < launches; ++n) {
    std::int64_t start = n * per_launch_points;
    const std::int64_t points = std::min(per_launch_points, p.total - start);
    plan.groups.push_back(n + 1 < launches ? p.limits.max_groups
                                           : indirect_groups(p, div_ceil(points, p.shape_threads)));
    std::vector<std::int64_t> origin(static_cast<std::size_t>(p.rank));
    for (int d = p.rank - 1; d >= 0; --d) {
      origin[d] = start % p.extent[d];
      start /= p.extent[d];
    }
    plan.origins.append(origin.begin(), origin.end());
  }
  return plan;
}

void validate(const std::int64_t *extent, int rank, const device_limits &limits,
              const triple &shape) {
  // (A literal, not a std::string: this runs at every launch, and a string
  // this long is a heap allocation.)
  const char *const where = "dp::rt::plan_dispatch: ";
  if (rank < 1)
    fail(std::string(where) + "rank " + std::to_string(rank) + " is not a domain");
  for (int d = 0; d < rank; ++d)
    if (extent[d] < 0)
      fail(std::string(where) + "extent " + std::to_string(extent[d]) + " of dimension " +
           std::to_string(d) + " is negative");
  for (int k = 0; k < 3; ++k) {
    if (shape[k] < 1)
      fail(std::string(where) + "group shape " + show(shape) + " has a dimension below 1");
    if (limits.max_groups[k] < 1)
      fail(std::string(where) + "device limit max_groups " + show(limits.max_groups) +
           " has a dimension below 1");
  }
  const std::int64_t threads = mul_sat(mul_sat(shape[0], shape[1]), shape[2]);
  if (threads > limits.max_threads_per_group)
    fail(std::string(where) + "group shape " + show(shape) + " has " + std::to_string(threads) +
         " threads, but the device allows " + std::to_string(limits.max_threads_per_group) +
         " per group");
}

} // namespace

double wastage(const std::int64_t *extent, int rank, const triple &shape,
               const std::vector<triple> &groups) {
  double points = 1, threads = 0;
  for (int d = 0; d < rank; ++d)
    points *= double(extent[d]);
  for (const triple &g : groups)
    threads += double(g[0]) * double(g[1]) * double(g[2]) * double(shape[0]) *
               double(shape[1]) * double(shape[2]);
  return points == 0 ? 0.0 : threads / points;
}

namespace {

/// True for a row above rank 1: every leading extent 1 (a launch whose
/// contiguous dimensions were folded into the last, jobs.hpp), planned
/// with groups of one dimension.
bool is_row(const problem &p) {
  return p.rank >= 2 && p.shape[1] == 1 && p.shape[2] == 1 && p.total != 0 &&
         leading_extents_unit(p.extent, p.rank);
}

/// A row planned as the rank-1 domain of its last dimension: its direct
/// mode 1 is the row mode at every rank (map_thread: the leading
/// coordinates are the constant 0, not loaded and checked per thread); its
/// pieces' origins get the leading zeros.
raw_plan row_plan(const problem &p, dispatch_policy policy) {
  raw_plan row = plan_raw(p.extent + (p.rank - 1), 1, p.limits, policy, p.shape);
  dp::detail::small_vector<std::int64_t, 32> origins;
  for (std::int64_t o : row.origins) {
    for (int d = 0; d + 1 < p.rank; ++d)
      origins.push_back(0);
    origins.push_back(o);
  }
  row.origins = std::move(origins);
  return row;
}

} // namespace

raw_plan plan_raw(const std::int64_t *extent, int rank, const device_limits &limits,
                  dispatch_policy policy, const triple &shape) {
  validate(extent, rank, limits, shape);
  std::int64_t total = 1;
  for (int d = 0; d < rank; ++d) {
    total = mul_sat(total, extent[d]);
  }
  if (total == int64_max)
    fail("dp::rt::plan_dispatch: the domain has more than 2^63 points");
  const problem p{extent, rank, limits, shape, total, shape[0] * shape[1] * shape[2]};
  if (is_row(p))
    return row_plan(p, policy);
  const dispatch_mode direct_mode = direct_mode_of_rank(rank);
  if (total == 0) { // nothing to launch
    raw_plan empty;
    empty.mode = direct_mode;
    empty.group_shape = shape;
    return empty;
  }

  const triple direct = direct_groups(p);
  // Above rank 3 the direct mode covers the trailing three dimensions and
  // takes the leading ones from the launch's origin: one launch covers the
  // domain when they are all 1 (a launch whose contiguous dimensions were
  // folded into the last, launch.hpp).
  std::int64_t leading = 1;
  for (int d = 0; d + 3 < rank; ++d)
    leading = mul_sat(leading, extent[d]);
  const bool direct_fits = leading == 1 && p.fits(direct);
  const triple loose = indirect_groups(p, div_ceil(total, p.shape_threads));
  const bool indirect_fits = p.fits(loose);
  // Direct is preferred unless it wastes many threads that indirect would not.
  const bool direct_thrifty =
      direct_fits && (p.wastage_of(direct) <= wastage_threshold ||
                      p.wastage_of(direct) <= p.wastage_of(loose));

  if (policy == dispatch_policy::split)
    return direct_fits ? single(p, direct_mode, direct) : split_direct(p);

  if (direct_thrifty)
    return single(p, direct_mode, direct);
  dispatch_mode mode = no_mode;
  triple partial{};
  if (rank == 3 && partially_direct(p, mode, partial) &&
      p.wastage_of(partial) <= wastage_threshold)
    return single(p, mode, partial);
  if (indirect_fits)
    return single(p, indirect, loose);
  if (policy == dispatch_policy::load_balance)
    return split_indirect(p);
  // automatic: stay direct when that fits (wasteful but one launch), else
  // split direct for ranks 1-3 and indirect launches beyond.
  if (direct_fits)
    return single(p, direct_mode, direct);
  return rank <= 3 ? split_direct(p) : split_indirect(p);
}

} // namespace dp::rt::detail
