//===- BarrierAnalysis.cpp - Every thread of a tile reaches its barriers --===//
//
// A kernel's tile work is walked through the project functions it calls.
// What varies between the threads of a tile is followed from the kernel's
// per-point parameters through locals, calls and returns; a barrier under
// such a condition, or an exit under one that skips a barrier, leaves the
// tile's other threads waiting forever.
//
//===----------------------------------------------------------------------===//

#include "BarrierAnalysis.h"
#include "AstText.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/ParentMapContext.h"
#include "AstVisitor.h"

#include <map>
#include <set>

using namespace clang;

namespace dpstub {

namespace {

/// A call to a member of dp::tile_group named `Name`.
bool isTileGroupCall(const Expr *E, llvm::StringRef Name = "") {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (!MC || !MC->getMethodDecl())
    return false;
  const CXXRecordDecl *RD = MC->getMethodDecl()->getParent();
  return dpSpecialization(QualType(RD->getTypeForDecl(), 0), "tile_group") &&
         (Name.empty() || MC->getMethodDecl()->getName() == Name);
}

/// True when S is in the body of F itself, not in a lambda nested in it
/// (whose `return` leaves the lambda, not F).
bool directlyIn(const Stmt *S, const FunctionDecl *F, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (int Depth = 0; Depth < 256; ++Depth) {
    const DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return true;
    if (const auto *LE = Parents[0].get<LambdaExpr>())
      return LE->getCallOperator()->getCanonicalDecl() == F->getCanonicalDecl();
    if (const auto *FD = Parents[0].get<FunctionDecl>())
      return FD->getCanonicalDecl() == F->getCanonicalDecl();
    Node = Parents[0]; // a statement, or a variable the statement initialises
  }
  return true;
}

/// The dp::tile_static variables, barriers, calls and exits of a kernel
/// and of the project functions it calls, transitively.
struct TileUses : AstVisitor {
  /// What one function does that matters to its tile's barriers.
  struct Facts {
    std::vector<const CXXMemberCallExpr *> Barriers;
    std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Calls;
    std::vector<const Stmt *> Exits; ///< returns, breaks, continues and gotos
  };

  explicit TileUses(const SourceManager &SM) : SM(SM) { ShouldVisitTemplateInstantiations = true; }

  // A lambda nested in a function is walked with it, and again as a
  // function of its own when it is called: Statics and Barriers keep each
  // object and call once.
  bool VisitVarDecl(VarDecl *VD) override {
    if (!tileStaticType(VD->getType()).isNull() && Seen.insert(VD).second)
      Statics.push_back(VD);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) override {
    if (isTileGroupCall(MC, "barrier")) {
      if (SeenBarriers.insert(MC).second)
        Barriers.push_back(MC);
      Of[Current].Barriers.push_back(MC);
    }
    return true;
  }
  bool VisitStmt(Stmt *S) override {
    if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
      Of[Current].Exits.push_back(S);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) override {
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (const FunctionDecl *Def = FD->getDefinition(); Def && Def->hasBody() &&
                                                         !isLibraryDecl(Def, SM)) {
        Of[Current].Calls.push_back({CE, Def});
        if (Seen.insert(Def).second)
          Pending.push_back(Def);
      }
    return true;
  }
  void walk(const FunctionDecl *Kernel) {
    Seen.insert(Kernel);
    Pending.push_back(Kernel);
    while (!Pending.empty()) {
      Current = Pending.back();
      Pending.pop_back();
      TraverseStmt(Current->getBody());
    }
  }

  /// The functions that reach a barrier, themselves or through a call.
  std::set<const FunctionDecl *> reachingBarriers() const {
    std::set<const FunctionDecl *> Reach;
    for (const auto &[F, Fs] : Of)
      if (!Fs.Barriers.empty())
        Reach.insert(F);
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (const auto &[F, Fs] : Of)
        for (const auto &[Call, Callee] : Fs.Calls)
          if (!Reach.count(F) && Reach.count(Callee)) {
            Reach.insert(F);
            Grew = true;
          }
    }
    return Reach;
  }

