//===- DomainAnalysis.cpp - What a call-site's domain accepts -------------===//
//
// Tiles: tile tokens and dp::tile_static need a tiled domain, and the
// stub's tile memory must hold every dp::tile_static the kernel (or what it
// calls) declares; its barriers are BarrierAnalysis.cpp's. dp::where: its
// predicate runs in the stub, so it is marked for the device.
//
//===----------------------------------------------------------------------===//

#include "DomainAnalysis.h"
#include "AstText.h"
#include "BarrierAnalysis.h"
#include "OptionsCheck.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace dpstub {

namespace {

/// The lambda a dp::where predicate is, seen through the domain argument:
/// `dp::where(g, [..](..){..})`, or a local variable initialised so.
const LambdaExpr *predicateLambda(const Expr *E, int Depth = 0) {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return predicateLambda(M->getSubExpr(), Depth + 1);
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return predicateLambda(B->getSubExpr(), Depth + 1);
  if (const auto *LE = dyn_cast<LambdaExpr>(E))
    return LE;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() == 1)
    return predicateLambda(CE->getArg(0), Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && !isa<ParmVarDecl>(VD))
      return predicateLambda(VD->getInit(), Depth + 1);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->getName() == "where" && Call->getNumArgs() == 2)
      return predicateLambda(Call->getArg(1), Depth + 1);
  return nullptr;
}

} // namespace

std::optional<int> checkCallShape(const CallExpr *Call, llvm::StringRef Kind, unsigned MinArgs,
                                  ASTContext &Ctx, Reporter &Diags, DomainSet Allowed,
                                  Domain *Out) {
  if (Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID()) {
    Diags.untouched(Call->getBeginLoc()) << Kind << "it is spelled inside a macro expansion";
    return std::nullopt;
  }
  if (callArgCount(Call) < MinArgs) {
    Diags.untouched(Call->getBeginLoc()) << Kind << "it has too few arguments";
    return std::nullopt;
  }
  const Expr *DomainArg = callArg(Call, 0);
  const std::optional<std::pair<int, Domain>> D = computeDomain(DomainArg->getType(), Ctx);
  if (!D || !(Allowed & domainBit(D->second.Kind))) {
    Diags.badDomain(DomainArg->getExprLoc())
        << Kind << describeDomains(Allowed)
        << printType(DomainArg->getType().getCanonicalType().getUnqualifiedType(), Ctx);
    return std::nullopt;
  }
  if (optionsShift(Call) && !checkOptions(Call->getArg(0), &D->second, Ctx, Diags))
    return std::nullopt;
  if (Out)
    *Out = D->second;
  return D->first;
}

std::string describeDomains(DomainSet Allowed) {
  if (Allowed == domainBit(DomainKind::Grid))
    return "a dp::grid<N> (tiled, dp::where and triangle domains are for dp::forall and the "
           "full dp::reduce)";
  return "a dp::grid<N>, a dp::tile<T...>(grid), a dp::where(grid, pred) or a "
         "dp::lower_triangle / dp::upper_triangle";
}

bool analyseDomain(AnalysedCall &A, const Domain &D, unsigned FirstArg, ASTContext &Ctx,
                   Reporter &Diags) {
  CallSite &C = A.Model;
  C.Dom = D;
  bool Ok = true;
  for (const Argument &Arg : C.Args)
    if (Arg.Conv == Conversion::SpecialIndex && Arg.Index != IndexKind::Global && !D.isTiled()) {
      Diags.tileTokenUntiled(callArg(A.Call, FirstArg + Arg.Position)->getExprLoc())
          << (Arg.Position + 1) << toString(C.Kind);
      Ok = false;
    }

  if (const FunctionDecl *K = A.KernelFunction ? A.KernelFunction->getDefinition() : nullptr) {
    const TileWork Work = tileWorkOf(K, Ctx);
    for (const VarDecl *VD : Work.Statics) {
      const std::string T = printType(tileStaticType(VD->getType()).getCanonicalType(), Ctx);
      if (!D.isTiled()) {
        Diags.tileStaticUntiled(VD->getLocation()) << T << toString(C.Kind);
        Ok = false;
      } else {
        C.Dom.TileStatics.push_back(T); // one per object: two of a type need twice the room
      }
    }
    if (Work.Barrier)
      C.Dom.Barrier = true;
    if (!checkBarriers(A, K, Ctx, Diags))
      Ok = false;
  }

  if (D.Kind == DomainKind::Where) {
    const Expr *DomainArg = callArg(A.Call, 0);
    const auto *S = dpSpecialization(DomainArg->getType(), "where_domain");
    const QualType Pred = S ? S->getTemplateArgs()[1].getAsType() : QualType();
    if (const LambdaExpr *LE = predicateLambda(DomainArg)) {
      A.StubLambdas.push_back(LE);
    } else if (const CXXRecordDecl *RD = Pred.isNull() ? nullptr : Pred->getAsCXXRecordDecl();
               RD && !RD->isLambda() && RD->hasDefinition()) {
      for (const CXXMethodDecl *M : RD->methods())
        if (M->getOverloadedOperator() == OO_Call)
          A.StubCalls.push_back(M);
    } else {
      Diags.untouched(DomainArg->getExprLoc())
          << toString(C.Kind)
          << (!Pred.isNull() && Pred->isPointerType()
                  ? "the dp::where predicate is a function pointer, which a GPU cannot call; "
                    "pass a lambda or a function object"
                  : "dpstub cannot see the dp::where predicate's lambda; write it in the "
                    "dp::where call or in a local variable's initializer");
      return false;
    }
  }
  return Ok;
}

} // namespace dpstub
