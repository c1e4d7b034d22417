//===- TeamFunctions.cpp - Regions whose loops are in the functions they call -===//

#include "migrate/TeamFunctions.h"

#include "AstVisitor.h"
#include "migrate/BodyScan.h"
#include "migrate/Text.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace dpstub::migrate {

const FunctionDecl *functionHolding(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Up = Ctx.getParents(*S);
  while (!Up.empty()) {
    if (const auto *F = Up[0].get<FunctionDecl>())
      return F;
    if (Up[0].get<LambdaExpr>() || Up[0].get<BlockDecl>())
      return nullptr; // a lambda's body is its own
    Up = Ctx.getParents(Up[0]);
  }
  return nullptr;
}

std::vector<const FunctionDecl *> directCallees(const Stmt *S) {
  std::vector<const FunctionDecl *> Found;
  for (const CallExpr *C : callsIn(S))
    if (const FunctionDecl *F = C->getDirectCallee())
      Found.push_back(F->getCanonicalDecl());
  return Found;
}

namespace {

/// A host OpenMP `parallel` region (not a combined loop construct).
bool hostParallel(const PragmaLine &P) {
  return P.D.Kind == DirectiveKind::Region && P.D.Model == PragmaModel::OpenMP && !runsOnDevice(P.D) &&
         P.D.has("parallel") && P.On;
}

/// The calls of the main file's functions, and the functions named
/// otherwise than by a call.
struct CallGraph : AstVisitor {
  struct Call {
    const CallExpr *E;
    const FunctionDecl *Caller; ///< null at namespace scope
  };
  std::map<const FunctionDecl *, std::vector<Call>> CallsOf;      ///< by callee
  std::map<const FunctionDecl *, std::vector<const FunctionDecl *>> Callees;
  std::set<const FunctionDecl *> AddressTaken, Defined;
  bool HasMain = false;
  ASTContext &Ctx;
  const FunctionDecl *Current = nullptr;
  explicit CallGraph(ASTContext &Ctx) : Ctx(Ctx) {}

  bool TraverseFunctionDecl(FunctionDecl *F) override {
    const FunctionDecl *Outer = Current;
    if (F->doesThisDeclarationHaveABody()) {
      Current = F->getCanonicalDecl();
      Defined.insert(Current);
      HasMain |= F->isMain();
    }
    AstVisitor::TraverseFunctionDecl(F);
    Current = Outer;
    return true;
  }
  bool VisitCallExpr(CallExpr *C) override {
    if (const FunctionDecl *F = C->getDirectCallee()) {
      CallsOf[F->getCanonicalDecl()].push_back({C, Current});
      if (Current)
        Callees[Current].push_back(F->getCanonicalDecl());
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) override {
    const auto *F = dyn_cast<FunctionDecl>(D->getDecl());
    if (!F)
      return true;
    DynTypedNodeList Up = Ctx.getParents(*D);
    const Stmt *P = Up.empty() ? nullptr : Up[0].get<Stmt>();
    while (P && isa<ImplicitCastExpr, ParenExpr>(P)) {
      Up = Ctx.getParents(*P);
      P = Up.empty() ? nullptr : Up[0].get<Stmt>();
    }
    const auto *C = dyn_cast_or_null<CallExpr>(P);
    if (!C || C->getDirectCallee() != F)
      AddressTaken.insert(F->getCanonicalDecl());
    return true;
  }
};

} // namespace

TeamFunctions teamFunctions(const std::vector<PragmaLine> &Pragmas, const std::vector<const PragmaLine *> &Orphaned,
                            ASTContext &Ctx) {
  TeamFunctions Out;
  if (Orphaned.empty())
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  CallGraph G(Ctx);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (SM.isWrittenInMainFile(SM.getFileLoc(D->getLocation())))
      G.TraverseDecl(D);

  // The functions holding orphaned directives (OpenMP's: an orphaned
  // `acc loop` belongs to a `routine`, which runs on a device).
  std::map<const FunctionDecl *, std::vector<const PragmaLine *>> Holders;
  for (const PragmaLine *P : Orphaned)
    if (P->D.Model == PragmaModel::OpenMP)
      if (const FunctionDecl *F = functionHolding(P->On, Ctx))
        Holders[F->getCanonicalDecl()].push_back(P);

  // A call inside a construct other than a host parallel region (a
  // loop's body, `master`, `single`, a task, a device region): the
  // function's loops would not bind to a whole team there. Data regions
  // and standalone directives (`barrier`, `flush`: their On is merely
  // the statement after them) hold no statement of their own.
  auto HoldsStatement = [](const Directive &D) {
    switch (D.Kind) {
    case DirectiveKind::Loop:
    case DirectiveKind::Region:
      return true;
    case DirectiveKind::Other:
      for (const char *W : {"barrier", "flush", "taskwait", "taskyield", "threadprivate", "requires", "cancel",
                            "cancellation", "declare", "end", "depobj", "scan", "cache", "init", "shutdown", "set"})
        if (D.has(W))
          return false;
      return true;
    default:
      return false;
    }
  };
  auto Guarded = [&](const CallExpr *C) {
    return std::any_of(Pragmas.begin(), Pragmas.end(), [&](const PragmaLine &Q) {
      return Q.On && !hostParallel(Q) && HoldsStatement(Q.D) && textWithin(C, Q.On, Ctx);
    });
  };
  // Functions whose every run dpstub cannot see or bound: one another
  // file may call (external, and the file has no main), one taken by
  // address, one called where its loops would not bind to a team; and
  // every function such a one calls.
  std::set<const FunctionDecl *> Bad;
  for (const FunctionDecl *F : G.Defined) {
    const bool Internal = !F->isExternallyVisible();
    if ((!Internal && !G.HasMain) || G.AddressTaken.count(F))
      Bad.insert(F);
    for (const CallGraph::Call &C : G.CallsOf[F])
      if (Guarded(C.E))
        Bad.insert(F);
  }
  // (A call inside a host parallel region is bound to that region's
  // team, whoever calls the function making it.)
  auto InHostRegion = [&](const CallExpr *C) {
    return std::any_of(Pragmas.begin(), Pragmas.end(),
                       [&](const PragmaLine &Q) { return hostParallel(Q) && textWithin(C, Q.On, Ctx); });
  };
  std::vector<const FunctionDecl *> Work(Bad.begin(), Bad.end());
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    for (const FunctionDecl *C : G.Callees[F])
      if (G.Defined.count(C) && !Bad.count(C))
        for (const CallGraph::Call &Call : G.CallsOf[C])
          if (Call.Caller == F && !InHostRegion(Call.E)) {
            Bad.insert(C);
            Work.push_back(C);
            break;
          }
  }
  // Those that hold orphaned directives or call such a function.
  std::map<const FunctionDecl *, bool> Reaches;
  std::function<bool(const FunctionDecl *)> ReachesHolder = [&](const FunctionDecl *F) {
    auto [It, New] = Reaches.try_emplace(F, Holders.count(F) > 0);
    if (!New)
      return It->second;
    bool Any = It->second;
    for (const FunctionDecl *C : G.Callees[F])
      if (G.Defined.count(C))
        Any |= ReachesHolder(C);
    return Reaches[F] = Any;
  };

