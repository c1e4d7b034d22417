//===- Text.cpp - The user's text, for migration's rewrites ---------------===//

#include "migrate/Text.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cctype>

using namespace clang;

namespace dpstub::migrate {

std::optional<Span> spanOf(SourceRange R, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const CharSourceRange File =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts());
  if (File.isInvalid() || !SM.isWrittenInMainFile(File.getBegin()))
    return std::nullopt;
  return Span{SM.getFileOffset(File.getBegin()), SM.getFileOffset(File.getEnd())};
}

bool textWithin(const Stmt *Inner, const Stmt *Outer, const ASTContext &Ctx) {
  const std::optional<Span> I = spanOf(Inner->getSourceRange(), Ctx);
  const std::optional<Span> O = spanOf(Outer->getSourceRange(), Ctx);
  return I && O && I->Begin >= O->Begin && I->End <= O->End;
}

std::string textOf(SourceRange R, const ASTContext &Ctx) {
  std::optional<Span> S = spanOf(R, Ctx);
  if (!S)
    return std::string();
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.getBufferData(SM.getMainFileID()).substr(S->Begin, S->End - S->Begin).str();
}

std::string shownText(const Stmt *E, const ASTContext &Ctx) {
  std::string Text = textOf(E, Ctx);
  if (!Text.empty() || !E)
    return Text;
  llvm::raw_string_ostream OS(Text);
  E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return Text;
}

std::string compactText(const Expr *E, const ASTContext &Ctx) {
  std::string Out;
  for (char C : textOf(E, Ctx))
    if (!std::isspace(static_cast<unsigned char>(C)))
      Out += C;
  return Out;
}

bool EditList::add(TextEdit E, bool First) {
  // The same edit twice (a macro's definition, rewritten for each use).
  for (const TextEdit &X : Edits)
    if (X.Offset == E.Offset && X.Length == E.Length && X.Length > 0 && X.Text == E.Text)
      return true;
  auto It = std::lower_bound(Edits.begin(), Edits.end(), E, [](const TextEdit &A, const TextEdit &B) {
    return A.Offset < B.Offset || (A.Offset == B.Offset && A.Length < B.Length);
  });
  // Insertions at one offset keep their order; ranges must not overlap.
  if ((It != Edits.end() && It->Offset < E.Offset + E.Length) ||
      (It != Edits.begin() && std::prev(It)->Offset + std::prev(It)->Length > E.Offset)) {
    Rejected.push_back(std::move(E));
    return false;
  }
  while (!First && It != Edits.end() && It->Offset == E.Offset && It->Length == 0 && E.Length == 0)
    ++It;
  Edits.insert(It, std::move(E));
  return true;
}

std::string EditList::take(llvm::StringRef Buffer, unsigned Begin, unsigned End) {
  std::string Out;
  unsigned At = Begin;
  std::vector<TextEdit> Rest;
  for (TextEdit &E : Edits) {
    if (E.Offset < Begin || E.Offset + E.Length > End || (E.Length == 0 && E.Offset == End)) {
      Rest.push_back(std::move(E));
      continue;
    }
    Out += Buffer.substr(At, E.Offset - At).str();
    Out += E.Text;
    At = E.Offset + E.Length;
  }
  Out += Buffer.substr(At, End - At).str();
  Edits = std::move(Rest);
  return Out;
}

std::vector<std::string> commentsIn(llvm::StringRef B, unsigned Begin, unsigned End) {
  std::vector<std::string> Out;
  End = std::min<unsigned>(End, B.size());
  for (unsigned I = Begin; I < End; ++I) {
    const char C = B[I];
    if (C == '"' || C == '\'') { // a literal: to its closing quote
      for (++I; I < End && B[I] != C; ++I)
        if (B[I] == '\\')
          ++I;
    } else if (C == '/' && I + 1 < End && B[I + 1] == '/') {
      unsigned E = I;
      while (E < End && B[E] != '\n')
        ++E;
      Out.push_back(B.substr(I, E - I).rtrim().str());
      I = E;
    } else if (C == '/' && I + 1 < End && B[I + 1] == '*') {
      const size_t E = B.find("*/", I + 2);
      const unsigned Stop = E == llvm::StringRef::npos ? End : std::min<unsigned>(End, E + 2);
      Out.push_back(B.substr(I, Stop - I).str());
      I = Stop - 1;
    }
  }
  return Out;
}

unsigned lineStart(llvm::StringRef Buffer, unsigned Offset) {
  while (Offset > 0 && Buffer[Offset - 1] != '\n')
    --Offset;
  return Offset;
}

unsigned nextLineStart(llvm::StringRef Buffer, unsigned Offset) {
  while (Offset < Buffer.size() && Buffer[Offset] != '\n')
    ++Offset;
  return Offset < Buffer.size() ? Offset + 1 : Offset;
}

unsigned pastSemicolon(llvm::StringRef Buffer, unsigned Offset) {
  unsigned I = Offset;
  while (I < Buffer.size() && isspace(static_cast<unsigned char>(Buffer[I])))
    ++I;
  return I < Buffer.size() && Buffer[I] == ';' ? I + 1 : Offset;
}

void blockAround(EditList &E, llvm::StringRef Buffer, unsigned Begin, unsigned End, const std::string &Indent,
                 const std::string &First) {
  E.add({lineStart(Buffer, Begin), 0, Indent + "{\n" + Indent + "  " + First + "\n"});
  E.add({nextLineStart(Buffer, pastSemicolon(Buffer, End)), 0, Indent + "}\n"});
}

std::string indentationAt(llvm::StringRef Buffer, unsigned Offset) {
  unsigned B = lineStart(Buffer, Offset), E = B;
  while (E < Buffer.size() && (Buffer[E] == ' ' || Buffer[E] == '\t'))
    ++E;
  return Buffer.substr(B, E - B).str();
}

} // namespace dpstub::migrate
