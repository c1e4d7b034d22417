//===- Candidates.cpp - The loops --migrate considers ---------------------===//

#include "migrate/Candidates.h"
#include "migrate/TeamFunctions.h"

#include "dpstub/DeviceDeclared.h"
#include "migrate/Text.h"

#include "AstVisitor.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/Support/Regex.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace dpstub::migrate {

void PragmaRecorder::PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Introducer) {
  if (Introducer == PIK_HashPragma) {
    Out.push_back({Loc, false, {}});
    return;
  }
  if (Introducer != PIK__Pragma)
    return;
  // Preprocessor::Handle_Pragma has just entered a lexer over the
  // operator's string, destringized: the directive's text, up to its end.
  const auto *L = static_cast<const Lexer *>(PP.getCurrentLexer()); // Lexer is its only kind
  if (!L)
    return;
  std::string Text;
  for (const char *P = L->getBufferLocation(); *P && *P != '\n'; ++P)
    Text += *P;
  Out.push_back({Loc, true, std::move(Text)});
}

namespace {

/// The first statement starting at each offset of the main file (the
/// outermost one there), and every for loop.
class StatementIndex : public AstVisitor {
public:
  explicit StatementIndex(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}
  bool VisitStmt(Stmt *S) override {
    SourceLocation L = S->getBeginLoc();
    // An expression a macro writes (`COUNT(k);` under an atomic directive)
    // is found where the macro is used, so its directive can name it;
    // statements a macro writes are not.
    if (L.isMacroID() && isa<Expr>(S))
      L = SM.getExpansionLoc(L);
    if (L.isInvalid() || L.isMacroID() || !SM.isWrittenInMainFile(L))
      return true;
    At.try_emplace(SM.getFileOffset(L), S);
    if (auto *F = dyn_cast<ForStmt>(S))
      Fors.push_back(F);
    return true;
  }
  std::map<unsigned, const Stmt *> At;
  std::vector<const ForStmt *> Fors;

private:
  const SourceManager &SM;
};

/// Past whitespace, comments and other directive lines from Offset.
unsigned skipBlank(StringRef B, unsigned Offset) {
  while (Offset < B.size()) {
    if (isspace(static_cast<unsigned char>(B[Offset]))) {
      ++Offset;
    } else if (B[Offset] == '#') {
      while (Offset < B.size() && B[Offset] != '\n')
        Offset += B[Offset] == '\\' && Offset + 1 < B.size() ? 2 : 1;
    } else if (B.substr(Offset).starts_with("//")) {
      Offset = nextLineStart(B, Offset);
    } else if (B.substr(Offset).starts_with("/*")) {
      const size_t E = B.find("*/", Offset + 2);
      Offset = E == StringRef::npos ? B.size() : static_cast<unsigned>(E) + 2;
    } else {
      break;
    }
  }
  return Offset;
}

struct Offsets {
  unsigned Begin, End;
};

Offsets offsetsOf(const Stmt *S, const ASTContext &Ctx) {
  std::optional<Span> Sp = spanOf(S->getSourceRange(), Ctx);
  return Sp ? Offsets{Sp->Begin, Sp->End} : Offsets{0, 0};
}

/// A loop directive that needs a region around it: `omp for`,
/// `omp distribute ...` without `parallel`/`target`/`teams`, `acc loop`.
bool needsRegion(const Directive &D) {
  if (D.Model == PragmaModel::OpenACC)
    return D.Words.size() == 1; // `loop` alone
  return !D.has("parallel") && !D.has("target") && !D.has("teams");
}

/// Whether a loop directive asserts its iterations independent: OpenMP's
/// always; OpenACC's in a parallel region or with `independent`, not in
/// a kernels or serial one (the compiler decides there) nor with `auto`.
bool asserted(const Directive &D, const Directive *Region) {
  if (D.Model == PragmaModel::OpenMP)
    return true;
  if (D.clause("independent"))
    return true;
  if (D.clause("auto") || D.has("kernels") || D.has("serial"))
    return false;
  return !Region || !(Region->has("kernels") || Region->has("serial"));
}

/// The directive of a `#pragma` line's text, if it is OpenMP's or OpenACC's.
std::optional<Directive> directiveOf(const std::string &Text) {
  const size_t P = Text.find("pragma");
  if (P == std::string::npos)
    return std::nullopt;
  return parseDirective(Text.substr(P + 6));
}

} // namespace

