//===- RegionSplit.cpp - A host parallel region around loops that move ----===//

#include "migrate/RegionSplit.h"

#include "AstVisitor.h"
#include "migrate/Liveness.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// Clauses that only say who runs the region and how it shares: each
/// region of a split takes them as they are.
bool keepsAcrossASplit(const std::string &Clause) {
  static const char *Kept[] = {"shared", "default", "num_threads", "if", "proc_bind"};
  return std::any_of(std::begin(Kept), std::end(Kept), [&](const char *K) { return Clause == K; });
}

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

/// Whether S may write V: a use other than a read of its value.
bool mayWrite(const Stmt *S, const VarDecl *V) {
  struct Uses : AstVisitor {
    const VarDecl *V;
    int Refs = 0, Reads = 0;
    explicit Uses(const VarDecl *V) : V(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      Refs += E->getDecl() == V;
      return true;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *E) override {
      if (E->getCastKind() == CK_LValueToRValue)
        if (const auto *D = dyn_cast<DeclRefExpr>(E->getSubExpr()->IgnoreParens()))
          Reads += D->getDecl() == V;
      return true;
    }
  } U(V);
  U.TraverseStmt(const_cast<Stmt *>(S));
  return U.Refs > U.Reads;
}

/// Whether a split keeps what the threads' own variables hold: none of
/// Body's statements reads one before writing it (so no value flows from
/// one statement to the next through a thread's copy, which each region
/// of the split makes anew), or, for a `firstprivate` one, none writes
/// it (every copy holds the value from before the region). `reduction`
/// variables do not split.
bool ownVariablesSurviveASplit(const PragmaLine &P, const std::vector<const Stmt *> &Body, const ASTContext &Ctx) {
  for (const auto &[V, Clause] : clauseVariablesOf(P, Ctx)) {
    if (Clause == "reduction")
      return false;
    const bool Written = std::any_of(Body.begin(), Body.end(), [&, V = V](const Stmt *S) { return mayWrite(S, V); });
    if (Clause == "firstprivate" && !Written)
      continue;
    for (const Stmt *S : Body)
      if (!readBeforeWritten(S, {V}).empty())
        return false;
  }
  return true;
}

} // namespace

bool holds(const Stmt *S, const Stmt *L, const ASTContext &Ctx) { return S == L || textWithin(L, S, Ctx); }

std::optional<std::vector<const Stmt *>> splittableBody(const Region &R, const std::vector<Region> &All,
                                                        ASTContext &Ctx) {
  const PragmaLine &P = *R.Pragma;
  if (P.D.Model != PragmaModel::OpenMP || P.D.Words != std::vector<std::string>{"parallel"} || P.Shared)
    return std::nullopt;
  for (const Clause &C : P.D.Clauses)
    if (!keepsAcrossASplit(C.Name) && C.Name != "private" && C.Name != "firstprivate")
      return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(P.On);
  if (!Body)
    return std::nullopt;
  for (const Region &O : All)
    if (&O != &R && O.Pragma->On && (textWithin(O.Pragma->On, P.On, Ctx) || textWithin(P.On, O.Pragma->On, Ctx)))
      return std::nullopt;
  std::vector<const Stmt *> Out;
  for (const Stmt *S : Body->body()) {
    if (!spanOf(S->getSourceRange(), Ctx))
      return std::nullopt;
    Out.push_back(S);
  }
  if (!ownVariablesSurviveASplit(P, Out, Ctx))
    return std::nullopt;
  return Out;
}

namespace {

/// Whether every name Body's declarations introduce is used only in the
/// run of statements that declares it (Group: a run's number for each
/// statement, -1 for one that moves).
bool declarationsStayInTheirRuns(const std::vector<const Stmt *> &Body, const std::vector<int> &Group) {
  std::map<const VarDecl *, int> DeclaredIn;
  for (size_t K = 0; K < Body.size(); ++K)
    if (const auto *D = dyn_cast<DeclStmt>(Body[K]))
      for (const Decl *X : D->decls()) {
        if (const auto *V = dyn_cast<VarDecl>(X))
          DeclaredIn[V] = Group[K];
        else
          return false; // a type, a function: its uses are not followed
      }
  if (DeclaredIn.empty())
    return true;
  struct Uses : AstVisitor {
    const std::map<const VarDecl *, int> &DeclaredIn;
    int Here = 0;
    bool Crosses = false;
    explicit Uses(const std::map<const VarDecl *, int> &D) : DeclaredIn(D) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
        if (auto It = DeclaredIn.find(V); It != DeclaredIn.end() && It->second != Here)
          Crosses = true;
      return !Crosses;
    }
  } U(DeclaredIn);
  for (size_t K = 0; K < Body.size() && !U.Crosses; ++K) {
    U.Here = Group[K];
    U.TraverseStmt(const_cast<Stmt *>(Body[K]));
  }
  return !U.Crosses;
}

} // namespace

