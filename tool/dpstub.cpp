//===- dpstub.cpp - The dpstub driver -------------------------------------===//
//
// dpstub [options] <sources...> [-- <compiler args>]
//
// Translates every data-parallel call-site of the given translation units
// into a launch of a generated invocation stub. Exit status: 0 when all went
// well, 1 when an error was reported, 2 for bad usage.
//
//===----------------------------------------------------------------------===//

#include "dpstub/ListReport.h"
#include "dpstub/Translation.h"

#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <unistd.h>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::tooling;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static llvm::cl::OptionCategory Category("dpstub options");
static llvm::cl::opt<bool> All("all", llvm::cl::desc("Every translation unit in the database"),
                               llvm::cl::cat(Category));
static llvm::cl::opt<unsigned> Jobs("j", llvm::cl::desc("Translation units processed in parallel"),
                                    llvm::cl::init(1), llvm::cl::cat(Category));
static llvm::cl::opt<std::string>
    OutDir("out-dir", llvm::cl::desc("Write rewritten sources and stub headers under DIR"),
           llvm::cl::value_desc("DIR"), llvm::cl::cat(Category));
static llvm::cl::opt<std::string>
    RootOpt("root", llvm::cl::desc("Directory --out-dir mirrors (default: common ancestor of "
                                   "the inputs)"),
            llvm::cl::value_desc("DIR"), llvm::cl::cat(Category));
static llvm::cl::opt<bool> InPlace("in-place", llvm::cl::desc("Rewrite the sources in place"),
                                   llvm::cl::cat(Category));
static llvm::cl::alias InPlaceShort("i", llvm::cl::desc("Alias for --in-place"),
                                    llvm::cl::aliasopt(InPlace));
static llvm::cl::opt<std::string>
    ExportFixes("export-fixes",
                llvm::cl::desc("Write the edits as a clang-apply-replacements YAML file"),
                llvm::cl::value_desc("FILE"), llvm::cl::cat(Category));
static llvm::cl::opt<bool> List("list",
                                llvm::cl::desc("Print a JSON report of every call-site; write "
                                               "nothing"),
                                llvm::cl::cat(Category));

#ifndef DPSTUB_CLANG_RESOURCE_DIR
#define DPSTUB_CLANG_RESOURCE_DIR ""
#endif

namespace {

/// One translation unit: its result and what its compiler printed.
struct Unit {
  std::string Source;
  dpstub::TranslationResult Result;
  std::string Printed;
  bool ToolFailed = false;
};

class ActionFactory : public FrontendActionFactory {
public:
  ActionFactory(const dpstub::TranslationOptions &Opts, dpstub::TranslationResult &Out)
      : Opts(Opts), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return dpstub::makeTranslateAction(Opts, Out);
  }

private:
  const dpstub::TranslationOptions &Opts;
  dpstub::TranslationResult &Out;
};

std::string absolute(llvm::StringRef P) {
  llvm::SmallString<256> A(P);
  fs::make_absolute(A);
  path::remove_dots(A, true);
  return A.str().str();
}

std::string commonAncestor(const std::vector<std::string> &Files) {
  if (Files.empty())
    return absolute(".");
  std::string Common = path::parent_path(Files.front()).str();
  for (const std::string &F : Files)
    while (!Common.empty() && !llvm::StringRef(F).starts_with(Common + "/"))
      Common = path::parent_path(Common).str();
  return Common.empty() ? "/" : Common;
}

/// A database that gives each file its first compile command only: a file
/// built by several targets is translated once.
class FirstCommandDatabase : public CompilationDatabase {
public:
  explicit FirstCommandDatabase(const CompilationDatabase &Base) : Base(Base) {}
  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    std::vector<CompileCommand> All = Base.getCompileCommands(File);
    if (All.size() > 1)
      All.resize(1);
    return All;
  }
  std::vector<std::string> getAllFiles() const override { return Base.getAllFiles(); }

private:
  const CompilationDatabase &Base;
};

void translate(const CompilationDatabase &DB, const dpstub::TranslationOptions &Opts, Unit &U) {
  const FirstCommandDatabase Once(DB);
  ClangTool Tool(Once, {U.Source});
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      // A translated source declares its launchers but, for dpstub, does not
      // define them: that is by design.
      {"-DDPSTUB_TOOL=1", "-Wno-undefined-internal", "-Wno-unknown-warning-option",
       "-Wno-unused-command-line-argument",
       "-resource-dir=" DPSTUB_CLANG_RESOURCE_DIR},
      ArgumentInsertPosition::END));
  llvm::raw_string_ostream OS(U.Printed);
  auto DiagOpts = llvm::makeIntrusiveRefCnt<DiagnosticOptions>();
  TextDiagnosticPrinter Printer(OS, DiagOpts.get());
  Tool.setDiagnosticConsumer(&Printer);
  ActionFactory Factory(Opts, U.Result);
  U.ToolFailed = Tool.run(&Factory) != 0;
  OS.flush();
}

