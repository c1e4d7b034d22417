//===- RegionSplit.h - A host parallel region around loops that move -*- C++ -*-===//
//
// An `omp parallel` region runs each of its statements on every thread of
// its team; its `omp for` loops share their iterations among them. When
// some of its loops become call-sites and others stay, the region cannot
// move whole (a call-site inside it would run once per thread), but it
// can be split: each statement holding loops that all move leaves the
// region and runs once, as the loops of a region that moves whole do;
// each run of the statements around them keeps an `omp parallel` region
// of its own, with the original's clauses. The work-sharing loops end
// with a barrier; a split adds one at most, which a program free of races
// does not notice.
//
// This file decides which regions split and where, and writes the edits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/Candidates.h"
#include "migrate/RegionThreads.h"
#include "migrate/Text.h"

#include "clang/AST/ASTContext.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// The statements of R's body, in order, when R can split: a host `omp
/// parallel` alone, not written by a macro with other directives, with
/// no clause giving each thread variables of its own (`private`,
/// `reduction`, ...: a value a thread kept from one statement to the next
/// would not survive the split), a block of statements, neither inside
/// another region nor around one. None otherwise.
std::optional<std::vector<const clang::Stmt *>> splittableBody(const Region &R, const std::vector<Region> &All,
                                                               clang::ASTContext &Ctx);

/// A loop inside a region: a candidate, or a loop directive a selection
/// left out (which stays); and whether it stays.
struct RegionLoop {
  const clang::Stmt *Loop = nullptr;
  bool Stays = false;
};

/// How each of the body's statements fares: Moves when it holds at
/// least one of the region's loops, every one of those moves, and nothing
/// in it runs once per thread (PerThread[K], perThreadIn's verdict on
/// Body[K], which depends on the region alone: judged once, by the
/// caller); a declaration moves with the statements that move when they
/// use what it declares and nothing in it runs once per thread.
std::vector<bool> statementsThatMove(const std::vector<const clang::Stmt *> &Body,
                                     const std::vector<RegionLoop> &Loops,
                                     const std::vector<std::optional<PerThread>> &PerThread,
                                     clang::ASTContext &Ctx,
                                     const std::vector<const clang::FunctionDecl *> &Teams = {});

/// Whether candidate loop L is S or inside it, or inside a team function
/// of the region (Region::Teams) that S calls, directly or through
/// another.
bool holds(const clang::Stmt *S, const clang::Stmt *L, const clang::ASTContext &Ctx,
           const std::vector<const clang::FunctionDecl *> &Teams = {});

/// A region that splits: its directive, and the runs of consecutive
/// statements that stay, each to get a region of its own.
struct SplitRegion {
  const PragmaLine *Pragma = nullptr;
  const clang::Stmt *Body = nullptr;
  std::vector<std::vector<const clang::Stmt *>> Staying;
  /// The lines of its statements that move (for the remark).
  std::vector<unsigned> MovedLines;
};

/// The split of R, given which of its body's statements move; none when
/// none moves, none stays, or a variable the body declares is used
/// outside the run of statements that declares it (its name would not
/// reach a call-site, or another region, after the split).
std::optional<SplitRegion> splitOf(const Region &R, const std::vector<const clang::Stmt *> &Body,
                                   const std::vector<bool> &Moves, const clang::ASTContext &Ctx);

/// The edits: before each run of staying statements (and the directives
/// standing right before it), Before (the line bringing fields to the
/// host, or empty), the region's directive as the user wrote it, and a
/// `{` unless the run is one statement whose directives are its own;
/// the `}` after it. The region's own line goes.
std::vector<TextEdit> splitEdits(const SplitRegion &S, const std::vector<PragmaLine> &Pragmas,
                                 const std::vector<std::string> &Before, clang::ASTContext &Ctx);

} // namespace dpstub::migrate
