//===- OptionsCheck.h - Execution options judged at translation -*- C++ -*-===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace dpstub {

/// The hints in a call-site's execution options that are constants,
/// checked as the runtime would (a group of at most 1024 threads, each
/// extent at least 1, no group shape on a tiled domain, max_groups at
/// least 1); false when an error was reported.
bool checkOptions(const clang::Expr *Options, const Domain *D, clang::ASTContext &Ctx,
                  Reporter &Diags);

} // namespace dpstub
