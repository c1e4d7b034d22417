//===- TranslateConsumer.h - Phases 1-3 over one parsed unit ---*- C++ -*-===//
//
// The AST consumer of a translation: find the call-sites every rule
// matches, group a template's instantiations, analyse them into models,
// then plan the edits and the stub header (Planner.h), for the whole unit
// and, when asked, for each call-site alone.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/Translation.h"

#include "clang/AST/ASTConsumer.h"

#include <memory>

namespace dpstub {

/// The consumer that fills Out from a parsed unit.
std::unique_ptr<clang::ASTConsumer> makeTranslateConsumer(const TranslationOptions &Opts,
                                                          TranslationResult &Out);

} // namespace dpstub
