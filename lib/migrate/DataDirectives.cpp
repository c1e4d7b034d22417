//===- DataDirectives.cpp - Data clauses into dp's data controls ----------===//

#include "migrate/DataDirectives.h"

#include "migrate/BodyScan.h"
#include "migrate/Canonical.h"

#include "dpstub/DeviceDeclared.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "AstVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// What two data clauses naming one array ask together.
std::string joinedTransfer(const std::string &A, const std::string &B) {
  if (A == B || B == "create")
    return A;
  if (A == "create")
    return B;
  return "copy"; // copyin and copyout, or either with copy
}

/// Every variable of the main file with its name.
std::vector<const VarDecl *> variablesNamed(const std::string &Name, ASTContext &Ctx) {
  struct V : AstVisitor {
    const std::string &Name;
    const SourceManager &SM;
    std::vector<const VarDecl *> Out;
    V(const std::string &Name, const SourceManager &SM) : Name(Name), SM(SM) {}
    bool VisitVarDecl(VarDecl *D) override {
      if (D->getName() == Name && SM.isWrittenInMainFile(SM.getFileLoc(D->getLocation())))
        Out.push_back(D);
      return true;
    }
  } Visit(Name, Ctx.getSourceManager());
  Visit.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Visit.Out;
}

/// The file range of the scope V is visible in; none for a global.
std::optional<Span> scopeOf(const VarDecl *V, ASTContext &Ctx) {
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
    return F && F->getBody() ? spanOf(F->getBody()->getSourceRange(), Ctx) : std::nullopt;
  }
  if (!V->isLocalVarDecl())
    return std::nullopt;
  DynTypedNodeList P = Ctx.getParents(*V);
  while (!P.empty()) {
    if (const Stmt *S = P[0].get<Stmt>(); S && !isa<DeclStmt>(S))
      return spanOf(S->getSourceRange(), Ctx);
    P = Ctx.getParents(P[0]);
  }
  return std::nullopt;
}

/// One `name: vars` group of an OpenMP map clause, or an OpenACC clause.
struct DataClause {
  std::string Kind; ///< dataKind
  std::string Spelling;
  std::vector<std::string> Vars;
  std::vector<Section> Sections; ///< the rank-1 sections among Vars
};

std::vector<DataClause> dataClauses(const Directive &D) {
  std::vector<DataClause> Out;
  for (const Clause &C : D.Clauses) {
    if (C.Name == "map") {
      std::string Type = "tofrom", Vars = C.Args;
      // map([always,] type: vars)
      if (const size_t Colon = C.Args.find(':');
          Colon != std::string::npos && C.Args.find('[') > Colon) {
        Type = C.Args.substr(0, Colon);
        if (const size_t Comma = Type.rfind(','); Comma != std::string::npos)
          Type = Type.substr(Comma + 1);
        Type.erase(0, Type.find_first_not_of(' '));
        Type.erase(Type.find_last_not_of(' ') + 1);
        Vars = C.Args.substr(Colon + 1);
      }
      Out.push_back({dataKind(Type), "map(" + C.Args + ")", clauseVariables(Vars), clauseSections(C.Args)});
      continue;
    }
    // update's host/self/device (OpenACC) are read by their name.
    if (C.Name == "host" || C.Name == "self" || C.Name == "device") {
      Out.push_back({C.Name, C.Name + "(" + C.Args + ")", clauseVariables(C.Args), clauseSections(C.Args)});
      continue;
    }
    const std::string K = dataKind(C.Name);
    if (K != "?" || C.Name == "deviceptr" || C.Name == "attach" || C.Name == "detach" ||
        C.Name == "use_device" || C.Name == "use_device_ptr" || C.Name == "use_device_addr" ||
        C.Name == "is_device_ptr" || C.Name == "device_resident" || C.Name == "link")
      Out.push_back({K, C.Name + "(" + C.Args + ")", clauseVariables(C.Args), clauseSections(C.Args)});
  }
  return Out;
}

/// `if(c)` and `async(q)` of a directive.
std::string argOf(const Directive &D, const char *Name, bool &Present) {
  const Clause *C = D.clause(Name);
  Present = C != nullptr;
  return C ? C->Args : std::string();
}

class Planner {
public:
  Planner(const std::vector<PragmaLine> &Pragmas, const DataContext &C, EditList &E, Reporter &Diags,
          std::vector<std::string> &Kept)
      : Pragmas(Pragmas), C(C), Ctx(C.Ctx), SM(Ctx.getSourceManager()),
        Buf(SM.getBufferData(SM.getMainFileID())), E(E), Diags(Diags), Kept(Kept) {}

