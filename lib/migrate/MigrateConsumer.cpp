//===- MigrateConsumer.cpp - dpstub --migrate over one unit ---------------===//
//
// Reads as its phases: directives and candidates, analysis of each loop
// (outermost first: a converted loop takes the loops inside it along), the
// rule that a region moves whole or splits, the report (one line per candidate),
// then the edits: arrays into fields, loops into call-sites, directives
// whose meaning moved into dp removed, `#include <dp/dp.hpp>` added.
//
//===----------------------------------------------------------------------===//

#include "migrate/MigrateConsumer.h"

#include "migrate/ArrayData.h"
#include "migrate/Candidates.h"
#include "migrate/DataDirectives.h"
#include "migrate/FromC.h"
#include "migrate/HoistBorrows.h"
#include "migrate/LoopAnalysis.h"
#include "migrate/RegionSplit.h"
#include "migrate/Render.h"
#include "migrate/StatementRegions.h"
#include "migrate/Text.h"

#include "AstText.h"
#include "Planner.h"
#include "dpstub/Diagnostics.h"

#include "clang/AST/ParentMapContext.h"
#include "AstVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"

#include <functional>
#include <regex>
#include <set>

using namespace clang;

namespace dpstub {

using namespace migrate;

namespace {

/// The name of a diagnostic, for tallies ("migrateDependence").
std::string categoryOf(clang::DiagnosticBuilder (Reporter::*Report)(clang::SourceLocation)) {
#define DIAGNOSTIC(Name, Level, Text)                                                              \
  if (Report == &Reporter::Name)                                                                   \
    return #Name;
#include "dpstub/Diagnostics.def"
  return "";
}
std::string categoryOf(const Refusal &R) { return categoryOf(R.Report); }

/// Where a loop stands in the file: from its line's start when only
/// blanks precede it, to past its last `;` or `}` and, when only blanks
/// follow, its newline.
struct LoopSpan {
  unsigned Begin = 0, End = 0;
  bool OwnLines = false; ///< it starts and ends its lines
};

/// The `#pragma omp` and `#pragma acc` lines of branches the preprocessor
/// skipped (not among Active, the directives it read) that stand right
/// before the code at Offset, with only directives, continuations and
/// blank lines between: a build that takes their branch applies them to
/// what stands there. Their offsets, nearest last.
std::vector<unsigned> skippedDirectivesBefore(StringRef Buf, unsigned Offset, const std::set<unsigned> &Active) {
  // The start of the line before the one starting at Start.
  auto LineAbove = [&](unsigned Start) {
    const size_t NewLine = Buf.rfind('\n', Start - 1);
    return NewLine == StringRef::npos ? 0u : static_cast<unsigned>(NewLine + 1);
  };
  std::vector<unsigned> Out;
  unsigned End = Offset;
  while (End > 0 && Buf[End - 1] != '\n')
    --End; // the loop's line start
  while (End > 0) {
    const unsigned Begin = LineAbove(End);
    const StringRef Line = Buf.slice(Begin, End).rtrim("\r\n");
    const StringRef Text = Line.ltrim(" \t");
    const unsigned Hash = Begin + static_cast<unsigned>(Line.size() - Text.size());
    // A line the one above continues (`\` at its end) is the directive's.
    const bool Continuation = Begin > 0 && Buf.slice(LineAbove(Begin), Begin).rtrim("\r\n \t").ends_with("\\");
    if (!Text.empty() && !Text.starts_with("#") && !Continuation)
      break;
    StringRef Rest = Text;
    if (Rest.consume_front("#") && (Rest = Rest.ltrim(" \t")).consume_front("pragma") && !Active.count(Hash)) {
      Rest = Rest.ltrim(" \t");
      if (Rest.starts_with("omp") || Rest.starts_with("acc"))
        Out.insert(Out.begin(), Hash);
    }
    End = Begin;
  }
  return Out;
}

/// Whether S names a pointer (a variable, or a data member by its name)
/// outside the spans of Inside: host code, once S's region is gone.
bool touchesPointerOutside(const Stmt *S, const std::vector<Span> &Inside, ASTContext &Ctx) {
  struct Visit : AstVisitor {
    const SourceManager &SM;
    const std::vector<Span> &Inside;
    bool Found = false;
    Visit(const SourceManager &SM, const std::vector<Span> &Inside) : SM(SM), Inside(Inside) {}
    bool outside(SourceLocation L) const {
      const unsigned At = SM.getFileOffset(SM.getFileLoc(L));
      return std::none_of(Inside.begin(), Inside.end(), [&](const Span &P) { return P.Begin <= At && At < P.End; });
    }
    bool VisitDeclRefExpr(DeclRefExpr *D) override {
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()); V && V->getType()->isPointerType() && outside(D->getLocation()))
        Found = true;
      return !Found;
    }
    bool VisitMemberExpr(MemberExpr *M) override {
      if (M->getType()->isPointerType() && outside(M->getExprLoc()))
        Found = true;
      return !Found;
    }
  } V(Ctx.getSourceManager(), Inside);
  V.TraverseStmt(const_cast<Stmt *>(S));
  return V.Found;
}

/// The variables of Fields that S names, in the order it first does.
std::vector<std::string> fieldsNamed(const Stmt *S, const std::set<const VarDecl *> &Fields) {
  struct Visit : AstVisitor {
    const std::set<const VarDecl *> &Fields;
    std::vector<std::string> Names;
    explicit Visit(const std::set<const VarDecl *> &Fields) : Fields(Fields) {}
    bool VisitDeclRefExpr(DeclRefExpr *D) override {
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()); V && Fields.count(V->getCanonicalDecl())) {
        const std::string N = V->getName().str();
        if (std::find(Names.begin(), Names.end(), N) == Names.end())
          Names.push_back(N);
      }
      return true;
    }
  } V(Fields);
  V.TraverseStmt(const_cast<Stmt *>(S));
  return V.Names;
}

/// The line bringing fields to the host before the threads of a
/// parallel construct share them.
std::string broughtToHost(const std::vector<std::string> &Names) {
  std::string Line;
  for (const std::string &N : Names)
    Line += "(void)" + N + ".data();" + (&N == &Names.back() ? "" : " ");
  return Line + " // brought to the host once, before the threads share " + (Names.size() > 1 ? "them" : "it");
}

/// 'a', 'b' and 'c'.
std::string quotedList(const std::vector<std::string> &Names) {
  std::string Out;
  for (size_t I = 0; I < Names.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Names.size() ? " and " : ", ") + ("'" + Names[I] + "'");
  return Out;
}

/// The first `update`, `enter data` or `exit data` directive of a branch
/// the preprocessor skipped (its `#` not among Active) that may move data
/// (a section of no element, BabelStream's `from(a[0:0])`, moves none),
/// as "'acc update self(a[0:n])' (line 85)": host code of the build
/// taking that branch may rely on it. Empty when there is none.
std::string skippedTransfer(StringRef Buf, const std::set<unsigned> &Active) {
  unsigned Line = 1;
  for (size_t At = 0; At < Buf.size();) {
    size_t End = Buf.find('\n', At);
    if (End == StringRef::npos)
      End = Buf.size();
    const unsigned First = Line;
    std::string Text = Buf.slice(At, End).rtrim("\r").str();
    ++Line;
    while (!Text.empty() && Text.back() == '\\' && End < Buf.size()) { // continued
      Text.pop_back();
      const size_t Next = Buf.find('\n', End + 1);
      const size_t Stop = Next == StringRef::npos ? Buf.size() : Next;
      Text += " " + Buf.slice(End + 1, Stop).rtrim("\r").str();
      End = Stop;
      ++Line;
    }
    const StringRef Trimmed = StringRef(Text).ltrim(" \t");
    const unsigned Hash = static_cast<unsigned>(At + (Text.size() - Trimmed.size()));
    StringRef Rest = Trimmed;
    if (Rest.consume_front("#") && (Rest = Rest.ltrim(" \t")).consume_front("pragma") && !Active.count(Hash))
      if (std::optional<Directive> D = parseDirective(Rest.ltrim(" \t").str());
          D && (D->Kind == DirectiveKind::Update || D->Kind == DirectiveKind::EnterExit)) {
        bool Moves = false;
        for (const Clause &C : D->Clauses) {
          if (!C.HasArgs || C.Name == "async" || C.Name == "wait" || C.Name == "if" || C.Name == "device_type")
            continue;
          const std::vector<Section> Sections = clauseSections(C.Args);
          Moves |= Sections.size() != clauseVariables(C.Args).size() ||
                   std::any_of(Sections.begin(), Sections.end(), [](const Section &S) { return S.Length != "0"; });
        }
        if (Moves)
          return "'" + Rest.trim(" \t").str() + "' (line " + std::to_string(First) + ")";
      }
    At = End + 1;
  }
  return std::string();
}

