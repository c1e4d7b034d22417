//===- AstText.h - Where and what the user wrote ----------------*- C++ -*-===//
//
// The ground floor of the analyses: source positions as users see them,
// the user's text of an expression, a callable's signature as stub
// comments show it, and a call-site's arguments counted after its
// execution options.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace dpstub {

/// Location of a source position as users see it (file's base name).
Location locationOf(clang::SourceLocation L, const clang::SourceManager &SM);

/// The user's text of an expression, copied from the source.
std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// "void name(float &o, float x)": a callable's signature as stub comments
/// show it, under the name given.
std::string signatureOf(const clang::FunctionDecl *FD, const clang::ASTContext &Ctx,
                        llvm::StringRef Name);

/// "::ns::name", no "(anonymous namespace)::": how a stub names a callable.
std::string qualifiedCallName(const clang::NamedDecl *D);

/// 1 when a call-site's first argument is its execution options
/// (dp::on(q), dp::group_size(...)), else 0: its other arguments then come
/// one later.
unsigned optionsShift(const clang::CallExpr *Call);
/// Argument I of a call-site, counted after its execution options.
const clang::Expr *callArg(const clang::CallExpr *Call, unsigned I);
/// The call-site's arguments, its execution options not counted.
unsigned callArgCount(const clang::CallExpr *Call);

/// The explicit Dim of `dp::reduce<Dim>(...)` (or of its launcher), if any.
std::optional<int> explicitDim(const clang::CallExpr *Call);

} // namespace dpstub
