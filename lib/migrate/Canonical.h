//===- Canonical.h - Loops a grid can describe ------------------*- C++ -*-===//
//
// A canonical loop (OpenMP's word) has an integer induction variable
// initialised once, compared with a bound, and stepped by a constant:
// exactly what one dimension of a dp::grid describes. This recognises one
// level, and the loop perfectly nested in a body.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/LoopModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <variant>

namespace dpstub::migrate {

/// The level F describes, or why it is not canonical (refusal text only:
/// the caller picks the diagnostic's place).
std::variant<LoopLevel, std::string> canonicalLevel(const clang::ForStmt *F,
                                                     const clang::ASTContext &Ctx);

/// The for loop a body consists of (alone, or as the only statement of a
/// compound statement), or null.
const clang::ForStmt *perfectlyNested(const clang::Stmt *Body);

/// The expression with implicit casts and parentheses removed.
const clang::Expr *bare(const clang::Expr *E);

/// The variable E names (through casts and parentheses), or null.
const clang::VarDecl *namedVar(const clang::Expr *E);

} // namespace dpstub::migrate
