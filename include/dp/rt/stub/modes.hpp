/// \file
/// Which dispatch modes a rank's plans may pick: the one decision the
/// planner (runtime/planner.cpp), the runtime's stub tables (table.hpp)
/// and dpstub's generated stub tables (lib/StubText.cpp) share. Plain
/// constexpr code with no dependencies, so the tool includes it too.
#pragma once

namespace dp::rt {

/// The direct mode of a rank: 1-3, and 3 above rank 3 (the leading
/// dimensions then come from the launch's origin).
constexpr int direct_mode_of_rank(int rank) { return rank < 3 ? rank : 3; }

/// True when a plan for a rank-`rank` domain may use `mode`: the rank's
/// direct mode, the partially direct modes 4-6 at rank 3, the indirect
/// mode 7 at every rank.
constexpr bool rank_uses_mode(int rank, int mode) {
  return mode == direct_mode_of_rank(rank) || mode == 7 || (rank == 3 && mode >= 4 && mode <= 6);
}

} // namespace dp::rt