  const SourceManager &SM;
  std::vector<const VarDecl *> Statics;
  std::vector<const CXXMemberCallExpr *> Barriers;
  std::map<const FunctionDecl *, Facts> Of;
  const FunctionDecl *Current = nullptr;
  std::set<const Decl *> Seen; ///< the functions walked and the statics kept
  std::set<const Stmt *> SeenBarriers;
  std::vector<const FunctionDecl *> Pending;
};

/// What makes a value differ between the threads of a tile: the kernel's
/// per-point parameters, tile_group's global(), local() and in_domain(),
/// local variables initialised from them, the parameters of the functions
/// the kernel calls that are passed such a value at some call, and calls to
/// the functions that return one.
class ThreadDependence {
public:
  ThreadDependence(const AnalysedCall &A, const TileUses &Uses, ASTContext &Ctx) {
    const FunctionDecl *K = A.KernelFunction ? A.KernelFunction->getDefinition() : nullptr;
    if (!K)
      return;
    const unsigned NParams = K->getNumParams();
    const unsigned NArgs = A.Model.Args.size();
    if (A.Model.K.ImplicitIndex && NParams > 0)
      Varying.insert(K->getParamDecl(0));
    if (NParams >= NArgs)
      for (const Argument &Arg : A.Model.Args) {
        const bool PerPoint =
            Arg.Conv == Conversion::ElementalProjection || Arg.Conv == Conversion::PartialProjection ||
            (Arg.Conv == Conversion::SpecialIndex && Arg.Index != IndexKind::Tile &&
             Arg.Index != IndexKind::Group);
        if (PerPoint)
          Varying.insert(K->getParamDecl(NParams - NArgs + Arg.Position));
      }
    // Locals initialised from what varies vary too, and so do the
    // parameters a call passes it to and the calls to a function that
    // returns it (to a fixed point).
    struct Locals : AstVisitor {
      std::vector<const VarDecl *> Vars;
      bool VisitVarDecl(VarDecl *VD) override {
        if (VD->hasInit() && !isa<ParmVarDecl>(VD))
          Vars.push_back(VD);
        return true;
      }
    } L;
    std::vector<std::pair<const Expr *, const ParmVarDecl *>> Passed; // argument -> parameter
    std::vector<std::pair<const Expr *, const FunctionDecl *>> Returned; // value -> function
    for (const auto &[F, Facts] : Uses.Of) {
      L.TraverseStmt(F->getBody());
      for (const Stmt *E : Facts.Exits)
        if (const auto *R = dyn_cast<ReturnStmt>(E); R && R->getRetValue() && directlyIn(R, F, Ctx))
          Returned.push_back({R->getRetValue(), F->getCanonicalDecl()});
      for (const auto &[Call, Callee] : Facts.Calls) {
        // An operator call to a member passes the object as argument 0.
        const unsigned Skip =
            isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) &&
                    !cast<CXXMethodDecl>(Callee)->isStatic()
                ? 1
                : 0;
        for (unsigned I = Skip; I < Call->getNumArgs() && I - Skip < Callee->getNumParams(); ++I)
          Passed.push_back({Call->getArg(I), Callee->getParamDecl(I - Skip)});
      }
    }
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (const VarDecl *VD : L.Vars)
        if (!Varying.count(VD) && why(VD->getInit()))
          Grew = Varying.insert(VD).second || Grew;
      for (const auto &[Arg, Param] : Passed)
        if (!Varying.count(Param) && why(Arg))
          Grew = Varying.insert(Param).second || Grew;
      for (const auto &[Value, F] : Returned)
        if (!Varying.count(F) && why(Value))
          Grew = Varying.insert(F).second || Grew;
    }
  }

  /// The first thing in E that differs between threads, as written; null
  /// when E is the same for every thread of a tile as far as dpstub sees.
  const Expr *why(const Expr *E) const {
    if (!E)
      return nullptr;
    E = E->IgnoreParenImpCasts();
    if (isTileGroupCall(E, "global") || isTileGroupCall(E, "local") ||
        isTileGroupCall(E, "in_domain"))
      return E;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (Varying.count(DRE->getDecl()))
        return E;
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *FD = Call->getDirectCallee();
          FD && Varying.count(FD->getCanonicalDecl()))
        return E;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        if (const Expr *W = why(CE))
          return W;
    return nullptr;
  }

private:
  std::set<const Decl *> Varying;
};