std::vector<IncludedLoop> includedLoops(const std::vector<PragmaSeen> &Seen, ASTContext &Ctx,
                                        const std::optional<std::string> &Filter) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<IncludedLoop> Out;
  if (Filter && Filter->empty())
    return Out;
  std::optional<llvm::Regex> Keep;
  if (Filter)
    Keep.emplace(*Filter);
  for (const PragmaSeen &S : Seen) {
    const SourceLocation Hash = S.Loc;
    if (S.Operator || Hash.isMacroID() || SM.isWrittenInMainFile(Hash) || SM.isInSystemHeader(Hash))
      continue;
    const auto [FID, Start] = SM.getDecomposedLoc(Hash);
    const StringRef B = SM.getBufferData(FID);
    const DirectiveLine Line = directiveLine(B, Start);
    const unsigned End = Line.End;
    const std::optional<Directive> D = directiveOf(Line.Text);
    if (!D || D->Kind != DirectiveKind::Loop)
      continue;
    // The loop: what follows the directive.
    const unsigned Loop = skipBlank(B, End);
    // Where the main file includes it (through other headers, maybe).
    SourceLocation Include = SM.getIncludeLoc(FID);
    while (Include.isValid() && !SM.isWrittenInMainFile(Include))
      Include = SM.getIncludeLoc(SM.getFileID(Include));
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
    if (Keep && !(FE && Keep->match(FE->getName())))
      continue;
    Out.push_back({Loop < B.size() ? SM.getComposedLoc(FID, Loop) : Hash, D->construct(), FE ? FE->getName().str() : "",
                   Include.isValid() ? SM.getFileOffset(Include) : 0});
  }
  return Out;
}

std::vector<PragmaLine> headerThreadprivate(const std::vector<PragmaSeen> &Seen, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<PragmaLine> Out;
  for (const PragmaSeen &S : Seen) {
    const SourceLocation Hash = S.Loc;
    if (S.Operator || Hash.isMacroID() || SM.isWrittenInMainFile(Hash) || SM.isInSystemHeader(Hash))
      continue;
    const auto [FID, Start] = SM.getDecomposedLoc(Hash);
    std::optional<Directive> D = directiveOf(directiveLine(SM.getBufferData(FID), Start).Text);
    if (D && D->Model == PragmaModel::OpenMP && D->clause("threadprivate")) {
      PragmaLine L;
      L.D = std::move(*D);
      L.Loc = Hash;
      Out.push_back(std::move(L));
    }
  }
  return Out;
}

namespace {

/// Where the text writing a `_Pragma` is in the main file: the macro's
/// use that expands to it, or the operator itself (`_Pragma("...")`);
/// none elsewhere.
std::optional<Offsets> operatorText(SourceLocation Loc, const SourceManager &SM, const LangOptions &Lang) {
  const StringRef B = SM.getBufferData(SM.getMainFileID());
  if (Loc.isMacroID()) {
    const CharSourceRange R = SM.getExpansionRange(Loc);
    const SourceLocation End = R.isTokenRange() ? Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, Lang) : R.getEnd();
    if (!SM.isWrittenInMainFile(R.getBegin()) || End.isInvalid() || !SM.isWrittenInMainFile(End))
      return std::nullopt;
    return Offsets{SM.getFileOffset(R.getBegin()), SM.getFileOffset(End)};
  }
  if (!SM.isWrittenInMainFile(Loc))
    return std::nullopt;
  // `_Pragma` `(` a string literal `)`.
  const unsigned Begin = SM.getFileOffset(Loc);
  unsigned At = B.find('(', Begin);
  if (At == StringRef::npos)
    return std::nullopt;
  At = B.find('"', At);
  for (++At; At < B.size() && B[At] != '"'; ++At)
    At += B[At] == '\\';
  At = B.find(')', At);
  if (At == StringRef::npos)
    return std::nullopt;
  return Offsets{Begin, At + 1};
}

/// True when only blanks (and a comment to the end of the line) are
/// between From and To.
bool blankBetween(StringRef B, unsigned From, unsigned To) {
  const StringRef T = B.slice(From, To).trim(" \t\r");
  return T.empty() || T.starts_with("//");
}

} // namespace