RegionThreads regionThreads(const Region &R, const std::vector<PragmaLine> &Pragmas, ASTContext &Ctx) {
  RegionThreads T;
  const PragmaLine &P = *R.Pragma;
  if (P.D.Model != PragmaModel::OpenMP || runsOnDevice(P.D) || !P.On)
    return T;
  T.Body = P.On;
  // Work-shared loops (each iteration once; not `omp simd` alone, which
  // each thread runs whole) and the constructs one thread runs.
  for (const PragmaLine &Q : Pragmas)
    if (&Q != &P && Q.On && Q.D.Model == PragmaModel::OpenMP && textWithin(Q.On, P.On, Ctx) &&
        ((Q.D.Kind == DirectiveKind::Loop && Q.D.Words != std::vector<std::string>{"simd"}) ||
         Q.D.has("master") || Q.D.has("single") || Q.D.has("masked") || Q.D.has("sections"))) {
      T.Once.push_back(Q.On);
      if (Q.D.Kind == DirectiveKind::Loop)
        T.WorkShared.push_back(Q.On);
    }
  for (const Clause &C : P.D.Clauses)
    if (C.Name == "private" || C.Name == "firstprivate")
      for (const std::string &V : clauseVariables(C.Args))
        T.Private.push_back(V);
  for (const auto &[V, Clause] : clauseVariablesOf(P, Ctx))
    if (Clause == "reduction" || liveAfter(P.On, V, Ctx))
      T.Guarded[V] = Clause;
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

} // namespace

namespace {

/// Whether S names one of Vars.
bool refersTo(const Stmt *S, const std::set<const VarDecl *> &Vars) {
  struct Refs : AstVisitor {
    const std::set<const VarDecl *> &Vars;
    bool Found = false;
    explicit Refs(const std::set<const VarDecl *> &V) : Vars(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
        Found |= Vars.count(V) > 0;
      return !Found;
    }
  } R(Vars);
  R.TraverseStmt(const_cast<Stmt *>(S));
  return R.Found;
}

/// The variables D declares; empty when it declares anything else too.
std::set<const VarDecl *> variablesOf(const DeclStmt *D) {
  std::set<const VarDecl *> Out;
  for (const Decl *X : D->decls()) {
    const auto *V = dyn_cast<VarDecl>(X);
    if (!V)
      return {};
    Out.insert(V);
  }
  return Out;
}

} // namespace

std::optional<PerThread> perThreadIn(const Stmt *S, const RegionThreads &T, const ASTContext &Ctx) {
  if (!T.Body)
    return std::nullopt;
  struct Find : AstVisitor {
    const RegionThreads &T;
    const ASTContext &Ctx;
    std::optional<Span> Region;
    int InOnce = 0, InWorkShared = 0; ///< inside a statement of T.Once, of T.WorkShared
    std::optional<PerThread> Found;
    Find(const RegionThreads &T, const ASTContext &Ctx)
        : T(T), Ctx(Ctx), Region(spanOf(T.Body->getSourceRange(), Ctx)) {}

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
    bool VisitCallExpr(CallExpr *E) override {
      const FunctionDecl *F = E->getDirectCallee();
      const IdentifierInfo *Id = F ? F->getIdentifier() : nullptr;
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
      return V && refersTo(E->getRHS(), {V});
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
        if (std::find(T.Private.begin(), T.Private.end(), V->getName().str()) != T.Private.end())
          return;
      }
      Found = PerThread{"updates '" + V->getName().str() + "', which each of the region's threads updates", Loc};
    }
  } F(T, Ctx);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}


std::vector<bool> statementsThatMove(const std::vector<const Stmt *> &Body, const std::vector<RegionLoop> &Loops,
                                     const RegionThreads &T, ASTContext &Ctx) {
  std::vector<bool> Moves(Body.size(), false), Queries(Body.size(), false);
  for (size_t K = 0; K < Body.size(); ++K) {
    Queries[K] = perThreadIn(Body[K], T, Ctx).has_value();
    bool Any = false, AllMove = true;
    for (const RegionLoop &L : Loops)
      if (holds(Body[K], L.Loop, Ctx)) {
        Any = true;
        AllMove &= !L.Stays;
      }
    Moves[K] = Any && AllMove && !isa<DeclStmt>(Body[K]) && !Queries[K];
  }
  // A declaration the moving statements use runs once with them, as in a
  // region that moves whole (hotspot3D's `float *tIn_t = tIn;`); one a
  // statement that stays uses as well keeps the region whole
  // (splitOf).
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t K = 0; K < Body.size(); ++K) {
      const auto *D = dyn_cast<DeclStmt>(Body[K]);
      if (!D || Moves[K] || Queries[K])
        continue;
      const std::set<const VarDecl *> Vars = variablesOf(D);
      for (size_t J = K + 1; J < Body.size() && !Vars.empty() && !Moves[K]; ++J)
        if (Moves[J] && refersTo(Body[J], Vars))
          Moves[K] = Changed = true;
    }
  }
  return Moves;
}