  void run() {
    FileWide = {pointerFinalized(), pointerUpdatesDevice()};
    for (const PragmaLine &P : Pragmas)
      switch (P.D.Kind) {
      case DirectiveKind::Data: data(P); break;
      case DirectiveKind::EnterExit:
      case DirectiveKind::Update: transfers(P); break;
      case DirectiveKind::Wait: wait(P); break;
      case DirectiveKind::Routine:
      case DirectiveKind::Declare:
        if (C.AllConverted && !(P.D.Kind == DirectiveKind::Routine && declaresElsewhere(P)))
          E.add({P.Begin, P.End - P.Begin, ""});
        break;
      case DirectiveKind::Other:
        // OpenACC's other directives all speak of the device (host_data,
        // atomic outside a loop, init, set): say they stay. OpenMP's are
        // host threading (critical, barrier, single) and stay quietly.
        // One inside a converted loop went with it (an atomic update that
        // became the call-site's reduction).
        if (P.D.Model == PragmaModel::OpenACC && !insideCallSite(P))
          keep(P, P.D.Clauses.empty() ? std::string("dp has no counterpart for it")
                                      : "dp has no counterpart for '" + P.D.Clauses.front().Name +
                                            (P.D.Clauses.front().HasArgs ? "(" + P.D.Clauses.front().Args + ")" : "") +
                                            "'");
        break;
      default: break;
      }
  }

