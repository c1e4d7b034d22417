//===- dpstub.cpp - The dpstub driver -------------------------------------===//
//
// dpstub [options] <sources...> [-- <compiler args>]
//
// Translates every data-parallel call-site of the given translation units
// into a launch of a generated invocation stub. Exit status: 0 when all went
// well, 1 when an error was reported, 2 for bad usage. The run reads as its
// phases: options, the units and their compile commands, translation (in
// parallel), diagnostics, and one of the outputs (--list, --export-fixes,
// or the files written in place or mirrored under --out-dir).
//
//===----------------------------------------------------------------------===//

#include "dpstub/ListReport.h"
#include "dpstub/Outputs.h"
#include "dpstub/OwnHeaders.h"
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

#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace clang;
using namespace clang::tooling;
namespace cl = llvm::cl;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

#ifndef DPSTUB_VERSION
#define DPSTUB_VERSION "unknown"
#endif

static cl::OptionCategory Category("dpstub options");
static cl::opt<bool> All("all", cl::desc("Every translation unit in the database"), cl::cat(Category));
static cl::opt<unsigned> Jobs("j", cl::desc("Translation units processed in parallel (-j N or -jN)"),
                              cl::value_desc("N"), cl::init(1), cl::Prefix, cl::cat(Category));
static cl::opt<std::string> OutDir("out-dir",
                                   cl::desc("Write rewritten sources and stub headers under DIR"),
                                   cl::value_desc("DIR"), cl::cat(Category));
static cl::opt<std::string>
    RootOpt("root", cl::desc("Directory --out-dir mirrors (default: common ancestor of the inputs)"),
            cl::value_desc("DIR"), cl::cat(Category));
static cl::opt<bool> InPlace("in-place", cl::desc("Rewrite the sources in place"), cl::cat(Category));
static cl::alias InPlaceShort("i", cl::desc("Alias for --in-place"), cl::aliasopt(InPlace),
                              cl::NotHidden);
static cl::opt<std::string>
    ExportFixes("export-fixes",
                cl::desc("Write the edits as a clang-apply-replacements YAML file (each stub header "
                         "it creates is made, empty, beside its source)"),
                cl::value_desc("FILE"), cl::cat(Category));
static cl::opt<std::string>
    SelectionOpt("selection",
                 cl::desc("Translate only the call-site(s) in this range: file:line:col[-line:col]"),
                 cl::value_desc("RANGE"), cl::cat(Category));
static cl::opt<bool> List("list", cl::desc("Print a JSON report of every call-site; write nothing"),
                          cl::cat(Category));
static cl::opt<std::string>
    DepFile("depfile",
            cl::desc("Also write a make-style dependency file: the outputs depend on every file "
                     "the sources include"),
            cl::value_desc("FILE"), cl::cat(Category));

static cl::opt<bool>
    FailUntranslated("fail-untranslated",
                     cl::desc("Exit 1 when a call-site is left on the host (for CI, in the spirit "
                              "of -Werror); what can be translated is still written"),
                     cl::cat(Category));
static cl::opt<bool> Quiet("quiet", cl::desc("No progress lines and no closing summary"),
                           cl::cat(Category));
static cl::opt<bool> CompilerWarnings(
    "compiler-warnings",
    cl::desc("Also show the compiler's own warnings about the code (quiet by default: dpstub "
             "shows its diagnostics and every error)"),
    cl::cat(Category));
static cl::list<std::string> QueryDriver(
    "query-driver",
    cl::desc("Compilers dpstub may ask for their own include directories (GCC's omp.h): "
             "comma-separated globs on their paths; default /usr/bin/*,/usr/local/bin/*; "
             "--query-driver= asks none"),
    cl::CommaSeparated, cl::value_desc("GLOBS"), cl::cat(Category));
static cl::extrahelp MoreHelp(R"(
Exactly one output mode: --out-dir DIR (a mirrored copy that keeps your line
numbers), -i (in place), --export-fixes FILE (clang-apply-replacements YAML)
or --list (a JSON report; nothing written).

Flags come from a compilation database (-p BUILD-DIR, or found beside the
sources) or, for a source outside any build, after `--`:
  dpstub --out-dir gen prog.cpp -- -std=c++17 -I/path/to/dpstub/include
dpstub's own headers (<dp/dp.hpp>) are added when the flags do not find them.

On a terminal, dpstub prints [done/total] progress; on a terminal and
whenever --all runs (a CI log, say), a closing summary: units, call-sites
found, translated and left on the host, by kind; files written. --quiet
turns both off.

The compiler's own warnings about your code stay quiet unless you pass
--compiler-warnings; dpstub's diagnostics and every error always show.
For a database made with GCC, dpstub asks the compiler for its own include
directory (omp.h lives there) when its path matches --query-driver.

Exit status: 0 success; 1 an error was reported (a diagnostic, a file not
written, or with --fail-untranslated a call-site left on the host); 2 bad
usage.
)");

