//===- ValueCall.h - Call-sites whose kernel maps to values ----*- C++ -*-===//
//
// dp::reduce, dp::reduce<Dim> and dp::scan<Dim> share their shape
// (domain, r, result, f, args...), their analysis and their stub: a map
// function that gives f's value at a position, folded by the runtime's
// pattern for the kind.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/Rule.h"

#include <optional>

namespace dpstub {

/// Analyses `dp::KIND[<Dim>](domain, r, result, f, args...)`.
std::optional<AnalysedCall> analyseValueCall(const clang::CallExpr *Call, CallKind Kind,
                                             clang::ASTContext &Ctx, Reporter &Diags);

/// The stub of a reduce, reduce<Dim> or scan call-site: a map function
/// folded by the runtime's pattern for the kind.
StubSpec valueStubSpec(const CallSite &C);

/// Matches `dp::KIND` call-sites (and their launchers) with an explicit
/// integral first template argument (Dim) or without one.
clang::ast_matchers::StatementMatcher valueCallMatcher(llvm::StringRef Kind, bool WithDim);

} // namespace dpstub