/// Calls Visit(Parent, Child) for each statement around S, innermost first,
/// Child being the one below Parent on the way from S; it stops at the
/// function (or lambda) S is in, or when Visit returns false.
template <class F> void forEachParent(const Stmt *S, ASTContext &Ctx, F &&Visit) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (int Depth = 0; Depth < 256; ++Depth) {
    const DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<Decl>() || Parents[0].get<LambdaExpr>())
      return;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || !Visit(P, Node.get<Stmt>()))
      return;
    Node = Parents[0];
  }
}

/// The condition that decides whether `S` runs, for each statement or
/// expression between S and the enclosing function body (or `Stop`).
std::vector<const Expr *> guardsOf(const Stmt *S, ASTContext &Ctx, const Stmt *Stop = nullptr) {
  std::vector<const Expr *> Guards;
  forEachParent(S, Ctx, [&](const Stmt *P, const Stmt *Child) {
    if (P == Stop)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child != If->getCond() && Child != If->getInit() && Child != If->getConditionVariableDeclStmt())
        Guards.push_back(If->getCond());
    } else if (const auto *W = dyn_cast<WhileStmt>(P)) {
      if (Child == W->getBody())
        Guards.push_back(W->getCond());
    } else if (const auto *F = dyn_cast<ForStmt>(P)) {
      if (Child == F->getBody() || Child == F->getInc())
        Guards.push_back(F->getCond());
    } else if (const auto *D = dyn_cast<DoStmt>(P)) {
      if (Child == D->getBody())
        Guards.push_back(D->getCond());
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
      if (Child == Sw->getBody())
        Guards.push_back(Sw->getCond());
    } else if (const auto *C = dyn_cast<ConditionalOperator>(P)) {
      if (Child != C->getCond())
        Guards.push_back(C->getCond());
    } else if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      if (B->isLogicalOp() && Child == B->getRHS())
        Guards.push_back(B->getLHS());
    }
    return true;
  });
  return Guards;
}

/// The loops and switches around S in its function, innermost first.
std::vector<const Stmt *> enclosingLoops(const Stmt *S, ASTContext &Ctx) {
  std::vector<const Stmt *> Out;
  forEachParent(S, Ctx, [&](const Stmt *P, const Stmt *) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(P))
      Out.push_back(P);
    return true;
  });
  return Out;
}

/// The innermost statement around S whose source holds `L` too (null: the
/// function).
const Stmt *commonAncestor(const Stmt *S, const Stmt *L, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Found = nullptr;
  forEachParent(S, Ctx, [&](const Stmt *P, const Stmt *) {
    if (!SM.isBeforeInTranslationUnit(L->getBeginLoc(), P->getBeginLoc()) &&
        !SM.isBeforeInTranslationUnit(P->getEndLoc(), L->getBeginLoc()))
      Found = P;
    return !Found;
  });
  return Found;
}

/// The barrier (or call reaching one) that the threads taking exit E miss,
/// among Syncs: for a return, the first after it, else one in a loop
/// around it (later iterations); for a break, the first after it in the
/// loop or switch it leaves, else one in that loop; for a continue, the
/// first after it in its loop; for a goto, the first between it and its
/// label (after it, or from the label on for a jump back: those threads
/// meet it once more), else one in a loop it leaves. `Scope` is set to
/// the statement E leaves (null for a return: the function; for a goto,
/// the innermost statement holding its label). Null when it skips none.
const Expr *skippedSync(const Stmt *E, const std::vector<const Expr *> &Syncs, ASTContext &Ctx,
                        const Stmt *&Scope) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(A, B);
  };
  // The first sync inside `In` (the whole function when null), after E
  // when `After`.
  const auto First = [&](const Stmt *In, bool After) -> const Expr * {
    const Expr *Best = nullptr;
    for (const Expr *S : Syncs) {
      const SourceLocation L = S->getBeginLoc();
      if ((After && !Before(E->getBeginLoc(), L)) ||
          (In && (!Before(In->getBeginLoc(), L) || !Before(L, In->getEndLoc()))))
        continue;
      if (!Best || Before(L, Best->getBeginLoc()))
        Best = S;
    }
    return Best;
  };
  const std::vector<const Stmt *> Around = enclosingLoops(E, Ctx);
  Scope = nullptr;
  if (const auto *G = dyn_cast<GotoStmt>(E)) {
    const LabelStmt *Label = G->getLabel()->getStmt();
    if (!Label)
      return nullptr;
    const SourceLocation From = G->getBeginLoc(), To = Label->getBeginLoc();
    Scope = commonAncestor(G, Label, Ctx);
    const bool Back = Before(To, From);
    for (const Expr *S : Syncs) {
      const SourceLocation L = S->getBeginLoc();
      if (Back ? !Before(L, To) && Before(L, From) : Before(From, L) && Before(L, To))
        return S;
    }
    for (const Stmt *L : Around)
      if (!isa<SwitchStmt>(L) && (Before(To, L->getBeginLoc()) || Before(L->getEndLoc(), To)))
        if (const Expr *S = First(L, false))
          return S;
    return nullptr;
  }
  if (isa<ReturnStmt>(E)) {
    if (const Expr *S = First(nullptr, true))
      return S;
    for (const Stmt *L : Around)
      if (!isa<SwitchStmt>(L))
        if (const Expr *S = First(L, false))
          return S;
    return nullptr;
  }
  for (const Stmt *L : Around) {
    if (isa<ContinueStmt>(E) && isa<SwitchStmt>(L))
      continue; // a continue leaves the loop around the switch
    Scope = L;
    if (const Expr *S = First(L, true))
      return S;
    return isa<BreakStmt>(E) && !isa<SwitchStmt>(L) ? First(L, false) : nullptr;
  }
  return nullptr;
}

