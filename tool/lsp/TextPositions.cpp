//===- TextPositions.cpp - LSP positions in a document's text -------------===//

#include "TextPositions.h"

#include <algorithm>

namespace dpstub {

namespace {
/// Bytes of the UTF-8 sequence starting with Lead; UTF-16 units it makes.
unsigned sequenceBytes(unsigned char Lead) {
  return Lead < 0x80 ? 1 : Lead >> 5 == 0x6 ? 2 : Lead >> 4 == 0xe ? 3 : Lead >> 3 == 0x1e ? 4 : 1;
}
} // namespace

TextPositions::TextPositions(llvm::StringRef Text, bool Utf8) : Text(Text), Utf8(Utf8) {
  Starts.push_back(0);
  for (unsigned I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
}

unsigned TextPositions::offset(const lsp::Position &P) const {
  if (P.line < 0)
    return 0;
  if (static_cast<size_t>(P.line) >= Starts.size())
    return static_cast<unsigned>(Text.size());
  const unsigned Begin = Starts[P.line];
  const unsigned End = static_cast<size_t>(P.line) + 1 < Starts.size() ? Starts[P.line + 1] - 1
                                                                       : static_cast<unsigned>(Text.size());
  unsigned At = Begin;
  for (int Units = 0; At < End && Units < P.character;) {
    const unsigned Bytes = sequenceBytes(static_cast<unsigned char>(Text[At]));
    Units += Utf8 ? static_cast<int>(Bytes) : Bytes == 4 ? 2 : 1;
    At += Bytes;
  }
  return std::min(At, End);
}

lsp::Position TextPositions::position(unsigned Offset) const {
  Offset = std::min<unsigned>(Offset, static_cast<unsigned>(Text.size()));
  const size_t Line = std::upper_bound(Starts.begin(), Starts.end(), Offset) - Starts.begin() - 1;
  int Units = 0;
  for (unsigned At = Starts[Line]; At < Offset;) {
    const unsigned Bytes = sequenceBytes(static_cast<unsigned char>(Text[At]));
    Units += Utf8 ? static_cast<int>(Bytes) : Bytes == 4 ? 2 : 1;
    At += Bytes;
  }
  return lsp::Position(static_cast<int>(Line), Units);
}

unsigned TextPositions::offset(unsigned Line, unsigned Column) const {
  if (Line == 0 || Line > Starts.size())
    return static_cast<unsigned>(Text.size());
  return std::min<unsigned>(Starts[Line - 1] + Column - 1, static_cast<unsigned>(Text.size()));
}

std::pair<unsigned, unsigned> TextPositions::lineColumn(unsigned Offset) const {
  Offset = std::min<unsigned>(Offset, static_cast<unsigned>(Text.size()));
  const size_t Line = std::upper_bound(Starts.begin(), Starts.end(), Offset) - Starts.begin() - 1;
  return {static_cast<unsigned>(Line) + 1, Offset - Starts[Line] + 1};
}

std::pair<unsigned, unsigned> TextPositions::lineBounds(unsigned Offset) const {
  const unsigned Line = lineColumn(Offset).first;
  const unsigned End = Line < Starts.size() ? Starts[Line] - 1 : static_cast<unsigned>(Text.size());
  return {Starts[Line - 1], End};
}

} // namespace dpstub