/// Writes Text to Path through a temporary file and a rename.
bool writeAtomically(const std::string &Path, llvm::StringRef Text, std::string &Error) {
  if (std::error_code EC = fs::create_directories(path::parent_path(Path))) {
    Error = "cannot create " + path::parent_path(Path).str() + ": " + EC.message();
    return false;
  }
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = fs::createUniqueFile(Path + ".dpstub-%%%%%%", FD, Temp)) {
    Error = "cannot create a temporary beside " + Path + ": " + EC.message();
    return false;
  }
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
    Out.close();
    if (Out.has_error()) {
      Error = "cannot write " + Temp.str().str() + ": " + Out.error().message();
      Out.clear_error();
      fs::remove(Temp);
      return false;
    }
  }
  if (std::error_code EC = fs::rename(Temp, Path)) {
    Error = "cannot rename " + Temp.str().str() + " to " + Path + ": " + EC.message();
    fs::remove(Temp);
    return false;
  }
  return true;
}

/// Same bytes as before: the file is kept, but in --out-dir mode its time
/// is renewed so a build system sees its output newer than the inputs.
void touchForBuildSystems(const std::string &Path) {
  if (InPlace)
    return; // the user's own file: not even its timestamp changes
  int FD = -1;
  if (!fs::openFileForWrite(Path, FD, fs::CD_OpenExisting, fs::OF_Append)) {
    (void)fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
    ::close(FD);
  }
}

bool readFile(const std::string &Path, std::string &Text) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return false;
  Text = (*Buf)->getBuffer().str();
  return true;
}

} // namespace

