//===- Operators.h - A reduction's operator, a sort's comparator -*- C++ -*-===//
//
// The second callable a value call-site or a sort takes: check that a
// reduce's or scan's operator combines two values of the result's type,
// and read the natural order a sort's comparator gives, if it gives one.
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

/// The combining operator of a reduce or scan: checks that it can be called
/// as r(T, T) for the result's element type T and records what must compile
/// for the device into Out. Nothing when it was rejected (reported).
std::optional<Operator> analyseOperator(const clang::Expr *E, clang::QualType T,
                                        llvm::StringRef Kind, clang::ASTContext &Ctx,
                                        Reporter &Diags, AnalysedCall &Out);

/// The natural order of a comparator over element type R, when it is
/// std::less/std::greater or a lambda returning `a < b` / `a > b` and R is
/// arithmetic; Custom otherwise.
SortOrder comparatorOrder(const clang::Expr *Cmp, clang::QualType R, const clang::ASTContext &Ctx);

/// The kernel's value type (the map function's return type), when known.
clang::QualType kernelResultType(const AnalysedCall &A);

/// Two types a call can pass between: the same, or both arithmetic
/// (dependent types pass).
bool convertible(clang::QualType From, clang::QualType To, const clang::ASTContext &Ctx);

} // namespace dpstub
