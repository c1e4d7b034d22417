//===- SourceEdits.cpp - Planning the edits of a source file --------------===//

#include "dpstub/SourceEdits.h"

#include <algorithm>
#include <set>

namespace dpstub {

namespace {
/// The include lines naming HeaderName: [line start, line end incl. '\n').
std::vector<std::pair<unsigned, unsigned>> includeLines(llvm::StringRef Buffer,
                                                        llvm::StringRef HeaderName) {
  std::vector<std::pair<unsigned, unsigned>> Lines;
  const std::string Quoted = "\"" + HeaderName.str() + "\"";
  size_t Start = 0;
  while (Start < Buffer.size()) {
    size_t End = Buffer.find('\n', Start);
    End = End == llvm::StringRef::npos ? Buffer.size() : End + 1;
    llvm::StringRef Line = Buffer.slice(Start, End).ltrim();
    if (Line.consume_front("#")) {
      Line = Line.ltrim();
      if (Line.consume_front("include") && Line.ltrim().starts_with(Quoted))
        Lines.push_back({static_cast<unsigned>(Start), static_cast<unsigned>(End)});
    }
    Start = End;
  }
  return Lines;
}
} // namespace

std::vector<Edit> planIncludes(llvm::StringRef Buffer, llvm::StringRef HeaderName,
                               unsigned DeclarationsAt, unsigned LastUseEnd) {
  std::vector<Edit> Out;
  bool HaveDeclarations = false, HaveDefinitions = false;
  for (const auto &[Begin, End] : includeLines(Buffer, HeaderName)) {
    if (Begin <= DeclarationsAt && !HaveDeclarations)
      HaveDeclarations = true;
    else if (Begin >= LastUseEnd && !HaveDefinitions)
      HaveDefinitions = true;
    else // between the call-sites, or a duplicate: it would break the order
      Out.push_back({Begin, End - Begin, ""});
  }
  const std::string Include = "#include \"" + HeaderName.str() + "\"";
  if (!HaveDeclarations)
    Out.push_back({DeclarationsAt, 0, Include + " // dpstub: launchers of this file's call-sites\n"});
  if (!HaveDefinitions)
    Out.push_back({static_cast<unsigned>(Buffer.size()), 0,
                   std::string(Buffer.ends_with("\n") || Buffer.empty() ? "" : "\n") + "\n" +
                       Include + " // dpstub: their invocation stubs\n"});
  return Out;
}

std::string lineDirective(unsigned Line, llvm::StringRef File) {
  std::string Text = "#line " + std::to_string(Line) + " \"";
  for (char C : File) {
    if (C == '\\' || C == '"')
      Text += '\\';
    Text += C;
  }
  return Text + "\"";
}

void addLineMarkers(std::vector<Edit> &Edits, llvm::StringRef Buffer,
                    llvm::function_ref<std::string(unsigned)> Directive) {
  std::stable_sort(Edits.begin(), Edits.end(),
                   [](const Edit &A, const Edit &B) { return A.Offset < B.Offset; });
  auto NextLineStart = [&](unsigned At) -> unsigned {
    if (At == 0 || Buffer[At - 1] == '\n')
      return At;
    const size_t NL = Buffer.find('\n', At);
    return NL == llvm::StringRef::npos ? Buffer.size() : unsigned(NL + 1);
  };
  // Where a directive can go: a line start that no edit replaces and no
  // insertion continues on the same line.
  auto Blocks = [&](unsigned P) {
    for (const Edit &E : Edits)
      if ((E.Length > 0 && E.Offset <= P && P < E.Offset + E.Length) ||
          (E.Offset == P && E.Length == 0 && !llvm::StringRef(E.Text).ends_with("\n")))
        return true;
    return false;
  };
  std::set<unsigned> Places;
  for (const Edit &E : Edits) {
    if (E.Text.find('\n') == std::string::npos &&
        Buffer.slice(E.Offset, E.Offset + E.Length).count('\n') == 0)
      continue; // the line count is unchanged
    unsigned P = NextLineStart(E.Offset + E.Length);
    while (P < Buffer.size() && Blocks(P))
      P = NextLineStart(P + 1);
    if (P < Buffer.size())
      Places.insert(P);
  }
  for (unsigned P : Places) {
    const std::string Line = Directive(P) + "\n";
    auto It = std::find_if(Edits.begin(), Edits.end(),
                           [&](const Edit &E) { return E.Offset == P && E.Length == 0; });
    if (It != Edits.end())
      It->Text += Line;
    else
      Edits.insert(std::upper_bound(Edits.begin(), Edits.end(), P,
                                    [](unsigned O, const Edit &X) { return O < X.Offset; }),
                   Edit{P, 0, Line});
  }
}

void OutputPositions::add(const Edit &E) {
  auto At = std::upper_bound(Edits.begin(), Edits.end(), E.Offset,
                             [](unsigned O, const Edit &X) { return O < X.Offset; });
  Edits.insert(At, E);
}

std::pair<unsigned, unsigned> OutputPositions::lineColumn(unsigned Offset) const {
  unsigned Line = 1, Column = 1;
  auto Advance = [&](llvm::StringRef Text) {
    for (char C : Text)
      if (C == '\n')
        ++Line, Column = 1;
      else
        ++Column;
  };
  unsigned Pos = 0;
  for (const Edit &E : Edits) {
    if (E.Offset > Offset || (E.Offset == Offset && E.Length > 0))
      break;
    Advance(Buffer.slice(Pos, E.Offset));
    Advance(E.Text);
    Pos = E.Offset + E.Length;
  }
  if (Pos < Offset)
    Advance(Buffer.slice(Pos, Offset));
  return {Line, Column};
}

} // namespace dpstub
