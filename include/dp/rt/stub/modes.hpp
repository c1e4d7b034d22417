/// \file
/// The dispatch modes, and which of them a rank's plans may pick: the one
/// decision the planner (runtime/planner.cpp), the runtime's stub tables
/// (table.hpp) and dpstub's generated stub tables (lib/StubText.cpp) share. Plain
/// constexpr code with no dependencies, so the tool includes it too.
#pragma once

#include <cstdint>

namespace dp::rt {

/// Dispatch modes (docs/runtime.md): how a launch's physical threads find
/// their logical index.
enum dispatch_mode : int {
  no_mode = 0,     ///< no kernel of dp's: a vendor call, or nothing planned
  direct_1 = 1,    ///< global id x is the index of a rank-1 domain, or the last
                   ///< coordinate of one whose leading extents are all 1 (a row)
  direct_2 = 2,    ///< (y, x) is the index of a rank-2 domain
  direct_3 = 3,    ///< (z, y, x) is the index of the trailing 3 dimensions
  partial_x = 4,   ///< rank 3: dimension 2 direct on x, 0 and 1 spread on (y, z)
  partial_y = 5,   ///< rank 3: dimension 1 direct on x, 0 and 2 spread on (y, z)
  partial_z = 6,   ///< rank 3: dimension 0 direct on x, 1 and 2 spread on (y, z)
  indirect = 7     ///< flatten the physical id, raise it to the logical index
};

/// True when every leading extent of a rank-`rank` domain (all but the
/// last) is 1: a row, as a launch merged into its last dimension is. Its
/// threads then run the row mode 1 (the planner) and the vendors read it
/// through row positions (stub/positions.hpp), with no division.
constexpr bool leading_extents_unit(const std::int64_t *extent, int rank) {
  for (int d = 0; d + 1 < rank; ++d)
    if (extent[d] != 1)
      return false;
  return true;
}

/// The direct mode of a rank: 1-3, and 3 above rank 3 (the leading
/// dimensions then come from the launch's origin).
constexpr dispatch_mode direct_mode_of_rank(int rank) {
  return static_cast<dispatch_mode>(rank < 3 ? rank : 3);
}

/// True when a plan for a rank-`rank` domain may use `mode`: the rank's
/// direct mode, the row mode 1 at every rank (a domain whose leading
/// extents are all 1, as a merged launch's are: its threads compute the
/// last coordinate alone and the others are the constant 0), the partially
/// direct modes 4-6 at rank 3, the indirect mode 7 at every rank.
constexpr bool rank_uses_mode(int rank, int mode) {
  return mode == direct_mode_of_rank(rank) || mode == 1 || mode == 7 ||
         (rank == 3 && mode >= 4 && mode <= 6);
}

/// The axes of a partially direct mode (4-6, rank 3): the logical
/// dimension whose groups go on x, and the two spread over the (y, z)
/// groups, the more significant first.
struct partial_axes {
  int direct, spread_major, spread_minor;
};
constexpr partial_axes partial_axes_of(int mode) {
  const int c = mode == 4 ? 2 : mode == 5 ? 1 : 0;
  return {c, c == 0 ? 1 : 0, c == 2 ? 1 : 2};
}

} // namespace dp::rt
