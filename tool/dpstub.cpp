//===- dpstub.cpp - The dpstub driver -------------------------------------===//
//
// dpstub [options] <sources...> [-- <compiler args>]
//
// Translates every data-parallel call-site of the given translation units
// into a launch of a generated invocation stub. Exit status: 0 when all went
// well, 1 when an error was reported, 2 for bad usage. This file is the
// command line; Driver.cpp is the run (units, translation, diagnostics,
// output) and Writes.cpp what it writes.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "dpstub/OwnHeaders.h"
#include "dpstub/Translation.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

using clang::tooling::CommonOptionsParser;
using clang::tooling::CompilationDatabase;
using dpstub::driver::RunOptions;
using dpstub::driver::usage;
namespace cl = llvm::cl;

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
                     cl::desc("Exit 1 when a call-site is left on the host, or with --migrate a "
                              "loop is left as written (for CI, in the spirit of -Werror); what "
                              "can be translated or migrated is still written"),
                     cl::cat(Category));
static cl::opt<bool> Migrate(
    "migrate",
    cl::desc("Bring loops into dp call-sites instead of translating call-sites: loops with an "
             "OpenMP or OpenACC loop directive, the loops of an 'acc kernels' region, and "
             "plain loops inside --selection (converted only when proven independent)"),
    cl::cat(Category));
static cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("With --migrate: report the loop directives only of the included headers whose "
             "path matches REGEX (default: every header that is not a system header; an empty "
             "REGEX: none)"),
    cl::value_desc("REGEX"), cl::cat(Category));
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
With --migrate, dpstub rewrites loops into dp call-sites (and their arrays
into dp::fields) and says for every candidate loop either
  file:line:col: remark: converted to dp::forall over dp::grid<N> [dp-migrate]
or
  file:line:col: warning: not converted: <reason> [dp-migrate]
and ends with `migrated N of M loops (K refused)`. Run dpstub again without
--migrate to translate the call-sites.

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
written, or with --fail-untranslated a call-site left on the host or, with
--migrate, a loop left as written); 2 bad usage.
)");

/// The compile commands: from -p (or found as clang's tools find them) or
/// from the flags after `--`. --all with no source named loads -p's.
static const CompilationDatabase *loadDatabase(CommonOptionsParser &Parser,
                                               std::unique_ptr<CompilationDatabase> &Loaded,
                                               bool HaveSources, std::string &Error) {
  if (HaveSources)
    return &Parser.getCompilations();
  const auto *BuildPath = static_cast<cl::opt<std::string> *>(cl::getRegisteredOptions().lookup("p"));
  if (BuildPath && !BuildPath->empty())
    Loaded = CompilationDatabase::autoDetectFromDirectory(*BuildPath, Error);
  return Loaded.get();
}

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
  using dpstub::driver::Output;
  RunOptions O;
  O.To = List ? Output::List
         : InPlace ? Output::InPlace
         : !ExportFixes.empty() ? Output::ExportFixes
                                : Output::OutDir;
  O.All = All, O.Jobs = Jobs;
  O.OutDir = OutDir, O.Root = RootOpt, O.ExportFixes = ExportFixes, O.DepFile = DepFile;
  O.Selection = SelectionOpt, O.FailUntranslated = FailUntranslated, O.Quiet = Quiet;
  O.Migrate = Migrate;
  dpstub::TranslationOptions &T = O.Translation;
  T.ListOnly = O.To == Output::List;
  T.Migrate = Migrate;
  T.LineMarkers = O.To == Output::OutDir;
  T.OwnIncludeDir = dpstub::ownIncludeDir(argv[0], reinterpret_cast<void *>(&anchor));
  T.CompilerWarnings = CompilerWarnings;
  if (HeaderFilter.getNumOccurrences()) {
    if (!Migrate)
      return usage("--header-filter goes with --migrate");
    std::string Why;
    if (!llvm::Regex(HeaderFilter).isValid(Why))
      return usage("--header-filter='" + HeaderFilter + "' is not a regular expression: " + Why);
    T.HeaderFilter = HeaderFilter;
  }
  if (QueryDriver.getNumOccurrences()) {
    T.QueryDrivers.clear();
    for (const std::string &G : QueryDriver)
      if (!G.empty())
        T.QueryDrivers.push_back(G);
  }
  if (!SelectionOpt.empty()) {
    llvm::Expected<dpstub::Selection> S = dpstub::parseSelection(SelectionOpt);
    if (!S)
      return usage(llvm::toString(S.takeError()));
    T.Only = *S;
  }

  // The sources named (or the selection's), with their compile commands.
  std::vector<std::string> Sources = Parser->getSourcePathList();
  if (Sources.empty() && T.Only)
    Sources.push_back(T.Only->File);
  std::unique_ptr<CompilationDatabase> Loaded;
  std::string DBError;
  const CompilationDatabase *DB = loadDatabase(*Parser, Loaded, !Sources.empty(), DBError);
  return dpstub::driver::run(O, std::move(Sources), DB, DBError);
}