std::optional<SplitRegion> splitOf(const Region &R, const std::vector<const Stmt *> &Body,
                                   const std::vector<bool> &Moves, const ASTContext &Ctx) {
  if (std::none_of(Moves.begin(), Moves.end(), [](bool M) { return M; }) ||
      std::all_of(Moves.begin(), Moves.end(), [](bool M) { return M; }))
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  SplitRegion S;
  S.Pragma = R.Pragma;
  S.Body = R.Pragma->On;
  std::vector<int> Group(Body.size(), -1);
  for (size_t K = 0; K < Body.size(); ++K) {
    if (Moves[K] && isa<DeclStmt>(Body[K]))
      continue;
    if (Moves[K]) {
      S.MovedLines.push_back(SM.getPresumedLineNumber(SM.getFileLoc(Body[K]->getBeginLoc())));
      continue;
    }
    if (K == 0 || Moves[K - 1])
      S.Staying.emplace_back();
    S.Staying.back().push_back(Body[K]);
    Group[K] = static_cast<int>(S.Staying.size()) - 1;
  }
  if (!declarationsStayInTheirRuns(Body, Group))
    return std::nullopt;
  return S;
}

std::vector<TextEdit> splitEdits(const SplitRegion &S, const std::vector<PragmaLine> &Pragmas,
                                 const std::vector<std::string> &Before, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const StringRef Buf = SM.getBufferData(SM.getMainFileID());
  const PragmaLine &P = *S.Pragma;
  std::vector<TextEdit> Out;
  Out.push_back({P.Begin, P.End - P.Begin, ""});
  // The directive as written (a macro's use, `OMP_PARALLEL()`, stays one),
  // without the blanks before it.
  const StringRef Written = Buf.slice(P.Begin, P.End).ltrim(" \t");
  const auto *Body = cast<CompoundStmt>(S.Body);
  const unsigned Open = SM.getFileOffset(SM.getFileLoc(Body->getLBracLoc())) + 1;
  for (size_t G = 0; G < S.Staying.size(); ++G) {
    const std::vector<const Stmt *> &Run = S.Staying[G];
    std::optional<Span> First = spanOf(Run.front()->getSourceRange(), Ctx);
    std::optional<Span> Last = spanOf(Run.back()->getSourceRange(), Ctx);
    // Where the statement before the run ends: the directives between it
    // and the run stand before the run's first statement and go with it.
    unsigned From = Open;
    for (const Stmt *T : Body->body()) {
      std::optional<Span> TS = spanOf(T->getSourceRange(), Ctx);
      if (TS && TS->End <= First->Begin)
        From = std::max(From, pastSemicolon(Buf, TS->End));
    }
    unsigned Lead = lineStart(Buf, First->Begin);
    bool OwnDirectivesOnly = Run.size() == 1;
    for (const PragmaLine &Q : Pragmas)
      if (Q.Begin >= From && Q.Begin < First->Begin && &Q != &P) {
        Lead = std::min(Lead, lineStart(Buf, Q.Begin));
        OwnDirectivesOnly &= Q.D.Kind == DirectiveKind::Loop && Q.On == Run.front();
      }
    // The directive where the run's first line starts (a directive of
    // its own, often at the margin), the braces at its statements.
    const std::string Indent = indentationAt(Buf, First->Begin), At = indentationAt(Buf, Lead);
    std::string Text = G < Before.size() && !Before[G].empty() ? Indent + Before[G] + "\n" : "";
    Text += At + Written.str();
    if (!Written.ends_with("\n"))
      Text += "\n";
    if (OwnDirectivesOnly) {
      Out.push_back({Lead, 0, Text});
      continue;
    }
    Out.push_back({Lead, 0, Text + Indent + "{\n"});
    Out.push_back({nextLineStart(Buf, pastSemicolon(Buf, Last->End)), 0, Indent + "}\n"});
  }
  return Out;
}

} // namespace dpstub::migrate
