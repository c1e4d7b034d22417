//===- Liveness.h - Values that flow between statements ---------*- C++ -*-===//
//
// Two questions about scalars, answered from the statements in order:
// which variables a statement reads before it writes them (so that a
// scalar assigned in a loop body first and read after is private to each
// iteration), and whether a variable's value after a loop is read before
// it is written again (so that privatising it would change the program).
// Both are conservative: a read on some path counts.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <set>
#include <string>

namespace dpstub::migrate {

/// The variables of Tracked that S may read before writing them.
std::set<const clang::VarDecl *> readBeforeWritten(const clang::Stmt *S,
                                                   const std::set<const clang::VarDecl *> &Tracked);

/// The parts of V that S may read before writing them, as paths of
/// members reached by `.` from V (".x" for `v.x`, "" for V itself). A
/// write of a part writes its members; a read of V itself needs all of V
/// written.
std::set<std::string> membersReadBeforeWritten(const clang::Stmt *S, const clang::VarDecl *V);

/// True when V's value after Loop may be read before V is written again,
/// within the function holding Loop (the rest of each enclosing block,
/// and the whole of each enclosing loop, which may run again).
bool liveAfter(const clang::Stmt *Loop, const clang::VarDecl *V, clang::ASTContext &Ctx);

} // namespace dpstub::migrate