namespace {

/// One translation unit: its result and what its compiler printed.
struct Unit {
  std::string Source;
  dpstub::TranslationResult Result;
  std::string Printed;
  bool ToolFailed = false;
};

int usage(const llvm::Twine &Message) {
  llvm::errs() << "dpstub: " << Message << "\n";
  return 2;
}
void error(const llvm::Twine &Message) { llvm::errs() << "dpstub: error: " << Message << "\n"; }

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

void translate(const CompilationDatabase &DB, const dpstub::TranslationOptions &Opts, Unit &U) {
  U.ToolFailed = !dpstub::translateUnit(DB, U.Source, Opts, U.Result, U.Printed);
}

/// Where --out-dir puts the copy of File (a path under Root).
std::string mirrored(const std::string &File, const std::string &Root) {
  return absolute(OutDir) + File.substr(Root.size());
}

/// Writes Text to Path through a temporary file and a rename; directories
/// are created as the umask allows.
bool writeAtomically(const std::string &Path, llvm::StringRef Text) {
  if (std::error_code EC = fs::create_directories(path::parent_path(Path), true, fs::all_all)) {
    error("cannot create " + path::parent_path(Path) + ": " + EC.message());
    return false;
  }
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = fs::createUniqueFile(Path + ".dpstub-%%%%%%", FD, Temp)) {
    error("cannot create a temporary beside " + Path + ": " + EC.message());
    return false;
  }
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
    Out.close();
    if (Out.has_error()) {
      error("cannot write " + Temp + ": " + Out.error().message());
      Out.clear_error();
      fs::remove(Temp);
      return false;
    }
  }
  // createUniqueFile makes it private; the output is an ordinary file.
  const unsigned Mask = ::umask(0);
  ::umask(Mask);
  (void)fs::setPermissions(Temp, static_cast<fs::perms>(0666 & ~Mask));
  if (std::error_code EC = fs::rename(Temp, Path)) {
    error("cannot rename " + Temp + " to " + Path + ": " + EC.message());
    fs::remove(Temp);
    return false;
  }
  return true;
}

std::optional<std::string> readFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

/// The compile commands: from -p (or found as clang's tools find them) or
/// from the flags after `--`. --all with no source named loads -p's.
const CompilationDatabase *loadDatabase(CommonOptionsParser &Parser,
                                        std::unique_ptr<CompilationDatabase> &Loaded,
                                        bool HaveSources, std::string &Error) {
  if (HaveSources)
    return &Parser.getCompilations();
  const auto *BuildPath = static_cast<cl::opt<std::string> *>(cl::getRegisteredOptions().lookup("p"));
  if (BuildPath && !BuildPath->empty())
    Loaded = CompilationDatabase::autoDetectFromDirectory(*BuildPath, Error);
  return Loaded.get();
}

/// A source the database has no command for gets its flags guessed from a
/// neighbour: refuse it with one line instead of the errors that follow.
bool inDatabase(const CompilationDatabase &DB, const std::string &Source) {
  const std::vector<CompileCommand> Commands = DB.getCompileCommands(Source);
  if (Commands.empty() || !Commands.front().Heuristic.empty()) {
    error(Source + " is not in the compilation database, so its flags are unknown; build it "
                   "with a target of that build, or pass its flags after --");
    return false;
  }
  return true;
}

/// Make's and Ninja's dependency-file syntax: spaces and '$' escaped.
std::string depfileWord(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == ' ' || C == '#')
      Out += '\\';
    if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

/// The rewritten sources depend on every file their parse read (Ninja
/// wants a dependency file to name only the build step's own output).
bool writeDepfile(const std::string &File, const std::map<std::string, std::string> &Written,
                  const std::vector<std::unique_ptr<Unit>> &Units) {
  std::set<std::string> Inputs;
  std::string Text;
  for (const auto &U : Units) {
    Inputs.insert(U->Result.Inputs.begin(), U->Result.Inputs.end());
    if (auto It = Written.find(U->Result.MainFile); It != Written.end())
      Text += (Text.empty() ? "" : " ") + depfileWord(It->second);
  }
  Text += ":";
  for (const std::string &I : Inputs)
    Text += " \\\n  " + depfileWord(I);
  return writeAtomically(absolute(File), Text + "\n");
}

