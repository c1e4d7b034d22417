//===- StatementRegions.h - Device regions of statements alone --*- C++ -*-===//
//
// A device region that holds statements and no loop (`#pragma acc kernels
// { grid[0] = -grid[last]; }`, ParRes Kernels' p2p corner) runs them once
// on the device. When the arrays it uses became dp::fields, its directive
// cannot stay (no device construct maps a field); its statements become a
// kernel of one point instead, so the data stays where the call-sites
// around left it. This decides whether they can, and writes the edits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/ArrayData.h"
#include "migrate/LoopAnalysis.h"

#include "clang/AST/ASTContext.h"

#include <set>
#include <string>
#include <variant>
#include <vector>

namespace dpstub::migrate {

/// The fields a region's statements use, in the order they first do:
/// the kernel's parameters.
struct OnePointKernel {
  std::vector<const clang::VarDecl *> Fields;
  /// The queue it runs on (`dp_async_queue(i)` for `async(i)`, an OpenMP
  /// `nowait`'s `dp_async_queue()`), as the loops' call-sites do; empty:
  /// none, the launch is in order with the host.
  std::string Queue;
  /// An `if(c)` clause's c: where it is false the kernel runs on the host
  /// (`.when(c)`, as a loop's call-site); empty: none.
  std::string When;
};

/// The kernel of one point P's statements become, given the unit's
/// Fields, or why they cannot (text for a diagnostic: "it writes 'x', a
/// variable of the host").
std::variant<OnePointKernel, std::string> onePointKernel(const PragmaLine &P,
                                                         const std::set<const clang::VarDecl *> &Fields,
                                                         clang::ASTContext &Ctx);

/// The edits: the directive's line removed, `dp::forall(dp::grid<1>(1),
/// [=](dp::index<1>, dp::field<...> &a, ...) ` before the block and `,
/// a, ...);` after it.
std::vector<TextEdit> onePointKernelEdits(const PragmaLine &P, const OnePointKernel &K, const ArrayData &Arrays,
                                          clang::ASTContext &Ctx);

} // namespace dpstub::migrate
