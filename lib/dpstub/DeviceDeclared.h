//===- DeviceDeclared.h - Functions the user declared for the device -*- C++ -*-===//
//
// A kernel may call a function defined in another file when the user says
// that function has a device version, as OpenACC and OpenMP codes do at
// its declaration: `#pragma acc routine` before it (or `acc routine(name)`
// anywhere in its file), a declaration between `#pragma omp declare
// target` and `end declare target`, or a device mark written in front of it
// (DP_HOST_DEVICE, DP_DEVICE). The translation then marks the declaration
// (no warning: the device build links the definition with relocatable
// device code), and the unit that defines it marks the definition and what
// it calls; --migrate accepts the call as the user asserted it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dpstub {

/// Answers, per function, whether one of its declarations is declared for
/// the device; each file's directives are read once.
class DeviceDeclarations {
public:
  explicit DeviceDeclarations(const clang::SourceManager &SM) : SM(SM) {}

  /// True when a declaration of F (any redeclaration) is declared for the
  /// device by the user.
  bool declared(const clang::FunctionDecl *F);

private:
  /// A file's device directives, read from its text.
  struct FileFacts {
    bool Any = false; ///< the file mentions a directive or mark at all
    /// `acc routine` lines: the offset just past each.
    std::vector<unsigned> RoutineEnds;
    /// `omp declare target` (+1) and `end declare target` (-1), by offset.
    std::vector<std::pair<unsigned, int>> TargetMarks;
    std::set<std::string> NamedRoutines; ///< `acc routine(name)`
  };
  const FileFacts &factsOf(clang::FileID FID);
  bool declaredAt(const clang::FunctionDecl *D);

  const clang::SourceManager &SM;
  std::map<clang::FileID, FileFacts> Files;
};

/// A directive's line as the preprocessor reads it: the line at Start
/// and those a trailing `\` continues, each `\`-newline a blank.
struct DirectiveLine {
  std::string Text;
  unsigned End = 0; ///< the offset of its last line's newline (or Buffer's end)
};
DirectiveLine directiveLine(llvm::StringRef Buffer, unsigned Start);

/// For the text of an `acc routine` directive (after `#pragma`, or the
/// whole line): the function it names, `acc routine(name)`, or "" for the
/// bare form, which applies to the declaration after it. None for any
/// other text.
std::optional<std::string> routineName(llvm::StringRef Directive);

/// Where an `#include <dp/config.hpp>` goes in a file that gets device
/// marks and does not include dp itself: after its leading comments and
/// its include guard (`#pragma once`, or `#ifndef X` / `#define X`). The
/// same in every unit, so each unit writes the header alike.
unsigned configIncludeOffset(llvm::StringRef Buffer);

/// True when the file's text includes <dp/dp.hpp> or <dp/config.hpp>.
bool includesDp(llvm::StringRef Buffer);

} // namespace dpstub
