//===- Translation.cpp - One translation unit, translated -----------------===//

#include "dpstub/Translation.h"
#include "dpstub/Analysis.h"
#include "dpstub/DeviceMarking.h"
#include "dpstub/Diagnostics.h"
#include "dpstub/Rule.h"
#include "dpstub/StubHeader.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

namespace {

/// Forwards diagnostics to the tool's printer and records them for --list.
class RecordingConsumer : public DiagnosticConsumer {
public:
  RecordingConsumer(DiagnosticConsumer *Next, std::unique_ptr<DiagnosticConsumer> Owned,
                    std::vector<ListedDiagnostic> &Out)
      : Next(Next), Owned(std::move(Owned)), Out(Out) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Next->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next->EndSourceFile(); }
  void finish() override { Next->finish(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Next->HandleDiagnostic(Level, Info);
    ListedDiagnostic D;
    D.Level = Level >= DiagnosticsEngine::Error     ? "error"
              : Level == DiagnosticsEngine::Warning ? "warning"
                                                    : "note";
    if (Info.hasSourceManager() && Info.getLocation().isValid())
      D.Loc = locationOf(Info.getLocation(), Info.getSourceManager());
    SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    D.Message = Msg.str().str();
    Out.push_back(std::move(D));
  }

private:
  DiagnosticConsumer *Next;
  std::unique_ptr<DiagnosticConsumer> Owned;
  std::vector<ListedDiagnostic> &Out;
};

/// Remembers every match of one rule.
struct MatchCollector : MatchFinder::MatchCallback {
  const Rule *R = nullptr;
  std::vector<std::pair<const Rule *, const CallExpr *>> *Matches = nullptr;
  void run(const MatchFinder::MatchResult &Result) override {
    if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call"))
      Matches->push_back({R, Call});
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

std::string sanitize(llvm::StringRef Path) {
  std::string S;
  for (char C : Path)
    S += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  if (S.empty() || std::isdigit(static_cast<unsigned char>(S[0])))
    S = "_" + S;
  return S;
}

/// The types of a call's arguments, to compare template instantiations.
std::string argumentTypes(const CallExpr *Call, const ASTContext &Ctx) {
  std::string S;
  for (const Expr *A : Call->arguments())
    S += A->getType().getCanonicalType().getAsString(Ctx.getPrintingPolicy()) + ";";
  return S;
}

class TranslateConsumer : public ASTConsumer {
public:
  TranslateConsumer(const TranslationOptions &Opts, TranslationResult &Out)
      : Opts(Opts), Out(Out) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &DE = Ctx.getDiagnostics();
    const SourceManager &SM = Ctx.getSourceManager();
    const FileID Main = SM.getMainFileID();
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(Main))
      Out.MainFile = absolutePath(FE->getName(), SM.getFileManager());
    if (DE.hasErrorOccurred()) {
      Out.ParseFailed = true;
      return;
    }
    Reporter Diags(DE);

    std::vector<std::pair<const Rule *, const CallExpr *>> Matches, Dependent;
    MatchFinder Finder;
    std::vector<MatchCollector> Collectors(2 * allRules().size());
    for (size_t I = 0; I < allRules().size(); ++I) {
      Collectors[2 * I].R = Collectors[2 * I + 1].R = allRules()[I].get();
      Collectors[2 * I].Matches = &Matches;
      Collectors[2 * I + 1].Matches = &Dependent;
      Finder.addMatcher(traverse(TK_AsIs, allRules()[I]->matcher()), &Collectors[2 * I]);
      Finder.addMatcher(traverse(TK_AsIs, allRules()[I]->dependentMatcher()),
                        &Collectors[2 * I + 1]);
    }
    Finder.matchAST(Ctx);

    // One group per source location: a call-site in a template is matched
    // once per instantiation.
    std::map<unsigned, std::vector<std::pair<const Rule *, const CallExpr *>>> Groups;
    for (const auto &M : Matches) {
      const SourceLocation L = SM.getFileLoc(M.second->getBeginLoc());
      if (SM.isInSystemHeader(L))
        continue;
      Groups[L.getRawEncoding()].push_back(M);
    }
    std::vector<std::pair<SourceLocation, std::vector<std::pair<const Rule *, const CallExpr *>>>>
        Ordered;
    for (auto &G : Groups)
      Ordered.push_back({SourceLocation::getFromRawEncoding(G.first), std::move(G.second)});
    // A template never instantiated has only its pattern, with an
    // unresolved callee: reported in order with the others.
    std::set<unsigned> NeverInstantiated;
    for (const auto &M : Dependent) {
      const SourceLocation L = SM.getFileLoc(M.second->getBeginLoc());
      if (SM.isInSystemHeader(L) || Groups.count(L.getRawEncoding()) ||
          !NeverInstantiated.insert(L.getRawEncoding()).second)
        continue;
      Ordered.push_back({L, {M}});
    }
    std::sort(Ordered.begin(), Ordered.end(), [&](const auto &A, const auto &B) {
      return SM.isBeforeInTranslationUnit(A.first, B.first);
    });

    std::vector<AnalysedCall> Accepted;
    for (const auto &[Loc, Group] : Ordered) {
      const Rule &R = *Group.front().first;
      const CallExpr *Call = Group.front().second;
      ListedCallSite Listed;
      Listed.Model.Kind = R.kind().str();
      Listed.Model.Loc = locationOf(Call->getBeginLoc(), SM);
      Listed.EndLine = SM.getPresumedLineNumber(SM.getFileLoc(Call->getEndLoc()));
      if (NeverInstantiated.count(Loc.getRawEncoding())) {
        Diags.untouched(Call->getBeginLoc())
            << R.kind() << "the enclosing template is never instantiated in this translation "
                           "unit, so its argument types are unknown";
        Out.CallSites.push_back(Listed);
        continue;
      }
      if (!SM.isWrittenInMainFile(SM.getFileLoc(Call->getBeginLoc()))) {
        Diags.untouched(Call->getBeginLoc())
            << R.kind() << "it is in an included file; dpstub rewrites the translation "
                           "unit's main file";
        Out.CallSites.push_back(Listed);
        continue;
      }
      const std::string Types = argumentTypes(Call, Ctx);
      const bool Uniform = std::all_of(Group.begin(), Group.end(), [&](const auto &M) {
        return argumentTypes(M.second, Ctx) == Types;
      });
      if (!Uniform) {
        Diags.untouched(Call->getBeginLoc())
            << R.kind() << "the instantiations of the enclosing template give it different "
                           "argument types; write the call-site in a non-template function";
        Out.CallSites.push_back(Listed);
        continue;
      }
      if (std::optional<AnalysedCall> A = R.analyse(Call, Ctx, Diags)) {
        Listed.Model = A->Model;
        Listed.Translated = true;
        Accepted.push_back(std::move(*A));
      }
      Out.CallSites.push_back(Listed);
    }
    Out.HasErrors = Diags.hasErrors();
    if (Accepted.empty() || Diags.hasErrors())
      return;

    const LangOptions &LO = Ctx.getLangOpts();
    llvm::StringRef MainName = llvm::sys::path::filename(Out.MainFile);
    Out.StubHeaderName = MainName.str() + ".dpstub.hpp";
    std::string Relative = Out.MainFile;
    if (!Opts.Root.empty() && llvm::StringRef(Out.MainFile).starts_with(Opts.Root + "/"))
      Relative = Out.MainFile.substr(Opts.Root.size() + 1);
    else
      Relative = MainName.str();
    const std::string Namespace = sanitize(Relative);

    auto Add = [&](const tooling::Replacement &Rep, SourceLocation At) {
      if (llvm::Error E = Out.Edits[Rep.getFilePath().str()].add(Rep))
        Diags.editFailed(At) << llvm::toString(std::move(E));
    };

    // The call-sites: the callee becomes the generated launcher.
    for (const AnalysedCall &A : Accepted) {
      const Expr *Callee = A.Call->getCallee()->IgnoreImplicit();
      Add(tooling::Replacement(SM, CharSourceRange::getTokenRange(Callee->getSourceRange()),
                               "dpstub::" + Namespace + "::" + A.Model.StubName, LO),
          Callee->getBeginLoc());
    }
    // The kernels, and what they call, compile for the device too.
    DeviceMarker Marker(Ctx, Diags);
    for (const AnalysedCall &A : Accepted)
      Marker.markKernel(A);
    for (const auto &[Key, Text] : Marker.texts())
      Add(tooling::Replacement(Key.first, Key.second, 0, Text), SourceLocation());

    // The stub header: declarations before the first call-site's top-level
    // declaration, definitions at the end of the file.
    const std::string Include = "#include \"" + Out.StubHeaderName + "\"";
    if (const Decl *Top = topLevelDeclOf(Accepted.front().Call, Ctx)) {
      const SourceLocation Begin = SM.getFileLoc(Top->getBeginLoc());
      const auto [FID, Offset] = SM.getDecomposedLoc(Begin);
      const unsigned Line = SM.getLineNumber(FID, Offset);
      const SourceLocation LineStart = SM.translateLineCol(FID, Line, 1);
      Add(tooling::Replacement(SM, LineStart, 0,
                               Include + " // dpstub: launchers of this file's call-sites\n"),
          Begin);
    }
    const llvm::StringRef Buffer = SM.getBufferData(Main);
    Add(tooling::Replacement(Out.MainFile, static_cast<unsigned>(Buffer.size()), 0,
                             std::string(Buffer.ends_with("\n") ? "" : "\n") + "\n" + Include +
                                 " // dpstub: their invocation stubs\n"),
        SourceLocation());

    // Paths as the compiler saw them are relative to the compile command's
    // directory: the driver gets absolute ones.
    std::map<std::string, tooling::Replacements> Absolute;
    for (const auto &[Path, Reps] : Out.Edits) {
      const std::string Abs = absolutePath(Path, SM.getFileManager());
      for (const tooling::Replacement &R : Reps)
        if (llvm::Error E = Absolute[Abs].add(tooling::Replacement(
                Abs, R.getOffset(), R.getLength(), R.getReplacementText())))
          Diags.editFailed(SourceLocation()) << llvm::toString(std::move(E));
    }
    Out.Edits = std::move(Absolute);
    for (const auto &[Path, Reps] : Out.Edits) {
      (void)Reps;
      if (auto FE = SM.getFileManager().getOptionalFileRef(Path)) {
        const FileID FID = SM.translateFile(*FE);
        if (FID.isValid())
          Out.Parsed[Path] = SM.getBufferData(FID).str();
      }
    }
    if (Out.Parsed.find(Out.MainFile) == Out.Parsed.end())
      Out.Parsed[Out.MainFile] = Buffer.str();
    Out.HasErrors = Diags.hasErrors();

    // The header text, from the models alone.
    std::vector<CallSite> Models;
    for (const AnalysedCall &A : Accepted)
      Models.push_back(A.Model);
    Out.StubHeader = renderStubHeader(Models, MainName, Namespace);
  }

private:
  const TranslationOptions &Opts;
  TranslationResult &Out;
};

class TranslateAction : public ASTFrontendAction {
public:
  TranslateAction(const TranslationOptions &Opts, TranslationResult &Out) : Opts(Opts), Out(Out) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
    DiagnosticsEngine &DE = CI.getDiagnostics();
    std::unique_ptr<DiagnosticConsumer> Owned = DE.takeClient();
    DiagnosticConsumer *Next = DE.getClient();
    DE.setClient(new RecordingConsumer(Next, std::move(Owned), Out.Diagnostics), true);
    return std::make_unique<TranslateConsumer>(Opts, Out);
  }

private:
  const TranslationOptions &Opts;
  TranslationResult &Out;
};

} // namespace

std::unique_ptr<FrontendAction> makeTranslateAction(const TranslationOptions &Opts,
                                                    TranslationResult &Out) {
  return std::make_unique<TranslateAction>(Opts, Out);
}

} // namespace dpstub
