//===- RegionThreads.cpp - What a region's statements do per thread ------===//

#include "migrate/RegionThreads.h"

#include "AstVisitor.h"
#include "migrate/BodyScan.h"
#include "migrate/Liveness.h"
#include "migrate/Pragmas.h"
#include "migrate/Text.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace dpstub::migrate {

/// The variables P's `private`, `firstprivate` and `reduction` clauses
/// name, as its statements name them (declared outside it), each with its
/// clause.
std::map<const VarDecl *, std::string> clauseVariablesOf(const PragmaLine &P, const ASTContext &Ctx) {
  std::map<std::string, std::string> ClauseOf;
  for (const Clause &C : P.D.Clauses)
    if (C.Name == "private" || C.Name == "firstprivate") {
      for (const std::string &V : clauseVariables(C.Args))
        ClauseOf[V] = C.Name;
    } else if (C.Name == "reduction") {
      if (std::optional<ReductionClause> RC = parseReduction(C.Args))
        for (const std::string &V : RC->Vars)
          ClauseOf[V] = C.Name;
    }
  std::map<const VarDecl *, std::string> Out;
  if (ClauseOf.empty() || !P.On)
    return Out;
  struct Named : AstVisitor {
    const std::map<std::string, std::string> &ClauseOf;
    std::set<const VarDecl *> Found;
    explicit Named(const std::map<std::string, std::string> &C) : ClauseOf(C) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
        if (V->getIdentifier() && ClauseOf.count(V->getName().str()))
          Found.insert(V);
      return true;
    }
  } N(ClauseOf);
  N.TraverseStmt(const_cast<Stmt *>(P.On));
  const std::optional<Span> Region = spanOf(P.On->getSourceRange(), Ctx);
  for (const VarDecl *V : N.Found) {
    std::optional<Span> At = spanOf(V->getSourceRange(), Ctx);
    if (!(At && Region && At->Begin >= Region->Begin && At->End <= Region->End)) // not the region's own
      Out[V] = ClauseOf.at(V->getName().str());
  }
  return Out;
}

RegionThreads regionThreads(const Region &R, const std::vector<PragmaLine> &Pragmas, ASTContext &Ctx) {
  RegionThreads T;
  const PragmaLine &P = *R.Pragma;
  if (P.D.Model != PragmaModel::OpenMP || runsOnDevice(P.D) || !P.On)
    return T;
  T.Body = P.On;
  T.Teams = R.Teams;
  // Work-shared loops (each iteration once; not `omp simd` alone, which
  // each thread runs whole) and the constructs one thread runs, in its
  // text or its team functions'.
  for (const PragmaLine &Q : Pragmas)
    if (&Q != &P && Q.On && Q.D.Model == PragmaModel::OpenMP && inRegion(Q.On, R, Ctx) &&
        ((Q.D.Kind == DirectiveKind::Loop && Q.D.Words != std::vector<std::string>{"simd"}) ||
         Q.D.has("master") || Q.D.has("single") || Q.D.has("masked") || Q.D.has("sections"))) {
      T.Once.push_back(Q.On);
      if (Q.D.Kind == DirectiveKind::Loop)
        T.WorkShared.push_back(Q.On);
    }
  for (const auto &[V, Clause] : clauseVariablesOf(P, Ctx)) {
    if (Clause != "reduction")
      T.Private.insert(V);
    if (Clause == "reduction" || liveAfter(P.On, V, Ctx))
      T.Guarded[V] = Clause;
  }
  return T;
}

