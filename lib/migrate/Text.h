//===- Text.h - The user's text, for migration's rewrites -------*- C++ -*-===//
//
// Migration copies what the user wrote: expressions and statements by
// their file ranges (a macro invocation is copied as written), and edits
// as offsets into the main file, applied to a piece of text when a loop
// body moves into a kernel.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// The file range [Begin, End) of a token range, in the main file; none
/// when it is not all there (inside a macro's definition, or elsewhere).
struct Span {
  unsigned Begin = 0, End = 0;
};
std::optional<Span> spanOf(clang::SourceRange R, const clang::ASTContext &Ctx);

/// Whether Inner's text lies within Outer's, Outer itself included; false
/// when either has no text of its own in the main file.
bool textWithin(const clang::Stmt *Inner, const clang::Stmt *Outer, const clang::ASTContext &Ctx);

/// The user's text of a token range (a macro invocation as written); empty
/// when it has none in the main file.
std::string textOf(clang::SourceRange R, const clang::ASTContext &Ctx);
template <class Node> std::string textOf(const Node *N, const clang::ASTContext &Ctx) {
  return N ? textOf(N->getSourceRange(), Ctx) : std::string();
}

/// E as a message names it: the user's text, or where E is written by a
/// macro (and has none), E printed as the compiler reads it.
std::string shownText(const clang::Stmt *E, const clang::ASTContext &Ctx);

/// The user's text of E without its blanks: two mentions written alike
/// (`x[i]`, `x [i]`) compare equal; empty when it has no text.
std::string compactText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// One edit of the main file: replace Length bytes at Offset by Text.
struct TextEdit {
  unsigned Offset = 0, Length = 0;
  std::string Text;
};

/// Edits of the main file, kept sorted; overlapping ones are refused.
class EditList {
public:
  /// False (and nothing added; it is kept in rejected()) when E overlaps
  /// an edit already there. An insertion goes after those already at its
  /// offset, or before them with First.
  bool add(TextEdit E, bool First = false);
  const std::vector<TextEdit> &rejected() const { return Rejected; }
  /// The text of [Begin, End) of Buffer with the edits inside it applied;
  /// those edits are then removed (the text replacing the range carries
  /// them).
  std::string take(llvm::StringRef Buffer, unsigned Begin, unsigned End);
  const std::vector<TextEdit> &edits() const { return Edits; }

private:
  std::vector<TextEdit> Edits, Rejected;
};

/// The comments of Buffer[Begin, End), in order (string and character
/// literals skipped).
std::vector<std::string> commentsIn(llvm::StringRef Buffer, unsigned Begin, unsigned End);

/// The offset of the start of the line holding Offset.
unsigned lineStart(llvm::StringRef Buffer, unsigned Offset);
/// The offset just past the newline ending the line holding Offset.
unsigned nextLineStart(llvm::StringRef Buffer, unsigned Offset);
/// The whitespace that starts the line holding Offset.
std::string indentationAt(llvm::StringRef Buffer, unsigned Offset);
/// The offset just past the `;` ending statement text at Offset (blanks
/// before it skipped); Offset when none does.
unsigned pastSemicolon(llvm::StringRef Buffer, unsigned Offset);
/// A block of its own around a statement that is an `if`'s or a loop's
/// body, so that `First` can go before it: `{` and First on lines of their
/// own before the line holding Begin, `}` on a line after the statement's
/// text, which ends at End (or at a `;` after it); at Indent.
void blockAround(EditList &E, llvm::StringRef Buffer, unsigned Begin, unsigned End, const std::string &Indent,
                 const std::string &First);

} // namespace dpstub::migrate