class MigrateConsumer : public ASTConsumer {
public:
  MigrateConsumer(CompilerInstance &CI, const TranslationOptions &Opts, TranslationResult &Out)
      : Opts(Opts), Out(Out) {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<PragmaRecorder>(CI.getPreprocessor(), Hashes));
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID()))
      Out.MainFile = absolutePath(FE->getName(), SM.getFileManager());
    std::set<std::string> Inputs;
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      Inputs.insert(absolutePath(It->first.getName(), SM.getFileManager()));
    Out.Inputs.assign(Inputs.begin(), Inputs.end());
    if (Ctx.getDiagnostics().hasErrorOccurred()) {
      Out.ParseFailed = true;
      return;
    }
    Reporter Diags(Ctx.getDiagnostics());
    const std::vector<PragmaLine> Pragmas = readPragmas(Hashes, Ctx);
    for (const PragmaSeen &H : Hashes)
      if (!H.Operator && SM.isWrittenInMainFile(SM.getFileLoc(H.Loc)))
        ActiveHashes.insert(SM.getFileOffset(SM.getFileLoc(H.Loc)));
    std::optional<LineRange> Selection;
    if (Opts.Only && Opts.Only->File == Out.MainFile)
      Selection = LineRange{Opts.Only->BeginLine, Opts.Only->BeginColumn, Opts.Only->EndLine,
                            Opts.Only->EndColumn};
    const Candidates Cands = findCandidates(Pragmas, Ctx, Selection);
    if (!Selection)
      Included = includedLoops(Hashes, Ctx, Opts.HeaderFilter);
    if (Selection && Cands.Loops.empty() && Cands.Unusable.empty()) {
      Out.SelectionEmpty = true;
      return;
    }
    const ArrayData Arrays(Ctx);
    HelperGlobals Helpers(Ctx);
    Device.emplace(SM);
    const std::vector<PragmaLine> HeaderThreadprivate = headerThreadprivate(Hashes, Ctx);
    const UnitFacts Facts{Ctx, Arrays, Pragmas, HeaderThreadprivate, Helpers, *Device};
    LeftOutLoops.clear();
    if (Selection)
      for (const PragmaLine &P : Pragmas)
        if (P.D.Kind == DirectiveKind::Loop && isa_and_nonnull<ForStmt>(P.On) &&
            std::none_of(Cands.Loops.begin(), Cands.Loops.end(), [&](const Candidate &C) { return C.Loop == P.On; }))
          LeftOutLoops.push_back(P.On);
    std::vector<LoopModel> Models = analyseAll(Cands, Facts);
    keepOwnArrayParametersPointers(Models, Arrays, Ctx);
    moveRegionsWhole(Cands, Models, Pragmas, Ctx);
    FieldVars = Arrays.members(convertedArrays(Models)); // the loops that move decide them
    hostLoopsOverFields(Cands, Models, Arrays, Ctx);
    LoopTexts = loopTexts(Cands, Models, Ctx);
    decideStatementRegions(Cands, Models, Pragmas, Arrays, Ctx);
    report(Cands, Models, Pragmas, Ctx, Diags);
    Out.HasErrors = Diags.hasErrors();
    bool Any = false;
    for (size_t I = 0; I < Models.size(); ++I)
      Any |= !Consumed[I] && !Models[I].Refused;
    if (!Any || Out.HasErrors)
      return;
    if (Opts.ListOnly) {
      // What would stop the migration (C that C++ rejects) is said too.
      EditList Scratch;
      (void)planCxxFromC(Ctx, Scratch, Diags);
      Out.HasErrors = Diags.hasErrors();
      return;
    }
    planEdits(Cands, Models, Pragmas, Arrays, Helpers, Ctx, Diags);
    Out.Parsed[Out.MainFile] = SM.getBufferData(SM.getMainFileID()).str();
  }

