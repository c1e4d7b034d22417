//===- MigrateConsumer.h - dpstub --migrate over one unit -------*- C++ -*-===//
//
// The AST consumer of a migration: the directives and candidate loops of
// the main file, each analysed into a model or refused, the regions that
// move whole, the arrays that become fields, then the edits and one line
// per candidate (a remark or a warning). Fills the same TranslationResult
// a translation does, so every output (--out-dir, -i, --export-fixes, the
// language server) takes it as it is.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/Translation.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

#include <memory>

namespace dpstub {

/// The consumer that migrates the unit CI parses into Out (it also
/// listens to CI's preprocessor for directives).
std::unique_ptr<clang::ASTConsumer> makeMigrateConsumer(clang::CompilerInstance &CI,
                                                        const TranslationOptions &Opts,
                                                        TranslationResult &Out);

} // namespace dpstub
