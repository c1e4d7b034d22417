//===- Render.h - A loop model as a dp call-site ----------------*- C++ -*-===//
//
// The text that replaces a converted loop: the call-site over the grid of
// its levels, the kernel lambda taking the index, the arrays as fields
// and the values passed in, the user's body copied as written; for a
// reduction, the dp::scalar around it and the assignment back. Only the
// model and the body's (already rewritten) text are read.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/ArrayData.h"
#include "migrate/LoopModel.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// What rendering needs besides the model.
struct RenderInput {
  std::string Body;       ///< the innermost body's text, its own edits applied
  bool BodyIsBlock = false; ///< the body is `{ ... }` (Body is what is inside)
  /// A statement body on a line of its own: Body begins with that line's
  /// indentation, which counts when the lines are shifted.
  bool BodyStartsLine = false;
  std::string Indent;     ///< the loop's indentation
  std::string IndexName;  ///< the kernel's index parameter ("idx")
  std::string ResultType; ///< several reductions: their struct's name
};

/// `dp::grid<2>(n, dp::arithmetic_sequence(1, m - 1))`.
std::string gridText(const LoopModel &M);
/// "upper_triangle" or "lower_triangle", for a triangular model.
const char *triangleName(const LoopModel &M);

/// True when the loop's directive runs it asynchronously (`async(q)`,
/// OpenMP's `nowait`): it goes on a dp::queue.
bool usesQueue(const LoopModel &M);

/// The execution options the directive's clauses ask for (`if(c)`,
/// `num_gangs`, `vector_length`, ...), as the call-site's first argument
/// with its comma; empty when none.
std::string optionsText(const LoopModel &M);
/// Execution options (`on(q)`, `when(c)`, ...) as a call-site's first
/// argument, `dp::on(q).when(c), `; empty when there are none.
std::string optionsArgument(const std::vector<std::string> &Parts);

/// The borrow statements of the loop's call-site when they may move out
/// of serial loops around it (HoistBorrows.h): every borrowed array a C
/// array of known extents borrowed whole, no reduction into an element
/// (the host writes it), nothing the call-site takes for itself (helper
/// tables, copies read apart). Body is the loop's body as written.
std::optional<std::vector<std::string>> hoistableBorrows(const LoopModel &M, const std::string &Body,
                                                         const ArrayData &Arrays, const clang::ASTContext &Ctx);

/// The call-site (and for a reduction its result's scalar) replacing the
/// loop, ending with a newline. Hoisted: the borrow statements a block
/// around serial loops makes for it (HoistBorrows.h); the call-site makes
/// them itself unless they are exactly its own.
std::string renderCallSite(const LoopModel &M, const RenderInput &In, const ArrayData &Arrays,
                           const clang::ASTContext &Ctx, const std::vector<std::string> *Hoisted = nullptr);

/// What an arg max's kernel adds after the statements setting its value:
/// the iteration that set it (`dp_best_at = std::int64_t(i);`).
std::string locatedNoteText(const LoopModel &M, const Reduction &R);

/// Several reductions (or an arg max): the struct holding their partial
/// values.
std::string renderResultStruct(const LoopModel &M, const std::string &Name,
                               const clang::ASTContext &Ctx);

} // namespace dpstub::migrate
