//===- DeviceDeclared.cpp - Functions the user declared for the device ----===//

#include "dpstub/DeviceDeclared.h"

#include <cctype>

using namespace clang;

namespace dpstub {

namespace {

constexpr llvm::StringLiteral IdentChars =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

/// The offset of the first character at or after I that is neither blank
/// nor inside a comment.
unsigned skipBlankAndComments(llvm::StringRef B, unsigned I) {
  while (I < B.size()) {
    if (std::isspace(static_cast<unsigned char>(B[I]))) {
      ++I;
    } else if (B.substr(I).starts_with("//")) {
      const size_t E = B.find('\n', I);
      I = E == llvm::StringRef::npos ? B.size() : unsigned(E) + 1;
    } else if (B.substr(I).starts_with("/*")) {
      const size_t E = B.find("*/", I + 2);
      I = E == llvm::StringRef::npos ? B.size() : unsigned(E) + 2;
    } else {
      break;
    }
  }
  return I;
}

/// The words after `#pragma` on a directive line (empty for other lines).
llvm::StringRef pragmaText(llvm::StringRef Line) {
  Line = Line.trim();
  if (!Line.consume_front("#"))
    return {};
  Line = Line.ltrim();
  if (!Line.consume_front("pragma") || Line.empty() || !std::isspace(static_cast<unsigned char>(Line[0])))
    return {};
  return Line.ltrim();
}

/// Consumes Word and the blanks after it.
bool word(llvm::StringRef &S, llvm::StringRef Word) {
  if (!S.starts_with(Word) || (S.size() > Word.size() && IdentChars.contains(S[Word.size()])))
    return false;
  S = S.drop_front(Word.size()).ltrim();
  return true;
}

} // namespace

DirectiveLine directiveLine(llvm::StringRef B, unsigned Start) {
  DirectiveLine L;
  unsigned &I = L.End;
  for (I = Start; I < B.size() && B[I] != '\n'; ++I) {
    const bool CRLF = B[I] == '\\' && B.substr(I + 1).starts_with("\r\n");
    if (B[I] == '\\' && (CRLF || B.substr(I + 1).starts_with("\n"))) {
      I += CRLF ? 2 : 1; // the newline the loop's step passes
      L.Text += ' ';
    } else {
      L.Text += B[I];
    }
  }
  return L;
}

std::optional<std::string> routineName(llvm::StringRef Directive) {
  if (llvm::StringRef Line = pragmaText(Directive); !Line.empty())
    Directive = Line;
  Directive = Directive.trim();
  if (!word(Directive, "acc") || !word(Directive, "routine"))
    return std::nullopt;
  if (!Directive.consume_front("("))
    return std::string();
  return Directive.take_until([](char C) { return C == ')'; }).trim().str();
}

const DeviceDeclarations::FileFacts &DeviceDeclarations::factsOf(FileID FID) {
  auto [It, New] = Files.try_emplace(FID);
  if (!New)
    return It->second;
  FileFacts &F = It->second;
  bool Invalid = false;
  const llvm::StringRef B = SM.getBufferData(FID, &Invalid);
  if (Invalid || !(B.contains("routine") || B.contains("declare") || B.contains("DP_HOST_DEVICE") ||
                   B.contains("DP_DEVICE")))
    return F;
  F.Any = true;
  for (unsigned Start = 0; Start < B.size();) {
    const DirectiveLine Line = directiveLine(B, Start);
    const unsigned End = Line.End < B.size() ? Line.End + 1 : Line.End;
    llvm::StringRef P = pragmaText(Line.Text);
    if (std::optional<std::string> Name = routineName(P)) {
      if (Name->empty())
        F.RoutineEnds.push_back(End);
      else
        F.NamedRoutines.insert(*Name);
    } else if (word(P, "omp")) {
      const bool Ends = word(P, "end");
      (void)word(P, "begin");
      // `declare target` alone opens a block; `declare target(f)` or with
      // `to`/`enter` clauses names functions, which is not read here.
      if (word(P, "declare") && word(P, "target") && (Ends || P.empty() || P.starts_with("device_type")))
        F.TargetMarks.push_back({Start, Ends ? -1 : 1});
    }
    Start = End;
  }
  return F;
}

bool DeviceDeclarations::declaredAt(const FunctionDecl *D) {
  const SourceLocation L = SM.getFileLoc(D->getBeginLoc());
  if (L.isInvalid())
    return false;
  const auto [FID, Offset] = SM.getDecomposedLoc(L);
  const FileFacts &F = factsOf(FID);
  if (!F.Any)
    return false;
  const llvm::StringRef B = SM.getBufferData(FID);
  // A mark written in front of it (it expands to nothing on the host, so
  // the declaration starts after it).
  const llvm::StringRef Before = B.take_front(Offset).rtrim();
  const size_t WordStart = Before.find_last_not_of(IdentChars);
  const llvm::StringRef Last = Before.substr(WordStart == llvm::StringRef::npos ? 0 : WordStart + 1);
  if (Last == "DP_HOST_DEVICE" || Last == "DP_DEVICE")
    return true;
  for (unsigned End : F.RoutineEnds)
    if (End <= Offset && skipBlankAndComments(B, End) == Offset)
      return true;
  int Depth = 0;
  for (const auto &[At, Delta] : F.TargetMarks)
    if (At < Offset)
      Depth += Delta;
  if (Depth > 0)
    return true;
  return D->getIdentifier() && F.NamedRoutines.count(D->getName().str());
}

bool DeviceDeclarations::declared(const FunctionDecl *F) {
  for (const FunctionDecl *D : F->redecls())
    if (declaredAt(D))
      return true;
  return false;
}

unsigned configIncludeOffset(llvm::StringRef B) {
  unsigned I = skipBlankAndComments(B, 0);
  auto LineAt = [&](unsigned At) {
    const size_t E = B.find('\n', At);
    return std::pair<llvm::StringRef, unsigned>{
        B.slice(At, E == llvm::StringRef::npos ? B.size() : E),
        E == llvm::StringRef::npos ? unsigned(B.size()) : unsigned(E) + 1};
  };
  // Back to the start of the line the code starts on.
  while (I > 0 && B[I - 1] != '\n')
    --I;
  auto [Line, Next] = LineAt(I);
  llvm::StringRef P = pragmaText(Line);
  if (word(P, "once"))
    return Next;
  llvm::StringRef Guard = Line.trim();
  if (Guard.consume_front("#") && word(Guard = Guard.ltrim(), "ifndef")) {
    const llvm::StringRef Macro = Guard.take_while([](char C) { return IdentChars.contains(C); });
    auto [Define, After] = LineAt(skipBlankAndComments(B, Next));
    llvm::StringRef D = Define.trim();
    if (D.consume_front("#") && word(D = D.ltrim(), "define") &&
        D.take_while([](char C) { return IdentChars.contains(C); }) == Macro)
      return After;
  }
  return I;
}

bool includesDp(llvm::StringRef B) {
  for (size_t At = B.find("dp/"); At != llvm::StringRef::npos; At = B.find("dp/", At + 3)) {
    const size_t LineStart = B.rfind('\n', At) + 1; // npos + 1 == 0
    llvm::StringRef Line = B.slice(LineStart, B.find('\n', At)).trim();
    if (Line.consume_front("#") && word(Line = Line.ltrim(), "include") &&
        (Line.contains("dp/dp.hpp") || Line.contains("dp/config.hpp")))
      return true;
  }
  return false;
}

} // namespace dpstub
