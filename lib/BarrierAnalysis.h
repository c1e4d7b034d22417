//===- BarrierAnalysis.h - A tile's threads reach its barriers -*- C++ -*-===//
//
// What a kernel and the project functions it calls do with their tile: the
// dp::tile_static variables they declare, their barriers, and whether
// every thread of a tile reaches each barrier.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/Diagnostics.h"
#include "dpstub/Rule.h"

#include "clang/AST/ASTContext.h"

#include <vector>

namespace dpstub {

/// The dp::tile_static variables a kernel and the functions it calls
/// declare (one per object, in the order met), and whether they reach a
/// barrier.
struct TileWork {
  std::vector<const clang::VarDecl *> Statics;
  bool Barrier = false;
};
TileWork tileWorkOf(const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx);

/// A barrier must be reached by every thread of a tile: one under a
/// condition that depends on the thread is an error, and so is a `return`,
/// `break`, `continue` or `goto` under such a condition that skips a
/// barrier (or a call reaching one): one after it, or one of a later
/// iteration of the loop it leaves. Reports each with a note at the
/// condition; false when any was reported.
bool checkBarriers(const AnalysedCall &A, const clang::FunctionDecl *Kernel,
                   clang::ASTContext &Ctx, Reporter &Diags);

} // namespace dpstub
