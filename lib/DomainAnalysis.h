//===- DomainAnalysis.h - What a call-site's domain accepts -----*- C++ -*-===//
//
// The checks every call-site kind shares about its domain: the call's
// shape (not in a macro, enough arguments, a domain of a kind it accepts,
// constant options in range), and what the domain asks of the kernel.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/Diagnostics.h"
#include "dpstub/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace dpstub {

/// Which compute domain kinds a call-site kind accepts: a bit per DomainKind.
using DomainSet = unsigned;
constexpr DomainSet domainBit(DomainKind K) { return 1u << static_cast<unsigned>(K); }
constexpr DomainSet AnyDomain = domainBit(DomainKind::Grid) | domainBit(DomainKind::Tiled) |
                                domainBit(DomainKind::Where) |
                                domainBit(DomainKind::LowerTriangle) |
                                domainBit(DomainKind::UpperTriangle);
/// "a dp::grid<N>, a dp::where(grid, pred) or ...", for diagnostics.
std::string describeDomains(DomainSet Allowed);

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
/// condition that depends on the thread (BarrierAnalysis.h), a dp::where's
/// predicate is marked for the device. Fills A.Model.Dom; false when an
/// error was reported. FirstArg: the call argument that is the kernel's
/// first.
bool analyseDomain(AnalysedCall &A, const Domain &D, unsigned FirstArg, clang::ASTContext &Ctx,
                   Reporter &Diags);

} // namespace dpstub
