//===- Translation.cpp - One translation unit, translated -----------------===//
//
// The frontend action that translates one unit (its consumer is
// TranslateConsumer.cpp, its planner Planner.cpp), the diagnostics it
// records for --list, parsing --selection, and translateUnit: one source
// parsed with its compile command.
//
//===----------------------------------------------------------------------===//

#include "dpstub/Translation.h"
#include "Planner.h"
#include "TranslateConsumer.h"
#include "migrate/MigrateConsumer.h"
#include "AstText.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"

#include <optional>
#include <set>

using namespace clang;

namespace dpstub {

namespace {

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
              : Level == DiagnosticsEngine::Remark  ? "remark"
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
    if (Opts.Migrate)
      return makeMigrateConsumer(CI, Opts, Out);
    return makeTranslateConsumer(Opts, Out);
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

/// The macro a compiler defines for a flag enabling OpenMP or OpenACC,
/// as GCC 12 does (`-fopenmp`: `_OPENMP` 201511, OpenMP 4.5; `-fopenacc`:
/// `_OPENACC` 201711); none for others (`-fopenmp-simd` defines nothing).
std::optional<std::string> enabledModelMacro(llvm::StringRef Flag) {
  if (Flag == "-fopenmp" || Flag.starts_with("-fopenmp="))
    return std::string("-D_OPENMP=201511");
  if (Flag == "-fopenacc")
    return std::string("-D_OPENACC=201711");
  return std::nullopt;
}

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
      {"-DDPSTUB_TOOL=1",
       // A translated source declares its launchers but, for dpstub, does
       // not define them: that is by design.
       "-Wno-undefined-internal", "-Wno-unknown-warning-option", "-Wno-unused-command-line-argument",
       // C++ that GCC takes and clang 19 refuses by default,
       // `v.template emplace_back(...)` (miniBUDE's), stays a warning.
       "-Wno-error=missing-template-arg-list-after-template-kw", "-resource-dir=" DPSTUB_CLANG_RESOURCE_DIR},
      tooling::ArgumentInsertPosition::END));
  // Migration reads OpenMP and OpenACC directives from the text: the
  // loops stay loops in the AST whatever the build enables.
  // C that GCC takes with a warning (a call with no declaration, an
  // implicit int), clang refuses by default since version 16: as GCC, a
  // warning; the migrated file, which is C++, must then do without them
  // (migrate/FromC.h).
  if (Opts.Migrate) {
    // What the build enables still shows to the preprocessor: `#ifdef
    // _OPENMP` code, and directives written by macros defined only then
    // (ParRes Kernels' `OMP_FOR()`), are what the build compiles.
    Tool.appendArgumentsAdjuster([](const tooling::CommandLineArguments &Args, llvm::StringRef) {
      tooling::CommandLineArguments Kept;
      for (const std::string &A : Args) {
        const llvm::StringRef F(A);
        if (!F.starts_with("-fopenmp") && !F.starts_with("-fopenacc"))
          Kept.push_back(A);
        else if (std::optional<std::string> Macro = enabledModelMacro(F))
          Kept.push_back(*Macro);
      }
      return Kept;
    });
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        {"-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int",
         "-Wno-error=int-conversion", "-Wno-error=incompatible-pointer-types",
         "-Wno-error=incompatible-function-pointer-types"},
        tooling::ArgumentInsertPosition::END));
  }
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