private:
  /// Phase 2: every candidate analysed, outermost first; a loop inside a
  /// converted one goes with it, a loop inside a directive's loop that
  /// stays, stays.
  std::vector<LoopModel> analyseAll(const Candidates &Cands, const UnitFacts &Facts) {
    std::vector<LoopModel> Models(Cands.Loops.size());
    Consumed.assign(Cands.Loops.size(), false);
    ConsumedBy.assign(Cands.Loops.size(), 0);
    for (size_t I = 0; I < Cands.Loops.size(); ++I) {
      const Candidate &C = Cands.Loops[I];
      std::optional<size_t> Outer;
      for (size_t J = 0; J < I; ++J)
        if (!Consumed[J] && within(C.Loop, Cands.Loops[J].Loop, Facts.Ctx))
          Outer = J;
      if (Outer && !Models[*Outer].Refused) {
        Consumed[I] = true;
        ConsumedBy[I] = *Outer;
        continue;
      }
      if (Outer && Cands.Loops[*Outer].From == Origin::Pragma && !Models[*Outer].RunsInOrder) {
        Models[I].Outer = C.Loop;
        Models[I].Construct = C.Construct;
        Models[I].Refused = regionRefusal(C, Cands.Loops[*Outer].Construct);
        continue;
      }
      Models[I] = analyseLoop(C, Facts);
      // A directive that called a dependent loop parallel was wrong: the
      // loop may still run in order, around loops that are parallel.
      Models[I].RunsInOrder = C.From == Origin::Pragma && Models[I].Refused &&
                              refusedForOrder(Models[I].Refused);
    }
    return Models;
  }

  /// Inner is a statement inside Outer's text, not Outer itself.
  static bool within(const Stmt *Inner, const Stmt *Outer, const ASTContext &Ctx) {
    return Inner != Outer && textWithin(Inner, Outer, Ctx);
  }

  static Refusal regionRefusal(const Candidate &C, const std::string &Region) {
    Refusal R;
    R.Report = &Reporter::migrateRegion;
    R.Loc = C.Pragma ? C.Pragma->Loc : C.Loop->getBeginLoc();
    R.Args = {Region};
    return R;
  }

  /// C's refusal for what a statement of its region does once per thread
  /// (Report: the region stays whole, or the statement holding C stays).
  static Refusal perThreadRefusal(const Candidate &C, const std::string &Region, const PerThread &Q,
                                  clang::DiagnosticBuilder (Reporter::*Report)(SourceLocation),
                                  const ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    Refusal R = regionRefusal(C, Region);
    R.Report = Report;
    R.Args.push_back(Q.What);
    R.Args.push_back(std::to_string(SM.getPresumedLineNumber(SM.getFileLoc(Q.Loc))));
    return R;
  }

  /// A loop that became (part of) a call-site.
  bool converted(size_t I, const std::vector<LoopModel> &Models) const {
    while (Consumed[I])
      I = ConsumedBy[I];
    return !Models[I].Refused;
  }

  /// What a region is, whatever its loops do: what its statements do per
  /// thread (the region's body as one, then each statement of a body that
  /// can split), and that body.
  struct RegionJudged {
    RegionThreads Threads;
    std::optional<PerThread> Query;
    std::optional<std::vector<const Stmt *>> Body;
    std::vector<std::optional<PerThread>> Statements; ///< one per statement of Body
    std::vector<PerThread> Unread; ///< updates of what the program never reads (perThreadIn)
  };
  static RegionJudged judge(const Region &R, const std::vector<Region> &All, const std::vector<PragmaLine> &Pragmas,
                            ASTContext &Ctx) {
    RegionJudged J;
    J.Threads = regionThreads(R, Pragmas, Ctx);
    J.Query = perThreadIn(R.Pragma->On, J.Threads, Ctx, &J.Unread);
    J.Body = splittableBody(R, All, Ctx);
    if (J.Body)
      for (const Stmt *S : *J.Body)
        J.Statements.push_back(perThreadIn(S, J.Threads, Ctx));
    return J;
  }

  /// Phase 3: a region moves whole only if all its loops do (a call-site
  /// left inside a parallel region would run once per thread), or splits
  /// around its statements whose loops all move (RegionSplit.h); a loop
  /// that runs in order moves as a host loop. Then which of those drop their
  /// directive: the ones whose region moved, or, outside any region, that
  /// hold a loop that did.
  void moveRegionsWhole(const Candidates &Cands, std::vector<LoopModel> &Models, const std::vector<PragmaLine> &Pragmas,
                        ASTContext &Ctx) {
    // What each region's statements do per thread, and whether its body
    // can split, depend on the region alone, not on which loops move:
    // judged once, before the passes.
    std::vector<RegionJudged> Judged;
    for (const Region &R : Cands.Regions)
      Judged.push_back(judge(R, Cands.Regions, Pragmas, Ctx));
    for (bool Changed = true; Changed;) {
      Changed = false;
      Splits.clear(); // the last pass, which changes nothing, leaves the splits
      for (size_t Q = 0; Q < Cands.Regions.size(); ++Q) {
        const Region &R = Cands.Regions[Q];
        const std::vector<RegionLoop> Loops = regionLoops(Cands, R, Models, Ctx);
        const bool Stays = std::any_of(Loops.begin(), Loops.end(), [](const RegionLoop &L) { return L.Stays; });
        // A statement that runs observably once per thread keeps a region
        // even when every loop moves: run once, it would do otherwise.
        const std::optional<PerThread> &Query = Judged[Q].Query;
        if (!Stays && !Query)
          continue;
        if (splitRegion(Cands, R, Judged[Q], Models, Ctx, Changed))
          continue;
        for (size_t I : R.Loops)
          if (!Models[I].Refused || Consumed[I]) {
            Consumed[I] = false;
            Models[I].Outer = Cands.Loops[I].Loop;
            Models[I].Construct = Cands.Loops[I].Construct;
            Models[I].Refused =
                Stays ? regionRefusal(Cands.Loops[I], R.Pragma->D.construct())
                      : perThreadRefusal(Cands.Loops[I], R.Pragma->D.construct(), *Query,
                                         &Reporter::migrateRegionPerThread, Ctx);
            Changed = true;
          }
        for (size_t I : R.Loops)
          Models[I].RunsInOrder = false; // stays, directive and all
      }
    }
    // A region that moved whole runs once the updates nothing reads: a
    // note under its first loop says so.
    for (size_t Q = 0; Q < Cands.Regions.size(); ++Q) {
      const Region &R = Cands.Regions[Q];
      const std::vector<RegionLoop> Loops = regionLoops(Cands, R, Models, Ctx);
      if (Judged[Q].Unread.empty() || Judged[Q].Query || R.Loops.empty() ||
          std::any_of(Loops.begin(), Loops.end(), [](const RegionLoop &L) { return L.Stays; }))
        continue;
      size_t First = R.Loops.front();
      while (Consumed[First])
        First = ConsumedBy[First];
      for (const PerThread &U : Judged[Q].Unread) {
        Refusal N;
        N.Report = &Reporter::migrateUnreadUpdate;
        N.Loc = U.Loc;
        N.Args = {U.What};
        Models[First].Notes.push_back(N);
      }
    }
    std::vector<bool> InRegion(Models.size(), false);
    for (const Region &R : Cands.Regions) {
      bool Moves = false;
      for (size_t I : R.Loops)
        Moves |= converted(I, Models), InRegion[I] = true;
      for (size_t I : R.Loops)
        Models[I].DropsDirective = Models[I].RunsInOrder && Moves;
    }
    for (size_t I = 0; I < Models.size(); ++I) {
      if (!Models[I].RunsInOrder)
        continue;
      for (size_t J = I + 1; J < Models.size(); ++J)
        Models[I].AroundCallSites |=
            converted(J, Models) && within(Cands.Loops[J].Loop, Cands.Loops[I].Loop, Ctx);
      if (InRegion[I])
        continue;
      Models[I].DropsDirective = Models[I].AroundCallSites;
      // Loops inside it that did not move keep a directive only a
      // parallel loop around them gave a meaning: they stay with it.
      if (!Models[I].DropsDirective)
        for (size_t J = I + 1; J < Models.size(); ++J)
          if (within(Cands.Loops[J].Loop, Cands.Loops[I].Loop, Ctx) && !Models[J].Refused) {
            Models[J].Refused = regionRefusal(Cands.Loops[J], Cands.Loops[I].Construct);
            Consumed[J] = false;
          }
    }
  }

  /// R's loops: its candidates, each staying when refused (and not
  /// running in order), and the loop directives in it a selection left
  /// out, which stay.
  std::vector<RegionLoop> regionLoops(const Candidates &Cands, const Region &R, const std::vector<LoopModel> &Models,
                                      const ASTContext &Ctx) const {
    std::vector<RegionLoop> Out;
    for (size_t I : R.Loops)
      Out.push_back({Cands.Loops[I].Loop, !Consumed[I] && Models[I].Refused && !Models[I].RunsInOrder});
    for (const Stmt *L : LeftOutLoops)
      if (holds(R.Pragma->On, L, Ctx))
        Out.push_back({L, true});
    return Out;
  }

  /// A region some loops of which stay, split when it can (added to
  /// Splits): the loops in its statements that stay stay with them
  /// (refused, Changed set when one was not yet), the others move. Only
  /// where a loop stays: a region whose loops all move goes whole, its
  /// other statements then run once. False when it cannot split, or
  /// nothing of it would move.
  bool splitRegion(const Candidates &Cands, const Region &R, const RegionJudged &J, std::vector<LoopModel> &Models,
                   ASTContext &Ctx, bool &Changed) {
    const std::optional<std::vector<const Stmt *>> &Body = J.Body;
    if (!Body)
      return false;
    const std::vector<RegionLoop> Loops = regionLoops(Cands, R, Models, Ctx);
    const std::vector<bool> Moves = statementsThatMove(*Body, Loops, J.Statements, Ctx, R.Teams);
    std::optional<SplitRegion> Split = splitOf(R, *Body, Moves, Ctx);
    if (!Split)
      return false;
    Splits.push_back(std::move(*Split));
    const SourceManager &SM = Ctx.getSourceManager();
    for (size_t K = 0; K < Body->size(); ++K) {
      if (Moves[K])
        continue;
      const Stmt *Stayer = nullptr; // the first loop of the statement that stays
      for (const RegionLoop &L : Loops)
        if (L.Stays && holds((*Body)[K], L.Loop, Ctx, R.Teams) && !Stayer)
          Stayer = L.Loop;
      for (size_t I : R.Loops) {
        if (!holds((*Body)[K], Cands.Loops[I].Loop, Ctx, R.Teams))
          continue;
        if (!Models[I].Refused || Consumed[I]) {
          Consumed[I] = false;
          Models[I].Outer = Cands.Loops[I].Loop;
          Models[I].Construct = Cands.Loops[I].Construct;
          Refusal F = regionRefusal(Cands.Loops[I], R.Pragma->D.construct());
          if (Stayer) {
            F.Report = &Reporter::migrateRegionStatement;
            F.Args.push_back(std::to_string(SM.getPresumedLineNumber(SM.getFileLoc(Stayer->getBeginLoc()))));
          } else if (const std::optional<PerThread> &Q = J.Statements[K]) { // statementsThatMove
            F = perThreadRefusal(Cands.Loops[I], R.Pragma->D.construct(), *Q,
                                 &Reporter::migrateRegionPerThreadStatement, Ctx);
          }
          Models[I].Refused = F;
          Changed = true;
        }
        Models[I].RunsInOrder = false; // stays, directive and all
      }
    }
    return true;
  }

  /// The line of the directive of the split region Loop left (a statement
  /// of it that moved holds Loop), or 0.
  unsigned splitLeft(const Stmt *Loop, ASTContext &Ctx) const {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const SplitRegion &S : Splits) {
      if (!textWithin(Loop, S.Body, Ctx))
        continue;
      for (const std::vector<const Stmt *> &Run : S.Staying)
        for (const Stmt *St : Run)
          if (holds(St, Loop, Ctx))
            return 0;
      return SM.getPresumedLineNumber(SM.getFileLoc(S.Pragma->Loc));
    }
    return 0;
  }

  /// What becomes a dp::field: the arrays of the converted loops that
  /// they do not borrow, with the rest of their groups.
  /// A helper's parameter a kernel hands an array of its own to stays a
  /// pointer (LoopModel::OwnArrayParameters), so a loop whose arrays
  /// would make it a dp::field for another loop stays, with the place
  /// named. (Refusing loops only takes arrays away from the fields.)
  void keepOwnArrayParametersPointers(std::vector<LoopModel> &Models, const ArrayData &Arrays,
                                      ASTContext &Ctx) const {
    const std::set<const VarDecl *> Fields = Arrays.members(convertedArrays(Models));
    for (size_t I = 0; I < Models.size(); ++I) {
      if (Consumed[I] || Models[I].Refused)
        continue;
      for (const ParmVarDecl *P : Models[I].OwnArrayParameters)
        if (Fields.count(P)) {
          const auto *F = cast<FunctionDecl>(P->getDeclContext());
          Models[I].Refused.Report = &Reporter::migrateArray;
          Models[I].Refused.Loc = Models[I].Outer->getBeginLoc();
          Models[I].Refused.Args = {P->getName().str(),
                                    "the loop hands '" + F->getNameAsString() +
                                        "' an array of each iteration's own for it, and another loop a "
                                        "dp::field"};
          break;
        }
    }
  }

  std::set<const VarDecl *> convertedArrays(const std::vector<LoopModel> &Models) const {
    std::set<const VarDecl *> Vars;
    for (size_t I = 0; I < Models.size(); ++I)
      if (!Consumed[I] && !Models[I].Refused)
        for (const ArrayUse &A : Models[I].Arrays)
          if (A.Borrowed.empty())
            Vars.insert(A.Var);
    return Vars;
  }

  /// Phase 3b: a loop that stays under a device directive (its own, or
  /// its region's) while arrays it uses became dp::fields for the loops
  /// that moved cannot keep that directive: no device construct maps a
  /// dp::field (GCC: "does not have a mappable type"), and dp moves a
  /// field's data itself. The directive goes and the loop runs in order
  /// on the host, as a dependent loop would, with every directive inside
  /// it that only a device region gives a meaning.
  void hostLoopsOverFields(const Candidates &Cands, std::vector<LoopModel> &Models, const ArrayData &Arrays,
                           const ASTContext &Ctx) {
    const std::set<const VarDecl *> &Fields = FieldVars;
    if (Fields.empty())
      return;
    auto Stays = [&](size_t I) { return !Consumed[I] && Models[I].Refused && !Models[I].DropsDirective; };
    auto OnHost = [&](size_t I, const std::vector<std::string> &Names) {
      Models[I].DropsDirective = true;
      Models[I].FieldsOnHost = Names;
      for (size_t J = 0; J < Models.size(); ++J) // the loops inside go with it, directives and all
        if (J != I && Cands.Loops[J].Pragma && within(Cands.Loops[J].Loop, Cands.Loops[I].Loop, Ctx) &&
            !Consumed[J])
          Models[J].DropsDirective = true;
    };
    for (const Region &R : Cands.Regions) {
      if (!R.Pragma->On || !runsOnDevice(R.Pragma->D) || R.Pragma->Shared ||
          !std::all_of(R.Loops.begin(), R.Loops.end(), Stays))
        continue;
      const std::vector<std::string> Names = fieldsNamed(R.Pragma->On, Fields);
      if (!Names.empty() && std::none_of(R.Loops.begin(), R.Loops.end(), [&](size_t I) {
            return Cands.Loops[I].Pragma && Cands.Loops[I].Pragma->Shared;
          }))
        for (size_t I : R.Loops)
          OnHost(I, Names);
    }
    for (size_t I = 0; I < Models.size(); ++I) {
      const PragmaLine *P = Cands.Loops[I].Pragma;
      if (!Stays(I) || !P || P->Shared || !runsOnDevice(P->D))
        continue;
      const std::vector<std::string> Names = fieldsNamed(Cands.Loops[I].Loop, Fields);
      if (!Names.empty())
        OnHost(I, Names);
    }
  }

  /// The text the loops' edits take, directives and all, by candidate: a
  /// converted loop's (its call-site's) and a device loop's sent to the
  /// host (its device directives go, phase 5). What lies inside is theirs.
  std::vector<std::pair<size_t, Span>> loopTexts(const Candidates &Cands, const std::vector<LoopModel> &Models,
                                                 ASTContext &Ctx) const {
    std::vector<std::pair<size_t, Span>> Texts;
    for (size_t I = 0; I < Models.size(); ++I) {
      if (Consumed[I] || (Models[I].Refused && Models[I].FieldsOnHost.empty()))
        continue;
      const Stmt *Loop = Models[I].Refused ? Cands.Loops[I].Loop : Models[I].Outer;
      if (std::optional<Span> L = spanOf(Loop->getSourceRange(), Ctx))
        Texts.push_back({I, *L});
    }
    return Texts;
  }

  /// Phase 3c: a device region of statements alone over fields cannot
  /// keep its directive either (as phase 3b's loops): its statements
  /// become a kernel of one point, or where they cannot, run on the host.
  /// Regions inside a converted loop move with it, inside a loop sent to
  /// the host they go with that loop's directives.
  void decideStatementRegions(const Candidates &Cands, const std::vector<LoopModel> &Models,
                              const std::vector<PragmaLine> &Pragmas, const ArrayData &Arrays, ASTContext &Ctx) {
    Statements.clear();
    const std::set<const VarDecl *> &Fields = FieldVars;
    if (Fields.empty())
      return;
    for (const PragmaLine &P : Pragmas) {
      if (P.D.Kind != DirectiveKind::Region || !P.On || !runsOnDevice(P.D) || P.Shared ||
          std::any_of(Cands.Loops.begin(), Cands.Loops.end(), [&](const Candidate &C) { return C.Pragma == &P; }) ||
          std::any_of(Cands.Regions.begin(), Cands.Regions.end(),
                      [&](const Region &R) { return R.Pragma == &P && !R.Loops.empty(); }) ||
          std::any_of(LoopTexts.begin(), LoopTexts.end(),
                      [&](const auto &L) { return L.second.Begin <= P.Begin && P.Begin < L.second.End; }))
        continue;
      std::vector<std::string> Names = fieldsNamed(P.On, Fields);
      if (!Names.empty())
        Statements.push_back({&P, std::move(Names), onePointKernel(P, Fields, Ctx)});
    }
  }

  /// Phase 4: one line per candidate, in source order, and --list's
  /// entries.
  void report(const Candidates &Cands, const std::vector<LoopModel> &Models,
              const std::vector<PragmaLine> &Pragmas, ASTContext &Ctx, Reporter &Diags) {
    const SourceManager &SM = Ctx.getSourceManager();
    // Loops and unusable directives, in the order they stand.
    std::vector<std::pair<unsigned, std::function<void()>>> Lines;
    for (size_t I = 0; I < Models.size(); ++I) {
      const Candidate &C = Cands.Loops[I];
      Lines.push_back({SM.getFileOffset(SM.getFileLoc(C.Loop->getBeginLoc())), [&, I] {
                         // A loop inside a converted one is part of its call-site.
                         size_t Owner = I;
                         while (Consumed[Owner])
                           Owner = ConsumedBy[Owner];
                         const LoopModel &M = Models[Owner];
                         MigratedLoop L = listed(C.Loop->getBeginLoc(), C.Construct, SM);
                         L.EndLine = SM.getPresumedLineNumber(SM.getFileLoc(C.Loop->getEndLoc()));
                         if (!M.Refused) {
                           L.Converted = true;
                           L.Kind = callSiteKind(M);
                           L.Rank = M.rank();
                           L.Grid = gridText(M);
                           L.LeftRegionLine = splitLeft(C.Loop, Ctx);
                           if (M.Domain == LoopModel::Shape::Grid)
                             Diags.migrated(C.Loop->getBeginLoc()) << L.Kind << L.Rank;
                           else
                             Diags.migratedTriangle(C.Loop->getBeginLoc()) << L.Kind << triangleName(M);
                           if (Owner == I) {
                             std::vector<Refusal> Notes = M.Notes; // in the order of the text
                             std::stable_sort(Notes.begin(), Notes.end(), [&](const Refusal &A, const Refusal &B) {
                               return SM.getFileOffset(SM.getFileLoc(A.Loc)) < SM.getFileOffset(SM.getFileLoc(B.Loc));
                             });
                             for (const Refusal &N : Notes)
                               emit(N, Diags);
                           }
                           if (Owner == I)
                             for (unsigned At : skippedDirectivesBefore(
                                      SM.getBufferData(SM.getMainFileID()),
                                      SM.getFileOffset(SM.getFileLoc(C.Loop->getBeginLoc())), ActiveHashes))
                               Diags.migrateSkippedDirective(
                                   SM.getComposedLoc(SM.getMainFileID(), At))
                                   << L.Loc.Line;
                         } else {
                           emit(M.Refused, Diags);
                           if (Owner == I && !M.FieldsOnHost.empty()) {
                             Diags.migrateOnHostForFields(C.Loop->getBeginLoc())
                                 << quotedList(M.FieldsOnHost) << (M.FieldsOnHost.size() > 1);
                             L.RunsInOrder = true;
                           } else if (Owner == I && M.DropsDirective) {
                             Diags.migrateInOrder(C.Loop->getBeginLoc()) << M.AroundCallSites;
                             L.RunsInOrder = true;
                           }
                           L.Category = categoryOf(M.Refused);
                           L.Reason = lastMessage();
                         }
                         Out.Loops.push_back(std::move(L));
                       }});
    }
    for (const IncludedLoop &Inc : Included)
      Lines.push_back({Inc.IncludeOffset, [&, Inc] {
                         Refusal R;
                         R.Report = &Reporter::migrateInHeader;
                         R.Loc = Inc.Loc;
                         R.Args = {llvm::sys::path::filename(Inc.File).str()};
                         emit(R, Diags);
                         MigratedLoop L = listed(Inc.Loc, Inc.Construct, SM);
                         L.Path = absolutePath(Inc.File, SM.getFileManager());
                         L.Category = categoryOf(R);
                         L.Reason = lastMessage();
                         Out.Loops.push_back(std::move(L));
                       }});
    for (const auto &[P, Why] : Cands.Unusable) {
      const PragmaLine *Line = P;
      const std::string Reason = Why;
      Lines.push_back({P->Begin, [&, Line, Reason] {
                         Refusal R;
                         R.Report = &Reporter::migrateConstruct;
                         R.Loc = Line->Loc;
                         R.Args = {Line->D.construct(), Reason};
                         emit(R, Diags);
                         MigratedLoop L = listed(Line->On ? Line->On->getBeginLoc() : Line->Loc,
                                                 Line->D.construct(), SM);
                         L.Category = categoryOf(R);
                         L.Reason = lastMessage();
                         Out.Loops.push_back(std::move(L));
                       }});
    }
    for (const SplitRegion &S : Splits)
      Lines.push_back({S.Pragma->Begin, [&, At = &S] {
                         std::string Where = At->MovedLines.size() > 1 ? "lines " : "line ";
                         for (size_t K = 0; K < At->MovedLines.size(); ++K)
                           Where += (K == 0 ? "" : K + 1 == At->MovedLines.size() ? " and " : ", ") +
                                    std::to_string(At->MovedLines[K]);
                         Diags.migrateRegionSplit(At->Pragma->Loc) << At->Pragma->D.construct() << Where;
                       }});
    for (const StatementRegion &S : Statements)
      Lines.push_back({S.P->Begin, [&, At = &S] {
                         const PragmaLine &P = *At->P;
                         MigratedLoop L = listed(P.Loc, P.D.construct(), SM);
                         L.EndLine = SM.getPresumedLineNumber(SM.getFileLoc(P.On->getEndLoc()));
                         if (std::holds_alternative<OnePointKernel>(At->Kernel)) {
                           Diags.migratedStatements(P.Loc) << P.D.construct();
                           L.Converted = true;
                           L.Kind = "forall";
                           L.Rank = 1;
                           L.Grid = "dp::grid<1>(1)";
                         } else {
                           Diags.migrateRegionOnHost(P.Loc) << P.D.construct() << quotedList(At->Fields)
                                                            << (At->Fields.size() > 1)
                                                            << std::get<std::string>(At->Kernel);
                           L.Category = categoryOf(&Reporter::migrateRegionOnHost);
                           L.Reason = lastMessage();
                           L.RunsInOrder = true;
                         }
                         Out.Regions.push_back(std::move(L));
                       }});
    std::stable_sort(Lines.begin(), Lines.end(),
                     [](const auto &A, const auto &B) { return A.first < B.first; });
    for (auto &[Offset, Say] : Lines)
      Say();
    (void)Pragmas;
  }

  MigratedLoop listed(SourceLocation Loc, const std::string &Construct, const SourceManager &SM) const {
    MigratedLoop L;
    L.Loc = locationOf(Loc, SM);
    L.Path = Out.MainFile;
    L.Construct = Construct;
    return L;
  }

  static void emit(const Refusal &R, Reporter &Diags) {
    {
      DiagnosticBuilder B = (Diags.*R.Report)(R.Loc);
      for (const std::string &A : R.Args)
        B << A;
    }
    if (R.OtherAccess.isValid())
      Diags.migrateOtherAccess(R.OtherAccess);
    for (const Refusal &N : R.Notes)
      emit(N, Diags);
  }

  std::string lastMessage() const {
    for (auto It = Out.Diagnostics.rbegin(); It != Out.Diagnostics.rend(); ++It)
      if (It->Level == "warning")
        return It->Message;
    return "";
  }

  /// Phase 5: the edits.
  void planEdits(const Candidates &Cands, std::vector<LoopModel> &Models,
                 const std::vector<PragmaLine> &Pragmas, const ArrayData &Arrays, HelperGlobals &Helpers,
                 ASTContext &Ctx, Reporter &Diags) {
    const SourceManager &SM = Ctx.getSourceManager();
    const StringRef Buf = SM.getBufferData(SM.getMainFileID());
    EditList E;
    const std::set<const VarDecl *> Vars = convertedArrays(Models);
    std::map<const VarDecl *, std::string> Borrowed; // as the loops borrow them
    std::vector<Span> CallSites;
    for (size_t I = 0; I < Models.size(); ++I) {
      if (Consumed[I] || Models[I].Refused)
        continue;
      std::optional<Span> L = spanOf(Models[I].Outer->getSourceRange(), Ctx);
      if (L)
        CallSites.push_back(*L);
      // The kernel's accesses: the parallel levels' bounds are the host's,
      // where the memory stays as it is (`i < grid_points[0] - 1`).
      const std::optional<Span> Kernel = spanOf(Models[I].Body->getSourceRange(), Ctx);
      for (const ArrayUse &A : Models[I].Arrays) {
        if (A.Borrowed.empty())
          continue;
        // Borrowed memory stays a pointer; in the kernel it is a field.
        const ArrayVar *Info = Arrays.find(A.Var);
        if (A.BorrowedColumns.empty()) // rows borrow for each call-site alone
          Borrowed[A.Var] = Arrays.fieldType(A.Var, Info && Info->Element.isConstQualified());
        if (Kernel)
          for (const TextEdit &T : Arrays.editsWithin(A.Var, Kernel->Begin, Kernel->End))
            E.add(T);
      }
    }
    // A reduction into an element of a pointer writes that element on the
    // host, through the pointer: a region holding the pointer's block would
    // keep a stale device copy after it, so no region borrows it.
    bool HostWritesBorrowed = false;
    for (size_t I = 0; I < Models.size(); ++I)
      if (!Consumed[I] && !Models[I].Refused)
        for (const Reduction &R : Models[I].Reductions)
          HostWritesBorrowed |= Borrowed.erase(R.Array) > 0;
    Arrays.convert(Vars, E);
    // Helpers reading namespace-scope variables take them as parameters.
    std::set<const FunctionDecl *> Needed;
    std::vector<const CallExpr *> Calls;
    for (size_t I = 0; I < Models.size(); ++I)
      if (!Consumed[I] && !Models[I].Refused) {
        Needed.insert(Models[I].Helpers.begin(), Models[I].Helpers.end());
        Calls.insert(Calls.end(), Models[I].HelperCalls.begin(), Models[I].HelperCalls.end());
      }
    Helpers.rewrite(Needed, Calls, E);
    // A C source: its C made C++ too, before the loops carry its text away.
    const CxxFromC FromC = planCxxFromC(Ctx, E, Diags);
    auto DeleteLine = [&](const PragmaLine &P) { E.add({P.Begin, P.End - P.Begin, ""}); };
    auto PragmaAt = [&](SourceLocation L) -> const PragmaLine * {
      for (const PragmaLine &P : Pragmas)
        if (P.Loc == L)
          return &P;
      return nullptr;
    };
    const std::map<size_t, std::vector<std::string>> Hoisted = hoistBorrowBlocks(Models, Consumed, Cands, Pragmas,
                                                                                  Arrays, Ctx, Buf, E);
    std::set<const PragmaLine *> Removed;
    for (size_t I = 0; I < Models.size(); ++I) {
      LoopModel &M = Models[I];
      if (!Consumed[I] && M.DropsDirective && Cands.Loops[I].Pragma) {
        DeleteLine(*Cands.Loops[I].Pragma); // the loop stays, in order
        Removed.insert(Cands.Loops[I].Pragma);
      }
      if (Consumed[I] || M.Refused)
        continue;
      if (Cands.Loops[I].Pragma) {
        DeleteLine(*Cands.Loops[I].Pragma);
        Removed.insert(Cands.Loops[I].Pragma);
      }
      for (const SourceRange &R : M.InnerPragmas)
        if (const PragmaLine *P = PragmaAt(R.getBegin()))
          DeleteLine(*P), Removed.insert(P);
      const auto H = Hoisted.find(I);
      replaceLoop(M, E, Arrays, Ctx, Buf, H == Hoisted.end() ? nullptr : &H->second);
    }
    // A device loop now on the host: the directives inside it that only a
    // device region gives a meaning (`acc loop seq`, `omp distribute`).
    for (const auto &[I, L] : LoopTexts) {
      if (!Models[I].Refused)
        continue;
      for (const PragmaLine &P : Pragmas)
        if (P.Begin > L.Begin && P.Begin < L.End && !Removed.count(&P) && !P.Shared &&
            (P.D.Model == PragmaModel::OpenACC || P.D.has("target") || P.D.has("teams") || P.D.has("distribute")))
          DeleteLine(P), Removed.insert(&P);
    }
    // Device regions of statements alone over fields (phase 3c).
    const std::set<const VarDecl *> &Fields = FieldVars;
    for (const StatementRegion &S : Statements) {
      Removed.insert(S.P);
      if (const auto *Kernel = std::get_if<OnePointKernel>(&S.Kernel)) {
        for (const TextEdit &T : onePointKernelEdits(*S.P, *Kernel, Arrays, Ctx))
          E.add(T);
        if (std::optional<Span> On = spanOf(S.P->On->getSourceRange(), Ctx))
          CallSites.push_back(*On);
      } else {
        DeleteLine(*S.P);
      }
    }
    // Regions whose loops all moved: their directive goes too.
    for (const Region &R : Cands.Regions) {
      bool All = !R.Loops.empty();
      for (size_t I : R.Loops)
        All &= Consumed[I] || !Models[I].Refused || Models[I].DropsDirective;
      if (All) {
        DeleteLine(*R.Pragma);
        Removed.insert(R.Pragma);
      }
    }
    // Regions split around their statements that moved: each run of the
    // others gets the region's directive again, after the fields its
    // threads share are brought to the host.
    for (const SplitRegion &S : Splits) {
      std::vector<std::string> Before;
      for (const std::vector<const Stmt *> &Run : S.Staying) {
        std::vector<std::string> Names;
        for (const Stmt *T : Run)
          for (std::string &N : fieldsNamed(T, Fields))
            if (std::find(Names.begin(), Names.end(), N) == Names.end())
              Names.push_back(std::move(N));
        Before.push_back(Names.empty() ? std::string() : broughtToHost(Names));
      }
      for (const TextEdit &T : splitEdits(S, Pragmas, Before, Ctx))
        E.add(T);
      Removed.insert(S.Pragma);
    }
    // The host's threads share fields in an OpenMP parallel construct that
    // stays: each thread's first access would bring a field to the host at
    // once with the others (a copy from the device over another thread's
    // writes). It is brought once, before the construct.
    // (And the namespace-scope ones the functions it calls name, whose
    // loops bind to it: team functions.)
    std::set<const VarDecl *> Globals;
    for (const VarDecl *V : Fields)
      if (V->hasGlobalStorage() && !V->isStaticLocal())
        Globals.insert(V);
    std::vector<std::pair<const PragmaLine *, std::vector<std::string>>> Shared;
    for (const PragmaLine &P : Pragmas)
      if (P.D.Model == PragmaModel::OpenMP && P.D.has("parallel") && !runsOnDevice(P.D) && P.On &&
          !Removed.count(&P)) {
        std::vector<std::string> Names = fieldsNamed(P.On, Fields);
        for (const Region &R : Cands.Regions)
          if (R.Pragma == &P)
            for (const FunctionDecl *F : R.Teams)
              for (std::string &N : fieldsNamed(F->getBody(), Globals))
                if (std::find(Names.begin(), Names.end(), N) == Names.end())
                  Names.push_back(std::move(N));
        if (!Names.empty())
          Shared.push_back({&P, std::move(Names)});
      }
    for (const auto &[P, Names] : Shared) {
      const bool Inner = std::any_of(Shared.begin(), Shared.end(), [&, P = P](const auto &O) {
        return O.first != P && within(P->On, O.first->On, Ctx);
      });
      const auto Parents = Ctx.getParents(*P->On);
      const std::optional<Span> On = spanOf(P->On->getSourceRange(), Ctx);
      if (Inner || Parents.empty() || !On)
        continue;
      const std::string Line = broughtToHost(Names);
      const std::string Indent = indentationAt(Buf, On->Begin);
      if (Parents[0].get<CompoundStmt>())
        E.add({lineStart(Buf, P->Begin), 0, Indent + Line + "\n"});
      else // an if's or a loop's body: the line and the construct in a block
        blockAround(E, Buf, P->Begin, On->End, Indent, Line);
    }
    // Data directives, once their arrays are fields.
    bool AllConverted = Cands.Unusable.empty() && Included.empty() && !Cands.LeftOut, LoopsQueue = false;
    for (size_t I = 0; I < Models.size(); ++I) {
      AllConverted &= Consumed[I] || !Models[I].Refused || Models[I].DropsDirective;
      LoopsQueue |= !Consumed[I] && !Models[I].Refused && usesQueue(Models[I]);
    }
    for (const StatementRegion &S : Statements) {
      const auto *Kernel = std::get_if<OnePointKernel>(&S.Kernel);
      LoopsQueue |= Kernel && !Kernel->Queue.empty();
    }
    // A dependent loop that now runs in order on the host around call-sites
    // ran on the device in the original: its statements read and write
    // the memory there, which a device copy held across call-sites would
    // not show them.
    bool InOrderOnHost = false;
    for (size_t I = 0; I < Models.size(); ++I)
      InOrderOnHost |= !Consumed[I] && Models[I].Refused && Models[I].DropsDirective;
    // So do a device region's statements outside its loops (`A[0] = 1;`
    // before an `acc loop`), which become host code.
    for (const PragmaLine &P : Pragmas)
      if (P.D.Kind == DirectiveKind::Region && P.On && runsOnDevice(P.D))
        InOrderOnHost |= touchesPointerOutside(P.On, CallSites, Ctx);
    // A converted loop the original ran on the host's threads (`omp
    // parallel for`, `omp simd`, a plain loop) now runs where the data is.
    bool HostLoops = false;
    for (size_t I = 0; I < Models.size(); ++I)
      HostLoops |= !Consumed[I] && !Models[I].Refused &&
                   (Models[I].From == Origin::Plain ||
                    (Models[I].Construct.rfind("omp ", 0) == 0 && Models[I].Construct.find("target") == std::string::npos));
    std::vector<Span> KeptLoops;
    for (size_t I = 0; I < Models.size(); ++I)
      if (!Consumed[I] && Models[I].Refused && !Models[I].DropsDirective)
        if (std::optional<Span> L = spanOf(Cands.Loops[I].Loop->getSourceRange(), Ctx))
          KeptLoops.push_back(*L);
    const DataContext Data{Ctx,       Fields,    AllConverted,       *Device,
                           Borrowed,  CallSites, HostWritesBorrowed || InOrderOnHost,
                           skippedTransfer(SM.getBufferData(SM.getMainFileID()), ActiveHashes), HostLoops,
                           &Arrays.memberVars(), &Arrays.offsetPointers(), std::move(KeptLoops)};
    planDataDirectives(Pragmas, Data, LoopsQueue, E, Diags, Out.KeptDirectives);
    addInclude(Buf, Ctx, E, FromC.Headers);
    Out.HasErrors |= Diags.hasErrors();
    for (const TextEdit &T : E.rejected()) {
      Diags.editFailed(SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(T.Offset))
          << "two rewrites of this place overlap";
      Out.HasErrors = true;
    }
    // Insertions at one offset are one replacement (clang's Replacements
    // refuse two), in the order they were added.
    std::vector<TextEdit> Merged;
    for (const TextEdit &T : E.edits())
      if (!Merged.empty() && T.Length == 0 && Merged.back().Length == 0 && Merged.back().Offset == T.Offset)
        Merged.back().Text += T.Text;
      else
        Merged.push_back(T);
    clang::tooling::Replacements &Reps = Out.Whole.Edits[Out.MainFile];
    for (const TextEdit &T : Merged)
      if (llvm::Error Err = Reps.add(clang::tooling::Replacement(Out.MainFile, T.Offset, T.Length, T.Text))) {
        Diags.editFailed(SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(T.Offset))
            << llvm::toString(std::move(Err));
        Out.HasErrors = true;
      }
  }

  /// The blocks of borrows around serial loops that hold only call-sites
  /// (HoistBorrows.h), added to E; returns the borrow statements each
  /// call-site inside them leaves to its block.
  std::map<size_t, std::vector<std::string>> hoistBorrowBlocks(const std::vector<LoopModel> &Models,
                                                               const std::vector<bool> &Consumed,
                                                               const Candidates &Cands,
                                                               const std::vector<PragmaLine> &Pragmas,
                                                               const ArrayData &Arrays, ASTContext &Ctx,
                                                               StringRef Buf, EditList &E) {
    std::vector<bool> Live(Models.size());
    for (size_t I = 0; I < Models.size(); ++I)
      Live[I] = !Consumed[I] && !Models[I].Refused;
    const BorrowLinesOf LinesOf = [&](const LoopModel &M) -> std::optional<std::vector<std::string>> {
      const std::optional<Span> B = spanOf(M.Body->getSourceRange(), Ctx);
      if (!B)
        return std::nullopt;
      const std::string Body = Buf.substr(B->Begin, B->End - B->Begin).str();
      if (Body.find("dp_") != std::string::npos) // its locals could be named otherwise
        return std::nullopt;
      if (M.Pragma && M.Pragma->has("if")) // its condition is the host's, read at the call-site
        return std::nullopt;
      return hoistableBorrows(M, Body, Arrays, Ctx);
    };
    std::map<size_t, std::vector<std::string>> Of;
    for (const BorrowHoist &H : hoistBorrows(Models, Live, Cands.Loops, Pragmas, LinesOf, Ctx)) {
      const std::optional<Span> L = spanOf(H.Loop->getSourceRange(), Ctx);
      if (!L)
        continue;
      const std::string Indent = indentationAt(Buf, L->Begin);
      std::string First = "// pointers borrowed for the loops below: what they wrote is there at the '}'";
      for (const std::string &Line : H.Lines)
        First += "\n" + Indent + "  " + Line;
      blockAround(E, Buf, L->Begin, L->End, Indent, First);
      Of.insert(H.Models.begin(), H.Models.end());
    }
    return Of;
  }

  void replaceLoop(LoopModel &M, EditList &E, const ArrayData &Arrays, ASTContext &Ctx, StringRef Buf,
                   const std::vector<std::string> *Hoisted = nullptr) {
    std::optional<Span> Loop = spanOf(M.Outer->getSourceRange(), Ctx);
    std::optional<Span> Body = spanOf(M.Body->getSourceRange(), Ctx);
    if (!Loop || !Body)
      return;
    const bool Block = isa<CompoundStmt>(M.Body);
    unsigned BodyEnd = Block ? Body->End : pastSemicolon(Buf, Body->End);
    unsigned End = std::max(Loop->End, BodyEnd);
    unsigned Begin = Loop->Begin;
    const unsigned LineB = lineStart(Buf, Begin);
    const bool StartsLine = Buf.substr(LineB, Begin - LineB).find_first_not_of(" \t") == StringRef::npos;
    const std::string Indent = StartsLine ? indentationAt(Buf, Begin) : std::string();
    if (StartsLine)
      Begin = LineB;
    const unsigned LineE = nextLineStart(Buf, End);
    const bool EndsLine = Buf.substr(End, LineE - End).find_first_not_of(" \t\r\n") == StringRef::npos;
    if (EndsLine)
      End = LineE;
    // The user's text, with the edits inside it (element accesses).
    for (LoopLevel &L : M.Levels) {
      if (std::optional<Span> S = spanOf(L.LowerExpr->getSourceRange(), Ctx))
        L.Lower = E.take(Buf, S->Begin, S->End);
      if (std::optional<Span> S = spanOf(L.UpperExpr->getSourceRange(), Ctx))
        L.Upper = E.take(Buf, S->Begin, S->End);
    }
    editKernelBody(M, E, Arrays, Ctx, Buf);
    RenderInput In;
    In.BodyIsBlock = Block;
    In.Body = Block ? E.take(Buf, Body->Begin + 1, Body->End - 1) : E.take(Buf, Body->Begin, BodyEnd);
    if (!Block) {
      // `for (...)\n      stmt`: its indentation measures its continuation lines.
      const unsigned BodyLine = lineStart(Buf, Body->Begin);
      if (BodyLine > Loop->Begin &&
          Buf.substr(BodyLine, Body->Begin - BodyLine).find_first_not_of(" \t") == StringRef::npos) {
        In.Body = Buf.substr(BodyLine, Body->Begin - BodyLine).str() + In.Body;
        In.BodyStartsLine = true;
      }
    }
    In.Indent = Indent;
    In.IndexName = std::regex_search(In.Body, std::regex("\\bidx\\b")) ? "dp_idx" : "idx";
    if (reducesToStruct(M)) {
      In.ResultType = "dp_reduction_" + std::to_string(Ctx.getSourceManager().getPresumedLineNumber(
                                            M.Outer->getBeginLoc()));
      addResultStruct(M, In.ResultType, Ctx, Buf, E);
    }
    // Comments outside the body (after a loop's header, between levels)
    // stay, above the call-site.
    const unsigned TakenB = Block ? Body->Begin + 1 : Body->Begin, TakenE = Block ? Body->End - 1 : BodyEnd;
    std::string Kept;
    for (auto [From, To] : {std::make_pair(Begin, TakenB), std::make_pair(TakenE, End)})
      for (const std::string &C : commentsIn(Buf, From, To))
        Kept += Indent + C + "\n";
    (void)E.take(Buf, Begin, End); // the rest of the loop's text is replaced
    std::string Text = Kept + renderCallSite(M, In, Arrays, Ctx, Hoisted);
    if (!StartsLine)
      Text.erase(0, Text.find_first_not_of(" \t"));
    if (!EndsLine && !Text.empty() && Text.back() == '\n')
      Text.pop_back();
    E.add({Begin, End - Begin, Text});
  }

  /// The edits inside the loop's body that make it a kernel, made before
  /// the body's text is taken: elements reduced, arg max notes, atomic
  /// additions and members read through their parameters.
  void editKernelBody(LoopModel &M, EditList &E, const ArrayData &Arrays, ASTContext &Ctx, StringRef Buf) {
    const std::vector<Span> Reduced = reduceElements(M, E, Ctx, Buf);
    noteLocated(M, E, Ctx, Buf);
    updateAtomically(M, E, Ctx, Buf);
    readMembers(M, E, Arrays, Ctx, Reduced);
  }

  /// A reduction into an array element: the kernel's partial value stands
  /// for each mention of it; the host's element (rewritten: x(i)) starts
  /// the reduction and takes its result. Returns the elements' spans.
  std::vector<Span> reduceElements(LoopModel &M, EditList &E, ASTContext &Ctx, StringRef Buf) {
    std::vector<Span> Reduced;
    for (Reduction &R : M.Reductions)
      for (const Expr *X : R.Element)
        if (std::optional<Span> S = spanOf(X->getSourceRange(), Ctx)) {
          Reduced.push_back(*S);
          std::string Host = E.take(Buf, S->Begin, S->End);
          // Borrowed memory stays a pointer on the host: `x[i]` as written.
          if (R.Host.empty())
            R.Host = borrowedIn(M, R.Array) ? Buf.substr(S->Begin, S->End - S->Begin).str() : std::move(Host);
          E.add({S->Begin, S->End - S->Begin, R.Name});
        }
    return Reduced;
  }

  /// An arg max notes the iteration that set its value, after the
  /// statements that set it.
  void noteLocated(const LoopModel &M, EditList &E, ASTContext &Ctx, StringRef Buf) {
    for (const Reduction &R : M.Reductions)
      if (R.located() && !R.Sets->body_empty())
        if (std::optional<Span> S = spanOf(R.Sets->body_back()->getSourceRange(), Ctx)) {
          // On a line of its own after a statement on its own line (after
          // the comment ending that line, if any); else after the `;`.
          const unsigned After = pastSemicolon(Buf, S->End);
          const unsigned Line = lineStart(Buf, S->Begin), Next = nextLineStart(Buf, After);
          StringRef Rest = Buf.substr(After, Next - After).trim();
          if (Buf.substr(Line, S->Begin - Line).find_first_not_of(" \t") == StringRef::npos &&
              (Rest.empty() || Rest.starts_with("//")) && Next > After && Buf[Next - 1] == '\n')
            E.add({Next, 0, indentationAt(Buf, S->Begin) + locatedNoteText(M, R) + "\n"});
          else
            E.add({After, 0, " " + locatedNoteText(M, R)});
        }
  }

  /// An atomic update of an element: dp::atomic_add(place, value),
  /// dp::atomic_max(place, value), ...: the update's text around the
  /// element it assigns and the value goes, those two stay as written
  /// (and as their own edits make them).
  void updateAtomically(const LoopModel &M, EditList &E, ASTContext &Ctx, StringRef Buf) {
    // Text that goes, edits inside it (a compared element's) with it.
    const auto Replace = [&](unsigned Begin, unsigned End, std::string Text) {
      (void)E.take(Buf, Begin, End);
      E.add({Begin, End - Begin, std::move(Text)});
    };
    for (const AtomicUpdate &A : M.AtomicUpdates) {
      std::optional<Span> U = spanOf(A.Update->getSourceRange(), Ctx);
      std::optional<Span> P = spanOf(A.Place->getSourceRange(), Ctx);
      std::optional<Span> V = A.Value ? spanOf(A.Value->getSourceRange(), Ctx) : P;
      if (!U || !P || !V)
        continue;
      const std::string Call = std::string("dp::") + atomicName(A.Op) + "(";
      if (U->Begin < P->Begin) // `++a[k]`, `if (v > m[k]) m[k] = v`
        Replace(U->Begin, P->Begin, Call);
      else
        E.add({P->Begin, 0, Call}, /*First=*/true);
      // `if (v > m[k]) { m[k] = v; }` ends at its brace: the call is a
      // statement of its own.
      const auto *If = dyn_cast<IfStmt>(A.Update);
      const std::string End = If && isa<CompoundStmt>(If->getThen()) ? ";" : "";
      if (!A.Value) { // `a[k]++`: its operator, if after
        Replace(P->End, U->End, (A.Negated ? ", -1)" : ", 1)") + End);
        continue;
      }
      Replace(P->End, V->Begin, A.Negated ? ", -(" : ", ");
      Replace(V->End, U->End, (A.Negated ? "))" : ")") + End);
    }
  }

  /// A member of another object (`m->x`) is the kernel's parameter (`m_x`)
  /// in the body; in an element reduced, the partial value is.
  void readMembers(const LoopModel &M, EditList &E, const ArrayData &Arrays, ASTContext &Ctx,
                   const std::vector<Span> &Reduced) {
    for (const auto &[Use, Var] : pathsIn(M.Body, Arrays.memberVars())) {
      std::optional<Span> S = spanOf(Use->getSourceRange(), Ctx);
      if (!S || !modelUses(M, Var) || std::any_of(Reduced.begin(), Reduced.end(), [&](const Span &R) {
            return R.Begin <= S->Begin && S->End <= R.End;
          }))
        continue;
      E.add({S->Begin, S->End - S->Begin, kernelName(Var)});
    }
  }

  /// V is one of the model's arrays or the values it passes.
  static bool modelUses(const LoopModel &M, const VarDecl *V) {
    return std::any_of(M.Arrays.begin(), M.Arrays.end(), [&](const ArrayUse &A) { return A.Var == V; }) ||
           std::any_of(M.Scalars.begin(), M.Scalars.end(), [&](const ScalarUse &S) { return S.Var == V; });
  }

  /// Whether V is memory M borrows.
  static bool borrowedIn(const LoopModel &M, const VarDecl *V) {
    return V && std::any_of(M.Arrays.begin(), M.Arrays.end(),
                            [&](const ArrayUse &U) { return U.Var == V && !U.Borrowed.empty(); });
  }

  /// Several reductions: their struct, at namespace scope before the
  /// declaration holding the loop.
  void addResultStruct(const LoopModel &M, const std::string &Name, ASTContext &Ctx, StringRef Buf,
                       EditList &E) {
    const Decl *Top = nullptr;
    DynTypedNodeList P = Ctx.getParents(*M.Outer);
    while (!P.empty()) {
      if (const Decl *D = P[0].get<Decl>()) {
        const DeclContext *DC = D->getDeclContext();
        if (DC && (DC->isFileContext()))
          Top = D;
      }
      P = Ctx.getParents(P[0]);
    }
    if (!Top)
      return;
    std::optional<Span> S = spanOf(Top->getSourceRange(), Ctx);
    if (!S)
      return;
    E.add({lineStart(Buf, S->Begin), 0, renderResultStruct(M, Name, Ctx)});
  }

  /// `#include <dp/dp.hpp>` (and <map> for the async queues' helper)
  /// before the file's first #include, where missing.
  void addInclude(StringRef Buf, ASTContext &Ctx, EditList &E, const std::set<std::string> &Headers) {
    bool Queues = false;
    for (const TextEdit &T : E.edits())
      Queues |= T.Text.find("dp_async_queue(long long") != std::string::npos;
    // An #include line naming Header (not a mention in a comment).
    auto Includes = [&](StringRef Header) {
      for (unsigned Line = 0; Line < Buf.size(); Line = nextLineStart(Buf, Line)) {
        StringRef L = Buf.substr(Line, nextLineStart(Buf, Line) - Line).ltrim();
        if (L.consume_front("#") && L.ltrim().consume_front("include") && L.contains(Header))
          return true;
      }
      return false;
    };
    std::string Lines;
    if (!Includes("dp/dp.hpp"))
      Lines += "#include <dp/dp.hpp>\n";
    if (Queues && !Includes("<map>"))
      Lines += "#include <map>\n";
    for (const std::string &H : Headers) // a C library function called undeclared
      if (!Includes("<" + H + ">"))
        Lines += "#include <" + H + ">\n";
    if (Lines.empty())
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    unsigned FirstDecl = Buf.size();
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (SM.isWrittenInMainFile(SM.getFileLoc(D->getLocation())))
        if (std::optional<Span> S = spanOf(D->getSourceRange(), Ctx))
          FirstDecl = std::min(FirstDecl, lineStart(Buf, S->Begin));
    // Before the file's first #include: the user's headers define macros
    // (PolyBench's N, M) that must not reach dp's templates; feature
    // macros (#define _GNU_SOURCE) written before it still come first.
    // With no #include, before the file's first macro of another name
    // (`#define N 32`).
    unsigned At = FirstDecl, FirstMacro = FirstDecl;
    for (unsigned Line = 0; Line < FirstDecl && Line < Buf.size(); Line = nextLineStart(Buf, Line)) {
      StringRef L = Buf.substr(Line, nextLineStart(Buf, Line) - Line).ltrim();
      if (!L.consume_front("#"))
        continue;
      L = L.ltrim();
      if (L.starts_with("include")) {
        At = Line;
        break;
      }
      if (L.consume_front("define") && !L.ltrim().starts_with("_") && FirstMacro == FirstDecl)
        FirstMacro = Line;
    }
    if (At == FirstDecl)
      At = FirstMacro;
    if (At == Buf.size())
      At = 0;
    E.add({At, 0, Lines}, /*First=*/true);
  }

  const TranslationOptions &Opts;
  TranslationResult &Out;
  /// Which functions the user declared for the device, one cache per unit.
  std::optional<DeviceDeclarations> Device;
  std::vector<PragmaSeen> Hashes;
  std::set<unsigned> ActiveHashes; ///< the main file's directives the preprocessor read, by offset
  /// Loop directives in the headers the main file includes.
  std::vector<IncludedLoop> Included;
  /// A device region of statements alone over fields (phase 3c): the
  /// fields it names, and the kernel of one point it becomes or why not.
  struct StatementRegion {
    const PragmaLine *P = nullptr;
    std::vector<std::string> Fields;
    std::variant<OnePointKernel, std::string> Kernel;
  };
  std::vector<StatementRegion> Statements;
  /// Every variable that becomes a dp::field, and those it stands for
  /// (ArrayData::members of the converted loops' arrays): set once the
  /// loops that move are known (phase 3), read by 3b, 3c and the edits.
  std::set<const VarDecl *> FieldVars;
  std::vector<std::pair<size_t, Span>> LoopTexts; ///< loopTexts(), once phase 3b has decided
  std::vector<SplitRegion> Splits; ///< regions split around their statements that move (phase 3)
  /// The loops of the loop directives a selection left out: they stay.
  std::vector<const Stmt *> LeftOutLoops;
  std::vector<bool> Consumed; ///< by candidate: taken along by an outer converted loop
  std::vector<size_t> ConsumedBy; ///< ... by which
};

} // namespace

std::unique_ptr<ASTConsumer> makeMigrateConsumer(CompilerInstance &CI, const TranslationOptions &Opts,
                                                 TranslationResult &Out) {
  return std::make_unique<MigrateConsumer>(CI, Opts, Out);
}

} // namespace dpstub
