//===- KernelAnalysis.h - A call-site's kernel and its arguments -*- C++ -*-===//
//
// Shared by the call-site rules: resolve the kernel behind a call-site,
// bind its parameters to the arguments and classify each (Conversions.h),
// then the checks over all of them: a by-value parameter a forall kernel
// assigns, a field bound twice with one binding writable.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/Diagnostics.h"
#include "dpstub/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <vector>

namespace dpstub {

/// Which call arguments reach which kernel parameters.
struct KernelBinding {
  unsigned KernelArg = 1;       ///< the kernel expression's argument index
  unsigned FirstArg = 2;        ///< the first argument passed on to the kernel
  unsigned LeadingFormals = 0;  ///< kernel parameters bound to no argument (a comparator's operands)
  bool BroadcastOnly = false;   ///< every argument reaches the kernel whole (sort's extras)
  bool AllowImplicitIndex = true;
};

/// Resolves the kernel expression of a call-site and classifies the
/// arguments against its parameters at compute rank Rc. Reports misuse
/// through Diags and returns nothing when the call-site cannot be
/// translated.
std::optional<AnalysedCall> analyseKernelCall(const clang::CallExpr *Call, CallKind Kind,
                                              const KernelBinding &Binding, int Rc,
                                              clang::ASTContext &Ctx, Reporter &Diags);

/// A field variable bound twice, once (Writer) to a writable parameter the
/// kernel declares: positions of the two arguments.
struct AliasedWrite {
  const clang::VarDecl *Var = nullptr;
  unsigned Writer = 0;
  unsigned Other = 0;
};

/// The provably aliased writes among a call-site's arguments: Named[I] is
/// the field variable argument I names (null when it names none), Args the
/// classified arguments. One per variable, its first writer and the first
/// other use, in the order the variables first appear.
std::vector<AliasedWrite> findAliasedWrites(llvm::ArrayRef<const clang::VarDecl *> Named,
                                            llvm::ArrayRef<Argument> Args);

/// User indexable types travel to the device by value and are only read
/// there: a partial projection of one, or one bound to a writable
/// parameter, leaves the call-site untouched (reported); false then.
bool stubsCanPass(const AnalysedCall &A, llvm::StringRef Kind, unsigned FirstArg,
                  Reporter &Diags);

} // namespace dpstub
