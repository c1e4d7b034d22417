//===- ListReport.h - The --list JSON report --------------------*- C++ -*-===//
#pragma once

#include "dpstub/Translation.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace dpstub {

/// Writes every call-site of every translation unit as a JSON array:
/// location, kind, compute rank, kernel, each argument's conversion and
/// access, and the diagnostics reported inside the call-site.
void writeListReport(llvm::raw_ostream &OS, const std::vector<const TranslationResult *> &Units,
                     llvm::StringRef Root);

/// --migrate --list: every candidate loop of every unit as a JSON array:
/// location, the construct it carries, the verdict, and the call-site it
/// becomes (kind, grid) or why it stays a loop.
void writeMigrationReport(llvm::raw_ostream &OS, const std::vector<const TranslationResult *> &Units,
                          llvm::StringRef Root);

} // namespace dpstub
