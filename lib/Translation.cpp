//===- Translation.cpp - One translation unit, translated -----------------===//
//
// The pipeline, phase by phase: find the call-sites every rule matches,
// group a template's instantiations, analyse them into models, plan the
// edits (device marks, stub header includes, call-sites renamed after their
// positions in the rewritten file), render the stub header.
//
//===----------------------------------------------------------------------===//

#include "dpstub/Translation.h"
#include "dpstub/Analysis.h"
#include "dpstub/DeviceMarking.h"
#include "dpstub/Diagnostics.h"
#include "dpstub/Instantiations.h"
#include "dpstub/LambdaObjects.h"
#include "dpstub/Rule.h"
#include "dpstub/SourceEdits.h"
#include "dpstub/StubHeader.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>
#include <variant>

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

namespace {

std::string absolutePath(llvm::StringRef Path, FileManager &FM);

/// Forwards diagnostics to the tool's printer and records them for --list.
class RecordingConsumer : public DiagnosticConsumer {
public:
  RecordingConsumer(DiagnosticConsumer *Next, std::unique_ptr<DiagnosticConsumer> Owned,
                    std::vector<ListedDiagnostic> &Out, bool CompilerWarnings)
      : Next(Next), Owned(std::move(Owned)), Out(Out), CompilerWarnings(CompilerWarnings) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    LangOpts = LO;
    Next->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next->EndSourceFile(); }
  void finish() override { Next->finish(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    if (quiet(Level, Info))
      return;
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Next->HandleDiagnostic(Level, Info);
    ListedDiagnostic D;
    D.Level = Level >= DiagnosticsEngine::Error     ? "error"
              : Level == DiagnosticsEngine::Warning ? "warning"
                                                    : "note";
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      D.Loc = locationOf(Info.getLocation(), SM);
      const SourceLocation L = SM.getFileLoc(Info.getLocation());
      if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(L)))
        D.Path = absolutePath(FE->getName(), SM.getFileManager());
      D.Length = Lexer::MeasureTokenLength(L, SM, LangOpts);
    }
    D.Own = Info.getID() >= diag::DIAG_UPPER_LIMIT; // a custom ID: dpstub's
    SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    D.Message = Msg.str().str();
    Out.push_back(std::move(D));
  }

private:
  /// The compiler's own warnings (and remarks) about the user's code, with
  /// the notes that follow them, unless asked for: they say nothing about
  /// the translation. dpstub's diagnostics and every error always show.
  bool quiet(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
    if (Level == DiagnosticsEngine::Note)
      return Quieting;
    const bool Own = Info.getID() >= diag::DIAG_UPPER_LIMIT;
    Quieting = !CompilerWarnings && !Own &&
               (Level == DiagnosticsEngine::Warning || Level == DiagnosticsEngine::Remark);
    return Quieting;
  }

  DiagnosticConsumer *Next;
  std::unique_ptr<DiagnosticConsumer> Owned;
  std::vector<ListedDiagnostic> &Out;
  bool CompilerWarnings;
  bool Quieting = false; ///< the last warning or error was quieted: so are its notes
  LangOptions LangOpts;
};

/// A call-site: every instantiation's call at one source location.
struct Candidate {
  SourceLocation Loc;
  const Rule *R = nullptr;
  std::vector<const CallExpr *> Calls;
  bool NeverInstantiated = false; ///< only a template pattern's unresolved call
};

/// Remembers every match of one rule.
struct MatchCollector : MatchFinder::MatchCallback {
  const Rule *R = nullptr;
  bool Dependent = false;
  std::vector<std::tuple<const Rule *, const CallExpr *, bool>> *Matches = nullptr;
  void run(const MatchFinder::MatchResult &Result) override {
    if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call"))
      Matches->push_back({R, Call, Dependent});
  }
};

/// The declaration directly in the translation unit that contains S.
const Decl *topLevelDeclOf(const Stmt *S, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*S);
  const Decl *Last = nullptr;
  for (;;) {
    const auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return Last;
    N = Parents[0];
    if (const Decl *D = N.get<Decl>()) {
      if (isa<TranslationUnitDecl>(D))
        return Last;
      Last = D;
    }
  }
}

