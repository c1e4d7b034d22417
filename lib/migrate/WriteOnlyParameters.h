//===- WriteOnlyParameters.h - Helpers that only fill an array --*- C++ -*-===//
//
// Real codes give each thread a scratch array that a helper fills
// (NPB's `exact_solution(xi, eta, zeta, dtemp)`, whose `double dtemp[5]`
// parameter it only assigns). A loop whose iterations each own such an
// array (private, declared in its `omp parallel` region, threadprivate)
// keeps it as a C array of the kernel, and the call hands the kernel's
// array on as written: the helper writes that iteration's memory and no
// other, so the call is a write of the array, as an assignment of its
// elements is, and nothing of it becomes a dp::field.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace dpstub::migrate {

/// The parameter E is handed for, when E is an argument of a direct call
/// (a C array or one of its rows decaying: `t`, `p[k]`; or the address
/// of an element: `&p[i][0][0]`) whose callee's body is in view and only
/// writes through that parameter: every use of it is subscripted down
/// to a value (`d[m]`, `b[r][c]`) that a plain `=` assigns; never read,
/// stepped, handed on, or itself assigned. Null otherwise.
const clang::ParmVarDecl *writeOnlyParameterOf(const clang::Expr *E, clang::ASTContext &Ctx);

} // namespace dpstub::migrate
