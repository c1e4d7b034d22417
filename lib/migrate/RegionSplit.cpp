//===- RegionSplit.cpp - A host parallel region around loops that move ----===//

#include "migrate/RegionSplit.h"

#include "AstVisitor.h"
#include "migrate/Liveness.h"
#include "migrate/TeamFunctions.h"
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

/// Whether S may write V: a use other than a read of its value.
bool usedOtherThanRead(const Stmt *S, const VarDecl *V) {
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
    const bool Written = std::any_of(Body.begin(), Body.end(), [&, V = V](const Stmt *S) { return usedOtherThanRead(S, V); });
    if (Clause == "firstprivate" && !Written)
      continue;
    for (const Stmt *S : Body)
      if (!readBeforeWritten(S, {V}).empty())
        return false;
  }
  return true;
}

} // namespace

bool holds(const Stmt *S, const Stmt *L, const ASTContext &Ctx, const std::vector<const FunctionDecl *> &Teams) {
  if (S == L || textWithin(L, S, Ctx))
    return true;
  if (Teams.empty())
    return false;
  // The team functions S reaches by calls, through one another.
  auto IsTeam = [&](const FunctionDecl *F) {
    return F && std::find(Teams.begin(), Teams.end(), F->getCanonicalDecl()) != Teams.end();
  };
  std::vector<const FunctionDecl *> Work = directCallees(S);
  std::set<const FunctionDecl *> Seen;
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    if (!IsTeam(F) || !Seen.insert(F).second || !F->getBody())
      continue;
    if (textWithin(L, F->getBody(), Ctx))
      return true;
    const std::vector<const FunctionDecl *> Next = directCallees(F->getBody());
    Work.insert(Work.end(), Next.begin(), Next.end());
  }
  return false;
}

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

/// The variables D declares; empty when it declares anything else too.
std::vector<const VarDecl *> variablesOf(const DeclStmt *D) {
  std::vector<const VarDecl *> Out;
  for (const Decl *X : D->decls()) {
    const auto *V = dyn_cast<VarDecl>(X);
    if (!V)
      return {};
    Out.push_back(V);
  }
  return Out;
}

} // namespace

std::vector<bool> statementsThatMove(const std::vector<const Stmt *> &Body, const std::vector<RegionLoop> &Loops,
                                     const std::vector<std::optional<PerThread>> &PerThread, ASTContext &Ctx,
                                     const std::vector<const FunctionDecl *> &Teams) {
  std::vector<bool> Moves(Body.size(), false), Queries(Body.size(), false);
  for (size_t K = 0; K < Body.size(); ++K) {
    Queries[K] = PerThread[K].has_value();
    bool Any = false, AllMove = true;
    for (const RegionLoop &L : Loops)
      if (holds(Body[K], L.Loop, Ctx, Teams)) {
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
      const std::vector<const VarDecl *> Vars = variablesOf(D);
      for (size_t J = K + 1; J < Body.size() && !Vars.empty() && !Moves[K]; ++J)
        if (Moves[J] && names(Body[J], Vars))
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