  bool UsesQueues = false;

private:
  bool insideCallSite(const PragmaLine &P) const {
    for (const Span &S : C.CallSites)
      if (S.Begin <= P.Begin && P.Begin < S.End)
        return true;
    return false;
  }

public:

private:
  /// True when P declares for the device a function defined in another
  /// file: the translation reads it there (DeviceDeclared.h), so it stays.
  /// `acc routine` applies to the declaration after it; the other forms
  /// (`acc routine(name)`, `omp declare target` blocks) stay whenever the
  /// file declares such a function.
  bool declaresElsewhere(const PragmaLine &P) {
    if (!ElsewhereDeclared) {
      ElsewhereDeclared.emplace();
      std::vector<const DeclContext *> Scopes{Ctx.getTranslationUnitDecl()};
      while (!Scopes.empty()) {
        const DeclContext *DC = Scopes.back();
        Scopes.pop_back();
        for (const Decl *D : DC->decls()) {
          if (const auto *NS = dyn_cast<NamespaceDecl>(D))
            Scopes.push_back(NS);
          else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D))
            Scopes.push_back(LS);
          const auto *FD = dyn_cast<FunctionDecl>(D);
          const SourceLocation L = FD ? SM.getFileLoc(FD->getBeginLoc()) : SourceLocation();
          if (FD && !FD->isDefined() && SM.isWrittenInMainFile(L) && C.Device.declared(FD))
            ElsewhereDeclared->push_back(SM.getFileOffset(L));
        }
      }
    }
    const std::optional<std::string> Named = routineName(Buf.slice(P.Begin, P.End));
    if (Named && Named->empty()) {
      unsigned At = P.End;
      while (At < Buf.size() && isspace(static_cast<unsigned char>(Buf[At])))
        ++At;
      return std::count(ElsewhereDeclared->begin(), ElsewhereDeclared->end(), At) > 0;
    }
    return !ElsewhereDeclared->empty();
  }
  std::optional<std::vector<unsigned>> ElsewhereDeclared;

  /// Whether running S may need what a data region gives OpenMP/OpenACC:
  /// a loop that keeps its directive, or another directive (a transfer, a
  /// region), in S or in a function S calls (this file's, followed
  /// through its calls), or a call of a function whose body is not in view
  /// (a library's aside), whose loops may be offloaded.
  bool servesOpenMP(const Stmt *S, std::set<const FunctionDecl *> &Seen) const {
    const std::optional<Span> Body = spanOf(S->getSourceRange(), Ctx);
    if (!Body)
      return true;
    auto Inside = [&](unsigned Begin, unsigned End) { return Body->Begin <= Begin && End <= Body->End; };
    if (std::any_of(C.KeptLoops.begin(), C.KeptLoops.end(), [&](const Span &L) { return Inside(L.Begin, L.End); }) ||
        std::any_of(Pragmas.begin(), Pragmas.end(), [&](const PragmaLine &O) {
          return Inside(O.Begin, O.End) && O.D.Kind != DirectiveKind::Loop && O.D.Kind != DirectiveKind::Region;
        }))
      return true;
    for (const CallExpr *Call : callsIn(S)) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (!F)
        return true; // through a pointer: any function
      if (isLibraryDecl(F, SM))
        continue;
      const FunctionDecl *Def = nullptr;
      if (!F->hasBody(Def) || !Def->getBody())
        return true;
      if (Seen.insert(Def->getCanonicalDecl()).second && servesOpenMP(Def->getBody(), Seen))
        return true;
    }
    return false;
  }

  void keep(const PragmaLine &P, const std::string &Why) {
    Diags.migrateDirectiveKept(P.Loc) << P.D.construct() << Why;
    Kept.push_back(P.D.construct());
  }

  /// The fields of a clause's names (scalars and arrays that stay host
  /// arrays need no transfer); Unknown gets what it cannot resolve.
  /// Why a clause's variable N is not one dp holds for the directive: an
  /// array that stays a pointer, or a name that is no variable of the
  /// file (a member, `this`); none for a field or a scalar.
  std::optional<std::string> notHeld(const std::string &N, const PragmaLine &P) const {
    const VarDecl *V = resolveName(N, P.Begin, Ctx);
    if (!V && !memberType(N, P.Begin).isNull())
      return "'" + N + "' is a member, which stays a pointer, not a dp::field";
    if (!V)
      return "'" + N + "' is not a variable dpstub migrates";
    if (isArrayLike(V->getType()) && !C.Fields.count(V))
      return "'" + N + "' stays a pointer, not a dp::field";
    return std::nullopt;
  }

  std::vector<std::string> fields(const DataClause &D, const PragmaLine &P) {
    std::vector<std::string> Out;
    for (const std::string &N : D.Vars)
      if (const VarDecl *V = resolveName(N, P.Begin, Ctx); V && C.Fields.count(V))
        Out.push_back(N);
    return Out;
  }

  /// Replaces the directive's line by Lines (each a statement), at its
  /// indentation; removes it when there are none.
  void replaceLine(const PragmaLine &P, const std::vector<std::string> &Lines, const std::string &If) {
    if (Lines.empty()) {
      E.add({P.Begin, P.End - P.Begin, ""});
      return;
    }
    // The indentation of the code the directive stands in: the next line
    // that is not a directive (one level in when it closes a block).
    unsigned Next = P.End;
    while (Next < Buf.size() && Buf.substr(Next).ltrim(" \t").starts_with("#"))
      Next = nextLineStart(Buf, Next);
    std::string Indent = Next < Buf.size() ? indentationAt(Buf, Next) : std::string();
    if (Buf.substr(Next).ltrim(" \t").starts_with("}"))
      Indent += "  ";
    std::string Text;
    for (const std::string &L : Lines)
      Text += L + " ";
    Text.pop_back();
    if (!If.empty())
      Text = "if (" + If + ") { " + Text + " }";
    E.add({P.Begin, P.End - P.Begin, Indent + Text + "\n"});
  }

  void data(const PragmaLine &P) {
    bool HasIf = false;
    argOf(P.D, "if", HasIf);
    // No loop OpenMP/OpenACC still runs inside: an array that stays a
    // pointer is the host's and the call-sites' (each borrows it), and
    // the directive has nothing left to serve (PolyBench's cholesky, whose
    // dependent loop runs in order on the host around its call-sites,
    // kept `acc data copy(A) copyin(p)` for p, naming A, now a field,
    // which no OpenACC build takes).
    std::set<const FunctionDecl *> Seen;
    const bool Serves = !P.On || servesOpenMP(P.On, Seen);
    // Each array once, with what its clauses ask together (copyin and
    // copyout of one array is copy; create adds nothing to a transfer).
    std::vector<std::pair<std::string, std::string>> Arrays; // name, kind
    std::vector<std::string> Borrows;                         // the region's dp::borrow lines
    for (const DataClause &D : dataClauses(P.D)) {
      if (D.Kind == "?")
        return keep(P, "dp has no counterpart for '" + D.Spelling + "'");
      if (D.Kind.empty())
        continue;
      // An array that stays a pointer: the region borrows it when only
      // loops that borrow it use it; otherwise the loops over it that stay
      // still have the region's meaning to OpenMP/OpenACC.
      for (const std::string &N : D.Vars) {
        const VarDecl *V = resolveName(N, P.Begin, Ctx);
        if (!V && N.find_first_of(".-") != std::string::npos) {
          std::string Why;
          std::optional<std::string> Line = regionPathBorrow(P, N, Why);
          if (!Line)
            return keep(P, Why);
          if (std::find(Borrows.begin(), Borrows.end(), *Line) == Borrows.end())
            Borrows.push_back(*Line);
          continue;
        }
        if (!V)
          return keep(P, *notHeld(N, P));
        if (isArrayLike(V->getType()) && !C.Fields.count(V)) {
          std::optional<std::string> Line = regionBorrow(P, V);
          if (!Line && !Serves)
            continue;
          if (!Line)
            return keep(P, "'" + N + "' stays a pointer, not a dp::field");
          if (std::find(Borrows.begin(), Borrows.end(), *Line) == Borrows.end())
            Borrows.push_back(*Line);
        }
      }
      for (const std::string &N : fields(D, P)) {
        auto It = std::find_if(Arrays.begin(), Arrays.end(), [&](const auto &A) { return A.first == N; });
        if (It == Arrays.end())
          Arrays.push_back({N, D.Kind});
        else
          It->second = joinedTransfer(It->second, D.Kind);
      }
    }
    // dp's clauses in the order they first appear, each kind once.
    std::vector<std::pair<std::string, std::string>> Clauses; // kind, names
    auto AddTo = [&](const std::string &Kind, const std::string &Name) {
      for (auto &[K, List] : Clauses)
        if (K == Kind) {
          List += ", " + Name;
          return;
        }
      Clauses.push_back({Kind, Name});
    };
    std::optional<BodyFacts> InRegion; // the region's accesses, scanned once
    for (const auto &[N, Kind] : Arrays) {
      // Elements it does not write keep their host values in the
      // original: unless every element is written, it is copy too.
      if (Kind == "copyout" && P.On) {
        if (!InRegion)
          InRegion = scanBody(P.On, {}, Ctx, *C.Offsets);
        const VarDecl *V = resolveName(N, P.Begin, Ctx);
        const bool Reads = readsIn(*InRegion, V);
        if (Reads || !writesWhole(*InRegion, V)) {
          Diags.migrateCopyoutRead(P.Loc) << N << !Reads;
          AddTo("copy", N);
          continue;
        }
      }
      AddTo(Kind, N);
    }
    if (HasIf && (!Clauses.empty() || !Borrows.empty()))
      return keep(P, "its if() clause would make the region conditional, which dp::data_region is not");
    E.add({P.Begin, P.End - P.Begin, ""});
    if ((Clauses.empty() && Borrows.empty()) || !P.On)
      return;
    std::vector<std::string> Lines = Borrows;
    if (!Clauses.empty()) {
      std::string Region = "dp::data_region dp_region(";
      for (size_t I = 0; I < Clauses.size(); ++I)
        Region += (I ? ", " : "") + std::string("dp::") + Clauses[I].first + "(" + Clauses[I].second + ")";
      Lines.push_back(Region + ");");
    }
    std::optional<Span> S = spanOf(P.On->getSourceRange(), Ctx);
    if (!S)
      return;
    const std::string Indent = indentationAt(Buf, S->Begin);
    std::string Region;
    for (const std::string &L : Lines)
      Region += (Region.empty() ? "" : "\n" + Indent + "  ") + L;
    if (isa<CompoundStmt>(P.On)) {
      // The region's first statements: they live as long as the block.
      E.add({S->Begin + 1, 0, "\n" + Indent + "  " + Region});
      return;
    }
    blockAround(E, Buf, S->Begin, S->End, Indent, Region); // a single statement
  }

  /// The region's `dp::borrow` of V, a pointer that stays one: when
  /// every use of it in the region is in a converted loop that borrows it,
  /// or hands it to a function of this file whose every use of that
  /// parameter is (Gaussian elimination's `Fan1(m, a, Size, t)` in a
  /// `target data` region), and the region's clause gives its length from
  /// the first element. The loops' own borrows then find the region's
  /// block alive and share it (a window inside it too). None otherwise.
  std::optional<std::string> regionBorrow(const PragmaLine &P, const VarDecl *V) const {
    std::optional<Span> Region = P.On ? spanOf(P.On->getSourceRange(), Ctx) : std::nullopt;
    std::optional<Section> Sec = dataSection(P.D, V->getName().str());
    if (!Region || !Sec || !fromFirstElement(*Sec))
      return std::nullopt;
    bool Borrows = C.Borrowed.count(V) > 0; // a loop of the region borrows V, or a callee its parameter
    for (const DeclRefExpr *D : namesIn(P.On)) {
      if (D->getDecl() != V || inCallSite(D))
        continue;
      const ParmVarDecl *Param = parameterTaking(D);
      if (!Param || !C.Borrowed.count(Param))
        return std::nullopt;
      const auto *F = cast<FunctionDecl>(Param->getDeclContext());
      for (const DeclRefExpr *U : namesIn(F->getBody()))
        if (U->getDecl() == Param && !inCallSite(U))
          return std::nullopt;
      Borrows = true;
    }
    const QualType T = V->getType()->isPointerType() ? V->getType()->getPointeeType() : QualType();
    if (!Borrows || (!C.Borrowed.count(V) && T.isNull()))
      return std::nullopt;
    const std::string Type = C.Borrowed.count(V)
                                 ? C.Borrowed.at(V)
                                 : "dp::field<1, " + T.getAsString(Ctx.getPrintingPolicy()) + ">";
    return Type + " dp_region_" + V->getName().str() + " = dp::borrow(" + V->getName().str() + ", " + Sec->Length +
           ");";
  }

  /// The region's `dp::borrow` of the path N (`m->x`), as regionBorrow()
  /// gives one for a pointer variable: a converted loop of the region
  /// borrows it, the clause gives its length from the first element, and
  /// outside those loops the region reaches neither it nor its variable
  /// but through other paths (`m->n` read on the host is fine; `m->x[0]`,
  /// `f(m)` or `q = m` are not). Why receives the reason otherwise.
  std::optional<std::string> regionPathBorrow(const PragmaLine &P, const std::string &N, std::string &Why) const {
    const VarDecl *Root = resolveName(N.substr(0, N.find_first_of(".-")), P.Begin, Ctx);
    const VarDecl *Path = nullptr;
    for (const auto &Borrowed : C.Borrowed)
      if (C.Members && Root && C.Members->rootOf(Borrowed.first) == Root && Borrowed.first->getName() == N)
        Path = Borrowed.first;
    if (!Path || !P.On) {
      Why = *notHeld(N, P);
      return std::nullopt;
    }
    std::optional<Section> Sec = dataSection(P.D, N);
    if (!Sec || !fromFirstElement(*Sec)) {
      Why = noLength(N);
      return std::nullopt;
    }
    for (const DeclRefExpr *D : namesIn(P.On)) {
      if (D->getDecl() != Root || inCallSite(D))
        continue;
      const Expr *Top = outermostMember(D);
      const VarDecl *Used = Top ? C.Members->of(Top) : nullptr;
      if (!Used || Used == Path) {
        Why = "'" + N + "' stays a pointer, and the region reaches it outside the loops it converts";
        return std::nullopt;
      }
    }
    return C.Borrowed.at(Path) + " dp_region_" + kernelName(Path) + " = dp::borrow(" + borrowedMemory(Path) + ", " +
           Sec->Length + ");";
  }

  /// The outermost member access of a chain starting at D (`m->a->b` for
  /// the `m` in it); null when D starts none.
  const Expr *outermostMember(const DeclRefExpr *D) const {
    const Expr *E = D, *Top = nullptr;
    for (DynTypedNodeList Up = Ctx.getParents(*E); !Up.empty(); Up = Ctx.getParents(*E)) {
      if (const auto *Cast = Up[0].get<ImplicitCastExpr>())
        E = Cast;
      else if (const auto *M = Up[0].get<MemberExpr>(); M && M->getBase() == E)
        E = Top = M;
      else
        break;
    }
    return Top;
  }

  static std::string noLength(const std::string &N) {
    return "'" + N + "' stays a pointer, and its clause gives no length from its first element ('" + N + "[0:n]')";
  }

  bool inCallSite(const DeclRefExpr *D) const {
    const unsigned U = SM.getFileOffset(SM.getFileLoc(D->getLocation()));
    return std::any_of(C.CallSites.begin(), C.CallSites.end(),
                       [&](const Span &L) { return L.Begin <= U && U < L.End; });
  }

  /// The parameter D is handed to whole, as a direct argument of a call
  /// of a function of the main file with a body; null otherwise.
  const ParmVarDecl *parameterTaking(const DeclRefExpr *D) const {
    DynTypedNodeList Up = Ctx.getParents(*D);
    const Expr *Arg = D;
    while (!Up.empty()) {
      if (const auto *Cast = Up[0].get<ImplicitCastExpr>()) {
        Arg = Cast;
        Up = Ctx.getParents(*Cast);
        continue;
      }
      break;
    }
    const auto *Call = Up.empty() ? nullptr : Up[0].get<CallExpr>();
    const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
    if (!F || !F->hasBody() || isa<CXXMethodDecl>(F))
      return nullptr;
    F = F->getDefinition();
    if (!F || !SM.isWrittenInMainFile(SM.getFileLoc(F->getLocation())))
      return nullptr;
    for (unsigned I = 0; I < Call->getNumArgs() && I < F->getNumParams(); ++I)
      if (Call->getArg(I) == Arg)
        return F->getParamDecl(I);
    return nullptr;
  }

  /// Whether the region (its scanned accesses F) may read V's elements: a
  /// read of one, or V handed to a call (whose loops may read it).
  static bool readsIn(const BodyFacts &F, const VarDecl *V) {
    if (!V)
      return true;
    for (const ElementAccess &A : F.Accesses)
      if (A.Array == V && A.Mode.Read)
        return true;
    for (const VarRef &R : F.Refs)
      if (R.Var == V)
        return true; // not an element access: handed on, maybe read
    return false;
  }

  /// Whether the region (F) surely writes every element of V: a C array of
  /// constant extents assigned, unconditionally, at `V[i][j]...` inside
  /// loops `for (i = 0; i < extent; ++i)` over each of its dimensions.
  bool writesWhole(const BodyFacts &F, const VarDecl *V) const {
    if (!V)
      return false;
    std::vector<std::uint64_t> Extents;
    for (QualType T = V->getType(); const auto *A = Ctx.getAsConstantArrayType(T); T = A->getElementType())
      Extents.push_back(A->getSize().getZExtValue());
    if (Extents.empty())
      return false;
    for (const ElementAccess &A : F.Accesses) {
      if (A.Array != V || !A.Mode.Write || A.Conditional || A.Through || A.Indices.size() != Extents.size())
        continue;
      bool Whole = true;
      std::set<const ForStmt *> Used;
      for (size_t D = 0; D < Extents.size() && Whole; ++D) {
        Whole = false;
        const VarDecl *I = namedVar(A.Indices[D]);
        for (const ForStmt *L : A.InnerLoops) {
          auto Level = canonicalLevel(L, Ctx);
          const LoopLevel *Lv = std::get_if<LoopLevel>(&Level);
          if (!Lv || Lv->Var != I || !I || Used.count(L))
            continue;
          Expr::EvalResult Bound;
          Whole = Lv->LowerIsZero && unitStep(*Lv) && Lv->Cmp == Comparison::Less &&
                  Lv->UpperExpr->EvaluateAsInt(Bound, Ctx) &&
                  Bound.Val.getInt().getExtValue() == static_cast<std::int64_t>(Extents[D]);
          Used.insert(L);
          break;
        }
      }
      // A continue, break or goto could skip the write.
      for (const ForStmt *L : Used)
        Whole &= !jumps(L->getBody());
      if (Whole)
        return true;
    }
    return false;
  }

  static bool jumps(const Stmt *S) {
    if (!S)
      return false;
    if (isa<ContinueStmt, BreakStmt, GotoStmt, ReturnStmt, CXXThrowExpr>(S))
      return true;
    for (const Stmt *C : S->children())
      if (jumps(C))
        return true;
    return false;
  }

  void transfers(const PragmaLine &P) {
    bool HasAsync = false, HasIf = false;
    const std::string Queue = argOf(P.D, "async", HasAsync);
    const std::string If = argOf(P.D, "if", HasIf);
    // dp orders the transfers of fields by what touches them, as depend()
    // and wait() ordered the original's: a directive over fields alone
    // goes (miniWeather's `target update from(state[...]) depend(inout:
    // asyncid) nowait`, whose `state` is a field: kept, it named one).
    // One naming anything else stays.
    if (P.D.clause("depend") || P.D.clause("wait")) {
      bool Fields = true;
      for (const DataClause &D : dataClauses(P.D))
        for (const std::string &N : D.Vars) {
          const VarDecl *V = resolveName(N, P.Begin, Ctx);
          Fields &= V && C.Fields.count(V) > 0;
        }
      if (!Fields)
        return keep(P, "dp orders transfers by the fields they touch; its depend()/wait() has no counterpart");
    }
    const std::string Q = HasAsync ? queueText(Queue) + ", " : "";
    const bool Enter = P.D.has("enter"), Exit = P.D.has("exit");
    std::vector<std::string> Lines;
    for (const DataClause &D : dataClauses(P.D)) {
      if (D.Kind == "?")
        return keep(P, "dp has no counterpart for '" + D.Spelling + "'");
      std::string Call;
      if (D.Kind == "host" || D.Kind == "self")
        Call = "update_host";
      else if (D.Kind == "device")
        Call = "update_device";
      else if (Enter && (D.Kind == "copyin" || D.Kind == "copy" || D.Kind == "create"))
        Call = "enter_data"; // for what stays a pointer; a field needs only its copyin
      else if (Exit && (D.Kind == "copyout" || D.Kind == "copy" || D.Kind.empty()))
        Call = "exit_data"; // the same: a field needs only its copyout
      else if (!Exit && !Enter && D.Kind == "copyin")
        Call = "update_device"; // target update to
      else if (!Exit && !Enter && D.Kind == "copyout")
        Call = "update_host"; // target update from
      for (const std::string &N : D.Vars) {
        if (!notHeld(N, P)) {
          // A field: dp allocates and frees it itself, so only what moves
          // data is said (enter data copyin, exit data copyout).
          const VarDecl *V = resolveName(N, P.Begin, Ctx);
          std::string FieldCall = Call;
          if (Call == "enter_data")
            FieldCall = D.Kind == "create" ? "" : "update_device";
          else if (Call == "exit_data")
            FieldCall = D.Kind.empty() ? "" : "update_host";
          if (!FieldCall.empty() && V && C.Fields.count(V))
            Lines.push_back("dp::" + FieldCall + "(" + Q + N + ");");
          continue;
        }
        // What names no field (a pointer that stays one, a member, `this`).
        std::string Line;
        if (std::optional<std::string> Why = pointerTransfer(P, D, N, Call, Q, Line))
          return keep(P, *Why);
        if (!Line.empty())
          Lines.push_back(Line);
      }
    }
    UsesQueues |= HasAsync && std::any_of(Lines.begin(), Lines.end(), [](const std::string &L) {
                    return L.find("dp_async_queue") != std::string::npos;
                  });
    replaceLine(P, Lines, HasIf ? If : "");
  }

  /// Line receives the dp line of a transfer directive's name N that
  /// stays a pointer (a pointer variable, a member of the class whose
  /// function the directive is in, `this`): dp::enter_data /
  /// dp::exit_data / dp::update_* over the section from its first
  /// element, which the call-sites borrowing it then share (on a device,
  /// its copy stays there between them); nothing for `this` and `present`
  /// (the kernels take the values they read). The reason the directive
  /// stays instead, if it must: for the loops that stay OpenMP's or
  /// OpenACC's, because a device copy held from here would miss what the
  /// host writes through the pointer (a reduction's element), or N has
  /// no section.
  std::optional<std::string> pointerTransfer(const PragmaLine &P, const DataClause &D, const std::string &N,
                                             const std::string &Call, const std::string &Q,
                                             std::string &Line) const {
    // A file whose loops all stay, or that has none, changes nothing: the
    // loops relying on the directive are elsewhere.
    if (!C.AllConverted || C.CallSites.empty())
      return notHeld(N, P);
    if (!C.SkippedTransfer.empty())
      return "'" + N + "' may stay a pointer, and " + C.SkippedTransfer +
             ", in a branch this build skips, may bring its data to the host for code that reads it; remove the "
             "condition around it, then migrate";
    if (FileWide.Finalized)
      return "'" + N + "' may stay a pointer, and an 'exit data ... finalize' of this file ends every hold on its "
                       "memory at once, where dp::exit_data ends one";
    if (C.HostLoopsConverted && FileWide.UpdatesDevice)
      return "'" + N + "' may stay a pointer, and a loop of this file that ran on the host's threads now runs where "
                       "the data is, where an update to the device would send the host's older copy over its results";
    if (C.HostWritesBorrowed)
      return "'" + N +
             "' may stay a pointer, and the host touches such memory between call-sites of this file (a reduction's "
             "element, a loop that runs in order on the host, a device region's statement outside its loops), which "
             "a device copy held from here would miss";
    if (N == "this")
      return std::nullopt;
    const VarDecl *V = resolveName(N, P.Begin, Ctx);
    const QualType T = V ? V->getType() : memberType(N, P.Begin);
    const QualType Element = T.isNull() || !T->isPointerType() ? QualType() : T->getPointeeType();
    if (Element.isNull() || Element->isVoidType() || Element->isIncompleteType() ||
        (!Element->isDependentType() && !Element.isTriviallyCopyableType(Ctx)))
      return notHeld(N, P);
    if (Call.empty())
      return std::nullopt;
    if (Call == "exit_data") {
      Line = "dp::exit_data(" + N + ");";
      return std::nullopt;
    }
    auto S = std::find_if(D.Sections.begin(), D.Sections.end(), [&](const Section &S) { return S.Var == N; });
    if (S == D.Sections.end() || !fromFirstElement(*S))
      return noLength(N);
    Line = "dp::" + Call + "(" + (Call == "enter_data" ? std::string() : Q) + N + ", " + S->Length + ");";
    return std::nullopt;
  }

  /// What the file's directives say of what stays a pointer, read once
  /// (each name of a transfer directive asks).
  struct {
    bool Finalized = false;     ///< pointerFinalized()
    bool UpdatesDevice = false; ///< pointerUpdatesDevice()
  } FileWide;

  /// Whether an `exit data ... finalize` of the file names what stays a
  /// pointer: it drops every hold at once, which dp::exit_data does not.
  bool pointerFinalized() const {
    for (const PragmaLine &P : Pragmas)
      if (P.D.Kind == DirectiveKind::EnterExit && P.D.has("exit") && P.D.clause("finalize"))
        for (const DataClause &D : dataClauses(P.D))
          for (const std::string &N : D.Vars)
            if (notHeld(N, P))
              return true;
    return false;
  }

  /// Whether an update directive of the file sends to the device what
  /// stays a pointer (`update device(p[0:n])`, `target update to(p[0:n])`).
  bool pointerUpdatesDevice() const {
    for (const PragmaLine &P : Pragmas)
      if (P.D.Kind == DirectiveKind::Update)
        for (const DataClause &D : dataClauses(P.D))
          if (D.Kind == "device" || D.Kind == "copyin")
            for (const std::string &N : D.Vars)
              if (notHeld(N, P))
                return true;
    return false;
  }

  /// The type of the member N: a path from a variable visible at Offset
  /// (pathType()), or a data member of the class whose member function's
  /// body holds Offset; null when there is none.
  QualType memberType(const std::string &N, unsigned Offset) const {
    if (N.find_first_of(".-") != std::string::npos)
      return pathType(N, Offset);
    struct Around : AstVisitor {
      const SourceManager &SM;
      unsigned Offset;
      const CXXMethodDecl *In = nullptr;
      Around(const SourceManager &SM, unsigned Offset) : SM(SM), Offset(Offset) {}
      bool VisitCXXMethodDecl(CXXMethodDecl *M) override {
        const Stmt *B = M->getBody();
        if (!B)
          return true;
        const SourceLocation Begin = SM.getFileLoc(B->getBeginLoc()), End = SM.getFileLoc(B->getEndLoc());
        if (SM.isWrittenInMainFile(Begin) && SM.getFileOffset(Begin) <= Offset && Offset < SM.getFileOffset(End))
          In = M;
        return true;
      }
    } Find(SM, Offset);
    Find.TraverseDecl(Ctx.getTranslationUnitDecl());
    if (!Find.In)
      return QualType();
    for (const FieldDecl *F : Find.In->getParent()->fields())
      if (F->getName() == N)
        return F->getType();
    return QualType();
  }

  /// The type of the path N (`m->x`, `g.mesh->u`: members from a
  /// variable visible at Offset), as MemberVars follows it in the loops;
  /// null when it names no such member.
  QualType pathType(const std::string &N, unsigned Offset) const {
    size_t At = N.find_first_of(".-");
    const VarDecl *Root = resolveName(N.substr(0, At), Offset, Ctx);
    QualType T = Root ? Root->getType().getNonReferenceType() : QualType();
    while (!T.isNull() && At < N.size()) {
      const bool Arrow = N.compare(At, 2, "->") == 0;
      if (!Arrow && N[At] != '.')
        return QualType();
      if (Arrow) {
        if (!T->isPointerType())
          return QualType();
        T = T->getPointeeType();
      }
      const size_t From = At + (Arrow ? 2 : 1);
      At = N.find_first_of(".-", From);
      const std::string Name = N.substr(From, At == std::string::npos ? std::string::npos : At - From);
      const RecordDecl *R = T->getAsRecordDecl();
      if (!R)
        return QualType();
      const auto F = std::find_if(R->field_begin(), R->field_end(),
                                  [&](const FieldDecl *F) { return F->getName() == Name; });
      T = F == R->field_end() ? QualType() : F->getType().getNonReferenceType();
    }
    return T;
  }

  void wait(const PragmaLine &P) {
    std::vector<std::string> Lines;
    if (P.D.Model == PragmaModel::OpenACC && (P.D.clause("async") || P.D.clause("if")))
      return keep(P, "a wait that is itself asynchronous or conditional has no counterpart in dp");
    // `acc wait(1, 2)` parses its queues as clauses named by number.
    for (const Clause &Cl : P.D.Clauses)
      if (Cl.Name == "wait" || (!Cl.Name.empty() && isdigit(static_cast<unsigned char>(Cl.Name[0]))))
        for (const std::string &N : clauseVariables(Cl.HasArgs ? Cl.Args : Cl.Name))
          Lines.push_back(queueText(N) + ".wait();");
    UsesQueues |= !Lines.empty();
    if (Lines.empty())
      Lines.push_back("dp::wait_all();");
    replaceLine(P, Lines, "");
  }

  const std::vector<PragmaLine> &Pragmas;
  const DataContext &C;
  ASTContext &Ctx;
  const SourceManager &SM;
  StringRef Buf;
  EditList &E;
  Reporter &Diags;
  std::vector<std::string> &Kept;
};

} // namespace

