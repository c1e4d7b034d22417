//===- Candidates.h - The loops --migrate considers -------------*- C++ -*-===//
//
// The directives of the main file (read from its text, whatever the build
// enables), the statement each stands on, and from them the candidate
// loops: loops that carry a loop directive, the loops of an `acc
// kernels` region, and plain loops where the user asked (--selection, the
// editor's cursor). Compute regions (`omp parallel`, `acc parallel`) are
// kept with the loops inside them: a region moves only if all its loops
// do.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/LoopAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// A directive the preprocessor read: a `#pragma` line, or a `_Pragma`
/// operator, written in the file or by a macro (ParRes Kernels'
/// `OMP_FOR(collapse(2))` of `#define PRAGMA(x) _Pragma(#x)`).
struct PragmaSeen {
  clang::SourceLocation Loc; ///< the `#`, or the `_Pragma` (in the macro's expansion)
  bool Operator = false;     ///< `_Pragma`
  std::string Text;          ///< an operator's string as the preprocessor read it (`omp for collapse(2)`)
};

/// Records every directive of the unit.
class PragmaRecorder : public clang::PPCallbacks {
public:
  PragmaRecorder(clang::Preprocessor &PP, std::vector<PragmaSeen> &Out) : PP(PP), Out(Out) {}
  void PragmaDirective(clang::SourceLocation Loc, clang::PragmaIntroducerKind Introducer) override;

private:
  clang::Preprocessor &PP;
  std::vector<PragmaSeen> &Out;
};

/// The directives of the main file among those, each with the statement
/// after it. A `_Pragma` stands for the text that writes it (the macro's
/// use, `OMP_FOR()`, or the operator itself): the lines it fills, or
/// where it shares one, itself.
std::vector<PragmaLine> readPragmas(const std::vector<PragmaSeen> &Seen, clang::ASTContext &Ctx);

/// The `omp threadprivate` directives of the headers the unit includes
/// (NPB BT's `header.h`), which name variables those headers declare:
/// each with its `#`, no statement and no place in the main file.
std::vector<PragmaLine> headerThreadprivate(const std::vector<PragmaSeen> &Seen, clang::ASTContext &Ctx);

/// A loop directive in one of the user's headers the main file includes.
/// --migrate edits only the file it is given, so the loop is refused,
/// naming its file (never a silent skip).
struct IncludedLoop {
  clang::SourceLocation Loc; ///< the loop after the directive
  std::string Construct;     ///< "acc parallel loop", ...
  std::string File;          ///< the header's path, as it was found
  unsigned IncludeOffset = 0; ///< where the main file includes it
};
/// Filter, when set, keeps only the headers whose path it matches (an
/// empty one keeps none).
std::vector<IncludedLoop> includedLoops(const std::vector<PragmaSeen> &Seen,
                                        clang::ASTContext &Ctx,
                                        const std::optional<std::string> &Filter = std::nullopt);

/// A compute region and the loop candidates inside it.
struct Region {
  const PragmaLine *Pragma = nullptr;
  std::vector<size_t> Loops; ///< indices into Candidates::Loops
  /// The functions its threads run whose orphaned loop directives bind
  /// to it (TeamFunctions.h): their loops are its loops too.
  std::vector<const clang::FunctionDecl *> Teams;
};

/// Whether S is in R: in its text, or in one of its team functions.
bool inRegion(const clang::Stmt *S, const Region &R, const clang::ASTContext &Ctx);

/// What a unit offers to migrate.
struct Candidates {
  std::vector<Candidate> Loops;
  std::vector<Region> Regions;
  /// Loop directives on statements that are not for loops, or orphaned
  /// ones: refused where they stand.
  std::vector<std::pair<const PragmaLine *, std::string>> Unusable;
  /// A selection left out loop directives of the file (a candidate or an
  /// unusable one): they stay OpenMP's or OpenACC's, whatever the
  /// selected loops become, so the file's data and routine directives
  /// must stay for them.
  bool LeftOut = false;
};

/// The lines and columns of a selection (1-based, clang-refactor's).
struct LineRange {
  unsigned BeginLine = 0, BeginColumn = 0, EndLine = 0, EndColumn = 0;
};

/// The candidates of the main file; with Selection, only those it
/// covers, plain loops included.
Candidates findCandidates(const std::vector<PragmaLine> &Pragmas, clang::ASTContext &Ctx,
                          const std::optional<LineRange> &Selection);

} // namespace dpstub::migrate