/// --export-fixes: the edits as clang-apply-replacements YAML, so that
/// applying them gives what -i writes. A stub header is one replacement of
/// its whole content; since the applier edits only files that exist, a new
/// one is created empty.
bool exportFixes(const std::map<std::string, dpstub::FileOutput> &Files,
                 const std::vector<std::unique_ptr<Unit>> &Units) {
  TranslationUnitReplacements TUR;
  TUR.MainSourceFile = Units.size() == 1 ? Units.front()->Source : "";
  for (const auto &[File, Output] : Files) {
    if (!Output.Before && !writeAtomically(File, ""))
      return false;
    if (Output.Before == Output.After)
      continue;
    for (const Replacement &R : Output.Edits)
      TUR.Replacements.push_back(R);
  }
  std::string YAML;
  llvm::raw_string_ostream OS(YAML);
  llvm::yaml::Output Y(OS);
  Y << TUR;
  OS.flush();
  return writeAtomically(absolute(ExportFixes), YAML);
}

/// -i or --out-dir: every changed file written (mirrored under --out-dir,
/// where unchanged sources are copied too). Records where each file went,
/// for a dependency file.
bool writeFiles(const std::map<std::string, dpstub::FileOutput> &Files,
                const std::vector<std::unique_ptr<Unit>> &Units, const std::string &Root,
                std::map<std::string, std::string> &Written, unsigned &FilesWritten) {
  bool Ok = true;
  std::map<std::string, dpstub::FileOutput> All = Files;
  if (!InPlace) // an unchanged source is still mirrored
    for (const auto &U : Units)
      if (!U->ToolFailed && !U->Result.ParseFailed && !U->Result.HasErrors &&
          !U->Result.MainFile.empty() && !All.count(U->Result.MainFile))
        if (std::optional<std::string> Text = readFile(U->Result.MainFile))
          All[U->Result.MainFile] = dpstub::FileOutput{Text, *Text};
  for (const auto &[File, Output] : All) {
    std::string Dest = File;
    if (!InPlace) {
      if (!llvm::StringRef(File).starts_with(Root + "/")) {
        error(File + " is outside --root " + Root + "; not written");
        Ok = false;
        continue;
      }
      Dest = mirrored(File, Root);
    } else if (Output.Before && readFile(File) != Output.Before) {
      error(File + " changed after it was parsed; not written");
      Ok = false;
      continue;
    }
    Written[File] = Dest;
    if (readFile(Dest) == Output.After) {
      // Same bytes: kept. Mirrored under --out-dir, its time is renewed so
      // that a build system sees its output newer than the inputs; the
      // user's own file (-i) is not touched at all.
      int FD = -1;
      if (!InPlace && !fs::openFileForWrite(Dest, FD, fs::CD_OpenExisting, fs::OF_Append)) {
        (void)fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
        ::close(FD);
      }
      continue;
    }
    if (writeAtomically(Dest, Output.After))
      ++FilesWritten;
    else
      Ok = false;
  }
  return Ok;
}

/// --out-dir keeps, for each source it translates, the list of files that
/// translation wrote (OUT/.dpstub/<source>.files). A file an earlier run
/// wrote that no translation writes now (a helper header moved to another
/// include directory, or no longer marked for the device) is removed: left
/// behind, it would shadow the header it came from and build stale code.
bool removeStaleOutputs(const std::vector<std::unique_ptr<Unit>> &Units, const std::string &Root) {
  const std::string Out = absolute(OutDir);
  const std::string Lists = Out + "/.dpstub";
  auto ReadList = [](const std::string &Path) {
    std::set<std::string> Files;
    if (std::optional<std::string> Text = readFile(Path)) {
      llvm::SmallVector<llvm::StringRef> Lines;
      llvm::StringRef(*Text).split(Lines, '\n', -1, false);
      for (llvm::StringRef L : Lines)
        Files.insert(L.str());
    }
    return Files;
  };
  bool Ok = true;
  std::set<std::string> Dropped;
  for (const auto &U : Units) {
    const dpstub::TranslationResult &R = U->Result;
    if (U->ToolFailed || R.ParseFailed || R.HasErrors || R.MainFile.empty() ||
        !llvm::StringRef(R.MainFile).starts_with(Root + "/"))
      continue;
    std::set<std::string> Now{mirrored(R.MainFile, Root)};
    if (!R.Whole.StubHeader.empty())
      Now.insert(mirrored(dpstub::stubHeaderPath(R), Root));
    for (const auto &[File, Reps] : R.Whole.Edits)
      if (llvm::StringRef(File).starts_with(Root + "/"))
        Now.insert(mirrored(File, Root));
    const std::string List = Lists + R.MainFile.substr(Root.size()) + ".files";
    for (const std::string &F : ReadList(List))
      if (!Now.count(F))
        Dropped.insert(F);
    std::string Text;
    for (const std::string &F : Now)
      Text += F + "\n";
    Ok &= writeAtomically(List, Text);
  }
  if (Dropped.empty())
    return Ok;
  // Still written for another source: kept.
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Lists, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".files"))
      for (const std::string &F : ReadList(It->path()))
        Dropped.erase(F);
  for (const std::string &F : Dropped)
    if (llvm::StringRef(F).starts_with(Out + "/") && fs::exists(F))
      if (std::error_code E = fs::remove(F)) {
        error("cannot remove the stale " + F + ": " + E.message());
        Ok = false;
      }
  return Ok;
}

