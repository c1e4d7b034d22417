//===- Translation.h - One translation unit, translated ---------*- C++ -*-===//
//
// Runs every rule over a parsed translation unit and produces the result as
// values: the call-site models, the edits by file, the stub header text.
// Nothing here writes files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/DriverQuery.h"

#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

namespace dpstub {

/// A diagnostic as --list reports it.
struct ListedDiagnostic {
  std::string Level; ///< "error", "warning", "note"
  Location Loc;
  std::string Path;    ///< absolute path of Loc's file
  unsigned Length = 0; ///< bytes of the token at Loc
  bool Own = false;    ///< dpstub's own (not the compiler's)
  std::string Message;
};

/// A call-site in --list: its model when it was translated.
struct ListedCallSite {
  CallSite Model;
  bool Translated = false;
  bool Launch = false;      ///< a launch of a stub translated before
  unsigned EndLine = 0;
  unsigned EndColumn = 0;   ///< the call's last character (its ')')
};

/// One way of translating a unit: its edits and its stub header.
struct TranslationPlan {
  /// Edits by absolute file path (the source, and headers it includes).
  std::map<std::string, clang::tooling::Replacements> Edits;
  std::string StubHeader; ///< its text; empty when there is no call-site
};

/// A candidate loop of --migrate, as --list and the summary report it.
struct MigratedLoop {
  Location Loc;            ///< the loop's `for`
  std::string Path;        ///< absolute path of its file
  unsigned EndLine = 0;
  std::string Construct;   ///< "omp parallel for", "acc kernels", "plain loop"
  bool Converted = false;
  std::string Kind;        ///< converted: "forall" or "reduce"
  int Rank = 0;
  std::string Grid;        ///< converted: "dp::grid<2>(n, m)"
  std::string Reason;      ///< refused: the warning's text
  std::string Category;    ///< refused: its diagnostic ("migrateDependence")
  /// Refused for a dependence, its directive removed: it runs in order on
  /// the host (around converted loops, or as the region it was in moved).
  bool RunsInOrder = false;
  /// Converted inside a host `omp parallel` region that split around it:
  /// the line of the region's directive (the loop's call-site now runs
  /// once, outside the region); 0 otherwise.
  unsigned LeftRegionLine = 0;
};

/// Everything the tool learned about one translation unit.
struct TranslationResult {
  std::string MainFile;          ///< absolute path of the source
  bool ParseFailed = false;      ///< errors from the compiler: nothing is written
  bool HasErrors = false;        ///< errors from dpstub
  std::vector<ListedCallSite> CallSites;
  std::vector<ListedDiagnostic> Diagnostics;
  /// Every call-site translated (or those --selection names).
  TranslationPlan Whole;
  /// With TranslationOptions::PlanEachCallSite: for each call-site not yet
  /// translated (by its index in CallSites), the plan translating it alone
  /// (launches translated before are kept).
  std::map<size_t, TranslationPlan> Each;
  /// Each edited file's content as parsed (in-place mode refuses to write a
  /// file that changed since).
  std::map<std::string, std::string> Parsed;
  std::string StubHeaderName; ///< "foo.cpp.dpstub.hpp", beside the source
  /// Every file the parse read (absolute, sorted): what the translation
  /// depends on, for a dependency file.
  std::vector<std::string> Inputs;
  /// A selection was given for this file and held no call-site.
  bool SelectionEmpty = false;
  /// With TranslationOptions::RecordLoops: every `for` statement written
  /// in the main file (outside templates' instantiations), as the file
  /// offsets of its first and last tokens' starts, in source order.
  std::vector<std::pair<unsigned, unsigned>> LoopSpans;
  /// --migrate: every candidate loop, in source order.
  std::vector<MigratedLoop> Loops;
  /// --migrate: device regions of statements alone (no loop) that arrays
  /// become fields in, in source order: a kernel of one point (Converted,
  /// Kind, Rank, Grid) or host code (Reason, Category, RunsInOrder).
  std::vector<MigratedLoop> Regions;
  /// --migrate: directives left in place (not carried over), by construct.
  std::vector<std::string> KeptDirectives;
};

/// A range of a source, as clang-refactor's --selection gives it: 1-based
/// lines and columns, the end inclusive.
struct Selection {
  std::string File; ///< absolute path
  unsigned BeginLine = 0, BeginColumn = 0, EndLine = 0, EndColumn = 0;
};

/// Parses "file:line:col[-line:col]"; an error says what is wrong.
llvm::Expected<Selection> parseSelection(llvm::StringRef Text);

/// What a run asks of one translation unit.
struct TranslationOptions {
  /// Only report (--list): call-sites keep the positions they have now and
  /// no edit is planned.
  bool ListOnly = false;
  /// Translate only the dp:: call-sites that overlap this range (launches
  /// translated before are always kept).
  std::optional<Selection> Only;
  /// Also plan each call-site's translation alone (the language server's
  /// "translate this call-site" action), from the same parse.
  bool PlanEachCallSite = false;
  /// Record the main file's `for` statements (TranslationResult::LoopSpans):
  /// the language server offers its loop actions only where one is.
  bool RecordLoops = false;
  /// The rewritten source goes elsewhere (--out-dir) while the user edits
  /// the original: `#line` directives keep the original's line numbers, so
  /// call-sites are named and located, and compilers report, by the user's
  /// lines. Off for -i and the language server, whose output is the file
  /// the user edits.
  bool LineMarkers = false;
  /// Searched last (-idirafter) for every source: dpstub's own headers, so
  /// that a source given without flags finds <dp/dp.hpp>.
  std::string OwnIncludeDir;
  /// Show the compiler's own warnings about the user's code (clang's
  /// -W... diagnostics). Off by default: dpstub shows its own diagnostics
  /// and every error, which stops a translation, as clang-tidy keeps
  /// clang-diagnostic-* quiet unless asked.
  bool CompilerWarnings = false;
  /// Migrate (--migrate): bring loops into call-sites instead of
  /// translating call-sites. The unit is parsed without OpenMP or OpenACC
  /// (their directives are read from the text).
  bool Migrate = false;
  /// With Migrate: the included headers whose loop directives are
  /// reported (refused: --migrate edits the file it is given), a regular
  /// expression over their paths, clang-tidy's --header-filter. Unset:
  /// every header that is not a system header.
  std::optional<std::string> HeaderFilter;
  /// Compilers whose own include directories (GCC's omp.h, for one) dpstub
  /// may ask for: shell globs on their resolved paths, clangd's
  /// --query-driver. Empty: none is run.
  std::vector<std::string> QueryDrivers = defaultQueryDrivers();
};

/// A frontend action that fills a TranslationResult; the compiler's
/// closing counts ("1 error generated.") go to Printed when given.
std::unique_ptr<clang::FrontendAction> makeTranslateAction(const TranslationOptions &Opts,
                                                           TranslationResult &Out,
                                                           llvm::raw_ostream *Printed = nullptr);

/// Parses and translates one source with its command from DB (the first,
/// when there are several). Files may be read through FS (an overlay of an
/// editor's unsaved buffers); what the compiler prints goes to Printed.
/// False when clang could not run the action.
bool translateUnit(const clang::tooling::CompilationDatabase &DB, const std::string &Source,
                   const TranslationOptions &Opts, TranslationResult &Out, std::string &Printed,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = nullptr);

} // namespace dpstub