/// Path made absolute against the compile command's directory.
std::string absolutePath(llvm::StringRef Path, FileManager &FM) {
  SmallString<256> Abs(Path);
  FM.makeAbsolutePath(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return Abs.str().str();
}

/// True for a call of a launcher dpstub generated (a source translated
/// before), rather than of a dp:: function.
bool isLaunch(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  for (const DeclContext *DC = FD ? FD->getDeclContext() : nullptr; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "dpstub" && NS->getParent()->isTranslationUnit())
        return true;
  return false;
}

/// A C++ identifier from a file name: "k.cpp" -> "k_cpp".
std::string sanitize(llvm::StringRef Name) {
  std::string S;
  for (char C : Name)
    S += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  if (S.empty() || std::isdigit(static_cast<unsigned char>(S[0])))
    S = "_" + S;
  return S;
}

/// A call-site's __global__ stub name, readable in a profiler:
/// "dp_forall__jacobi_cpp__21", or "dp_forall__jacobi_cpp__21_5" when
/// its line holds another call-site of its kind.
std::string kernelName(const CallSite &C, llvm::StringRef File, bool SharedLine) {
  std::string Name = "dp_" + std::string(toString(C.Kind)) + "__" + File.str() + "__" +
                     std::to_string(C.Loc.Line);
  if (SharedLine)
    Name += "_" + std::to_string(C.Loc.Column);
  return Name;
}

class TranslateConsumer : public SemaConsumer {
public:
  TranslateConsumer(const TranslationOptions &Opts, TranslationResult &Out)
      : Opts(Opts), Out(Out) {}

  void InitializeSema(Sema &S) override { TheSema = &S; }
  void ForgetSema() override { TheSema = nullptr; }

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      TopLevel.push_back(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &DE = Ctx.getDiagnostics();
    const SourceManager &SM = Ctx.getSourceManager();
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getMainFileID()))
      Out.MainFile = absolutePath(FE->getName(), SM.getFileManager());
    std::set<std::string> Inputs;
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      Inputs.insert(absolutePath(It->first.getName(), SM.getFileManager()));
    Out.Inputs.assign(Inputs.begin(), Inputs.end());
    if (DE.hasErrorOccurred()) {
      Out.ParseFailed = true;
      return;
    }
    Reporter Diags(DE);
    const std::vector<Candidate> Candidates = findCallSites(Ctx);
    Out.SelectionEmpty = Opts.Only && Opts.Only->File == Out.MainFile && !SelectionHit;
    if (Out.SelectionEmpty)
      return;
    instantiateCallOperators(Candidates);
    std::vector<AnalysedCall> Accepted = analyseCallSites(Candidates, Ctx, Diags);
    Out.HasErrors = Diags.hasErrors();
    if (Accepted.empty() || Diags.hasErrors() || Opts.ListOnly)
      return;
    Out.Whole = plan(Accepted, Ctx, Diags);
    if (Opts.PlanEachCallSite)
      for (size_t I = 0; I < Out.CallSites.size(); ++I) {
        if (!Out.CallSites[I].Translated || Out.CallSites[I].Launch)
          continue;
        // This call-site alone, with the launches translated before.
        std::vector<AnalysedCall> One;
        for (size_t K = 0; K < Accepted.size(); ++K)
          if (AcceptedIndex[K] == I || Out.CallSites[AcceptedIndex[K]].Launch)
            One.push_back(Accepted[K]);
        Out.Each[I] = plan(One, Ctx, Diags);
      }
    recordParsed(Ctx);
    Out.HasErrors = Diags.hasErrors();
  }

