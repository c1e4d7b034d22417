//===- Liveness.cpp - Values that flow between statements -----------------===//

#include "migrate/Liveness.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace dpstub::migrate {

namespace {

using VarSet = std::set<const VarDecl *>;

/// Walks statements in evaluation order, keeping the set of tracked
/// variables surely written so far; a read of one not yet written is
/// recorded.
class Walker {
public:
  Walker(const VarSet &Tracked, VarSet &Exposed) : Tracked(Tracked), Exposed(Exposed) {}

  void walk(const Stmt *S, VarSet &Defined) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S))
      S = E->IgnoreParens();
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        walk(C, Defined);
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit(), Defined);
      walk(If->getCond(), Defined);
      VarSet Then = Defined, Else = Defined;
      walk(If->getThen(), Then);
      walk(If->getElse(), Else);
      Defined.clear();
      for (const VarDecl *V : Then)
        if (Else.count(V))
          Defined.insert(V);
      return;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit(), Defined);
      walk(F->getCond(), Defined);
      VarSet Body = Defined; // it may not run
      walk(F->getBody(), Body);
      walk(F->getInc(), Body);
      walk(F->getCond(), Body);
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      walk(W->getCond(), Defined);
      VarSet Body = Defined;
      walk(W->getBody(), Body);
      walk(W->getCond(), Body);
      return;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      walk(D->getBody(), Defined); // runs at least once
      walk(D->getCond(), Defined);
      return;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      walk(Sw->getCond(), Defined);
      VarSet Body = Defined;
      walk(Sw->getBody(), Body);
      return;
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
      walk(C->getCond(), Defined);
      VarSet T = Defined, F = Defined;
      walk(C->getTrueExpr(), T);
      walk(C->getFalseExpr(), F);
      return;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->isLogicalOp()) {
        walk(B->getLHS(), Defined);
        VarSet R = Defined;
        walk(B->getRHS(), R);
        return;
      }
      if (B->isAssignmentOp()) {
        const VarDecl *Target = tracked(B->getLHS());
        walk(B->getRHS(), Defined);
        if (Target) {
          if (B->isCompoundAssignmentOp())
            read(Target, Defined);
          Defined.insert(Target);
        } else {
          walk(B->getLHS(), Defined);
        }
        return;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp()) {
      if (const VarDecl *V = tracked(U->getSubExpr())) {
        read(V, Defined);
        Defined.insert(V);
        return;
      }
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          walk(V->getInit(), Defined);
      return;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const Expr *Init : L->capture_inits())
        walk(Init, Defined);
      return;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && Tracked.count(V))
        read(V, Defined);
      return;
    }
    for (const Stmt *C : S->children())
      walk(C, Defined);
  }

private:
  const VarDecl *tracked(const Expr *E) const {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && Tracked.count(V))
        return V;
    return nullptr;
  }
  void read(const VarDecl *V, const VarSet &Defined) {
    if (!Defined.count(V))
      Exposed.insert(V);
  }

  const VarSet &Tracked;
  VarSet &Exposed;
};

} // namespace

std::set<const VarDecl *> readBeforeWritten(const Stmt *S, const std::set<const VarDecl *> &Tracked) {
  VarSet Exposed, Defined;
  Walker(Tracked, Exposed).walk(S, Defined);
  return Exposed;
}

bool liveAfter(const Stmt *Loop, const VarDecl *V, ASTContext &Ctx) {
  const VarSet Tracked{V};
  VarSet Exposed;
  Walker W(Tracked, Exposed);
  VarSet Defined;
  const Stmt *Child = Loop;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Child);
    const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!P)
      return !Exposed.empty();
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      bool After = false;
      for (const Stmt *S : CS->body()) {
        if (After)
          W.walk(S, Defined);
        After |= S == Child;
      }
      if (Defined.count(V))
        return !Exposed.empty();
    } else if (isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<CXXForRangeStmt>(P)) {
      // The rest of the enclosing loop's body done, it steps and tests
      // its condition (`do { ...; stop = ... } while (stop)` reads the
      // value first), then may run its body again: all of it follows.
      VarSet Next = Defined;
      if (const auto *F = dyn_cast<ForStmt>(P)) {
        if (F->getInc())
          W.walk(F->getInc(), Next);
        if (F->getCond())
          W.walk(F->getCond(), Next);
      } else if (const auto *Wh = dyn_cast<WhileStmt>(P)) {
        W.walk(Wh->getCond(), Next);
      } else if (const auto *Do = dyn_cast<DoStmt>(P)) {
        W.walk(Do->getCond(), Next);
      }
      VarSet Again;
      if (!Next.count(V))
        W.walk(P, Again);
    }
    if (!Exposed.empty())
      return true;
    Child = P;
  }
}

} // namespace dpstub::migrate
