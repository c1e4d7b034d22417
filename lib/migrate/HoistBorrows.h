//===- HoistBorrows.h - Borrow blocks lifted out of serial loops -*- C++ -*-===//
//
// A call-site over memory it borrows (a header's static arrays, a
// caller's pointers) borrows it in a block of its own, written back at
// the block's end. The NAS Parallel Benchmarks put `omp for` loops inside
// serial loops (SP's lhsx: over j and k, two 36-point loops sharing
// temporaries), so each call-site borrows its arrays at every iteration:
// about a third of such a call's cost on the host (0.53-0.58 us a call,
// 0.35 borrowed once), and on a device a copy of every array each time.
//
// Where the serial loops hold nothing but such call-sites (their headers
// reading none of the arrays the call-sites write, and only elements of
// the others), the borrows move to one block around the outermost of
// them: what the call-sites wrote is there at its end, as it was at each
// call-site's, since no host code between them reads it.
// Only whole borrows of named arrays move (C arrays of known extents:
// distinct objects, each borrowed once over the same grid), and only
// where each array is borrowed the same way by every call-site.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/LoopAnalysis.h"
#include "migrate/LoopModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// One block of borrows before a serial loop.
struct BorrowHoist {
  const clang::ForStmt *Loop = nullptr; ///< the outermost serial loop it goes around
  std::vector<std::string> Lines;       ///< its borrow statements, each once
  /// The call-sites inside it (by model), each with the borrow statements
  /// it leaves to the block.
  std::map<size_t, std::vector<std::string>> Models;
};

/// The borrow statements a converted loop's call-site would make, when
/// they may move out of serial loops around it (whole borrows of C
/// arrays, nothing taken at the call-site itself); nullopt otherwise.
using BorrowLinesOf = std::function<std::optional<std::vector<std::string>>(const LoopModel &)>;

/// The hoists for the converted loops (Live[i]: Models[i], the model of
/// Candidates[i], becomes a call-site), given every candidate loop and
/// every directive of the file (a loop with a directive of its own never
/// carries a hoist, nor does one with directives inside other than its
/// call-sites', nor one inside a region's directive).
std::vector<BorrowHoist> hoistBorrows(const std::vector<LoopModel> &Models, const std::vector<bool> &Live,
                                      const std::vector<Candidate> &Candidates,
                                      const std::vector<PragmaLine> &Pragmas, const BorrowLinesOf &LinesOf,
                                      clang::ASTContext &Ctx);

} // namespace dpstub::migrate
