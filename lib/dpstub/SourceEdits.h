//===- SourceEdits.h - Planning the edits of a source file -----*- C++ -*-===//
//
// Plain-text planning of the main file's edits: where the stub header is
// included (found, added or moved), and where a position of the source
// lands once the edits are applied. Stubs are named after the rewritten
// file's positions, so dpstub run on its own output finds the same names.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace dpstub {

/// One edit of a file: replace Length bytes at Offset by Text.
struct Edit {
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
};

/// The include lines a source needs for its stub header: one before
/// `DeclarationsAt` (a line start, before the first call-site's top-level
/// declaration) for the launcher declarations, one after `LastUseEnd` for
/// the definitions. Existing ones in the right places are kept, missing
/// ones added, ones between the two removed.
std::vector<Edit> planIncludes(llvm::StringRef Buffer, llvm::StringRef HeaderName,
                               unsigned DeclarationsAt, unsigned LastUseEnd);

/// `#line` directives that keep the user's line numbers in the rewritten
/// text: after every edit that changes the number of lines, at the next
/// line start of the original text that no edit replaces or prefixes, a
/// directive names the line that follows (`Directive(Offset)` renders it
/// for the original line starting at Offset). An insertion ending in a
/// newline at that place gets the directive appended; otherwise it is a new
/// insertion. Edits are sorted by offset.
void addLineMarkers(std::vector<Edit> &Edits, llvm::StringRef Buffer,
                    llvm::function_ref<std::string(unsigned)> Directive);

/// `#line N "File"`, the file name escaped as a string literal.
std::string lineDirective(unsigned Line, llvm::StringRef File);

/// Line and column (1-based, in bytes, as clang counts them) that offsets
/// of the original text have in the text with the edits applied.
class OutputPositions {
public:
  explicit OutputPositions(llvm::StringRef Buffer) : Buffer(Buffer) {}
  /// Records an edit; edits may be added in any order but must not overlap.
  void add(const Edit &E);
  /// The position Offset ends up at; edits starting exactly at Offset
  /// (insertions before it) count as before it.
  std::pair<unsigned, unsigned> lineColumn(unsigned Offset) const;

private:
  llvm::StringRef Buffer;
  std::vector<Edit> Edits; ///< sorted by offset
};

} // namespace dpstub
