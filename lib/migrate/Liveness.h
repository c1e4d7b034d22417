//===- Liveness.h - Values that flow between statements ---------*- C++ -*-===//
//
// Two questions about scalars, answered from the statements in order:
// which variables a statement reads before it writes them (so that a
// scalar assigned in a loop body first and read after is private to each
// iteration), and whether a variable's value after a loop is read before
// it is written again (so that privatising it would change the program).
// Both are conservative: a read on some path counts. A call that binds a
// tracked variable to a reference parameter (miniWeather's `thermal(x, z,
// r, u, w, t, hr, ht)` with `double &r`) does to it what the callee's body
// does to the parameter, when that body is in view.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <optional>
#include <set>
#include <string>

namespace dpstub::migrate {

/// The variables of Tracked that S may read before writing them.
std::set<const clang::VarDecl *> readBeforeWritten(const clang::Stmt *S,
                                                   const std::set<const clang::VarDecl *> &Tracked);

/// The first place where S may read V before writing it, or null.
const clang::Expr *firstReadBeforeWritten(const clang::Stmt *S, const clang::VarDecl *V);

/// The parts of V that S may read before writing them, as paths of
/// members reached by `.` from V (".x" for `v.x`, "" for V itself). A
/// write of a part writes its members; a read of V itself needs all of V
/// written.
std::set<std::string> membersReadBeforeWritten(const clang::Stmt *S, const clang::VarDecl *V);

/// True when V's value after Loop may be read before V is written again,
/// within the function holding Loop (the rest of each enclosing block,
/// and the whole of each enclosing loop, which may run again).
bool liveAfter(const clang::Stmt *Loop, const clang::VarDecl *V, clang::ASTContext &Ctx);

/// What a call does to the variable it binds to a non-const reference
/// parameter.
struct OutParameter {
  bool ReadsFirst = true; ///< may read the value the caller's variable holds
  bool Writes = false;    ///< writes it on every path through the callee
};

/// What F does to its I-th parameter, a non-const reference: known when
/// F's body is in view and the parameter stays in it (read, assigned, or
/// bound in turn to such a parameter of a function whose body is in
/// view). Otherwise none, and Why names the function and what it does
/// (keeps the address, has no body here, calls itself).
std::optional<OutParameter> outParameter(const clang::FunctionDecl *F, unsigned I, std::string &Why);

/// The call E is an argument of, with the index of the non-const
/// reference parameter E binds; none when E is not such an argument of a
/// direct call to a free function.
std::optional<std::pair<const clang::CallExpr *, unsigned>> boundByReference(const clang::Expr *E,
                                                                            clang::ASTContext &Ctx);

} // namespace dpstub::migrate