std::vector<PragmaLine> readPragmas(const std::vector<PragmaSeen> &Seen, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const StringRef B = SM.getBufferData(SM.getMainFileID());
  StatementIndex Index(Ctx);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (SM.isWrittenInMainFile(SM.getFileLoc(D->getLocation())))
      Index.TraverseDecl(D);
  std::vector<PragmaLine> Out;
  // Operators by the text writing them: one macro writing two directives
  // (`_Pragma("omp parallel") _Pragma("omp for")`) has no text for each,
  // so neither can go alone; a loop directive's loop then stays (with the
  // reason), the others are left as they are.
  std::vector<std::optional<Offsets>> Texts(Seen.size());
  std::map<unsigned, int> Writers;
  for (size_t K = 0; K < Seen.size(); ++K)
    if (Seen[K].Operator && (Texts[K] = operatorText(Seen[K].Loc, SM, Ctx.getLangOpts())))
      ++Writers[Texts[K]->Begin];
  for (size_t K = 0; K < Seen.size(); ++K) {
    const PragmaSeen &S = Seen[K];
    PragmaLine L;
    if (S.Operator) {
      const std::optional<Offsets> &T = Texts[K];
      std::optional<Directive> D = T ? parseDirective(S.Text) : std::nullopt;
      L.Shared = D && Writers[T->Begin] > 1;
      if (!D || (L.Shared && D->Kind != DirectiveKind::Loop))
        continue;
      L.D = std::move(*D);
      L.Loc = SM.getComposedLoc(SM.getMainFileID(), T->Begin);
      // Its lines when it fills them, else itself and the blanks after it.
      const unsigned Line = lineStart(B, T->Begin), Next = nextLineStart(B, T->End);
      const unsigned LineEnd = Next > T->End && B[Next - 1] == '\n' ? Next - 1 : Next;
      if (blankBetween(B, Line, T->Begin) && blankBetween(B, T->End, LineEnd)) {
        L.Begin = Line;
        L.End = Next;
      } else {
        L.Begin = T->Begin;
        L.End = T->End;
        while (L.End < B.size() && (B[L.End] == ' ' || B[L.End] == '\t'))
          ++L.End;
      }
    } else {
      const SourceLocation Hash = S.Loc;
      if (Hash.isMacroID() || !SM.isWrittenInMainFile(Hash))
        continue;
      const unsigned Start = SM.getFileOffset(Hash);
      const DirectiveLine Line = directiveLine(B, Start);
      const unsigned End = Line.End;
      std::optional<Directive> D = directiveOf(Line.Text);
      if (!D)
        continue;
      L.D = std::move(*D);
      L.Loc = Hash;
      L.Begin = lineStart(B, Start);
      L.End = End < B.size() ? End + 1 : End;
    }
    Out.push_back(std::move(L));
  }
  // The statement after each: past blanks and other directives (a
  // `#pragma` line is skipped as blank; an operator's text is not).
  for (PragmaLine &L : Out) {
    unsigned At = skipBlank(B, L.End);
    for (bool Moved = true; Moved;) {
      Moved = false;
      for (const PragmaLine &O : Out)
        if (O.Begin <= At && At < O.End) {
          At = skipBlank(B, O.End);
          Moved = true;
        }
    }
    auto It = Index.At.find(At);
    L.On = It == Index.At.end() ? nullptr : It->second;
  }
  return Out;
}

bool inRegion(const Stmt *S, const Region &R, const ASTContext &Ctx) {
  if (R.Pragma->On && textWithin(S, R.Pragma->On, Ctx))
    return true;
  return std::any_of(R.Teams.begin(), R.Teams.end(), [&](const FunctionDecl *F) {
    const Stmt *Body = F->getBody();
    return Body && textWithin(S, Body, Ctx);
  });
}