  // Each region: the defined functions its calls reach.
  std::map<const FunctionDecl *, std::vector<const PragmaLine *>> RegionsOf; // by holder
  for (const PragmaLine &R : Pragmas) {
    if (!hostParallel(R))
      continue;
    std::vector<const FunctionDecl *> Reached;
    std::set<const FunctionDecl *> Seen;
    std::vector<const FunctionDecl *> Next = directCallees(R.On);
    while (!Next.empty()) {
      const FunctionDecl *F = Next.back();
      Next.pop_back();
      if (!G.Defined.count(F) || !Seen.insert(F).second || !ReachesHolder(F))
        continue;
      Reached.push_back(F);
      Next.insert(Next.end(), G.Callees[F].begin(), G.Callees[F].end());
    }
    if (Reached.empty())
      continue;
    const bool Clean = std::none_of(Reached.begin(), Reached.end(), [&](const FunctionDecl *F) { return Bad.count(F); });
    for (const FunctionDecl *F : Reached)
      if (Holders.count(F))
        RegionsOf[F].push_back(&R);
    if (Clean) {
      std::sort(Reached.begin(), Reached.end(), [&](const FunctionDecl *A, const FunctionDecl *B) {
        return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
      });
      Out.OfRegion[&R] = std::move(Reached);
    }
  }
  // A holder joins when every region reaching it keeps its team
  // functions; a region reaching a holder that does not join keeps none
  // (its calls then count as any call of its threads), and then no
  // holder it reaches joins: its threads would run their call-sites.
  std::set<const FunctionDecl *> Joins;
  for (bool Changed = true; Changed;) {
    Changed = false;
    Joins.clear();
    // One no region reaches runs on one thread: its loops are the
    // program's, as a `parallel for`'s.
    for (const auto &[F, Ps] : Holders)
      if (!Bad.count(F) && !RegionsOf.count(F))
        Joins.insert(F);
    for (const auto &[F, Regions] : RegionsOf)
      if (!Bad.count(F) &&
          std::all_of(Regions.begin(), Regions.end(), [&](const PragmaLine *R) { return Out.OfRegion.count(R); }))
        Joins.insert(F);
    for (auto It = Out.OfRegion.begin(); It != Out.OfRegion.end();) {
      const bool AllJoin = std::all_of(It->second.begin(), It->second.end(),
                                       [&](const FunctionDecl *F) { return !Holders.count(F) || Joins.count(F); });
      Changed |= !AllJoin;
      It = AllJoin ? std::next(It) : Out.OfRegion.erase(It);
    }
  }
  for (const auto &[F, Ps] : Holders)
    if (Joins.count(F))
      Out.Joining.insert(Ps.begin(), Ps.end());
  return Out;
}

} // namespace dpstub::migrate
