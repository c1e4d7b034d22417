//===- TeamFunctions.h - Regions whose loops are in the functions they call -*- C++ -*-===//
//
// An OpenMP `for` directive need not stand in its region's text: the NAS
// Parallel Benchmarks write `#pragma omp parallel` over a call
// (`compute_rhs();`) and put the `omp for` loops in the function called,
// where they bind to the caller's team (an orphaned construct). Such a
// function runs on every thread of the region, as the region's own
// statements do; its work-shared loops share their iterations among them.
// So the region moves (its directive goes, its statements and the
// functions they call run once, their loops become call-sites) on the
// same terms as one whose loops are in its text, provided every place
// the function can run from is in view: its callers are in the file
// (it is static, or the file has main), it is only called, never taken
// by address, and no call reaches it from inside another construct (a
// loop's body, a `master` block), where its loops would not bind to a
// whole team.
//
// This file finds those functions: the team functions of each region.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/LoopAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <map>
#include <set>
#include <vector>

namespace dpstub::migrate {

struct TeamFunctions {
  /// For each host `omp parallel` region whose calls reach orphaned loop
  /// directives all of whose functions qualify: the functions its threads
  /// run that hold such directives or call functions that do.
  std::map<const PragmaLine *, std::vector<const clang::FunctionDecl *>> OfRegion;
  /// The orphaned loop directives whose loops join those regions, or,
  /// in a function no region reaches, run as the program's own (one
  /// thread runs an orphaned construct outside any region).
  std::set<const PragmaLine *> Joining;
};

/// The team functions of the main file, given its directives and the
/// orphaned loop directives among them (loop directives that need a
/// region, with none around them in their function).
TeamFunctions teamFunctions(const std::vector<PragmaLine> &Pragmas, const std::vector<const PragmaLine *> &Orphaned,
                            clang::ASTContext &Ctx);

/// The functions S calls directly (canonical declarations), in order.
std::vector<const clang::FunctionDecl *> directCallees(const clang::Stmt *S);

/// The function whose body holds S; null at namespace scope.
const clang::FunctionDecl *functionHolding(const clang::Stmt *S, clang::ASTContext &Ctx);

} // namespace dpstub::migrate