private:
  /// Phase 1: every call-site any rule matches, one Candidate per source
  /// location (a template's call-site is matched once per instantiation),
  /// in source order. Only declarations outside system headers are
  /// traversed: the standard library holds no call-site.
  std::vector<Candidate> findCallSites(ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<Decl *> Scope;
    for (Decl *D : TopLevel)
      if (!SM.isInSystemHeader(D->getLocation()))
        Scope.push_back(D);
    Ctx.setTraversalScope(Scope);

    std::vector<std::tuple<const Rule *, const CallExpr *, bool>> Matches;
    MatchFinder Finder;
    std::vector<std::unique_ptr<MatchCollector>> Collectors;
    for (const auto &R : allRules()) {
      auto Add = [&](StatementMatcher M, bool Dependent) {
        Collectors.push_back(std::make_unique<MatchCollector>());
        Collectors.back()->R = R.get();
        Collectors.back()->Dependent = Dependent;
        Collectors.back()->Matches = &Matches;
        Finder.addMatcher(traverse(TK_AsIs, M), Collectors.back().get());
      };
      Add(R->matcher(), false);
      if (std::optional<StatementMatcher> D = R->dependentMatcher())
        Add(*D, true);
    }
    Finder.matchAST(Ctx);

    std::map<unsigned, Candidate> ByLocation;
    for (const auto &[R, Call, Dependent] : Matches) {
      const SourceLocation L = SM.getFileLoc(Call->getBeginLoc());
      if (SM.isInSystemHeader(L))
        continue;
      Candidate &C = ByLocation[L.getRawEncoding()];
      if (Dependent) {
        if (C.Calls.empty() && !C.NeverInstantiated)
          C = Candidate{L, R, {Call}, true};
        continue;
      }
      if (C.NeverInstantiated)
        C = Candidate{L, R, {}, false};
      C.Loc = L;
      C.R = R;
      C.Calls.push_back(Call);
    }
    std::vector<Candidate> Ordered;
    for (auto &[Key, C] : ByLocation)
      if (selected(C, Ctx))
        Ordered.push_back(std::move(C));
    std::sort(Ordered.begin(), Ordered.end(), [&](const Candidate &A, const Candidate &B) {
      return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
    });
    return Ordered;
  }

  /// The operator() of a class template's specialization passed to a
  /// call-site (`Max<float>()`, or a class deriving from `base<1>`) is
  /// instantiated only where it is called, and a call-site parsed for
  /// dpstub calls nothing: instantiate it, so that its body can be analysed
  /// and marked like any other.
  void instantiateCallOperators(const std::vector<Candidate> &Candidates) {
    if (!TheSema)
      return;
    for (const Candidate &C : Candidates)
      for (const CallExpr *Call : C.Calls)
        for (const Expr *Arg : Call->arguments())
          if (const CXXRecordDecl *RD = Arg->getType().getNonReferenceType()->getAsCXXRecordDecl())
            if (!RD->isLambda())
              instantiateCallOperatorsOf(RD, Call->getExprLoc());
  }
  void instantiateCallOperatorsOf(const CXXRecordDecl *RD, SourceLocation At) {
    if (!RD->hasDefinition())
      return;
    if (RD->getTemplateInstantiationPattern())
      for (CXXMethodDecl *M : RD->methods())
        if (M->getOverloadedOperator() == OO_Call && !M->isDefined() &&
            M->getTemplateInstantiationPattern())
          TheSema->InstantiateFunctionDefinition(At, M, /*Recursive=*/true,
                                                 /*DefinitionRequired=*/false,
                                                 /*AtEndOfTU=*/true);
    for (const CXXBaseSpecifier &B : RD->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
        instantiateCallOperatorsOf(Base, At);
  }

  /// With a selection, the call-sites to translate: those overlapping it,
  /// and every launch translated before (the stub header holds them all).
  bool selected(const Candidate &C, ASTContext &Ctx) {
    if (!Opts.Only || Opts.Only->File != Out.MainFile)
      return true;
    const SourceManager &SM = Ctx.getSourceManager();
    const CallExpr *Call = C.Calls.front();
    if (!C.NeverInstantiated && isLaunch(Call))
      return true;
    const FileID Main = SM.getMainFileID();
    const SourceLocation SelBegin =
        SM.translateLineCol(Main, Opts.Only->BeginLine, Opts.Only->BeginColumn);
    const SourceLocation SelEnd = SM.translateLineCol(Main, Opts.Only->EndLine, Opts.Only->EndColumn);
    const SourceLocation Begin = SM.getFileLoc(Call->getBeginLoc());
    const SourceLocation End = SM.getFileLoc(Call->getEndLoc());
    const bool Overlaps = !SM.isBeforeInTranslationUnit(SelEnd, Begin) &&
                          !SM.isBeforeInTranslationUnit(End, SelBegin);
    if (Overlaps)
      SelectionHit = true;
    return Overlaps;
  }

  /// Phase 2: the model of each call-site that can be translated; every
  /// other gets a located warning (or error) saying why.
  std::vector<AnalysedCall> analyseCallSites(const std::vector<Candidate> &Candidates,
                                             ASTContext &Ctx, Reporter &Diags) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<AnalysedCall> Accepted;
    for (const Candidate &C : Candidates) {
      const CallExpr *Call = C.Calls.front();
      ListedCallSite Listed;
      Listed.Model.Kind = C.R->kind();
      Listed.Model.Dim = explicitDim(Call).value_or(-1);
      Listed.Model.Loc = locationOf(Call->getBeginLoc(), SM);
      Listed.EndLine = SM.getPresumedLineNumber(SM.getFileLoc(Call->getEndLoc()));
      if (C.NeverInstantiated) {
        Diags.untouched(Call->getBeginLoc())
            << C.R->name() << "the enclosing template is never instantiated in this translation "
                              "unit, so its argument types are unknown";
      } else if (!SM.isWrittenInMainFile(SM.getFileLoc(Call->getBeginLoc()))) {
        Diags.untouched(Call->getBeginLoc())
            << C.R->name() << "it is in an included file; dpstub rewrites the translation "
                              "unit's main file";
      } else if (std::optional<AnalysedCall> A = analyseInstantiations(C, Ctx, Diags)) {
        planLambdaObjects(*A, Ctx, Diags);
        Listed.Model = A->Model;
        Listed.Translated = true;
        Listed.Launch = isLaunch(Call);
        AcceptedIndex.push_back(Out.CallSites.size());
        Accepted.push_back(std::move(*A));
      }
      const SourceLocation End = SM.getFileLoc(Call->getEndLoc());
      Listed.EndColumn = SM.getPresumedColumnNumber(End);
      Out.CallSites.push_back(Listed);
    }
    return Accepted;
  }

  /// True when LE captures `this` (not a copy of `*this`).
  static bool capturesThis(const LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesThis() && C.getCaptureKind() == LCK_This)
        return true;
    return false;
  }

  /// The lambdas of an accepted call-site that nvcc cannot compile as
  /// written: a function object each, or a warning saying why none can be
  /// written (the lambda then stays, for hipcc and host compilers). A
  /// lambda that captures `this` and cannot be rewritten is an error: it
  /// would compile for hipcc and fault on the device.
  void planLambdaObjects(AnalysedCall &A, ASTContext &Ctx, Reporter &Diags) {
    std::vector<const LambdaExpr *> Lambdas(A.StubLambdas.begin(), A.StubLambdas.end());
    if (A.Lambda)
      Lambdas.insert(Lambdas.begin(), A.Lambda);
    for (const LambdaExpr *LE : Lambdas) {
      std::optional<std::string> Why = nvccRestriction(LE, Ctx);
      if (!Why)
        continue;
      std::variant<LambdaObject, std::string> P = planLambdaObject(LE, *Why, Ctx);
      if (auto *O = std::get_if<LambdaObject>(&P))
        A.Objects.push_back(std::move(*O));
      else if (!WarnedLambdas.insert(LE->getBeginLoc().getRawEncoding()).second)
        continue;
      else if (capturesThis(LE)) // hipcc would compile it, and it would fault
        Diags.thisOnDevice(LE->getBeginLoc()) << std::get<std::string>(P);
      else
        Diags.nvccLambda(LE->getBeginLoc()) << *Why << std::get<std::string>(P);
    }
  }

  /// One model for every instantiation of a call-site: the first one's
  /// diagnostics are reported, the others are analysed quietly and must
  /// convert their arguments the same way.
  std::optional<AnalysedCall> analyseInstantiations(const Candidate &C, ASTContext &Ctx,
                                                    Reporter &Diags) {
    std::optional<AnalysedCall> First = C.R->analyse(C.Calls.front(), Ctx, Diags);
    if (!First || C.Calls.size() == 1)
      return First;
    DiagnosticsEngine &DE = Ctx.getDiagnostics();
    IgnoringDiagConsumer Ignore;
    DiagnosticsEngine Silent(DE.getDiagnosticIDs(), &DE.getDiagnosticOptions(), &Ignore, false);
    Silent.setSourceManager(&Ctx.getSourceManager());
    Reporter Quiet(Silent);
    std::vector<CallSite> Models{First->Model};
    for (size_t I = 1; I < C.Calls.size(); ++I) {
      std::optional<AnalysedCall> Other = C.R->analyse(C.Calls[I], Ctx, Quiet);
      if (!Other) {
        Diags.untouched(C.Loc) << C.R->name()
                               << "another instantiation of the enclosing template gives it "
                                  "arguments dpstub rejects";
        return std::nullopt;
      }
      Models.push_back(Other->Model);
      for (const FunctionDecl *FD : Other->StubCalls)
        First->StubCalls.push_back(FD);
    }
    CallSite Merged;
    if (std::optional<std::string> Why = mergeInstantiations(Models, Merged)) {
      Diags.untouched(C.Loc) << C.R->name()
                             << "the instantiations of the enclosing template convert its "
                                "arguments differently (" + *Why + ")";
      return std::nullopt;
    }
    First->Model = Merged;
    return First;
  }

  /// Phase 3: the edits that translate `Calls`, and their stub header.
  /// Kernels (and what they call) are marked for the device, the stub
  /// header is included where it must be, and every call-site's callee
  /// becomes its launcher, named after the position the call-site has in
  /// the rewritten file.
  TranslationPlan plan(std::vector<AnalysedCall> Accepted, ASTContext &Ctx, Reporter &Diags) {
    TranslationPlan Plan;
    const SourceManager &SM = Ctx.getSourceManager();
    const LangOptions &LO = Ctx.getLangOpts();
    const FileID Main = SM.getMainFileID();
    const llvm::StringRef Buffer = SM.getBufferData(Main);
    const llvm::StringRef MainName = llvm::sys::path::filename(Out.MainFile);
    Out.StubHeaderName = MainName.str() + ".dpstub.hpp";
    Namespace = sanitize(MainName);

    auto Add = [&](const std::string &Path, const Edit &E) {
      if (llvm::Error Err = Plan.Edits[Path].add(
              tooling::Replacement(Path, E.Offset, E.Length, E.Text)))
        Diags.editFailed(SourceLocation()) << llvm::toString(std::move(Err));
    };
    OutputPositions Positions(Buffer);
    std::vector<Edit> MainEdits;
    auto AddMain = [&](const Edit &E) {
      Positions.add(E);
      MainEdits.push_back(E);
    };

    // Lambdas nvcc cannot compile become function objects: each one's
    // definition before the declaration that holds it, its construction in
    // its place. One per lambda (a template's instantiations, a lambda in a
    // variable shared by call-sites), named after where it was.
    std::map<unsigned, const LambdaObject *> Objects; // by the lambda's offset
    for (const AnalysedCall &A : Accepted)
      for (const LambdaObject &O : A.Objects)
        Objects.emplace(O.Begin, &O);
    std::map<unsigned, std::string> ObjectNames;
    std::map<unsigned, std::string> Definitions; // by insertion offset
    std::set<std::string> Taken;
    for (const auto &[Begin, O] : Objects) {
      std::string Name = O->BaseName;
      for (int K = 2; Taken.count(Name) || Ctx.Idents.find(Name) != Ctx.Idents.end(); ++K)
        Name = O->BaseName + "_" + std::to_string(K);
      Taken.insert(Name);
      ObjectNames[Begin] = Name;
      Definitions[O->InsertAt] += renderLambdaObject(*O, Name);
    }

    // The kernels, and what they call, compile for the device too.
    DeviceMarker Marker(Ctx, Diags);
    for (const auto &[Begin, O] : Objects)
      Marker.replaced(O->Lambda);
    for (const AnalysedCall &A : Accepted)
      Marker.markKernel(A);
    for (const auto &[Key, Text] : Marker.texts()) {
      const std::string Path = absolutePath(Key.first, SM.getFileManager());
      if (Path == Out.MainFile)
        AddMain({Key.second, 0, Text});
      else
        Add(Path, {Key.second, 0, Text});
    }

    // The stub header: declarations before the first call-site's top-level
    // declaration, definitions after the last call-site.
    unsigned DeclarationsAt = 0;
    if (const Decl *Top = topLevelDeclOf(Accepted.front().Call, Ctx)) {
      const auto [FID, Offset] = SM.getDecomposedLoc(SM.getFileLoc(Top->getBeginLoc()));
      DeclarationsAt = SM.getFileOffset(SM.translateLineCol(FID, SM.getLineNumber(FID, Offset), 1));
    }
    const SourceLocation LastEnd = Lexer::getLocForEndOfToken(
        SM.getFileLoc(Accepted.back().Call->getEndLoc()), 0, SM, LO);
    // Insertions at one offset make one edit: the include first, then the
    // function objects in source order.
    for (const Edit &E : planIncludes(Buffer, Out.StubHeaderName, DeclarationsAt,
                                      SM.getFileOffset(LastEnd))) {
      if (E.Length == 0 && Definitions.count(E.Offset))
        Definitions[E.Offset].insert(0, E.Text);
      else
        AddMain(E);
    }
    for (const auto &[At, Text] : Definitions)
      AddMain({At, 0, Text});
    for (const auto &[Begin, O] : Objects)
      AddMain({O->Begin, O->End - O->Begin, O->construction(ObjectNames[Begin])});

    // The call-sites, in source order, each named after where it ends up.
    std::map<std::pair<CallKind, unsigned>, int> PerLine; // call-sites of a kind on a line
    for (AnalysedCall &A : Accepted) {
      const Expr *Callee = A.Call->getCallee()->IgnoreImplicit();
      SourceLocation NameEnd = Callee->getEndLoc();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
        NameEnd = DRE->getNameInfo().getEndLoc(); // keeps explicit <Dim>
      const CharSourceRange Range = CharSourceRange::getTokenRange(
          SM.getFileLoc(Callee->getBeginLoc()), SM.getFileLoc(NameEnd));
      const unsigned Begin = SM.getFileOffset(Range.getBegin());
      const unsigned End = SM.getFileOffset(Lexer::getLocForEndOfToken(Range.getEnd(), 0, SM, LO));
      // Named and located where the user's file has it: the written file
      // keeps the user's lines (line markers), or it is the user's file.
      auto [Line, Column] = Positions.lineColumn(Begin);
      if (Opts.LineMarkers)
        Line = SM.getPresumedLoc(Range.getBegin()).getLine();
      CallSite &C = A.Model;
      C.Loc.Line = Line;
      C.Loc.Column = Column;
      C.StubName = std::string(toString(C.Kind)) + "_" + std::to_string(Line) + "_" + std::to_string(Column);
      ++PerLine[{C.Kind, Line}];
      const std::string Launcher = "dpstub::" + Namespace + "::" + C.StubName;
      if (Buffer.slice(Begin, End) != Launcher)
        AddMain({Begin, End - Begin, Launcher});
    }

    for (AnalysedCall &A : Accepted)
      A.Model.KernelName = kernelName(A.Model, Namespace, PerLine[{A.Model.Kind, A.Model.Loc.Line}] > 1);

    if (Opts.LineMarkers)
      addLineMarkers(MainEdits, Buffer, [&](unsigned Offset) {
        // The source's own name (no #line of the user's before): absolute.
        const PresumedLoc P = SM.getPresumedLoc(SM.getComposedLoc(Main, Offset));
        const bool Own = llvm::StringRef(P.getFilename()) == SM.getFileEntryRefForID(Main)->getName();
        return lineDirective(P.getLine(), Own ? Out.MainFile : std::string(P.getFilename()));
      });
    for (const Edit &E : MainEdits)
      Add(Out.MainFile, E);

    std::vector<CallSite> Models;
    for (AnalysedCall &A : Accepted) {
      describeLambdaObjects(A, Objects, ObjectNames, Buffer, Ctx);
      Models.push_back(A.Model);
    }
    Plan.StubHeader = renderStubHeader(Models, MainName, Namespace);
    return Plan;
  }

  /// A call-site whose kernel or operator became a function object is
  /// described as one: exactly what translating the rewritten source
  /// again finds there, so the stub header is the same both times.
  static void describeLambdaObjects(AnalysedCall &A,
                                    const std::map<unsigned, const LambdaObject *> &Objects,
                                    const std::map<unsigned, std::string> &Names,
                                    llvm::StringRef Buffer, ASTContext &Ctx) {
    auto Find = [&](const LambdaExpr *LE) -> const LambdaObject * {
      if (!LE)
        return nullptr;
      for (const LambdaObject &O : A.Objects)
        if (O.Lambda == LE)
          return Objects.at(O.Begin);
      return nullptr;
    };
    if (const LambdaObject *O = Find(A.Lambda)) {
      const std::string &Name = Names.at(O->Begin);
      Kernel &K = A.Model.K;
      K.Kind = KernelKind::FunctionObject;
      K.Name = O->Scope + Name;
      K.Signature = K.Generic ? K.Name + " (generic)"
                              : signatureOf(A.Lambda->getCallOperator(), Ctx,
                                            K.Name.substr(2) + "::operator()");
      // A generic parameter's type is its type parameter now: `auto &o`
      // reads `P0 &o`.
      for (Argument &Arg : A.Model.Args)
        for (const auto &[Param, TypeParam] : O->AutoParams) {
          const size_t At = Arg.FormalType.find("auto");
          if (!Arg.FormalName.empty() && Arg.FormalName == Param && At != std::string::npos)
            Arg.FormalType.replace(At, 4, TypeParam);
        }
    }
    if (const LambdaObject *O = Find(A.OperatorLambda)) {
      Operator &Op = A.Model.Op;
      Op.Kind = KernelKind::FunctionObject;
      if (Op.Text == Buffer.slice(O->Begin, O->End))
        Op.Text = O->construction(Names.at(O->Begin));
    }
  }

  /// What each file a plan edits was when parsed: -i refuses to write a
  /// file that changed since.
  void recordParsed(ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    auto Record = [&](const TranslationPlan &P) {
      for (const auto &[Path, Reps] : P.Edits) {
        (void)Reps;
        if (Out.Parsed.count(Path))
          continue;
        if (auto FE = SM.getFileManager().getOptionalFileRef(Path))
          if (const FileID FID = SM.translateFile(*FE); FID.isValid())
            Out.Parsed[Path] = SM.getBufferData(FID).str();
      }
    };
    Record(Out.Whole);
    for (const auto &[I, P] : Out.Each)
      Record(P);
    if (!Out.Parsed.count(Out.MainFile))
      Out.Parsed[Out.MainFile] = SM.getBufferData(SM.getMainFileID()).str();
  }

  const TranslationOptions &Opts;
  TranslationResult &Out;
  Sema *TheSema = nullptr;
  std::vector<Decl *> TopLevel;
  std::string Namespace;
  bool SelectionHit = false;
  std::set<unsigned> WarnedLambdas; ///< lambdas already reported by nvccLambda
  std::vector<size_t> AcceptedIndex; ///< for each accepted call, its index in Out.CallSites
};