namespace {

/// The OpenMP routines whose answer inside a region differs from the one
/// outside it (OpenMP 5.2, 18.2): the team's size, the thread's place in
/// it, and the nesting the region adds.
bool asksForTheTeam(llvm::StringRef Name) {
  static const char *Queries[] = {"omp_get_num_threads", "omp_get_thread_num",   "omp_in_parallel",
                                  "omp_get_level",       "omp_get_active_level", "omp_get_team_size",
                                  "omp_get_ancestor_thread_num"};
  return std::any_of(std::begin(Queries), std::end(Queries), [&](const char *Q) { return Name == Q; });
}

/// A function whose call, once or once per thread, leaves the program
/// the same: a builtin without effects (the math library's), one declared
/// `const` or `pure`, or an OpenMP routine whose answer is the same on
/// every thread.
bool withoutEffects(const FunctionDecl *F, const ASTContext &Ctx) {
  if (F->hasAttr<ConstAttr>() || F->hasAttr<PureAttr>())
    return true;
  if (const unsigned ID = F->getBuiltinID())
    if (Ctx.BuiltinInfo.isConst(ID) || Ctx.BuiltinInfo.isPure(ID) ||
        Ctx.BuiltinInfo.isConstWithoutErrnoAndExceptions(ID) || Ctx.BuiltinInfo.isConstWithoutExceptions(ID))
      return true;
  static const char *SameOnEveryThread[] = {"omp_get_wtime", "omp_get_wtick", "omp_get_max_threads",
                                            "omp_get_num_procs", "omp_get_dynamic", "omp_get_nested"};
  const IdentifierInfo *Id = F->getIdentifier();
  return Id && std::any_of(std::begin(SameOnEveryThread), std::end(SameOnEveryThread),
                           [&](const char *N) { return Id->getName() == N; });
}

/// The variable an updated expression belongs to: `a` of `a`, `a[i]`,
/// `a.x`, `*a`, `a->x[i]`; null for anything else. Indirect: the update
/// reaches memory through a pointer or a reference (what it points to
/// may be shared whoever owns the variable).
const VarDecl *updatedVariable(const Expr *E, bool &Indirect) {
  Indirect = false;
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      Indirect |= V && V->getType()->isReferenceType();
      return V;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      Indirect |= A->getBase()->IgnoreParenImpCasts()->getType()->isPointerType();
      E = A->getBase();
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      Indirect |= M->isArrow();
      E = M->getBase();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
      Indirect = true;
      E = U->getSubExpr();
    } else {
      return nullptr;
    }
  }
}

/// The variable a statement updates as a whole (`V++;`, `--V;`, `V += e;`
/// with e not naming V), through the reference it names; null otherwise.
const DeclRefExpr *updateStatementTarget(const Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreParens();
  const Expr *Target = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
    Target = U->getSubExpr();
  else if (const auto *C = dyn_cast<CompoundAssignOperator>(E))
    Target = C->getLHS();
  const auto *D = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr;
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V)
    return nullptr;
  if (const auto *C = dyn_cast<CompoundAssignOperator>(E); C && names(C->getRHS(), {V}))
    return nullptr;
  return D;
}

} // namespace

bool neverRead(const VarDecl *V, const ASTContext &Ctx) {
  const QualType Ty = V->getType();
  if (!Ty->isScalarType() || Ty->isPointerType() || Ty.isVolatileQualified() || V->hasExternalFormalLinkage())
    return false;
  // The statements of every body: children of blocks, and the lone
  // bodies and branches of loops and ifs.
  struct Uses : AstVisitor {
    const VarDecl *V;
    size_t Names = 0, Updates = 0;
    explicit Uses(const VarDecl *V) : V(V) {}
    void statement(const Stmt *S) {
      if (const DeclRefExpr *D = S ? updateStatementTarget(S) : nullptr)
        Updates += D->getDecl() == V;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      Names += E->getDecl() == V;
      return true;
    }
    bool VisitCompoundStmt(CompoundStmt *S) override {
      for (const Stmt *C : S->body())
        statement(C);
      return true;
    }
    bool VisitIfStmt(IfStmt *S) override {
      statement(S->getThen());
      statement(S->getElse());
      return true;
    }
    bool VisitForStmt(ForStmt *S) override { return statement(S->getBody()), true; }
    bool VisitWhileStmt(WhileStmt *S) override { return statement(S->getBody()), true; }
    bool VisitDoStmt(DoStmt *S) override { return statement(S->getBody()), true; }
  } U(V);
  for (const Stmt *Body : functionBodies(Ctx))
    U.TraverseStmt(const_cast<Stmt *>(Body));
  return U.Names == U.Updates;
}

