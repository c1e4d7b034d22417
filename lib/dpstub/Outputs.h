//===- Outputs.h - What a translation writes -------------------*- C++ -*-===//
//
// The files a set of translated units changes, as whole new contents: the
// rewritten sources, the headers whose functions were marked for the
// device, and the stub headers. The CLI writes them (in place or mirrored),
// exports them as clang-apply-replacements fixes, and the language server
// turns them into workspace edits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/Translation.h"

#include "clang/Tooling/Core/Replacement.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dpstub {

/// One file a translation changes or creates.
struct FileOutput {
  std::optional<std::string> Before; ///< its content when parsed; none for a new file
  std::string After;                 ///< its new content
  /// The edits that turn Before into After: a source's own edits, or a stub
  /// header's whole content.
  clang::tooling::Replacements Edits;
};

/// A file's content; none when it cannot be read.
std::optional<std::string> readFile(const std::string &Path);

/// Where a unit's stub header goes: beside its source.
std::string stubHeaderPath(const TranslationResult &Unit);

/// Every file the units change (each translated whole), by absolute path.
/// Units that failed are skipped. An error when two units' edits of one
/// file conflict or a file cannot be read.
llvm::Expected<std::map<std::string, FileOutput>>
computeOutputs(const std::vector<const TranslationResult *> &Units);

/// Every file one plan of a unit changes (the whole translation, or one of
/// its call-sites alone).
llvm::Expected<std::map<std::string, FileOutput>> computeOutputs(const TranslationResult &Unit,
                                                                 const TranslationPlan &Plan);

} // namespace dpstub
