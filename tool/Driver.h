//===- Driver.h - A dpstub run after its options ---------------*- C++ -*-===//
//
// dpstub.cpp parses the command line into RunOptions and calls run():
// the units and their compile commands, translation (in parallel),
// diagnostics, and one of the outputs (Writes.h). A Unit is what the run
// keeps of each translation unit.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/Translation.h"

#include "clang/Tooling/CompilationDatabase.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <memory>
#include <string>
#include <vector>

namespace dpstub::driver {

/// One translation unit: its result and what its compiler printed.
struct Unit {
  std::string Source;
  TranslationResult Result;
  std::string Printed;
  bool ToolFailed = false;

  /// Translated without an error: its outputs can be written.
  bool succeeded() const {
    return !ToolFailed && !Result.ParseFailed && !Result.HasErrors && !Result.MainFile.empty();
  }
};
using Units = std::vector<std::unique_ptr<Unit>>;

/// "dpstub: error: Message" on stderr.
void error(const llvm::Twine &Message);
/// "dpstub: note: Message" on stderr.
void note(const llvm::Twine &Message);

/// "dpstub: Message" on stderr; the exit status of bad usage (2).
int usage(const llvm::Twine &Message);

/// P made absolute, with no `.` or `..` left.
std::string absolute(llvm::StringRef P);

/// Where a run's result goes: exactly one per run.
enum class Output {
  OutDir,      ///< --out-dir DIR: translated copies of the sources there
  InPlace,     ///< -i: the sources rewritten
  ExportFixes, ///< --export-fixes FILE: clang-apply-replacements' YAML
  List         ///< --list: a JSON report, nothing written
};

/// What the command line asked for.
struct RunOptions {
  bool All = false;      ///< every unit of the database
  unsigned Jobs = 1;     ///< units translated in parallel
  Output To = Output::OutDir;
  std::string OutDir;    ///< --out-dir (as given)
  std::string Root;      ///< --root (as given; empty: the inputs' common ancestor)
  std::string ExportFixes, DepFile, Selection;
  bool FailUntranslated = false, Quiet = false;
  bool Migrate = false;  ///< --migrate: loops into call-sites
  TranslationOptions Translation;
};

/// The run: Sources (or with All the database's) translated with DB's
/// commands and written as O asks. Returns the exit status: 0 success, 1
/// an error reported, 2 bad usage.
int run(const RunOptions &O, std::vector<std::string> Sources,
        const clang::tooling::CompilationDatabase *DB, const std::string &DBError);

} // namespace dpstub::driver
