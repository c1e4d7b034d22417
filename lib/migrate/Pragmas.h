//===- Pragmas.h - OpenMP and OpenACC directives as values ------*- C++ -*-===//
//
// Migration reads `#pragma omp ...` and `#pragma acc ...` lines itself
// (the user's build may or may not enable either), so a directive is its
// text parsed into construct words and clauses. Plain C++, no clang
// types: where a directive is, is the caller's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// The two directive languages.
enum class PragmaModel { OpenMP, OpenACC };

/// `name(args)`, or `name` alone (Args empty, HasArgs false).
struct Clause {
  std::string Name;
  std::string Args;
  bool HasArgs = false;
};

/// What a directive is, for migration.
enum class DirectiveKind {
  Loop,     ///< a loop construct: `omp parallel for`, `acc parallel loop`, `acc loop`, ...
  Region,   ///< a compute region around loops: `omp parallel`, `acc parallel`, `acc kernels`
  Data,     ///< `acc data`, `omp target data`: a region of data clauses
  EnterExit,///< `acc enter data` / `exit data`, `omp target enter/exit data`
  Update,   ///< `acc update`, `omp target update`
  Wait,     ///< `acc wait`, `omp taskwait`
  Routine,  ///< `acc routine`, `omp declare target` / `end declare target`
  Declare,  ///< `acc declare`
  Other,    ///< anything else (`omp critical`, `acc atomic`, ...)
};

/// One `#pragma omp|acc ...` line.
struct Directive {
  PragmaModel Model = PragmaModel::OpenMP;
  std::vector<std::string> Words; ///< the construct: {"target", "teams", "distribute", ...}
  std::vector<Clause> Clauses;
  DirectiveKind Kind = DirectiveKind::Other;

  /// "omp parallel for", "acc kernels loop": the model and the construct.
  std::string construct() const;
  /// The first clause named Name, if any.
  const Clause *clause(const std::string &Name) const;
  /// True when the construct has the word W.
  bool has(const std::string &W) const;
  /// collapse(n): n, or 1.
  int collapse() const;
};

/// The directive runs its statement on a device: an OpenACC compute
/// construct (`parallel`, `kernels`, `serial`, with `loop` or not) or an
/// OpenMP one with `target` (not `target data`, `update` and the like).
bool runsOnDevice(const Directive &D);

/// The dp data clause of an OpenACC clause name, or of an OpenMP map
/// type ("copyin", "copy", "copyout", "create"); empty for those that
/// need none (`present`, `delete`), "?" for anything else.
std::string dataKind(const std::string &Name);

/// Parses the text after `#pragma ` (starting at `omp` or `acc`);
/// none when it is neither.
std::optional<Directive> parseDirective(const std::string &Text);

/// One reduction clause's operator and variables: `+:a,b` or `max: m`.
struct ReductionClause {
  std::string Op;                 ///< "+", "*", "max", "min", "&", "|", "^", "&&", "||", "-"
  std::vector<std::string> Vars;
};
std::optional<ReductionClause> parseReduction(const std::string &Args);

/// The variable names of a clause's list (`a, b[0:n], c[:]` gives a, b,
/// c); the array sections dropped.
std::vector<std::string> clauseVariables(const std::string &Args);

/// One array section of a data clause, `a[lower:length]` (rank 1).
struct Section {
  std::string Var, Lower, Length; ///< Lower empty for `a[:n]`
};
/// The rank-1 sections of a clause's list (`to: a[0:n], b[:m], c`: a's
/// and b's; a map type or modifier before the list is skipped).
std::vector<Section> clauseSections(const std::string &Args);
/// Whether S covers its array from the first element for a known length
/// (`a[0:n]`, `a[:n]`): what dp::borrow, dp::enter_data and the like take.
bool fromFirstElement(const Section &S);
/// The section of Var in the directive's data clauses (map, copy, copyin,
/// copyout, create, present and their old spellings), if one names it.
std::optional<Section> dataSection(const Directive &D, const std::string &Var);

} // namespace dpstub::migrate