Candidates findCandidates(const std::vector<PragmaLine> &Pragmas, ASTContext &Ctx,
                          const std::optional<LineRange> &Selection) {
  const SourceManager &SM = Ctx.getSourceManager();
  Candidates Out;
  std::map<const ForStmt *, size_t> ByLoop;
  // Regions first: a loop directive inside one belongs to it.
  for (const PragmaLine &P : Pragmas)
    if (P.D.Kind == DirectiveKind::Region && P.On)
      Out.Regions.push_back(Region{&P, {}, {}});
  auto RegionOf = [&](const Stmt *S) -> Region * {
    Region *Best = nullptr; // the innermost
    for (Region &R : Out.Regions)
      if (textWithin(S, R.Pragma->On, Ctx) &&
          (!Best || textWithin(R.Pragma->On, Best->Pragma->On, Ctx)))
        Best = &R;
    return Best;
  };
  auto Add = [&](const ForStmt *F, Origin From, const PragmaLine *P, std::string Construct, bool Asserted) {
    ByLoop[F] = Out.Loops.size();
    Out.Loops.push_back(Candidate{F, From, P, std::move(Construct), Asserted});
  };
  // Loop directives whose region is in a caller (`omp for` in a function
  // a region calls): their loops join those regions where every run of
  // the function is in view (TeamFunctions.h).
  auto InLoopDirective = [&](const PragmaLine &P, const Stmt *F) {
    return std::any_of(Pragmas.begin(), Pragmas.end(), [&](const PragmaLine &O) {
      return &O != &P && O.D.Kind == DirectiveKind::Loop && O.On && textWithin(F, O.On, Ctx);
    });
  };
  std::vector<const PragmaLine *> Orphaned;
  for (const PragmaLine &P : Pragmas)
    if (P.D.Kind == DirectiveKind::Loop && isa_and_nonnull<ForStmt>(P.On) && !P.Shared && needsRegion(P.D) &&
        !RegionOf(P.On) && !InLoopDirective(P, P.On))
      Orphaned.push_back(&P);
  const TeamFunctions Teams = teamFunctions(Pragmas, Orphaned, Ctx);
  for (Region &R : Out.Regions)
    if (auto It = Teams.OfRegion.find(R.Pragma); It != Teams.OfRegion.end())
      R.Teams = It->second;
  auto TeamRegion = [&](const Stmt *S) -> Region * {
    for (Region &R : Out.Regions)
      if (!R.Teams.empty() && inRegion(S, R, Ctx))
        return &R;
    return nullptr;
  };
  for (const PragmaLine &P : Pragmas) {
    if (P.D.Kind != DirectiveKind::Loop)
      continue;
    const Directive &D = P.D;
    if (D.clause("seq") || (D.Model == PragmaModel::OpenMP && D.Words == std::vector<std::string>{"simd"}))
      continue; // a sequential (or vector-only) loop: not a parallel one
    const auto *F = dyn_cast_or_null<ForStmt>(P.On);
    if (P.Shared) {
      Out.Unusable.push_back({&P, "is written by a macro that writes other directives too, so it cannot go "
                                  "alone: give it a macro of its own"});
      continue;
    }
    if (!F) {
      Out.Unusable.push_back({&P, "is not on a for loop with an integer variable"});
      continue;
    }
    Region *R = needsRegion(D) ? RegionOf(F) : nullptr;
    if (needsRegion(D) && !R && Teams.Joining.count(&P)) {
      R = TeamRegion(F);
      if (!R) { // only ever called outside a region: one thread runs it
        Add(F, Origin::Pragma, &P, D.construct(), asserted(D, nullptr));
        continue;
      }
    }
    if (needsRegion(D) && !R) {
      // An `acc loop` inside another loop directive's loop goes with it.
      if (!InLoopDirective(P, F))
        Out.Unusable.push_back({&P, "is outside any compute region in this function (an orphaned "
                                    "construct, whose region is in a caller)"});
      continue;
    }
    Add(F, Origin::Pragma, &P, D.construct(), asserted(D, R ? &R->Pragma->D : nullptr));
  }
  // A device region's own loops, with no loop directive: in `acc
  // kernels` the compiler's to prove independent, so dpstub's too; in
  // `acc serial` and a bare `omp target` they run in order on one device
  // thread, and become call-sites where dpstub proves the order does not
  // matter (NeoRodinia's first offloading versions). Not in `omp target
  // parallel` or `teams`, whose every thread or team runs them.
  for (Region &R : Out.Regions) {
    const Directive &D = R.Pragma->D;
    const bool Own = D.Model == PragmaModel::OpenACC
                         ? D.has("kernels") || D.has("serial")
                         : D.Words == std::vector<std::string>{"target"};
    if (!Own)
      continue;
    std::vector<const Stmt *> Top;
    if (const auto *CS = dyn_cast<CompoundStmt>(R.Pragma->On))
      Top.assign(CS->body_begin(), CS->body_end());
    else
      Top.push_back(R.Pragma->On);
    for (const Stmt *S : Top)
      if (const auto *F = dyn_cast<ForStmt>(S); F && !ByLoop.count(F))
        Add(F, Origin::DeviceRegion, nullptr, D.construct(), false);
  }
  for (size_t I = 0; I < Out.Loops.size(); ++I) {
    if (Region *R = RegionOf(Out.Loops[I].Loop)) {
      R->Loops.push_back(I);
      continue;
    }
    for (Region &R : Out.Regions) // a team function's: each region calling it
      if (!R.Teams.empty() && inRegion(Out.Loops[I].Loop, R, Ctx))
        R.Loops.push_back(I);
  }

  // With a selection: the candidates it covers, and plain loops in it.
  if (Selection) {
    const FileID Main = SM.getMainFileID();
    const unsigned SelB = SM.getFileOffset(SM.translateLineCol(Main, Selection->BeginLine, Selection->BeginColumn));
    const unsigned SelE = SM.getFileOffset(SM.translateLineCol(Main, Selection->EndLine, Selection->EndColumn));
    const bool Point = SelB == SelE;
    StatementIndex Index(Ctx);
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (SM.isWrittenInMainFile(SM.getFileLoc(D->getLocation())))
        Index.TraverseDecl(D);
    std::vector<const ForStmt *> Chosen;
    for (const ForStmt *F : Index.Fors) {
      const Offsets O = offsetsOf(F, Ctx);
      if (O.End <= O.Begin)
        continue;
      const bool Covered = Point ? (SM.getPresumedLineNumber(F->getBeginLoc()) == Selection->BeginLine ||
                                    (O.Begin <= SelB && SelB < O.End))
                                 : (O.Begin >= SelB && O.Begin <= SelE);
      if (Covered)
        Chosen.push_back(F);
    }
    // A point: the loop whose `for` is on its line (the outermost), else
    // the innermost holding it. A range: the outermost loops in it.
    std::vector<const ForStmt *> Picked;
    if (Point) {
      const ForStmt *OnLine = nullptr, *Holding = nullptr;
      for (const ForStmt *F : Chosen) {
        if (SM.getPresumedLineNumber(F->getBeginLoc()) == Selection->BeginLine) {
          if (!OnLine || textWithin(OnLine, F, Ctx))
            OnLine = F;
        } else if (!Holding || textWithin(F, Holding, Ctx)) {
          Holding = F;
        }
      }
      if (OnLine || Holding)
        Picked.push_back(OnLine ? OnLine : Holding);
    } else {
      for (const ForStmt *F : Chosen) {
        bool Nested = false;
        for (const ForStmt *G : Chosen)
          Nested |= G != F && textWithin(F, G, Ctx);
        if (!Nested)
          Picked.push_back(F);
      }
    }
    Candidates Sel;
    Sel.Regions = Out.Regions;
    for (Region &R : Sel.Regions)
      R.Loops.clear();
    for (const ForStmt *F : Picked) {
      if (auto It = ByLoop.find(F); It != ByLoop.end())
        Sel.Loops.push_back(Out.Loops[It->second]);
      else
        Sel.Loops.push_back(Candidate{F, Origin::Plain, nullptr, "plain loop", false});
    }
    for (size_t I = 0; I < Sel.Loops.size(); ++I)
      for (Region &R : Sel.Regions)
        if (inRegion(Sel.Loops[I].Loop, R, Ctx))
          R.Loops.push_back(I);
    for (const auto &U : Out.Unusable)
      if (U.first->Begin >= lineStart(SM.getBufferData(Main), SelB) && U.first->Begin <= SelE)
        Sel.Unusable.push_back(U);
    Sel.LeftOut = Sel.Unusable.size() < Out.Unusable.size() ||
                  std::any_of(Out.Loops.begin(), Out.Loops.end(), [&](const Candidate &C) {
                    return std::none_of(Picked.begin(), Picked.end(), [&](const ForStmt *F) { return F == C.Loop; });
                  });
    Out = std::move(Sel);
  }
  std::stable_sort(Out.Loops.begin(), Out.Loops.end(), [&](const Candidate &A, const Candidate &B) {
    return offsetsOf(A.Loop, Ctx).Begin < offsetsOf(B.Loop, Ctx).Begin;
  });
  // Sorting moved the loops: the regions' lists again.
  for (Region &R : Out.Regions) {
    R.Loops.clear();
    for (size_t I = 0; I < Out.Loops.size(); ++I)
      if (inRegion(Out.Loops[I].Loop, R, Ctx))
        R.Loops.push_back(I);
  }
  return Out;
}

} // namespace dpstub::migrate
