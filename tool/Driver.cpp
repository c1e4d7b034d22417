//===- Driver.cpp - A dpstub run after its options ------------------------===//
//
// The run reads as its phases: the units and their compile commands,
// translation (in parallel), diagnostics in input order, and one output
// (--list, --export-fixes, or the files written in place or mirrored
// under --out-dir), then the closing summary.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Writes.h"

#include "dpstub/ListReport.h"
#include "dpstub/Outputs.h"

#include "clang/Driver/Types.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <mutex>
#include <set>

using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;
namespace path = llvm::sys::path;

namespace dpstub::driver {

int usage(const llvm::Twine &Message) {
  llvm::errs() << "dpstub: " << Message << "\n";
  return 2;
}

namespace {

std::string commonAncestor(const std::vector<std::string> &Files) {
  if (Files.empty())
    return absolute(".");
  std::string Common = path::parent_path(Files.front()).str();
  for (const std::string &F : Files)
    while (!Common.empty() && !llvm::StringRef(F).starts_with(Common + "/"))
      Common = path::parent_path(Common).str();
  return Common.empty() ? "/" : Common;
}

/// A header: clang builds it only through the sources that include it.
bool isHeader(llvm::StringRef File) {
  const clang::driver::types::ID Type =
      clang::driver::types::lookupTypeForExtension(path::extension(File).drop_front());
  return Type != clang::driver::types::TY_INVALID && clang::driver::types::onlyPrecompileType(Type);
}

/// A source the database has no command for gets its flags guessed from a
/// neighbour: refuse it with one line instead of the errors that follow.
/// A header is in no database, and --migrate's warning at a loop in one
/// says to run it on the header: with Headers it takes the command of the
/// source nearest to it, as an editor does, and says so in a note.
bool inDatabase(const CompilationDatabase &DB, const std::string &Source, bool Headers) {
  const std::vector<CompileCommand> Commands = DB.getCompileCommands(Source);
  if (!Commands.empty() && !Commands.front().Heuristic.empty() && Headers && isHeader(Source)) {
    note(path::filename(Source) + " is not in the compilation database; as a header, it takes the flags " +
         Commands.front().Heuristic);
    return true;
  }
  if (Commands.empty() || !Commands.front().Heuristic.empty()) {
    error(Source + " is not in the compilation database, so its flags are unknown; " +
          (Headers && isHeader(Source) ? "add a source that includes it to that build, "
                                       : "build it with a target of that build, ") +
          "or pass its flags after --");
    return false;
  }
  return true;
}

/// One unit per distinct source the database knows; Seen gets every
/// source named. False when one was refused.
bool collectUnits(const CompilationDatabase &DB, const std::vector<std::string> &Sources, bool Headers,
                  Units &Us, std::set<std::string> &Seen) {
  bool Ok = true;
  for (const std::string &S : Sources) {
    const std::string Abs = absolute(S);
    if (!Seen.insert(Abs).second)
      continue;
    if (!inDatabase(DB, Abs, Headers)) {
      Ok = false;
      continue;
    }
    Us.push_back(std::make_unique<Unit>());
    Us.back()->Source = Abs;
  }
  return Ok;
}

/// Translates every unit, Jobs at once. With Progress, a line per unit as
/// it ends (sources named below Root relative to it).
void translateAll(const CompilationDatabase &DB, const RunOptions &O, Units &Us,
                  const std::string &Root, bool Progress) {
  std::mutex Lines;
  unsigned Done = 0;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::max(1u, O.Jobs)));
  for (auto &U : Us)
    Pool.async([&, Unit = U.get()] {
      Unit->ToolFailed = !translateUnit(DB, Unit->Source, O.Translation, Unit->Result, Unit->Printed);
      if (!Progress)
        return;
      std::lock_guard<std::mutex> Lock(Lines);
      llvm::errs() << "[" << ++Done << "/" << Us.size() << "] "
                   << (llvm::StringRef(Unit->Source).starts_with(Root + "/")
                           ? Unit->Source.substr(Root.size() + 1)
                           : Unit->Source)
                   << "\n";
    });
  Pool.wait();
}

/// What the compiler and the tool said of each unit, in input order
/// (deterministic). False when any said an error.
bool printDiagnostics(const Units &Us, const RunOptions &O) {
  bool Ok = true;
  for (const auto &U : Us) {
    llvm::errs() << U->Printed;
    Ok &= !(U->ToolFailed || U->Result.ParseFailed || U->Result.HasErrors);
    if (U->Result.SelectionEmpty) {
      error((O.Migrate ? "no loop in --selection=" : "no dp:: call-site in --selection=") + O.Selection);
      Ok = false;
    }
  }
  return Ok;
}