/// What the closing summary counts.
struct Tally {
  std::map<std::string, std::array<unsigned, 3>> ByKind; ///< found, translated, on the host
  unsigned LeftOnHost = 0;
};

Tally tally(const std::vector<std::unique_ptr<Unit>> &Units) {
  Tally T;
  for (const auto &U : Units)
    for (const dpstub::ListedCallSite &C : U->Result.CallSites) {
      std::array<unsigned, 3> &Row = T.ByKind[std::string("dp::") + toString(C.Model.Kind)];
      ++Row[0];
      if (C.Translated || C.Launch)
        ++Row[1];
      else
        ++Row[2], ++T.LeftOnHost;
    }
  return T;
}

/// "dpstub: 12 call-sites: 9 translated, 3 left on the host (dp::forall
/// 8/6/2, dp::reduce 4/3/1); 5 files written".
void printSummary(const Tally &T, unsigned Units, unsigned FilesWritten, bool Writes) {
  unsigned Found = 0, Translated = 0;
  std::string Kinds;
  for (const auto &[Kind, Row] : T.ByKind) {
    Found += Row[0];
    Translated += Row[1];
    Kinds += (Kinds.empty() ? "" : ", ") + Kind + " " + std::to_string(Row[0]) + " found/" +
             std::to_string(Row[1]) + " translated/" + std::to_string(Row[2]) + " on the host";
  }
  llvm::errs() << "dpstub: " << Units << (Units == 1 ? " unit, " : " units, ") << Found
               << (Found == 1 ? " call-site: " : " call-sites: ") << Translated << " translated, "
               << T.LeftOnHost << " left on the host" << (Kinds.empty() ? "" : " (" + Kinds + ")");
  if (Writes)
    llvm::errs() << "; " << FilesWritten << (FilesWritten == 1 ? " file" : " files") << " written";
  llvm::errs() << "\n";
}

} // namespace

