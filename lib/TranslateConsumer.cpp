//===- TranslateConsumer.cpp - Phases 1-3 over one parsed unit ------------===//
//
// Phase 1 finds the call-sites (one Candidate per source location, a
// template's instantiations together), phase 2 analyses each into a model
// or says why it stays, phase 3 (Planner.cpp) plans the edits.
//
//===----------------------------------------------------------------------===//

#include "TranslateConsumer.h"
#include "Planner.h"

#include "AstText.h"
#include "AstVisitor.h"
#include "dpstub/DeviceMarking.h"
#include "dpstub/Diagnostics.h"
#include "dpstub/Instantiations.h"
#include "dpstub/Rule.h"
#include "lambdas/Lambdas.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

namespace {

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
    if (Opts.RecordLoops)
      recordLoops(Ctx);
    Reporter Diags(DE);
    const std::vector<Candidate> Candidates = findCallSites(Ctx);
    Out.SelectionEmpty = Opts.Only && Opts.Only->File == Out.MainFile && !SelectionHit;
    if (Out.SelectionEmpty)
      return;
    instantiateCallOperators(Candidates);
    std::vector<AnalysedCall> Accepted = analyseCallSites(Candidates, Ctx, Diags);
    Out.HasErrors = Diags.hasErrors();
    if (Diags.hasErrors() || Opts.ListOnly)
      return;
    DeviceDeclarations DeviceDirectives(Ctx.getSourceManager());
    const std::vector<const FunctionDecl *> Declared = declaredDefinitions(Ctx, DeviceDirectives);
    const PlanUnit Unit{Ctx, Out.MainFile, Opts.LineMarkers, Declared, DeviceDirectives};
    if (Accepted.empty()) {
      // Functions declared for the device elsewhere, defined here.
      Out.Whole = planDeclaredDefinitions(Unit, Diags);
      if (!Out.Whole.Edits.empty())
        recordParsed(Ctx);
      Out.HasErrors = Diags.hasErrors();
      return;
    }
    Out.StubHeaderName = stubHeaderNameOf(Out.MainFile);
    Out.Whole = planTranslation(Accepted, Unit, Diags);
    if (Opts.PlanEachCallSite)
      planEachCallSite(Accepted, Unit, Diags);
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
        Lambdas.plan(*A, Ctx, Diags);
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

  /// For the language server's code actions: each translatable call-site
  /// planned alone, with the launches translated before.
  void planEachCallSite(const std::vector<AnalysedCall> &Accepted, const PlanUnit &Unit,
                        Reporter &Diags) {
    for (size_t I = 0; I < Out.CallSites.size(); ++I) {
      if (!Out.CallSites[I].Translated || Out.CallSites[I].Launch)
        continue;
      std::vector<AnalysedCall> One;
      for (size_t K = 0; K < Accepted.size(); ++K)
        if (AcceptedIndex[K] == I || Out.CallSites[AcceptedIndex[K]].Launch)
          One.push_back(Accepted[K]);
      Out.Each[I] = planTranslation(One, Unit, Diags);
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

  /// TranslationResult::LoopSpans, from the main file's top-level
  /// declarations.
  void recordLoops(ASTContext &Ctx) {
    struct Fors : AstVisitor {
      explicit Fors(const SourceManager &SM) : SM(SM) {}
      const SourceManager &SM;
      std::vector<std::pair<unsigned, unsigned>> Spans;
      bool VisitForStmt(ForStmt *F) override {
        const SourceLocation B = SM.getFileLoc(F->getBeginLoc()), E = SM.getFileLoc(F->getEndLoc());
        if (SM.isWrittenInMainFile(B) && SM.isWrittenInMainFile(E))
          Spans.push_back({SM.getFileOffset(B), SM.getFileOffset(E)});
        return true;
      }
    } Walk(Ctx.getSourceManager());
    for (Decl *D : TopLevel)
      if (Ctx.getSourceManager().isWrittenInMainFile(Ctx.getSourceManager().getFileLoc(D->getLocation())))
        Walk.TraverseDecl(D);
    Out.LoopSpans = std::move(Walk.Spans);
  }
  bool SelectionHit = false;
  LambdaPlanner Lambdas; ///< lambdas nvcc refuses, as function objects
  std::vector<size_t> AcceptedIndex; ///< for each accepted call, its index in Out.CallSites
};

} // namespace

std::unique_ptr<ASTConsumer> makeTranslateConsumer(const TranslationOptions &Opts,
                                                   TranslationResult &Out) {
  return std::make_unique<TranslateConsumer>(Opts, Out);
}

} // namespace dpstub