class TranslateAction : public ASTFrontendAction {
public:
  TranslateAction(const TranslationOptions &Opts, TranslationResult &Out, llvm::raw_ostream *Printed)
      : Opts(Opts), Out(Out), Printed(Printed) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
    // "1 error generated." follows the diagnostics it counts, in the same
    // stream (not straight to stderr, before them, from another thread).
    if (Printed)
      CI.setVerboseOutputStream(*Printed);
    DiagnosticsEngine &DE = CI.getDiagnostics();
    std::unique_ptr<DiagnosticConsumer> Owned = DE.takeClient();
    DiagnosticConsumer *Next = DE.getClient();
    DE.setClient(new RecordingConsumer(Next, std::move(Owned), Out.Diagnostics,
                                      Opts.CompilerWarnings),
                true);
    return std::make_unique<TranslateConsumer>(Opts, Out);
  }

private:
  const TranslationOptions &Opts;
  TranslationResult &Out;
  llvm::raw_ostream *Printed;
};

} // namespace

llvm::Expected<Selection> parseSelection(llvm::StringRef Text) {
  // file:line:col[-line:col]; the file may itself hold colons.
  auto Bad = [&](const std::string &Why) {
    return llvm::createStringError("--selection=" + Text.str() + ": " + Why +
                                   " (expected file:line:col[-line:col], 1-based)");
  };
  Selection S;
  llvm::StringRef Rest = Text, EndPart;
  std::tie(Rest, EndPart) = Rest.rsplit('-');
  if (EndPart.contains(':') && !EndPart.contains('/')) {
    llvm::StringRef L, C;
    std::tie(L, C) = EndPart.split(':');
    if (L.getAsInteger(10, S.EndLine) || C.getAsInteger(10, S.EndColumn))
      return Bad("the end is not line:col");
  } else {
    Rest = Text; // no end: a point
  }
  llvm::StringRef File, Line, Column;
  std::tie(Rest, Column) = Rest.rsplit(':');
  std::tie(File, Line) = Rest.rsplit(':');
  if (File.empty() || Line.getAsInteger(10, S.BeginLine) || Column.getAsInteger(10, S.BeginColumn))
    return Bad("the start is not file:line:col");
  if (S.BeginLine == 0 || S.BeginColumn == 0)
    return Bad("lines and columns count from 1");
  if (!S.EndLine)
    S.EndLine = S.BeginLine, S.EndColumn = S.BeginColumn;
  if (S.EndLine < S.BeginLine || (S.EndLine == S.BeginLine && S.EndColumn < S.BeginColumn))
    return Bad("the range ends before it starts");
  SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  S.File = Abs.str().str();
  return S;
}

