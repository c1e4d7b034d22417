//===- RegionThreads.h - What a region's statements do per thread -*- C++ -*-===//
//
// A host `omp parallel` region runs each of its statements on every
// thread of its team. Once its loops become call-sites, the region moves
// whole or splits (RegionSplit.h), and the statements that go with the
// loops run once, outside any region, on the variables outside it. That
// is the same program only where running a statement once instead of
// once per thread changes nothing anyone sees. This file finds the
// statements where it would.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/Candidates.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// What makes a statement of a host OpenMP region observably run once per
/// thread of the region, so that, run once outside any region, it would
/// do otherwise: a call asking about the team (`omp_get_num_threads()`,
/// `omp_get_thread_num()`, ..., even under `omp master`), a call to a
/// function with effects, or an update (`++`, `+=`, ...) of a variable the
/// threads share (a call or an update under `omp master`, `single` or
/// `masked`, or in a work-shared loop, runs once either way); or a write
/// outside the work-shared loops of a variable the region's clauses give
/// each thread, where the write would show after the region
/// (RegionThreads::Guarded). Such a statement keeps a region of its own.
struct PerThread {
  std::string What; ///< for the warning: "calls 'printf', which ..."
  clang::SourceLocation Loc;
};

/// What a region's statements are judged against: the statements in it
/// that run once whatever the team (its work-shared loops, and its
/// `master`, `single`, `masked` and `sections` constructs), the
/// variables its clauses give each thread (`private`, `firstprivate`),
/// and those of its clause variables a write to which, once, outside the
/// region, would show after it: the private ones read after the region,
/// and every `reduction` one (the region combines each thread's copy
/// into it).
struct RegionThreads {
  const clang::Stmt *Body = nullptr;
  /// Its team functions (Region::Teams), whose statements its threads
  /// run where it calls them: judged as its own, their locals each
  /// thread's.
  std::vector<const clang::FunctionDecl *> Teams;
  std::vector<const clang::Stmt *> Once, WorkShared;
  std::set<const clang::VarDecl *> Private;
  std::map<const clang::VarDecl *, std::string> Guarded; ///< variable, its clause
};
RegionThreads regionThreads(const Region &R, const std::vector<PragmaLine> &Pragmas, clang::ASTContext &Ctx);

/// The first thing in S, a statement of the region T describes, that runs
/// once per thread; none for a region that is not a host OpenMP one.
/// Unread, when given, collects the updates of shared variables that
/// the program never reads (every use of them in the unit is a statement
/// updating them, `callcount++;`, and no other unit can see them): run
/// once, not once per thread, they leave the program the same, so they
/// are not returned.
std::optional<PerThread> perThreadIn(const clang::Stmt *S, const RegionThreads &T, const clang::ASTContext &Ctx,
                                     std::vector<PerThread> *Unread = nullptr);

/// Whether the program never reads V: V is a scalar no other unit sees,
/// not volatile, and each of its uses in the unit is the whole of a
/// statement updating it (`V++;`, `--V;`, `V += e;` with e not naming V).
bool neverRead(const clang::VarDecl *V, const clang::ASTContext &Ctx);

/// The variables P's `private`, `firstprivate` and `reduction` clauses
/// name, as its statements name them (declared outside it), each with
/// its clause.
std::map<const clang::VarDecl *, std::string> clauseVariablesOf(const PragmaLine &P, const clang::ASTContext &Ctx);

} // namespace dpstub::migrate