/// An address in this executable, for locating it.
static void anchor() {}

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "dpstub " << DPSTUB_VERSION << " (built with LLVM " << LLVM_VERSION_STRING << ")\n";
  });
  auto Parser = CommonOptionsParser::create(argc, argv, Category, cl::ZeroOrMore,
                                            "dpstub: generate HIP invocation stubs for dp:: "
                                            "call-sites and rewrite the call-sites to launch "
                                            "them\n");
  if (!Parser) { // the message already names the tool
    llvm::errs() << llvm::toString(Parser.takeError()) << "\n";
    return 2;
  }
  const int Modes = !OutDir.empty() + InPlace + !ExportFixes.empty() + List;
  if (Modes != 1)
    return usage("choose exactly one of --out-dir DIR, -i, --export-fixes FILE and --list");
  if (!DepFile.empty() && (List || !ExportFixes.empty()))
    return usage("--depfile goes with --out-dir or -i, which write files");
  dpstub::TranslationOptions Opts;
  Opts.ListOnly = List;
  Opts.LineMarkers = !OutDir.empty();
  Opts.OwnIncludeDir = dpstub::ownIncludeDir(argv[0], reinterpret_cast<void *>(&anchor));
  Opts.CompilerWarnings = CompilerWarnings;
  if (QueryDriver.getNumOccurrences()) {
    Opts.QueryDrivers.clear();
    for (const std::string &G : QueryDriver)
      if (!G.empty())
        Opts.QueryDrivers.push_back(G);
  }
  if (!SelectionOpt.empty()) {
    llvm::Expected<dpstub::Selection> S = dpstub::parseSelection(SelectionOpt);
    if (!S)
      return usage(llvm::toString(S.takeError()));
    Opts.Only = *S;
  }

  // The units and their compile commands.
  std::vector<std::string> Sources = Parser->getSourcePathList();
  if (Sources.empty() && Opts.Only)
    Sources.push_back(Opts.Only->File);
  std::unique_ptr<CompilationDatabase> Loaded;
  std::string DBError;
  const CompilationDatabase *DB = loadDatabase(*Parser, Loaded, !Sources.empty(), DBError);
  if (All) {
    if (!DB)
      return usage("--all needs -p <build-dir> with a compile_commands.json" +
                   (DBError.empty() ? std::string() : ": " + DBError));
    for (const std::string &F : DB->getAllFiles())
      Sources.push_back(F);
  }
  if (Sources.empty())
    return usage("no input: name sources or pass --all");
  std::set<std::string> Seen;
  std::vector<std::unique_ptr<Unit>> Units;
  bool Failed = false;
  for (const std::string &S : Sources) {
    const std::string Abs = absolute(S);
    if (!Seen.insert(Abs).second)
      continue;
    if (!inDatabase(*DB, Abs)) {
      Failed = true;
      continue;
    }
    Units.push_back(std::make_unique<Unit>());
    Units.back()->Source = Abs;
  }
  if (Opts.Only && !Seen.count(Opts.Only->File))
    return usage("--selection names " + Opts.Only->File + ", which is not among the sources");
  std::vector<std::string> Files;
  for (const auto &U : Units)
    Files.push_back(U->Source);
  const std::string Root = RootOpt.empty() ? commonAncestor(Files) : absolute(RootOpt);

  // Translation, in parallel; diagnostics in input order (deterministic).
  // On a terminal, a progress line per unit as it ends.
  const bool Terminal = !Quiet && llvm::errs().is_displayed();
  {
    std::mutex Progress;
    unsigned Done = 0;
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::max(1u, unsigned(Jobs))));
    for (auto &U : Units)
      Pool.async([&, Unit = U.get()] {
        translate(*DB, Opts, *Unit);
        if (Terminal && !List && Units.size() > 1) {
          std::lock_guard<std::mutex> Lock(Progress);
          llvm::errs() << "[" << ++Done << "/" << Units.size() << "] "
                       << (llvm::StringRef(Unit->Source).starts_with(Root + "/")
                               ? Unit->Source.substr(Root.size() + 1)
                               : Unit->Source)
                       << "\n";
        }
      });
    Pool.wait();
  }
  for (const auto &U : Units) {
    llvm::errs() << U->Printed;
    Failed |= U->ToolFailed || U->Result.ParseFailed || U->Result.HasErrors;
    if (U->Result.SelectionEmpty) {
      error("no dp:: call-site in --selection=" + SelectionOpt);
      Failed = true;
    }
  }
  std::vector<const dpstub::TranslationResult *> Results;
  for (const auto &U : Units)
    Results.push_back(&U->Result);
  const Tally Counts = tally(Units);
  unsigned FilesWritten = 0;
  // The closing summary (on a terminal, or for --all anywhere: a CI log
  // over a whole tree needs its tally) and --fail-untranslated's verdict.
  auto Finish = [&](bool Writes) {
    if (!Quiet && (All || (Terminal && !List)))
      printSummary(Counts, Units.size(), FilesWritten, Writes);
    if (FailUntranslated && Counts.LeftOnHost) {
      error(std::to_string(Counts.LeftOnHost) +
            (Counts.LeftOnHost == 1 ? " call-site is" : " call-sites are") +
            " left on the host (--fail-untranslated); the warnings above say why");
      Failed = true;
    }
    return Failed ? 1 : 0;
  };

  if (List) {
    dpstub::writeListReport(llvm::outs(), Results, Root);
    return Finish(false);
  }
  llvm::Expected<std::map<std::string, dpstub::FileOutput>> Outputs = dpstub::computeOutputs(Results);
  if (!Outputs) {
    error(llvm::toString(Outputs.takeError()));
    return 1;
  }
  if (!ExportFixes.empty()) {
    Failed |= !exportFixes(*Outputs, Units);
    return Finish(false);
  }
  std::map<std::string, std::string> Written;
  Failed |= !writeFiles(*Outputs, Units, Root, Written, FilesWritten);
  if (!InPlace)
    Failed |= !removeStaleOutputs(Units, Root);
  if (!DepFile.empty() && !Failed)
    Failed |= !writeDepfile(DepFile, Written, Units);
  return Finish(true);
}