std::unique_ptr<FrontendAction> makeTranslateAction(const TranslationOptions &Opts,
                                                    TranslationResult &Out,
                                                    llvm::raw_ostream *Printed) {
  return std::make_unique<TranslateAction>(Opts, Out, Printed);
}

namespace {
/// A database that gives each file its first compile command only: a file
/// built by several targets is translated once.
class FirstCommandDatabase : public tooling::CompilationDatabase {
public:
  explicit FirstCommandDatabase(const tooling::CompilationDatabase &Base) : Base(Base) {}
  std::vector<tooling::CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    std::vector<tooling::CompileCommand> Commands = Base.getCompileCommands(File);
    if (Commands.size() > 1)
      Commands.resize(1);
    return Commands;
  }
  std::vector<std::string> getAllFiles() const override { return Base.getAllFiles(); }

private:
  const tooling::CompilationDatabase &Base;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  ActionFactory(const TranslationOptions &Opts, TranslationResult &Out, llvm::raw_ostream &Printed)
      : Opts(Opts), Out(Out), Printed(Printed) {}
  std::unique_ptr<FrontendAction> create() override {
    return makeTranslateAction(Opts, Out, &Printed);
  }

private:
  const TranslationOptions &Opts;
  TranslationResult &Out;
  llvm::raw_ostream &Printed;
};
} // namespace

