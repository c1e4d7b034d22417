//===- Liveness.cpp - Values that flow between statements -----------------===//

#include "migrate/Liveness.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

#include <optional>
#include <string>

using namespace clang;

namespace dpstub::migrate {

namespace {

using VarSet = std::set<const VarDecl *>;
/// A tracked variable, or a member of one reached by `.` (`d.x`: {d,
/// ".x"}; the variable itself: {d, ""}).
using Place = std::pair<const VarDecl *, std::string>;
using PlaceSet = std::set<Place>;

/// Walks statements in evaluation order, keeping the set of tracked
/// places surely written so far; a read of one not yet written (nor the
/// whole it is part of) is recorded as its variable's.
class Walker {
public:
  Walker(const VarSet &Tracked, PlaceSet &Exposed) : Tracked(Tracked), Exposed(Exposed) {}

  void walk(const Stmt *S, PlaceSet &Defined) {
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
      PlaceSet Then = Defined, Else = Defined;
      walk(If->getThen(), Then);
      walk(If->getElse(), Else);
      Defined.clear();
      for (const Place &P : Then)
        if (Else.count(P))
          Defined.insert(P);
      return;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit(), Defined);
      walk(F->getCond(), Defined);
      PlaceSet Body = Defined; // it may not run
      walk(F->getBody(), Body);
      walk(F->getInc(), Body);
      walk(F->getCond(), Body);
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      walk(W->getCond(), Defined);
      PlaceSet Body = Defined;
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
      PlaceSet Body = Defined;
      walk(Sw->getBody(), Body);
      return;
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
      walk(C->getCond(), Defined);
      PlaceSet T = Defined, F = Defined;
      walk(C->getTrueExpr(), T);
      walk(C->getFalseExpr(), F);
      return;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->isLogicalOp()) {
        walk(B->getLHS(), Defined);
        PlaceSet R = Defined;
        walk(B->getRHS(), R);
        return;
      }
      if (B->isAssignmentOp()) {
        const std::optional<Place> Target = tracked(B->getLHS());
        walk(B->getRHS(), Defined);
        if (Target) {
          if (B->isCompoundAssignmentOp())
            read(*Target, Defined);
          Defined.insert(*Target);
        } else {
          walk(B->getLHS(), Defined);
        }
        return;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp()) {
      if (const std::optional<Place> P = tracked(U->getSubExpr())) {
        read(*P, Defined);
        Defined.insert(*P);
        return;
      }
    }
    if (const auto *M = dyn_cast<MemberExpr>(S)) {
      if (const std::optional<Place> P = tracked(M)) {
        read(*P, Defined);
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
        read({V, ""}, Defined);
      return;
    }
    for (const Stmt *C : S->children())
      walk(C, Defined);
  }

private:
  /// E as a tracked variable, or a member of one reached by `.`.
  std::optional<Place> tracked(const Expr *E) const {
    std::string Path;
    E = E->IgnoreParenImpCasts();
    while (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow())
        return std::nullopt; // through a pointer: elsewhere
      Path = "." + M->getMemberDecl()->getNameAsString() + Path;
      E = M->getBase()->IgnoreParenImpCasts();
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && Tracked.count(V))
        return Place{V, Path};
    return std::nullopt;
  }
  /// A read of P: exposed unless P, or a whole it is part of, is written.
  void read(const Place &P, const PlaceSet &Defined) {
    for (std::size_t End = P.second.size();; End = P.second.rfind('.', End - 1)) {
      if (Defined.count({P.first, P.second.substr(0, End)}))
        return;
      if (End == 0 || End == std::string::npos)
        break;
    }
    Exposed.insert(P);
  }

  const VarSet &Tracked;
  PlaceSet &Exposed;
};

} // namespace

std::set<const VarDecl *> readBeforeWritten(const Stmt *S, const std::set<const VarDecl *> &Tracked) {
  PlaceSet Exposed, Defined;
  Walker(Tracked, Exposed).walk(S, Defined);
  VarSet Vars;
  for (const Place &P : Exposed)
    Vars.insert(P.first);
  return Vars;
}

std::set<std::string> membersReadBeforeWritten(const Stmt *S, const VarDecl *V) {
  PlaceSet Exposed, Defined;
  Walker({V}, Exposed).walk(S, Defined);
  std::set<std::string> Paths;
  for (const Place &P : Exposed)
    Paths.insert(P.second);
  return Paths;
}

bool liveAfter(const Stmt *Loop, const VarDecl *V, ASTContext &Ctx) {
  const VarSet Tracked{V};
  PlaceSet Exposed;
  Walker W(Tracked, Exposed);
  const Place Whole{V, ""};
  PlaceSet Defined;
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
      if (Defined.count(Whole))
        return !Exposed.empty();
    } else if (isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<CXXForRangeStmt>(P)) {
      // The rest of the enclosing loop's body done, it steps and tests
      // its condition (`do { ...; stop = ... } while (stop)` reads the
      // value first), then may run its body again: all of it follows.
      PlaceSet Next = Defined;
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
      PlaceSet Again;
      if (!Next.count(Whole))
        W.walk(P, Again);
    }
    if (!Exposed.empty())
      return true;
    Child = P;
  }
}

} // namespace dpstub::migrate
