//===- Analysis.h - Kernels and argument conversions ------------*- C++ -*-===//
//
// Shared by the call-site rules: find the kernel behind a call-site
// argument and classify every further argument by SPEC section 3.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/Diagnostics.h"
#include "dpstub/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace dpstub {

/// Location of a source position as users see it (file's base name).
Location locationOf(clang::SourceLocation L, const clang::SourceManager &SM);

/// The user's text of an expression, copied from the source.
std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// Resolves the kernel expression of a call-site and classifies the
/// arguments Call->getArg(First ...) against its parameters at compute rank
/// Rc. Reports misuse through Diags and returns nothing when the call-site
/// cannot be translated.
std::optional<AnalysedCall> analyseKernelCall(const clang::CallExpr *Call, llvm::StringRef Kind,
                                              unsigned KernelArg, unsigned FirstArg, int Rc,
                                              clang::ASTContext &Ctx, Reporter &Diags);

} // namespace dpstub
