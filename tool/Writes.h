//===- Writes.h - What a dpstub run writes ---------------------*- C++ -*-===//
//
// The driver's outputs, each written atomically (a temporary and a rename)
// so that nothing a user wrote is ever half-written: the translated files
// (in place, or mirrored under --out-dir with stale copies removed),
// clang-apply-replacements fixes, a make-style dependency file, and the
// closing tally.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Driver.h"

#include "dpstub/Outputs.h"

#include <array>
#include <map>
#include <string>

namespace dpstub::driver {

/// Where the translated files go: over the sources (-i), or mirrored
/// under OutDir, Root's tree copied below it (--out-dir, --root).
struct Destination {
  bool InPlace = false;
  std::string OutDir; ///< absolute; empty with InPlace
  std::string Root;   ///< absolute

  /// Where the copy of File goes (File is under Root).
  std::string of(const std::string &File) const;
  bool holds(llvm::StringRef File) const { return File.starts_with(Root + "/"); }
};

/// Writes Text to Path through a temporary file and a rename; directories
/// are created as the umask allows. False (and an error said) on failure.
bool writeAtomically(const std::string &Path, llvm::StringRef Text);

/// -i or --out-dir: every changed file written (mirrored under --out-dir,
/// where unchanged sources are copied too). Records where each file went,
/// for a dependency file.
bool writeFiles(const std::map<std::string, FileOutput> &Files, const Units &Us,
                const Destination &To, std::map<std::string, std::string> &Written,
                unsigned &FilesWritten);

/// --out-dir: removes what an earlier run wrote that no translation
/// writes now (OUT/.dpstub/<source>.files lists each source's).
bool removeStaleOutputs(const Units &Us, const Destination &To);

/// --depfile: the rewritten sources depend on every file their parse read.
bool writeDepfile(const std::string &File, const std::map<std::string, std::string> &Written,
                  const Units &Us);

/// --export-fixes: the edits as clang-apply-replacements YAML in YamlFile.
bool exportFixes(const std::map<std::string, FileOutput> &Files, const Units &Us,
                 const std::string &YamlFile);

/// What the closing summary counts.
struct Tally {
  std::map<std::string, std::array<unsigned, 3>> ByKind; ///< found, translated, on the host
  unsigned LeftOnHost = 0;
};
Tally tally(const Units &Us);

/// "dpstub: 12 call-sites: 9 translated, 3 left on the host (dp::forall
/// 8/6/2, dp::reduce 4/3/1); 5 files written".
void printSummary(const Tally &T, unsigned UnitCount, unsigned FilesWritten, bool Writes);

/// The candidate loops --migrate left as written (refused).
unsigned refusedLoops(const Units &Us);

/// --migrate's closing line: "migrated N of M loops (K refused)".
void printMigrationSummary(const Units &Us);

} // namespace dpstub::driver
