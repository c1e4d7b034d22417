/// \file
/// The per-mode instantiations of a stub: the table a call-site's launcher
/// fills with its stub's instantiations, and the one the runtime makes for
/// its own kernels. A plan's mode picks the entry launched.
#pragma once

#include "dispatch.hpp"
#include "modes.hpp"

namespace dp::rt {

/// The stub instantiations of one call-site, by dispatch mode (1..7).
template <int Rc, class Params> struct stub_table {
  using stub = void (*)(launch_geometry<Rc>, Params);
  stub modes[8];
};

/// The stub table of a kernel template of the runtime itself, made once:
/// `Kernel::template at<Mode>()` for each mode a rank-Rc plan may pick
/// (rank_uses_mode).
template <int Rc, class Params, class Kernel> const stub_table<Rc, Params> &stub_modes() {
  static const stub_table<Rc, Params> table = [] {
    stub_table<Rc, Params> t{};
    t.modes[direct_mode_of_rank(Rc)] = Kernel::template at<direct_mode_of_rank(Rc)>();
    t.modes[1] = Kernel::template at<1>(); // the row mode at every rank
    if constexpr (rank_uses_mode(Rc, 4)) {
      t.modes[4] = Kernel::template at<4>();
      t.modes[5] = Kernel::template at<5>();
      t.modes[6] = Kernel::template at<6>();
    }
    t.modes[7] = Kernel::template at<7>();
    return t;
  }();
  return table;
}

} // namespace dp::rt
