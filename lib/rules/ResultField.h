//===- ResultField.h - The field a call-site writes -------------*- C++ -*-===//
//
// A reduce<Dim> or scan<Dim> writes its result field and a sort orders its
// sort field in place: both must be writable dp::fields of one rank.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace dpstub {

/// The user's text and type of a call-site's result argument.
Result resultOf(const clang::Expr *Arg, const clang::ASTContext &Ctx);

/// Out's argument Arg must be a writable dp::field of rank Want: its
/// element type, with Out.Rank and Out.ElementType set. Otherwise reported
/// as Spelling's bad result, naming the argument as Role ("the result",
/// "the sort field") and saying why that rank (RankWhy, "the compute
/// rank"); nothing then.
std::optional<clang::QualType> analyseResultField(const clang::Expr *Arg, int Want,
                                                  llvm::StringRef Role, llvm::StringRef RankWhy,
                                                  llvm::StringRef Spelling,
                                                  clang::ASTContext &Ctx, Reporter &Diags,
                                                  Result &Out);

} // namespace dpstub