/// A return, break, continue or goto that some threads of a tile take and
/// others not, before a barrier the others then wait at forever (`if
/// (!t.in_domain()) return;` ahead of a barrier): an error, with notes at
/// the condition and at the barrier skipped. Source order, and loops for
/// the barriers of later iterations.
bool checkEarlyExits(const TileUses &Uses, const ThreadDependence &Varies, ASTContext &Ctx,
                     Reporter &Diags) {
  bool Ok = true;
  const std::set<const FunctionDecl *> Reach = Uses.reachingBarriers();
  for (const auto &[F, Facts] : Uses.Of) {
    if (!Reach.count(F))
      continue;
    std::vector<const Expr *> Syncs;
    for (const CXXMemberCallExpr *B : Facts.Barriers)
      if (directlyIn(B, F, Ctx))
        Syncs.push_back(B);
    for (const auto &[Call, Callee] : Facts.Calls)
      if (Reach.count(Callee) && directlyIn(Call, F, Ctx))
        Syncs.push_back(Call);
    for (const Stmt *E : Facts.Exits) {
      if (!directlyIn(E, F, Ctx))
        continue;
      const Stmt *Scope = nullptr;
      const Expr *Skipped = skippedSync(E, Syncs, Ctx, Scope);
      if (!Skipped)
        continue;
      // A condition outside the loop a break or continue leaves holds the
      // whole loop, barrier included: that barrier is reported itself.
      for (const Expr *Guard : guardsOf(E, Ctx, Scope))
        if (const Expr *Why = Varies.why(Guard)) {
          Diags.divergentExit(E->getBeginLoc())
              << (isa<ReturnStmt>(E) ? 0 : isa<BreakStmt>(E) ? 1 : isa<ContinueStmt>(E) ? 2 : 3);
          Diags.conditionNote(Why->getExprLoc()) << sourceText(Why, Ctx);
          Diags.skippedBarrierNote(Skipped->getExprLoc());
          Ok = false;
          break;
        }
    }
  }
  return Ok;
}

} // namespace

TileWork tileWorkOf(const FunctionDecl *Kernel, ASTContext &Ctx) {
  TileUses Uses(Ctx.getSourceManager());
  Uses.walk(Kernel);
  return {Uses.Statics, !Uses.Barriers.empty()};
}

bool checkBarriers(const AnalysedCall &A, const FunctionDecl *Kernel, ASTContext &Ctx,
                   Reporter &Diags) {
  TileUses Uses(Ctx.getSourceManager());
  Uses.walk(Kernel);
  const ThreadDependence Varies(A, Uses, Ctx);
  bool Ok = true;
  for (const CXXMemberCallExpr *Barrier : Uses.Barriers)
    for (const Expr *Guard : guardsOf(Barrier, Ctx)) {
      const Expr *Why = Varies.why(Guard);
      if (!Why)
        continue;
      Diags.divergentBarrier(Barrier->getExprLoc());
      Diags.conditionNote(Why->getExprLoc()) << sourceText(Why, Ctx);
      Ok = false;
      break;
    }
  return checkEarlyExits(Uses, Varies, Ctx, Diags) && Ok;
}

} // namespace dpstub