std::string queueText(const std::string &Number) {
  return "dp_async_queue(" + (Number.empty() ? std::string() : Number) + ")";
}

const VarDecl *resolveName(const std::string &Name, unsigned Offset, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const VarDecl *Best = nullptr;
  unsigned BestAt = 0;
  for (const VarDecl *V : variablesNamed(Name, Ctx)) {
    const unsigned At = SM.getFileOffset(SM.getFileLoc(V->getLocation()));
    if (At > Offset)
      continue;
    if (std::optional<Span> S = scopeOf(V, Ctx); S && (Offset < S->Begin || Offset >= S->End))
      continue;
    if (!V->hasGlobalStorage() && !scopeOf(V, Ctx))
      continue;
    if (!Best || At >= BestAt)
      Best = V, BestAt = At;
  }
  return Best;
}

void planDataDirectives(const std::vector<PragmaLine> &Pragmas, const DataContext &C, bool LoopsUseQueues,
                        EditList &E, Reporter &Diags, std::vector<std::string> &Kept) {
  Planner P(Pragmas, C, E, Diags, Kept);
  P.run();
  if (!P.UsesQueues && !LoopsUseQueues)
    return;
  // The queues, before the first declaration of the file (and before
  // what other edits put in front of it there: a C function's `extern
  // "C"`, added earlier).
  const SourceManager &SM = C.Ctx.getSourceManager();
  const StringRef Buf = SM.getBufferData(SM.getMainFileID());
  unsigned First = Buf.size();
  for (const Decl *D : C.Ctx.getTranslationUnitDecl()->decls())
    if (SM.isWrittenInMainFile(SM.getFileLoc(D->getLocation())))
      if (std::optional<Span> S = spanOf(D->getSourceRange(), C.Ctx))
        First = std::min(First, lineStart(Buf, S->Begin));
  E.add({First, 0,
         "/// OpenACC's async queues (and OpenMP's nowait), as dp::queues: one per\n"
         "/// number, alive for the whole run.\n"
         "static dp::queue &dp_async_queue(long long number = -1) {\n"
         "  static auto *queues = new std::map<long long, dp::queue>();\n"
         "  return (*queues)[number];\n"
         "}\n\n"},
        /*First=*/true);
}

} // namespace dpstub::migrate
