//===- TextPositions.h - LSP positions in a document's text ----*- C++ -*-===//
//
// LSP counts columns in UTF-16 code units by default (or UTF-8 bytes when
// both sides agree); clang counts bytes, from 1. This maps between them
// over one version of a document's text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "LspProtocol.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace dpstub {

/// Line starts of a text, and conversions between byte offsets, clang's
/// 1-based byte columns and LSP positions.
class TextPositions {
public:
  TextPositions(llvm::StringRef Text, bool Utf8);

  /// The byte offset of an LSP position (clamped to the text).
  unsigned offset(const lsp::Position &P) const;
  /// The LSP position of a byte offset.
  lsp::Position position(unsigned Offset) const;
  /// The byte offset of clang's 1-based line and byte column.
  unsigned offset(unsigned Line, unsigned Column) const;
  /// Clang's 1-based line and byte column of a byte offset.
  std::pair<unsigned, unsigned> lineColumn(unsigned Offset) const;
  /// The byte offsets where the line holding Offset starts and ends (at
  /// its newline, or the text's end).
  std::pair<unsigned, unsigned> lineBounds(unsigned Offset) const;

private:
  llvm::StringRef Text;
  bool Utf8;
  std::vector<unsigned> Starts; ///< offset of each line's first byte
};

} // namespace dpstub
