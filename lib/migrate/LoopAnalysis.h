//===- LoopAnalysis.h - A candidate loop into its model ---------*- C++ -*-===//
//
// Decides whether a candidate loop nest becomes a call-site, and fills its
// LoopModel: the levels of the grid, how the kernel receives every
// variable from outside, the reductions, the arrays and the dependence
// verdict. A loop the tool cannot convert keeps its refusal (the first
// reason found, at its place).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/ArrayData.h"
#include "migrate/Helpers.h"
#include "migrate/LoopModel.h"
#include "dpstub/DeviceDeclared.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <vector>

namespace dpstub::migrate {

/// A directive line of the main file and the statement it is on.
struct PragmaLine {
  Directive D;
  unsigned Begin = 0, End = 0;  ///< file offsets of the line(s), End past the newline
  clang::SourceLocation Loc;    ///< the `#`, or the text writing a `_Pragma`
  const clang::Stmt *On = nullptr;
  /// Written by a macro that writes other directives too: its text is
  /// theirs, so it cannot go alone (a loop directive's loop stays).
  bool Shared = false;
};

/// A loop to consider.
struct Candidate {
  const clang::ForStmt *Loop = nullptr;
  Origin From = Origin::Plain;
  const PragmaLine *Pragma = nullptr; ///< its own directive (Origin::Pragma)
  std::string Construct;              ///< "omp parallel for", "acc kernels", "plain loop"
  /// The directive asserts the iterations independent (OpenMP's loops,
  /// OpenACC's in a parallel region or with `independent`); otherwise
  /// dpstub converts the loop only when it proves them so.
  bool Asserted = false;
};

/// What analysis reads of the unit besides the loop.
struct UnitFacts {
  clang::ASTContext &Ctx;
  const ArrayData &Arrays;
  const std::vector<PragmaLine> &Pragmas;
  /// The headers' `omp threadprivate` directives (headerThreadprivate).
  const std::vector<PragmaLine> &HeaderThreadprivate;
  HelperGlobals &Helpers;
  DeviceDeclarations &Device;
};

/// The model of C's loop nest, converted or refused.
LoopModel analyseLoop(const Candidate &C, const UnitFacts &U);

} // namespace dpstub::migrate