/// -i or --out-dir: the files, the stale copies removed and, when nothing
/// failed (before either), the depfile.
bool writeOutputs(const std::map<std::string, FileOutput> &Files, const Units &Us,
                  const RunOptions &O, const Destination &To, bool FailedBefore,
                  unsigned &FilesWritten) {
  std::map<std::string, std::string> Written;
  bool Ok = writeFiles(Files, Us, To, Written, FilesWritten);
  if (O.To == Output::OutDir)
    Ok &= removeStaleOutputs(Us, To);
  if (!O.DepFile.empty() && Ok && !FailedBefore)
    Ok &= writeDepfile(O.DepFile, Written, Us);
  return Ok;
}

} // namespace

int run(const RunOptions &O, std::vector<std::string> Sources, const CompilationDatabase *DB,
        const std::string &DBError) {
  // The units and their compile commands.
  if (O.All) {
    if (!DB)
      return usage("--all needs -p <build-dir> with a compile_commands.json" +
                   (DBError.empty() ? std::string() : ": " + DBError));
    for (const std::string &F : DB->getAllFiles())
      Sources.push_back(F);
  }
  if (Sources.empty())
    return usage("no input: name sources or pass --all");
  Units Us;
  std::set<std::string> Seen;
  bool Failed = !collectUnits(*DB, Sources, O.Migrate, Us, Seen);
  const std::optional<Selection> &Only = O.Translation.Only;
  if (Only && !Seen.count(Only->File))
    return usage("--selection names " + Only->File + ", which is not among the sources");
  std::vector<std::string> Files;
  for (const auto &U : Us)
    Files.push_back(U->Source);
  const std::string Root = O.Root.empty() ? commonAncestor(Files) : absolute(O.Root);

  // Translation, then diagnostics. On a terminal, a progress line per unit.
  const bool Terminal = !O.Quiet && llvm::errs().is_displayed();
  const bool Report = O.To == Output::List; // stdout is the report's
  translateAll(*DB, O, Us, Root, Terminal && !Report && Us.size() > 1);
  Failed |= !printDiagnostics(Us, O);

  // The output, then the closing summary (on a terminal, or for --all
  // anywhere: a CI log over a whole tree needs its tally) and
  // --fail-untranslated's verdict.
  std::vector<const TranslationResult *> Results;
  for (const auto &U : Us)
    Results.push_back(&U->Result);
  const Tally Counts = tally(Us);
  unsigned FilesWritten = 0;
  auto Finish = [&](bool Writes) {
    if (O.Migrate) {
      if (!O.Quiet)
        printMigrationSummary(Us);
    } else if (!O.Quiet && (O.All || (Terminal && !Report))) {
      printSummary(Counts, Us.size(), FilesWritten, Writes);
    }
    if (O.FailUntranslated && O.Migrate) {
      if (const unsigned Refused = refusedLoops(Us)) {
        error(std::to_string(Refused) + (Refused == 1 ? " loop is" : " loops are") +
              " left as written (--fail-untranslated); the warnings above say why");
        Failed = true;
      }
    } else if (O.FailUntranslated && Counts.LeftOnHost) {
      error(std::to_string(Counts.LeftOnHost) +
            (Counts.LeftOnHost == 1 ? " call-site is" : " call-sites are") +
            " left on the host (--fail-untranslated); the warnings above say why");
      Failed = true;
    }
    return Failed ? 1 : 0;
  };
  if (Report) {
    if (O.Migrate)
      writeMigrationReport(llvm::outs(), Results, Root);
    else
      writeListReport(llvm::outs(), Results, Root);
    return Finish(false);
  }
  llvm::Expected<std::map<std::string, FileOutput>> Outputs = computeOutputs(Results);
  if (!Outputs) {
    error(llvm::toString(Outputs.takeError()));
    return 1;
  }
  if (O.To == Output::ExportFixes) {
    Failed |= !exportFixes(*Outputs, Us, O.ExportFixes);
    return Finish(false);
  }
  const bool InPlace = O.To == Output::InPlace;
  const Destination To{InPlace, InPlace ? std::string() : absolute(O.OutDir), Root};
  Failed |= !writeOutputs(*Outputs, Us, O, To, Failed, FilesWritten);
  return Finish(true);
}

} // namespace dpstub::driver