int main(int argc, const char **argv) {
  auto Parser = CommonOptionsParser::create(argc, argv, Category, llvm::cl::ZeroOrMore,
                                            "dpstub: generate HIP invocation stubs for dp:: "
                                            "call-sites and rewrite the call-sites to launch "
                                            "them\n");
  if (!Parser) {
    llvm::errs() << "dpstub: " << llvm::toString(Parser.takeError()) << "\n";
    return 2;
  }
  const int Modes = !OutDir.empty() + InPlace + !ExportFixes.empty() + List;
  if (Modes != 1) {
    llvm::errs() << "dpstub: choose exactly one of --out-dir DIR, -i, --export-fixes FILE and "
                    "--list\n";
    return 2;
  }
  std::vector<std::string> Sources = Parser->getSourcePathList();
  // With no source named, CommonOptionsParser loads no database: --all
  // loads the one -p names.
  std::unique_ptr<CompilationDatabase> Loaded;
  const CompilationDatabase *DB = nullptr;
  if (!Sources.empty()) {
    DB = &Parser->getCompilations();
  } else if (All) {
    auto &Options = llvm::cl::getRegisteredOptions();
    const auto *BuildPath = static_cast<llvm::cl::opt<std::string> *>(Options.lookup("p"));
    std::string Error;
    if (BuildPath && !BuildPath->empty())
      Loaded = CompilationDatabase::autoDetectFromDirectory(*BuildPath, Error);
    if (!Loaded) {
      llvm::errs() << "dpstub: --all needs -p <build-dir> with a compile_commands.json"
                   << (Error.empty() ? "" : ": " + Error) << "\n";
      return 2;
    }
    DB = Loaded.get();
  }
  if (All)
    for (const std::string &F : DB->getAllFiles())
      Sources.push_back(F);
  if (Sources.empty()) {
    llvm::errs() << "dpstub: no input: name sources or pass --all\n";
    return 2;
  }
  std::set<std::string> Seen;
  std::vector<std::unique_ptr<Unit>> Units;
  for (const std::string &S : Sources)
    if (Seen.insert(absolute(S)).second) {
      Units.push_back(std::make_unique<Unit>());
      Units.back()->Source = absolute(S);
    }
  std::vector<std::string> Files;
  for (const auto &U : Units)
    Files.push_back(U->Source);
  dpstub::TranslationOptions Opts;
  Opts.ListOnly = List;
  const std::string Root = RootOpt.empty() ? commonAncestor(Files) : absolute(RootOpt);

  {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::max(1u, unsigned(Jobs))));
    for (auto &U : Units)
      Pool.async([&, Unit = U.get()] { translate(*DB, Opts, *Unit); });
    Pool.wait();
  }

  bool Failed = false;
  for (const auto &U : Units) { // in input order: output is deterministic
    llvm::errs() << U->Printed;
    Failed |= U->ToolFailed || U->Result.ParseFailed || U->Result.HasErrors;
  }

  if (List) {
    std::vector<const dpstub::TranslationResult *> Results;
    for (const auto &U : Units)
      Results.push_back(&U->Result);
    dpstub::writeListReport(llvm::outs(), Results, Root);
    return Failed ? 1 : 0;
  }

  // Merge the edits of every unit that translated cleanly.
  std::map<std::string, std::set<std::tuple<unsigned, unsigned, std::string>>> Edits;
  std::map<std::string, std::string> Parsed, NewFiles;
  for (const auto &U : Units) {
    const dpstub::TranslationResult &R = U->Result;
    if (U->ToolFailed || R.ParseFailed || R.HasErrors)
      continue; // nothing is written for a unit that failed
    for (const auto &[File, Reps] : R.Edits)
      for (const Replacement &Rep : Reps)
        Edits[File].insert({Rep.getOffset(), Rep.getLength(), Rep.getReplacementText().str()});
    for (const auto &[File, Text] : R.Parsed)
      Parsed.emplace(File, Text);
    if (!R.StubHeader.empty())
      NewFiles[(path::parent_path(R.MainFile) + "/" + R.StubHeaderName).str()] = R.StubHeader;
    if (!OutDir.empty() && !R.MainFile.empty() && !Edits.count(R.MainFile)) {
      Edits[R.MainFile]; // an unchanged source is still mirrored
    }
  }

  if (!ExportFixes.empty()) {
    TranslationUnitReplacements TUR;
    TUR.MainSourceFile = Units.size() == 1 ? Units.front()->Source : "";
    for (const auto &[File, Set] : Edits)
      for (const auto &[Offset, Length, Text] : Set)
        TUR.Replacements.emplace_back(File, Offset, Length, Text);
    for (const auto &[File, Text] : NewFiles)
      TUR.Replacements.emplace_back(File, 0, 0, Text); // a new file: create it empty first
    std::string YAML;
    llvm::raw_string_ostream OS(YAML);
    llvm::yaml::Output Y(OS);
    Y << TUR;
    OS.flush();
    std::string Error;
    if (!writeAtomically(absolute(ExportFixes), YAML, Error)) {
      llvm::errs() << "dpstub: " << Error << "\n";
      return 1;
    }
    return Failed ? 1 : 0;
  }

  auto Destination = [&](const std::string &File, std::string &Dest) {
    if (InPlace) {
      Dest = File;
      return true;
    }
    if (!llvm::StringRef(File).starts_with(Root + "/")) {
      llvm::errs() << "dpstub: error: " << File << " is outside --root " << Root
                   << "; not written\n";
      return false;
    }
    Dest = absolute(OutDir) + File.substr(Root.size());
    return true;
  };

  for (const auto &[File, Set] : Edits) {
    auto It = Parsed.find(File);
    std::string Original;
    if (It != Parsed.end())
      Original = It->second;
    else if (!readFile(File, Original)) {
      llvm::errs() << "dpstub: error: cannot read " << File << "\n";
      Failed = true;
      continue;
    }
    Replacements Reps;
    for (const auto &[Offset, Length, Text] : Set)
      if (llvm::Error E = Reps.add(Replacement(File, Offset, Length, Text))) {
        llvm::errs() << "dpstub: error: conflicting edits in " << File << ": "
                     << llvm::toString(std::move(E)) << "\n";
        Failed = true;
      }
    auto Rewritten = applyAllReplacements(Original, Reps);
    if (!Rewritten) {
      llvm::errs() << "dpstub: error: " << llvm::toString(Rewritten.takeError()) << "\n";
      Failed = true;
      continue;
    }
    std::string Dest;
    if (!Destination(File, Dest)) {
      Failed = true;
      continue;
    }
    if (InPlace) {
      std::string Now;
      if (!readFile(File, Now) || Now != Original) {
        llvm::errs() << "dpstub: error: " << File
                     << " changed after it was parsed; not written\n";
        Failed = true;
        continue;
      }
      if (*Rewritten == Original)
        continue;
    }
    std::string Existing, Error;
    if (readFile(Dest, Existing) && Existing == *Rewritten) {
      touchForBuildSystems(Dest);
      continue;
    }
    if (!writeAtomically(Dest, *Rewritten, Error)) {
      llvm::errs() << "dpstub: error: " << Error << "\n";
      Failed = true;
    }
  }
  for (const auto &[File, Text] : NewFiles) {
    std::string Dest, Existing, Error;
    if (!Destination(File, Dest)) {
      Failed = true;
      continue;
    }
    if (readFile(Dest, Existing) && Existing == Text) {
      touchForBuildSystems(Dest);
      continue;
    }
    if (!writeAtomically(Dest, Text, Error)) {
      llvm::errs() << "dpstub: error: " << Error << "\n";
      Failed = true;
    }
  }
  return Failed ? 1 : 0;
}
