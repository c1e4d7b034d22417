//===- Analysis.h - Kernels and argument conversions ------------*- C++ -*-===//
//
// Shared by the call-site rules: find the kernel behind a call-site
// argument, classify every further argument, resolve a reduction's
// operator or a sort's comparator, and read a call-site's explicit Dim.
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

/// "void name(float &o, float x)": a callable's signature as stub comments
/// show it, under the name given.
std::string signatureOf(const clang::FunctionDecl *FD, const clang::ASTContext &Ctx,
                        llvm::StringRef Name);

/// 1 when a call-site's first argument is its execution options
/// (dp::on(q), dp::group_size(...)), else 0: its other arguments then come
/// one later.
unsigned optionsShift(const clang::CallExpr *Call);
/// Argument I of a call-site, counted after its execution options.
const clang::Expr *callArg(const clang::CallExpr *Call, unsigned I);
/// The call-site's arguments, its execution options not counted.
unsigned callArgCount(const clang::CallExpr *Call);

/// Which compute domain kinds a call-site kind accepts: a bit per DomainKind.
using DomainSet = unsigned;
constexpr DomainSet domainBit(DomainKind K) { return 1u << static_cast<unsigned>(K); }
constexpr DomainSet AnyDomain = domainBit(DomainKind::Grid) | domainBit(DomainKind::Tiled) |
                                domainBit(DomainKind::Where) |
                                domainBit(DomainKind::LowerTriangle) |
                                domainBit(DomainKind::UpperTriangle);
/// "a dp::grid<N>, a dp::where(grid, pred) or ...", for diagnostics.
std::string describeDomains(DomainSet Allowed);

/// The hints in a call-site's execution options that are constants,
/// checked as the runtime would (a group of at most 1024 threads, each
/// extent at least 1, no group shape on a tiled domain, max_groups at
/// least 1); false when an error was reported.
bool checkOptions(const clang::Expr *Options, const Domain *D, clang::ASTContext &Ctx,
                  Reporter &Diags);

/// The compute rank of a call-site's domain, after the checks every kind
/// shares: not spelled in a macro, at least MinArgs arguments, a domain of
/// a kind in Allowed (stored in *Out). Nothing when the call-site cannot be
/// translated (reported).
std::optional<int> checkCallShape(const clang::CallExpr *Call, llvm::StringRef Kind,
                                  unsigned MinArgs, clang::ASTContext &Ctx, Reporter &Diags,
                                  DomainSet Allowed = domainBit(DomainKind::Grid),
                                  Domain *Out = nullptr);

/// The parts of a call-site that depend on its domain: a tile token or a
/// dp::tile_static needs a tiled domain, a barrier must not be under a
/// condition that depends on the thread, a dp::where's predicate is marked
/// for the device. Fills A.Model.Dom; false when an error was reported.
/// FirstArg: the call argument that is the kernel's first.
bool analyseDomain(AnalysedCall &A, const Domain &D, unsigned FirstArg, clang::ASTContext &Ctx,
                   Reporter &Diags);

/// User indexable types travel to the device by value and are only read
/// there: a partial projection of one, or one bound to a writable
/// parameter, leaves the call-site untouched (reported); false then.
bool stubsCanPass(const AnalysedCall &A, llvm::StringRef Kind, unsigned FirstArg,
                  Reporter &Diags);

/// Two types a call can pass between: the same, or both arithmetic
/// (dependent types pass).
bool convertible(clang::QualType From, clang::QualType To, const clang::ASTContext &Ctx);

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

/// The combining operator of a reduce or scan: checks that it can be called
/// as r(T, T) for the result's element type T and records what must compile
/// for the device into Out. Nothing when it was rejected (reported).
std::optional<Operator> analyseOperator(const clang::Expr *E, clang::QualType T,
                                        llvm::StringRef Kind, clang::ASTContext &Ctx,
                                        Reporter &Diags, AnalysedCall &Out);

/// The explicit Dim of `dp::reduce<Dim>(...)` (or of its launcher), if any.
std::optional<int> explicitDim(const clang::CallExpr *Call);

/// The natural order of a comparator over element type R, when it is
/// std::less/std::greater or a lambda returning `a < b` / `a > b` and R is
/// arithmetic; Custom otherwise.
SortOrder comparatorOrder(const clang::Expr *Cmp, clang::QualType R, const clang::ASTContext &Ctx);

/// The kernel's value type (the map function's return type), when known.
clang::QualType kernelResultType(const AnalysedCall &A);

} // namespace dpstub