std::optional<PerThread> perThreadIn(const Stmt *S, const RegionThreads &T, const ASTContext &Ctx,
                                     std::vector<PerThread> *Unread) {
  if (!T.Body)
    return std::nullopt;
  struct Find : AstVisitor {
    const RegionThreads &T;
    const ASTContext &Ctx;
    std::optional<Span> Region;
    int InOnce = 0, InWorkShared = 0; ///< inside a statement of T.Once, of T.WorkShared
    std::optional<PerThread> Found;
    std::vector<PerThread> *Unread;
    Find(const RegionThreads &T, const ASTContext &Ctx, std::vector<PerThread> *Unread)
        : T(T), Ctx(Ctx), Region(spanOf(T.Body->getSourceRange(), Ctx)), Unread(Unread) {}

    bool TraverseStmt(Stmt *S) override {
      if (!S || Found)
        return !Found;
      const bool Once = std::find(T.Once.begin(), T.Once.end(), S) != T.Once.end();
      const bool Shared = std::find(T.WorkShared.begin(), T.WorkShared.end(), S) != T.WorkShared.end();
      InOnce += Once;
      InWorkShared += Shared;
      AstVisitor::TraverseStmt(S);
      InOnce -= Once;
      InWorkShared -= Shared;
      return !Found;
    }
    std::set<const FunctionDecl *> Entered; ///< team functions judged
    bool VisitCallExpr(CallExpr *E) override {
      const FunctionDecl *F = E->getDirectCallee();
      const IdentifierInfo *Id = F ? F->getIdentifier() : nullptr;
      if (F && std::find(T.Teams.begin(), T.Teams.end(), F->getCanonicalDecl()) != T.Teams.end()) {
        // A team function: its statements are the region's, where it is
        // called (once each: a second call runs them as the first did).
        if (!InOnce && Entered.insert(F->getCanonicalDecl()).second)
          TraverseStmt(F->getBody());
        return !Found;
      }
      if (Id && asksForTheTeam(Id->getName()))
        Found = PerThread{"calls '" + Id->getName().str() + "', whose answer depends on the region's threads",
                          E->getBeginLoc()};
      else if (Id && !InOnce && !isa<CXXOperatorCallExpr>(E) && !isa<CXXMemberCallExpr>(E) &&
               !withoutEffects(F, Ctx))
        Found = PerThread{"calls '" + Id->getName().str() + "', which each of the region's threads calls",
                          E->getBeginLoc()};
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *E) override {
      if (E->isIncrementDecrementOp()) {
        writesGuarded(E->getSubExpr(), E->getBeginLoc());
        updates(E->getSubExpr(), E->getBeginLoc());
      }
      return !Found;
    }
    bool VisitBinaryOperator(BinaryOperator *E) override {
      if (E->isAssignmentOp())
        writesGuarded(E->getLHS(), E->getBeginLoc());
      // `x += e`, and `x = x + e` (as in an `omp critical` counting the
      // threads): a read and a write of one variable.
      if (E->isCompoundAssignmentOp() || (E->getOpcode() == BO_Assign && readsItself(E)))
        updates(E->getLHS(), E->getBeginLoc());
      return !Found;
    }
    /// Whether the right side of `x = ...` reads the variable x belongs to.
    static bool readsItself(const BinaryOperator *E) {
      bool Indirect = false;
      const VarDecl *V = updatedVariable(E->getLHS(), Indirect);
      return V && names(E->getRHS(), {V});
    }
    /// A write of a variable T.Guarded holds, outside the work-shared
    /// loops (whose kernels give each iteration its own).
    void writesGuarded(const Expr *E, SourceLocation Loc) {
      bool Indirect = false;
      const VarDecl *V = updatedVariable(E, Indirect);
      auto It = V ? T.Guarded.find(V) : T.Guarded.end();
      if (Found || It == T.Guarded.end() || InWorkShared)
        return;
      Found = PerThread{"writes '" + V->getName().str() + "', which its '" + It->second +
                            "' clause gives each thread" +
                            (It->second == "reduction" ? std::string(" to combine after it")
                                                       : std::string(", and which is read after the region")),
                        Loc};
    }
    /// An update of E's variable, when the threads share it: declared
    /// outside the region and not given to each thread by a clause, or
    /// reached through a pointer.
    void updates(const Expr *E, SourceLocation Loc) {
      bool Indirect = false;
      const VarDecl *V = updatedVariable(E, Indirect);
      if (InOnce || !V || !V->getIdentifier())
        return;
      if (!Indirect) {
        std::optional<Span> At = spanOf(V->getSourceRange(), Ctx);
        if (At && Region && At->Begin >= Region->Begin && At->End <= Region->End)
          return; // declared in the region: each thread's own
        if (V->isLocalVarDeclOrParm() && !V->isStaticLocal())
          if (const auto *Owner = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
              Owner && std::find(T.Teams.begin(), T.Teams.end(), Owner->getCanonicalDecl()) != T.Teams.end())
            return; // a team function's local: each thread's own
        if (T.Private.count(V))
          return;
        if (neverRead(V, Ctx)) {
          if (Unread)
            Unread->push_back(PerThread{V->getName().str(), Loc});
          return;
        }
      }
      Found = PerThread{"updates '" + V->getName().str() + "', which each of the region's threads updates", Loc};
    }
  } F(T, Ctx, Unread);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

} // namespace dpstub::migrate
