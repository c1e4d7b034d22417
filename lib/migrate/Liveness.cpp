//===- Liveness.cpp - Values that flow between statements -----------------===//

#include "migrate/Liveness.h"

#include "migrate/BodyScan.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "AstVisitor.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// The function C calls directly (a free function, a static member, or
/// a member function called on an object, not virtual; not an
/// operator, whose arguments are not its parameters one for one), when
/// its I-th parameter is a non-const reference.
const FunctionDecl *referenceParameterOf(const CallExpr *C, unsigned I) {
  if (isa<CXXOperatorCallExpr>(C))
    return nullptr;
  const FunctionDecl *F = C->getDirectCallee();
  if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(F); M && M->isVirtual())
    return nullptr;
  if (!F || I >= F->getNumParams())
    return nullptr;
  const QualType T = F->getParamDecl(I)->getType();
  return T->isReferenceType() && !T.getNonReferenceType().isConstQualified() ? F : nullptr;
}

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
      if (const std::optional<bool> Known = constantCondition(If)) {
        // `if (data_spec_int == DATA_SPEC_THERMAL)` over a constexpr: one
        // branch is the only path.
        walk(*Known ? If->getThen() : If->getElse(), Defined);
        return;
      }
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
            read(*Target, Defined, B->getLHS());
          Defined.insert(*Target);
        } else {
          walk(B->getLHS(), Defined);
        }
        return;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp()) {
      if (const std::optional<Place> P = tracked(U->getSubExpr())) {
        read(*P, Defined, U);
        Defined.insert(*P);
        return;
      }
    }
    if (const auto *M = dyn_cast<MemberExpr>(S)) {
      if (const std::optional<Place> P = tracked(M)) {
        read(*P, Defined, M);
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
        read({V, ""}, Defined, DRE);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // The arguments first; then what the callee does to the places it
      // binds by reference (read first unless its body shows otherwise).
      std::vector<std::tuple<Place, std::optional<OutParameter>, const Expr *>> Bound;
      walk(Call->getCallee(), Defined);
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        const FunctionDecl *F = referenceParameterOf(Call, I);
        const std::optional<Place> P = F ? tracked(Call->getArg(I)) : std::nullopt;
        if (!P) {
          walk(Call->getArg(I), Defined);
          continue;
        }
        std::string Why;
        Bound.push_back({*P, outParameter(F, I, Why), Call->getArg(I)});
      }
      for (const auto &[P, Effect, Arg] : Bound)
        if (!Effect || Effect->ReadsFirst)
          read(P, Defined, Arg);
      for (const auto &[P, Effect, Arg] : Bound)
        if (Effect && Effect->Writes)
          Defined.insert(P);
      return;
    }
    for (const Stmt *C : S->children())
      walk(C, Defined);
  }

private:
  /// The value of If's condition when it is a constant expression.
  std::optional<bool> constantCondition(const IfStmt *If) const {
    const Expr *Cond = If->getCond();
    if (Tracked.empty() || If->getConditionVariable() || !Cond || Cond->isValueDependent())
      return std::nullopt;
    bool Value = false;
    if (!Cond->EvaluateAsBooleanCondition(Value, (*Tracked.begin())->getASTContext()))
      return std::nullopt;
    return Value;
  }
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
  /// A read of P at E: exposed unless P, or a whole it is part of, is
  /// written.
  void read(const Place &P, const PlaceSet &Defined, const Expr *E) {
    for (std::size_t End = P.second.size();; End = P.second.rfind('.', End - 1)) {
      if (Defined.count({P.first, P.second.substr(0, End)}))
        return;
      if (End == 0 || End == std::string::npos)
        break;
    }
    Exposed.insert(P);
    if (FirstAt && !FirstAt->count(P.first))
      (*FirstAt)[P.first] = E;
  }

public:
  /// Where each variable was first read before written, when asked.
  std::map<const VarDecl *, const Expr *> *FirstAt = nullptr;

private:

  const VarSet &Tracked;
  PlaceSet &Exposed;
};

/// True when S holds a way out of the function other than its last
/// statement (a return before it, a goto).
bool leavesEarly(const CompoundStmt *Body) {
  struct V : AstVisitor {
    const Stmt *Last = nullptr;
    bool Found = false;
    bool VisitReturnStmt(ReturnStmt *R) override {
      Found |= R != Last;
      return true;
    }
    bool VisitGotoStmt(GotoStmt *) override {
      Found = true;
      return true;
    }
    bool VisitCXXThrowExpr(CXXThrowExpr *) override {
      Found = true;
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) override { return true; } // its returns are its own
  } Visit;
  Visit.Last = Body->body_empty() ? nullptr : Body->body_back();
  Visit.TraverseStmt(const_cast<CompoundStmt *>(Body));
  return Visit.Found;
}

