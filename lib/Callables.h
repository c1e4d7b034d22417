//===- Callables.h - What a kernel or operator argument denotes -*- C++ -*-===//
//
// A call-site's kernel, a reduction's operator and a sort's comparator are
// each a lambda, a function or a function object, written at the
// call-site or held in a variable: find the function whose body runs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <optional>
#include <string>

namespace dpstub {

/// What a kernel expression turned out to be.
struct ResolvedKernel {
  Kernel Model;
  const clang::FunctionDecl *Callable = nullptr; ///< free function or operator()
  const clang::LambdaExpr *Lambda = nullptr;
  bool Generic = false;
};

/// Resolves the kernel expression of a call-site of Kind taking NArgs
/// arguments; nothing when it cannot be translated (reported).
std::optional<ResolvedKernel> resolveKernel(const clang::Expr *KernelArg, unsigned NArgs,
                                            llvm::StringRef Kind, const clang::ASTContext &Ctx,
                                            Reporter &Diags);

/// The expression a callable argument denotes: the argument itself, what
/// `&f` takes the address of, or the initializer of a variable that holds
/// it as it is (`auto k = [](...) {...};`).
const clang::Expr *denotedCallable(const clang::Expr *E);

/// The operator() of a function object that fits NArgs arguments (its own,
/// else a public base's); Generic tells whether it is a template.
const clang::CXXMethodDecl *callOperatorOf(const clang::CXXRecordDecl *RD, unsigned NArgs,
                                           bool &Generic);

/// The definition of a function object's operator(), also of a member
/// template not yet instantiated.
const clang::FunctionDecl *definitionOf(const clang::CXXMethodDecl *M);

/// Why a library function object cannot run on a device, if it cannot.
std::optional<std::string> hostOnlyLibraryCallable(const clang::CXXRecordDecl *RD,
                                                   const clang::CXXMethodDecl *Op,
                                                   const clang::ASTContext &Ctx);

/// Whether D is declared in namespace std.
bool inStandardLibrary(const clang::Decl *D);

} // namespace dpstub