bool translateUnit(const tooling::CompilationDatabase &DB, const std::string &Source,
                   const TranslationOptions &Opts, TranslationResult &Out, std::string &Printed,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  const FirstCommandDatabase Once(DB);
  tooling::ClangTool Tool(Once, {Source}, std::make_shared<PCHContainerOperations>(),
                          FS ? FS : llvm::vfs::getRealFileSystem());
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      // A translated source declares its launchers but, for dpstub, does
      // not define them: that is by design.
      {"-DDPSTUB_TOOL=1", "-Wno-undefined-internal", "-Wno-unknown-warning-option",
       "-Wno-unused-command-line-argument", "-resource-dir=" DPSTUB_CLANG_RESOURCE_DIR},
      tooling::ArgumentInsertPosition::END));
  // The database compiler's own headers (GCC's omp.h), searched after
  // clang's and before dpstub's own.
  Tool.appendArgumentsAdjuster(queryDriverAdjuster(Opts.QueryDrivers));
  if (!Opts.OwnIncludeDir.empty())
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        {"-idirafter", Opts.OwnIncludeDir.c_str()}, tooling::ArgumentInsertPosition::END));
  llvm::raw_string_ostream OS(Printed);
  auto DiagOpts = llvm::makeIntrusiveRefCnt<DiagnosticOptions>();
  TextDiagnosticPrinter Printer(OS, DiagOpts.get());
  Tool.setDiagnosticConsumer(&Printer);
  // "Error while processing <file>." adds nothing to the diagnostics.
  Tool.setPrintErrorMessage(false);
  ActionFactory Factory(Opts, Out, OS);
  const bool Ran = Tool.run(&Factory) == 0;
  OS.flush();
  return Ran;
}

} // namespace dpstub