/// The statement above E past parentheses; Child is the node just below it.
const Stmt *parentPastParens(const Expr *E, ASTContext &Ctx, const Stmt *&Child) {
  Child = E;
  const Stmt *P = parentOf(E, Ctx);
  while (P && isa<ParenExpr>(P)) {
    Child = P;
    P = parentOf(P, Ctx);
  }
  return P;
}

/// Why the parameter P of F leaves F's hands at its use E (its address
/// taken, another reference bound to it), or "" when it stays.
std::string escapes(const DeclRefExpr *E, const FunctionDecl *F, ASTContext &Ctx) {
  const Stmt *Child = nullptr;
  const Stmt *P = parentPastParens(E, Ctx, Child);
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P); Cast && Cast->getCastKind() == CK_LValueToRValue)
    return "";
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(P); B && B->isAssignmentOp() && B->getLHS() == Child)
    return "";
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P); U && U->isIncrementDecrementOp())
    return "";
  if (const auto *C = dyn_cast_or_null<CallExpr>(P)) {
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      if (C->getArg(I) != Child)
        continue;
      const FunctionDecl *Callee = referenceParameterOf(C, I);
      if (!Callee) {
        const FunctionDecl *D = C->getDirectCallee();
        if (D && I < D->getNumParams() && D->getParamDecl(I)->getType()->isReferenceType())
          return ""; // bound to a const reference: read
        break;
      }
      std::string Why;
      return outParameter(Callee, I, Why) ? "" : Why;
    }
  }
  return "'" + F->getNameAsString() + "', which takes its address or binds another reference to it";
}

} // namespace

std::optional<OutParameter> outParameter(const FunctionDecl *F, unsigned I, std::string &Why) {
  const FunctionDecl *Def = nullptr;
  const auto *Body = F->hasBody(Def) && Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
  if (!Body || I >= Def->getNumParams()) {
    Why = "'" + F->getNameAsString() + "', whose body is not in view";
    return std::nullopt;
  }
  const ParmVarDecl *Param = Def->getParamDecl(I);
  // Calls among such functions are followed (a cycle is not), each
  // parameter once per question: the check of its uses and the walk of
  // its body both follow a nested call.
  struct Known {
    std::optional<OutParameter> Effect;
    std::string Why;
  };
  thread_local std::vector<const ParmVarDecl *> Busy;
  thread_local std::map<const ParmVarDecl *, Known> Answers; // of this question's
  if (Busy.empty())
    Answers.clear();
  if (std::find(Busy.begin(), Busy.end(), Param) != Busy.end()) { // its answer still in the making
    Why = "'" + F->getNameAsString() + "', which calls itself";
    return std::nullopt;
  }
  if (auto It = Answers.find(Param); It != Answers.end()) {
    Why = It->second.Why;
    return It->second.Effect;
  }
  Busy.push_back(Param);
  struct Pop {
    ~Pop() { Busy.pop_back(); }
  } Popped;
  Known &Answer = Answers[Param];
  ASTContext &Ctx = Def->getASTContext();
  for (const DeclRefExpr *E : namesIn(Body))
    if (E->getDecl() == Param && !(Answer.Why = escapes(E, Def, Ctx)).empty()) {
      Why = Answer.Why;
      return std::nullopt;
    }
  PlaceSet Exposed, Defined;
  const VarSet Tracked{Param};
  Walker(Tracked, Exposed).walk(Body, Defined);
  Answer.Effect = OutParameter{!Exposed.empty(), Defined.count({Param, ""}) && !leavesEarly(Body)};
  return Answer.Effect;
}

std::optional<std::pair<const CallExpr *, unsigned>> boundByReference(const Expr *E, ASTContext &Ctx) {
  const Stmt *Child = nullptr;
  const Stmt *P = parentPastParens(E, Ctx, Child);
  if (const auto *C = dyn_cast_or_null<CallExpr>(P))
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      if (C->getArg(I) == Child && referenceParameterOf(C, I))
        return std::make_pair(C, I);
  return std::nullopt;
}

std::set<const VarDecl *> readBeforeWritten(const Stmt *S, const std::set<const VarDecl *> &Tracked) {
  PlaceSet Exposed, Defined;
  Walker(Tracked, Exposed).walk(S, Defined);
  VarSet Vars;
  for (const Place &P : Exposed)
    Vars.insert(P.first);
  return Vars;
}

const Expr *firstReadBeforeWritten(const Stmt *S, const VarDecl *V) {
  PlaceSet Exposed, Defined;
  std::map<const VarDecl *, const Expr *> At;
  const VarSet Tracked{V};
  Walker W(Tracked, Exposed);
  W.FirstAt = &At;
  W.walk(S, Defined);
  return At.count(V) ? At[V] : nullptr;
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
