//===- LoopAnalysis.cpp - A candidate loop into its model -----------------===//
//
// The analysis reads as its stages: the levels of the nest (canonical,
// rectangular, as deep as the directive or the proof allows), one walk
// over the body, then the verdicts on control flow, calls, scalars,
// arrays and dependences. Each stage either adds to the model or refuses
// the loop with the first reason it finds.
//
//===----------------------------------------------------------------------===//

#include "migrate/LoopAnalysis.h"

#include "dpstub/DeviceDeclared.h"

#include "migrate/Affine.h"
#include "migrate/ArrayData.h"
#include "migrate/BodyScan.h"
#include "migrate/Canonical.h"
#include "migrate/Extent.h"
#include "migrate/Liveness.h"
#include "migrate/OffsetPointer.h"
#include "migrate/Reductions.h"
#include "migrate/Text.h"
#include "migrate/WriteOnlyParameters.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/StmtOpenMP.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "AstVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>
#include <variant>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// Why the array of an access dpstub cannot follow stays: for a member of
/// another object (`d.arr[i]`, `grid->u[i]`), what would let it follow.
std::string opaqueArrayReason(const Expr *Access, const Stmt *Loop, const SourceManager &SM) {
  const Expr *Base = Access;
  while (const auto *S = dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts()))
    Base = S->getBase();
  const auto *M = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts());
  const auto *Object = M ? dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts()) : nullptr;
  const auto *Field = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
  if (!Object || !Field || !Field->getType()->isPointerType())
    return "its array is not a variable dpstub can follow";
  const std::string Name = Object->getDecl()->getNameAsString();
  const SourceLocation Declared = SM.getFileLoc(Object->getDecl()->getLocation());
  if (!SM.isBeforeInTranslationUnit(Declared, SM.getFileLoc(Loop->getBeginLoc())) &&
      SM.isBeforeInTranslationUnit(Declared, SM.getFileLoc(Loop->getEndLoc())))
    return "its array is reached through '" + Name +
           "', a variable of the loop's own, and a kernel cannot follow its pointer into host memory";
  const std::string Path = Name + (M->isArrow() ? "->" : ".") + Field->getNameAsString();
  const std::string Local = pathIdentifier(Path);
  return "its array is a member of another object ('" + Path +
         "'); copy the pointer into a local variable before the loop ('" +
         Field->getType()->getPointeeType().getAsString() + " *" + Local + " = " + Path + ";') and index that";
}

/// For a call on a std::vector or std::array that is a data member of
/// another object (`m.v[i]`, `m->v.at(i)`), why its loop stays, with what
/// does convert: a local pointer to its elements. Empty for other calls.
std::string containerMemberReason(const CallExpr *Call, const ASTContext &Ctx) {
  const Expr *Object = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call); Op && Op->getOperator() == OO_Subscript)
    Object = Op->getArg(0);
  else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Object = Member->getImplicitObjectArgument();
  const auto *M = Object ? dyn_cast<MemberExpr>(Object->IgnoreParenImpCasts()) : nullptr;
  if (!M || !isa<FieldDecl>(M->getMemberDecl()))
    return {};
  const QualType T = M->getType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return {};
  const std::string Kind = Spec->getName().str();
  if (Kind != "vector" && Kind != "array")
    return {};
  const std::string Path = textOf(M, Ctx);
  const std::string Local = pathIdentifier(Path);
  const std::string Element = Spec->getTemplateArgs()[0].getAsType().getAsString(Ctx.getPrintingPolicy());
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call); Member && Kind == "vector" && Member->getMethodDecl())
    return "its array is a std::vector member of another object ('" + Path + "'), which a call-site borrows where "
           "the loop indexes it with brackets ('" + Path + "[...]'); '" +
           Member->getMethodDecl()->getNameAsString() + "' has no dp::field counterpart";
  return "its array is a std::" + Kind + " member of another object ('" + Path +
         "'); dpstub follows std::vector variables and parameters, and pointers: take a pointer to its "
         "elements before the loop ('" + (T.isConstQualified() ? "const " : "") + Element + " *" + Local + " = " +
         Path + ".data();') and index that";
}

Refusal refusal(DiagnosticBuilder (Reporter::*R)(SourceLocation), SourceLocation L,
                std::vector<std::string> Args) {
  Refusal F;
  F.Report = R;
  F.Loc = L;
  F.Args = std::move(Args);
  return F;
}

/// Functions of the C and C++ libraries a kernel may call: pure math.
bool isMathFunction(StringRef Name) {
  static const char *Names[] = {
      "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "sin",
      "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
      "atanh", "fabs", "abs", "labs", "llabs", "floor", "ceil", "round", "lround", "trunc", "rint",
      "nearbyint", "fmod", "remainder", "fmax", "fmin", "max", "min", "hypot", "erf", "erfc",
      "tgamma", "lgamma", "copysign", "isnan", "isinf", "isfinite", "signbit", "fma", "fdim",
      "ldexp", "frexp", "ilogb", "logb", "nextafter"};
  for (const char *N : Names) {
    if (Name == N)
      return true;
    // the float and long double versions: sqrtf, sqrtl
    if (Name.size() == strlen(N) + 1 && Name.starts_with(N) && (Name.back() == 'f' || Name.back() == 'l'))
      return true;
  }
  return false;
}

/// Variables declared in S.
std::map<const VarDecl *, const Expr *> declaredIn(const Stmt *S) {
  struct V : AstVisitor {
    std::map<const VarDecl *, const Expr *> Out;
    bool VisitVarDecl(VarDecl *D) override {
      Out[D] = D->getInit();
      return true;
    }
  } Visit;
  Visit.TraverseStmt(const_cast<Stmt *>(S));
  return Visit.Out;
}

/// Variables of Candidates assigned (or incremented, or whose address is
/// taken) anywhere in S.
std::set<const VarDecl *> assignedIn(const Stmt *S, ASTContext &Ctx) {
  struct V : AstVisitor {
    ASTContext &Ctx;
    std::set<const VarDecl *> Out;
    explicit V(ASTContext &Ctx) : Ctx(Ctx) {}
    bool VisitDeclRefExpr(DeclRefExpr *D) override {
      if (const auto *Var = dyn_cast<VarDecl>(D->getDecl()))
        if (useMode(D, Ctx).Write)
          Out.insert(Var);
      return true;
    }
  } Visit(Ctx);
  Visit.TraverseStmt(const_cast<Stmt *>(S));
  return Visit.Out;
}

/// The expressions of a level's bounds: its first value and its bound.
std::vector<const Expr *> boundExprs(const ForStmt *F) {
  std::vector<const Expr *> Out;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl())
    if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()))
      Out.push_back(V->getInit());
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit()))
    Out.push_back(B->getRHS());
  if (const auto *C = dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr))
    Out.push_back(C);
  return Out;
}

/// Whether a user function may write anything but its own locals: a
/// global, or through a pointer or reference parameter. Plain loops call
/// only functions that cannot.
bool mayWriteOutside(const FunctionDecl *FD, ASTContext &Ctx, int Depth) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def))
    return !isMathFunction(FD->getName());
  if (Depth > 3)
    return true;
  for (const ParmVarDecl *P : Def->parameters()) {
    const QualType T = P->getType();
    if ((T->isPointerType() && !T->getPointeeType().isConstQualified()) ||
        (T->isReferenceType() && !T.getNonReferenceType().isConstQualified()))
      return true;
  }
  struct V : AstVisitor {
    ASTContext &Ctx;
    int Depth;
    bool Writes = false;
    V(ASTContext &Ctx, int Depth) : Ctx(Ctx), Depth(Depth) {}
    bool VisitDeclRefExpr(DeclRefExpr *D) override {
      if (const auto *Var = dyn_cast<VarDecl>(D->getDecl()); Var && Var->hasGlobalStorage())
        Writes |= useMode(D, Ctx).Write;
      return !Writes;
    }
    bool VisitCallExpr(CallExpr *C) override {
      const FunctionDecl *Callee = C->getDirectCallee();
      Writes |= !Callee || mayWriteOutside(Callee, Ctx, Depth + 1);
      return !Writes;
    }
  } Visit(Ctx, Depth);
  Visit.TraverseStmt(Def->getBody());
  return Visit.Writes;
}

/// The triangle a collapse(2) of Outer and Inner covers, when exactly one
/// of dp's: the outer level by 1 from a to n, the inner by 1 either from
/// the outer variable to the same n (`for (j = a; j < n; j++) for (i = j;
/// i < n; i++)`: dp::upper_triangle(n - a), points (j, i) with i >= j) or
/// from the same a up to and with the outer variable (`i <= j`:
/// dp::lower_triangle(n - a)); index values count from 0, a is added back.
/// Grid otherwise (other bounds using the outer variable stay refused).
LoopModel::Shape triangleOf(const LoopLevel &Outer, const LoopLevel &Inner, bool &Strict) {
  auto IsOuter = [&](const Expr *E) {
    const auto *D = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    return D && D->getDecl() == Outer.Var;
  };
  // `j + 1` or `1 + j`.
  auto IsOuterPlusOne = [&](const Expr *E) {
    const auto *B = E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
    if (!B || B->getOpcode() != BO_Add)
      return false;
    auto IsOne = [](const Expr *X) {
      const auto *L = dyn_cast<IntegerLiteral>(X->IgnoreParenImpCasts());
      return L && L->getValue() == 1;
    };
    return (IsOuter(B->getLHS()) && IsOne(B->getRHS())) || (IsOne(B->getLHS()) && IsOuter(B->getRHS()));
  };
  Strict = false;
  if (!unitStep(Outer) || !unitStep(Inner) || Outer.Lower.empty() || Outer.Upper.empty() ||
      (Outer.Cmp != Comparison::Less && Outer.Cmp != Comparison::LessEqual))
    return LoopModel::Shape::Grid;
  if (Inner.Cmp == Outer.Cmp && Inner.Upper == Outer.Upper) {
    if (IsOuter(Inner.LowerExpr))
      return LoopModel::Shape::UpperTriangle;
    if (IsOuterPlusOne(Inner.LowerExpr)) {
      Strict = true;
      return LoopModel::Shape::UpperTriangle;
    }
  }
  if (Inner.Lower == Outer.Lower && IsOuter(Inner.UpperExpr)) {
    if (Inner.Cmp == Comparison::LessEqual)
      return LoopModel::Shape::LowerTriangle;
    if (Inner.Cmp == Comparison::Less) {
      Strict = true;
      return LoopModel::Shape::LowerTriangle;
    }
  }
  return LoopModel::Shape::Grid;
}

/// One analysis of one candidate at one depth.
class Analysis {
public:
  /// Depth levels at most; the first Required of them must all be there
  /// (a directive's collapse(n)), the others only where they can be.
  Analysis(const Candidate &C, const UnitFacts &U, int Depth, int Required)
      : C(C), U(U), Ctx(U.Ctx), Depth(Depth), Required(Required) {}

  LoopModel run() {
    M.Outer = C.Loop;
    M.From = C.From;
    M.Construct = C.Construct;
    if (C.Pragma) {
      M.Pragma = C.Pragma->D;
      M.PragmaRange = SourceRange(C.Pragma->Loc, C.Pragma->Loc);
    }
    // Each stage refuses the loop (and stops) or adds to the model.
    (void)(levels() && scan() && controlAndCalls() && scalars() && guardedUpdates() && arrays() && dependences());
    Reached = M.rank();
    return std::move(M);
  }

  /// The depth the nest reached (levels may stop early for plain loops).
  int depth() const { return Reached; }

private:
  bool refuse(Refusal R) {
    if (!M.Refused)
      M.Refused = std::move(R);
    return false;
  }

  /// The nest's levels: the Required ones, then more up to Depth.
  bool levels() {
    if (C.Loop->getBeginLoc().isMacroID())
      return refuse(refusal(&Reporter::migrateNotCanonical, C.Loop->getBeginLoc(),
                            {"the loop is written inside a macro"}));
    const ForStmt *F = C.Loop;
    std::vector<const VarDecl *> Outer;
    for (int K = 0; K < Depth && F; ++K) {
      const bool Must = K < Required;
      auto Level = canonicalLevel(F, Ctx);
      if (auto *Why = std::get_if<std::string>(&Level)) {
        if (K == 0 || Must)
          return refuse(refusal(&Reporter::migrateNotCanonical, F->getBeginLoc(), {*Why}));
        break;
      }
      LoopLevel L = std::get<LoopLevel>(Level);
      // Rectangular: the bounds use no outer level's variable; or, for a
      // collapse(2), a triangle of the square dp launches as one.
      bool Rectangular = true, Strict = false;
      const LoopModel::Shape Triangle =
          K == 1 && Must && Required == 2 ? triangleOf(M.Levels.front(), L, Strict) : LoopModel::Shape::Grid;
      for (const Expr *B : boundExprs(F))
        for (const DeclRefExpr *D : namesIn(B))
          if (std::find(Outer.begin(), Outer.end(), D->getDecl()) != Outer.end()) {
            if (Triangle != LoopModel::Shape::Grid)
              continue;
            if (Must)
              return refuse(refusal(&Reporter::migrateNotRectangular, D->getLocation(),
                                    {L.Name, D->getDecl()->getName().str()}));
            Rectangular = false;
          }
      M.Domain = Triangle;
      M.Strict = Strict;
      if (!Rectangular)
        break;
      if (K > 0 && (L.Lower.empty() || L.Upper.empty()))
        break;
      if (L.Lower.empty() || L.Upper.empty())
        return refuse(refusal(&Reporter::migrateNotCanonical, F->getBeginLoc(),
                              {"the loop's bounds are written inside a macro"}));
      Outer.push_back(L.Var);
      M.Levels.push_back(std::move(L));
      M.Body = F->getBody();
      const ForStmt *Next = perfectlyNested(F->getBody());
      if (K + 1 < Required && !Next)
        return refuse(refusal(&Reporter::migrateConstruct, F->getBody()->getBeginLoc(),
                              {C.Construct, "asks for " + std::to_string(Depth) +
                                                " nested loops, and these are not perfectly nested"}));
      F = Next;
    }
    // Inner directives on the levels (`acc loop vector`) go with the nest.
    for (size_t K = 1; K < M.Levels.size(); ++K)
      for (const PragmaLine &P : U.Pragmas)
        if (P.On == M.Levels[K].For)
          M.InnerPragmas.push_back(SourceRange(P.Loc, P.Loc));
    return true;
  }

  bool scan() {
    Facts = scanBody(M.Body, {}, Ctx, U.Arrays.offsetPointers(), &U.Arrays.memberVars());
    for (const LoopLevel &L : M.Levels)
      LevelVars.insert(L.Var);
    Locals = declaredIn(M.Body);
    const std::set<const VarDecl *> Assigned = assignedIn(M.Body, Ctx);
    for (const auto &[V, Init] : Locals)
      if (Init && !Assigned.count(V) && V->getType()->isIntegerType())
        Inline[V] = Init;
      else
        Varying.insert(V);
    for (const VarRef &R : Facts.Refs)
      if (R.Mode.Write)
        Varying.insert(R.Var);
    // Directives inside the body: loop ones go with it, others stop it.
    std::optional<Span> Body = spanOf(M.Body->getSourceRange(), Ctx);
    if (Body)
      for (const PragmaLine &P : U.Pragmas) {
        if (P.Begin < Body->Begin || P.Begin >= Body->End)
          continue;
        if (P.D.Kind == DirectiveKind::Loop && !P.D.has("ordered")) {
          M.InnerPragmas.push_back(SourceRange(P.Loc, P.Loc));
          continue;
        }
        // An atomic or critical update of variables of the enclosing
        // scope is the reduction they make (guardedUpdates() checks each
        // variable becomes one, or goes with one); an element's is not.
        const std::vector<const Expr *> Targets = guardedPlaces(P);
        // An atomic update of an element (a histogram's bin) is
        // dp::atomic_add's, dp::atomic_max's, ... (arrays() checks the
        // loop touches the array nowhere else, with one operator).
        const Expr *Place = Targets.size() == 1 ? Targets[0] : nullptr;
        if (Place && (isa<ArraySubscriptExpr>(Place) || isa<CXXOperatorCallExpr>(Place))) {
          std::variant<AtomicUpdate, std::string> Update = atomicUpdateOf(P, Place);
          if (const std::string *Why = std::get_if<std::string>(&Update))
            return refuse(refusal(&Reporter::migrateConstruct, P.Loc,
                                  {P.D.construct(), "updates '" + shownText(Place, Ctx) +
                                                        "', an element other iterations may update too, " +
                                                        *Why}));
          M.AtomicUpdates.push_back(std::get<AtomicUpdate>(Update));
          M.InnerPragmas.push_back(SourceRange(P.Loc, P.Loc));
          continue;
        }
        std::vector<const VarDecl *> Vars;
        for (const Expr *Target : Targets) {
          const auto *Ref = dyn_cast<DeclRefExpr>(Target);
          const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
          if (V && !Locals.count(V) && !V->getType()->isPointerType()) {
            Vars.push_back(V);
            continue;
          }
          if (isa<ArraySubscriptExpr>(Target) || isa<CXXOperatorCallExpr>(Target) || isa<UnaryOperator>(Target))
            return refuse(refusal(&Reporter::migrateConstruct, P.Loc,
                                  {P.D.construct(), "updates '" + shownText(Target, Ctx) +
                                                        "', an element other iterations may update too" +
                                                        (Targets.size() > 1 ? ", beside other updates" : "") +
                                                        ": dp's atomic updates (dp::atomic_add, ...) update "
                                                        "one array element"}));
        }
        if (Targets.empty() || Vars.size() != Targets.size())
          return refuse(refusal(&Reporter::migrateConstruct, P.Loc,
                                {P.D.construct(), "inside the loop has no counterpart in a dp kernel"}));
        for (const VarDecl *V : Vars)
          Guarded.push_back({&P, V});
        M.InnerPragmas.push_back(SourceRange(P.Loc, P.Loc));
      }
    return true;
  }

  /// Whether D is an OpenMP critical section (named or not).
  static bool critical(const Directive &D) {
    // `critical(name)`: the name's parentheses make it a clause.
    return D.Model == PragmaModel::OpenMP &&
           (D.has("critical") ||
            (D.Words.empty() && !D.Clauses.empty() && D.Clauses.front().Name == "critical"));
  }
  /// The statement S stands for inside blocks of one statement (a block of
  /// several, or S, when there is none).
  static const Stmt *unwrapped(const Stmt *S) {
    while (const auto *Block = dyn_cast_or_null<CompoundStmt>(S)) {
      if (Block->size() != 1)
        return S;
      S = Block->body_front();
    }
    return S;
  }

  /// The atomic update an `atomic` directive or a critical section makes
  /// of the element Place: an addition (`a[k]++`, `--a[k]`, `a[k] += e`,
  /// `a[k] -= e`), a product, a minimum or maximum (`if (e > a[k]) a[k] =
  /// e`, `a[k] = fmax(a[k], e)`) or a bitwise and, or, xor, of 32- or
  /// 64-bit values, the ones dp's atomic updates take. For other updates,
  /// why none of them can stand for it.
  std::variant<AtomicUpdate, std::string> atomicUpdateOf(const PragmaLine &P, const Expr *Place) const {
    const QualType T = Place->getType();
    if (!T->isArithmeticType() || T->isBooleanType() || T.isVolatileQualified() ||
        (Ctx.getTypeSize(T) != 32 && Ctx.getTypeSize(T) != 64))
      return "of type '" + T.getAsString(Ctx.getPrintingPolicy()) +
             "': dp's atomic updates take 32- and 64-bit values";
    const Stmt *U = unwrapped(P.On);
    // Its text is edited (dp::atomic_add(...)): not inside a macro.
    if (U && (U->getBeginLoc().isMacroID() || U->getEndLoc().isMacroID()))
      return std::string("written inside a macro, whose text dpstub cannot make a call to dp's atomic updates "
                         "(dp::atomic_add, ...); write the update out");
    std::optional<ElementUpdate> E = U ? recogniseElementUpdate(U, Place, Ctx) : std::nullopt;
    // Under a condition, only the maximum or minimum the condition makes.
    if (!E || !*atomicName(E->Op) || (isa<IfStmt>(U) && E->Compares != U)) {
      if (isa_and_nonnull<IfStmt>(U))
        return std::string("under a condition other than a maximum's or minimum's "
                           "(`if (v > m[k]) m[k] = v;`); test it before the update");
      return std::string("by an operation no dp atomic update makes (they add, multiply, take a minimum or "
                         "maximum, or and, or, xor bits)");
    }
    if (T->isFloatingType() &&
        (E->Op == ReductionOp::BitAnd || E->Op == ReductionOp::BitOr || E->Op == ReductionOp::BitXor))
      return "of type '" + T.getAsString(Ctx.getPrintingPolicy()) + "': dp's bitwise atomic updates take integers";
    AtomicUpdate A;
    A.Update = U;
    A.Place = Place;
    A.Value = E->Value;
    A.Negated = E->Negated;
    A.Op = E->Op;
    A.Mentions = std::move(E->Mentions);
    A.Construct = P.D.construct();
    return A;
  }

  /// What an `omp atomic` / `acc atomic` (an update: no read, write or
  /// capture) or an `omp critical` guards, when that is one update of one
  /// place (`s += e`, `s++`, `s = s * e`, `if (e > s) s = e`), or in a
  /// critical section an arg max's assignments (`if (e > s) { s = e; k =
  /// i; }`): the places updated; else none.
  std::vector<const Expr *> guardedPlaces(const PragmaLine &P) const {
    const Directive &D = P.D;
    const bool Critical = critical(D);
    if (!D.has("atomic") && !Critical)
      return {};
    for (const std::string &W : D.Words)
      if (W != "atomic" && W != "update" && W != "critical")
        return {};
    // OpenMP 5.1's `atomic compare` makes a minimum or maximum (`if (e >
    // s) { s = e; }`, `s = e > s ? e : s`).
    bool Compare = false;
    for (const Clause &Cl : D.Clauses) {
      Compare |= Cl.Name == "compare";
      if (Cl.Name != "critical" && Cl.Name != "hint" && Cl.Name != "seq_cst" && Cl.Name != "relaxed" &&
          Cl.Name != "acq_rel" && Cl.Name != "release" && Cl.Name != "acquire" && Cl.Name != "," &&
          Cl.Name != "compare")
        return {}; // read, write, capture: not a reduction's update
    }
    const Stmt *S = unwrapped(P.On);
    // `if (e > s) s = e`, `if (e > s) { s = e; k = i; }`: the reduction
    // recognisers decide the operator.
    std::vector<const Stmt *> Updates{S};
    if (const auto *If = dyn_cast_or_null<IfStmt>(S);
        If && (Critical || Compare) && !If->getElse() && !If->getInit()) {
      S = unwrapped(If->getThen());
      Updates = {S};
      if (const auto *Block = dyn_cast_or_null<CompoundStmt>(S))
        Updates.assign(Block->body_begin(), Block->body_end());
    }
    std::vector<const Expr *> Places;
    for (const Stmt *U : Updates) {
      const auto *E = dyn_cast_or_null<Expr>(U);
      E = E ? E->IgnoreParens() : nullptr;
      if (const auto *B = dyn_cast_or_null<BinaryOperator>(E); B && B->isAssignmentOp())
        Places.push_back(B->getLHS()->IgnoreParenImpCasts());
      else if (const auto *Un = dyn_cast_or_null<UnaryOperator>(E); Un && Un->isIncrementDecrementOp())
        Places.push_back(Un->getSubExpr()->IgnoreParenImpCasts());
      else
        return {};
    }
    return Places;
  }

  /// Each variable an atomic or critical update guards became a reduction.
  bool guardedUpdates() {
    for (const auto &[P, V] : Guarded) {
      bool Reduced = false;
      for (const Reduction &R : M.Reductions)
        Reduced |= R.Var == V || std::count(R.Companions.begin(), R.Companions.end(), V);
      if (!Reduced)
        return refuse(notOnlyReduced(*P, V));
    }
    return true;
  }
  /// The atomic or critical update of V in the body, or null.
  const PragmaLine *guardOf(const VarDecl *V) const {
    for (const auto &[P, Of] : Guarded)
      if (Of == V)
        return P;
    return nullptr;
  }
  Refusal notOnlyReduced(const PragmaLine &P, const VarDecl *V) const {
    std::string Together;
    for (const auto &[Q, Of] : Guarded)
      if (Q == &P)
        Together += (Together.empty() ? "'" : "', '") + Of->getName().str();
    if (Together != "'" + V->getName().str())
      return refusal(&Reporter::migrateConstruct, P.Loc,
                     {P.D.construct(), "updates " + Together + "' together: of several updates in one critical "
                                       "section only an arg max's (a value, and the variables set where it "
                                       "changes) has a counterpart in a dp kernel"});
    return refusal(&Reporter::migrateConstruct, P.Loc,
                   {P.D.construct(), "updates '" + V->getName().str() +
                                         "', which the loop also uses otherwise: only a reduction's update has "
                                         "a counterpart in a dp kernel"});
  }

  bool controlAndCalls() {
    for (const Stmt *S : Facts.Exits) {
      const char *What = isa<BreakStmt>(S)    ? "break"
                         : isa<ReturnStmt>(S) ? "return"
                         : isa<GotoStmt>(S)   ? "goto"
                         : isa<CXXTryStmt>(S) ? "try"
                                              : "throw";
      return refuse(refusal(&Reporter::migrateEarlyExit, S->getBeginLoc(), {What}));
    }
    M.ContinuesEarly = Facts.ContinuesLoop;
    if (Facts.ThisUse)
      return refuse(refusal(&Reporter::migrateVariable, Facts.ThisUse->getBeginLoc(),
                            {"this", "is used in the loop (a member of the object), and a kernel "
                                     "cannot reach the object in host memory; copy the members "
                                     "into local variables first"}));
    for (const VarDecl *V : Facts.StaticLocals)
      return refuse(refusal(&Reporter::migrateVariable, V->getLocation(),
                            {V->getName().str(), "is a static local, shared by every iteration"}));
    // OpenMP's threadprivate: each thread its own copy (NPB EP's `x`,
    // given to its threads by `copyin(x)`), which neither one kernel
    // parameter nor one dp::field stands for.
    auto ThreadPrivate = [&](const VarDecl *V, SourceLocation At) {
      const std::optional<unsigned> Line = V ? threadprivateLine(V) : std::nullopt;
      if (Line)
        refuse(refusal(&Reporter::migrateVariable, At,
                       {V->getName().str(), "is threadprivate (line " + std::to_string(*Line) +
                                                "): each thread holds a copy of its own, which a kernel cannot reach"}));
      return Line.has_value();
    };
    // (A threadprivate array the loop writes the kernel may hold as its
    // own, if each iteration writes it first: privateArrays() judges.)
    auto OwnCandidate = [&](const VarDecl *V) { return V->getType()->isArrayType() && mayWrite(V); };
    for (const VarRef &R : Facts.Refs)
      if (!OwnCandidate(R.Var) && ThreadPrivate(R.Var, R.Ref->getExprLoc()))
        return false;
    for (const ElementAccess &A : Facts.Accesses)
      if (!OwnCandidate(A.Array) && ThreadPrivate(A.Array, A.Whole->getBeginLoc()))
        return false;
    if (Facts.OpaqueAccess)
      return refuse(refusal(&Reporter::migrateArray, Facts.OpaqueAccess->getBeginLoc(),
                            {shownText(Facts.OpaqueAccess, Ctx),
                             opaqueArrayReason(Facts.OpaqueAccess, C.Loop, Ctx.getSourceManager())}));
    const SourceManager &SM = Ctx.getSourceManager();
    for (const CallExpr *Call : Facts.Calls) {
      const FunctionDecl *FD = Call->getDirectCallee();
      const std::string Name = FD ? FD->getNameAsString() : textOf(Call->getCallee(), Ctx);
      if (!FD)
        return refuse(refusal(&Reporter::migrateCall, Call->getBeginLoc(),
                              {Name, Call->getCallee()->isTypeDependent() || Call->isTypeDependent()
                                         ? "whose function depends on the template's parameters: dpstub "
                                           "reads the template, not its instances"
                                         : "through a pointer dpstub cannot follow"}));
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
        // v.size() on an array the kernel receives is a field's size().
        if (MD->getName() == "size" && MD->isConst())
          continue;
        if (MD->isVirtual())
          return refuse(refusal(&Reporter::migrateCall, Call->getBeginLoc(),
                                {Name, "a virtual function"}));
        // The kernel holds a copy of an object the loop does not declare
        // (its lambda's, which is const): only const members apply.
        // (A library's containers have their own reasons, below.)
        if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
            Member && !MD->isConst() && !MD->isStatic() && !isLibraryDecl(FD, SM) &&
            !SM.isInSystemHeader(FD->getLocation()))
          if (const auto *Obj = dyn_cast_or_null<DeclRefExpr>(
                  Member->getImplicitObjectArgument() ? Member->getImplicitObjectArgument()->IgnoreParenImpCasts()
                                                      : nullptr))
            if (const auto *V = dyn_cast<VarDecl>(Obj->getDecl()); V && !Locals.count(V))
              return refuse(refusal(&Reporter::migrateCall, Call->getBeginLoc(),
                                    {Name, "not a const member function, on '" + V->getName().str() +
                                               "', of which each iteration of a kernel holds a copy it cannot "
                                               "change (a change would be a race between iterations); make '" +
                                               Name + "' const if it changes nothing"}));
      }
      const bool Library = isLibraryDecl(FD, SM) || SM.isInSystemHeader(FD->getLocation());
      if (std::string Why = Library ? containerMemberReason(Call, Ctx) : std::string(); !Why.empty())
        return refuse(refusal(&Reporter::migrateArray, Call->getBeginLoc(), {shownText(Call, Ctx), Why}));
      if (Library) {
        if (FD->getIdentifier() && isMathFunction(FD->getName()))
          continue;
        return refuse(refusal(&Reporter::migrateCall, Call->getBeginLoc(),
                              {Name, "a library function with no device version"}));
      }
      const FunctionDecl *Def = nullptr;
      if (!FD->hasBody(Def)) {
        // Declared for the device (`acc routine`, `omp declare target`): the
        // user asserts what dpstub cannot see, as to their compiler.
        if (U.Device.declared(FD))
          continue;
        return refuse(refusal(&Reporter::migrateCall, Call->getBeginLoc(),
                              {Name, "which is defined in another file and not declared for "
                                     "the device (`#pragma acc routine` or `omp declare target` "
                                     "at its declaration)"}));
      }
      // What it reads from namespace scope, it will take as parameters.
      std::string Why;
      std::optional<std::vector<const VarDecl *>> Reads = U.Helpers.readBy(FD, Why);
      if (!Reads)
        return refuse(refusal(&Reporter::migrateCall, Call->getBeginLoc(), {Name, "which " + Why}));
      if (!Reads->empty()) {
        M.Helpers.insert(FD->getCanonicalDecl());
        M.HelperCalls.push_back(Call);
        HelperReads.insert(Reads->begin(), Reads->end());
      }
      if (!C.Asserted && mayWriteOutside(FD, Ctx, 0))
        return refuse(refusal(&Reporter::migrateCall, Call->getBeginLoc(),
                              {Name, "which may write outside its own variables, so dpstub cannot "
                                     "prove the iterations independent"}));
    }
    return true;
  }

  /// Structs each iteration makes afresh: a plain struct (C's, or
  /// trivially made and copied) declared outside the loop and used in it
  /// only through members reached by `.` (`d.x`), which a private or
  /// firstprivate clause names or, without one, whose every member an
  /// iteration reads it writes first, the struct dead after the loop.
  /// The kernel declares each (takes a firstprivate one by value), its
  /// members used as written (PrivateRecords). False when refused: a
  /// private struct an iteration reads a member of before writing it
  /// holds what the thread's previous iteration left, which a kernel's
  /// iteration does not have.
  bool privateRecords() {
    const MemberVars &Members = U.Arrays.memberVars();
    std::vector<const VarDecl *> Roots;
    std::set<const VarDecl *> Other; // used whole, through `->`, or indexed through
    /// Each root's member uses in order, with their paths (".x", as
    /// membersReadBeforeWritten's: as written but for blanks).
    std::map<const VarDecl *, std::vector<std::pair<std::string, const VarRef *>>> Uses;
    for (const VarRef &R : Facts.Refs) {
      const VarDecl *Root = Members.rootOf(R.Var);
      if (!Root) {
        Other.insert(R.Var);
        continue;
      }
      const StringRef Path = R.Var->getName();
      if (Path.contains("->") || !Path.starts_with(Root->getName()))
        Other.insert(Root);
      std::string Member;
      for (char Ch : Path.substr(Root->getName().size()))
        if (!std::isspace(static_cast<unsigned char>(Ch)))
          Member += Ch;
      if (!Uses.count(Root))
        Roots.push_back(Root);
      Uses[Root].push_back({Member, &R});
    }
    for (const ElementAccess &A : Facts.Accesses)
      if (const VarDecl *Root = Members.rootOf(A.Array))
        Other.insert(Root);
    for (const VarDecl *Root : Roots) {
      if (Other.count(Root) || !Root->hasLocalStorage() || Root->getType()->isReferenceType() ||
          !plainRecord(Root->getType()))
        continue;
      const bool Private = clauseNaming(Root, "private"), FirstPrivate = clauseNaming(Root, "firstprivate");
      // A member an iteration reads before writing it: garbage in a
      // private struct; in a firstprivate one its value from outside,
      // unless the loop writes it too (then the thread's previous
      // iteration's).
      const std::set<std::string> Exposed = membersReadBeforeWritten(M.Body, Root);
      const VarRef *Carried = nullptr;
      for (const auto &[Member, R] : Uses[Root]) {
        bool Written = false;
        for (const auto &[Path, W] : Uses[Root])
          Written |= W->Mode.Write && overlaps(Member, Path);
        for (const std::string &E : Exposed)
          if (!Carried && !(R->Mode.Write && !R->Mode.Read) && overlaps(E, Member) && (!FirstPrivate || Written))
            Carried = R;
      }
      if ((Private || FirstPrivate) && Carried)
        return refuse(refusal(&Reporter::migrateCarried, Carried->Ref->getExprLoc(), {shownText(Carried->Ref, Ctx)}));
      if (!Private && !FirstPrivate && (!Exposed.empty() || liveAfter(C.Loop, Root, Ctx)))
        continue; // shared by the iterations: its members' own verdicts
      PrivateRecords.insert(Root);
      M.Scalars.push_back({Root, FirstPrivate ? ScalarRole::FirstPrivate : ScalarRole::Private});
    }
    return true;
  }
  /// True when one of two member paths (".x", ".x.y", "" for the whole)
  /// holds the other.
  static bool overlaps(const std::string &A, const std::string &B) {
    const std::string &Short = A.size() < B.size() ? A : B, &Long = A.size() < B.size() ? B : A;
    return Long.compare(0, Short.size(), Short) == 0 && (Long.size() == Short.size() || Long[Short.size()] == '.');
  }
  /// A struct a kernel can declare and copy as C does.
  bool plainRecord(QualType T) const {
    T = T.getCanonicalType();
    if (!T->isRecordType() || T.isConstQualified() || T.isVolatileQualified() || !T.isTriviallyCopyableType(Ctx))
      return false;
    const CXXRecordDecl *R = T->getAsCXXRecordDecl();
    return !R || R->hasTrivialDefaultConstructor();
  }

  /// Whether the threads running the loop under its OpenMP directive
  /// share V, declared outside the loop and named by none of its
  /// clauses: a construct that makes its own team or SIMD lanes
  /// (`parallel`, `simd`, `teams`) shares it; a bare `omp for` shares
  /// what the `parallel` region around it shares (V declared before the
  /// region, and no clause of the region's naming it). An orphaned `omp
  /// for`, its region in a caller (a team function's, TeamFunctions.h):
  /// the threads share what has static storage; the function's locals
  /// are each thread's.
  bool teamShares(const VarDecl *V) const {
    const std::string &K = M.Construct;
    if (K.find("parallel") != std::string::npos || K.find("simd") != std::string::npos ||
        K.find("teams") != std::string::npos)
      return true;
    const std::optional<Span> Loop = spanOf(C.Loop->getSourceRange(), Ctx);
    const std::optional<Span> Decl = spanOf(V->getSourceRange(), Ctx);
    const PragmaLine *Around = nullptr;
    std::optional<Span> AroundSpan;
    for (const PragmaLine &P : U.Pragmas)
      if (Loop && P.On && P.D.Kind == DirectiveKind::Region && P.D.Model == PragmaModel::OpenMP)
        if (std::optional<Span> S = spanOf(P.On->getSourceRange(), Ctx);
            S && S->Begin <= Loop->Begin && Loop->End <= S->End && (!AroundSpan || AroundSpan->Begin <= S->Begin)) {
          Around = &P;
          AroundSpan = S;
        }
    if (!Around)
      return V->hasGlobalStorage();
    // (Declared in a header: outside the region.)
    if (Decl ? AroundSpan->Begin <= Decl->Begin && Decl->End <= AroundSpan->End : !V->hasGlobalStorage())
      return false;
    for (const char *Name : {"private", "firstprivate", "lastprivate", "reduction"})
      if (clauseNaming(Around->D, V, Name))
        return false;
    return true;
  }

  /// The OpenACC `parallel` construct under which each gang holds a
  /// copy of V, a scalar declared outside it that no clause of it, of the
  /// loop's directive or of a data region around names: the construct
  /// makes such a scalar firstprivate (OpenACC 3.3, 2.5.1), so what the
  /// loop writes to it is lost after it. None otherwise.
  std::optional<std::string> gangsCopy(const VarDecl *V) const {
    const std::optional<Span> Loop = spanOf(C.Loop->getSourceRange(), Ctx);
    const std::optional<Span> Decl = spanOf(V->getSourceRange(), Ctx);
    if (!Loop || !Decl || !M.Pragma)
      return std::nullopt;
    auto Names = [&](const Directive &D) { return clauseNaming(D, V, nullptr) != nullptr; };
    if (Names(*M.Pragma))
      return std::nullopt;
    std::optional<std::string> Construct;
    if (M.Pragma->has("parallel"))
      Construct = M.Pragma->construct();
    for (const PragmaLine &P : U.Pragmas) {
      std::optional<Span> S = P.On ? spanOf(P.On->getSourceRange(), Ctx) : std::nullopt;
      if (P.D.Model != PragmaModel::OpenACC || !S || S->Begin > Loop->Begin || Loop->End > S->End ||
          (P.D.Kind != DirectiveKind::Region && P.D.Kind != DirectiveKind::Data))
        continue;
      if (Names(P.D))
        return std::nullopt;
      if (P.D.Kind == DirectiveKind::Region && P.D.has("parallel") && !Construct &&
          !(S->Begin <= Decl->Begin && Decl->End <= S->End))
        Construct = P.D.construct();
    }
    return Construct;
  }

  /// The line of an `omp threadprivate` directive naming V, a variable of
  /// static storage, if one does.
  std::optional<unsigned> threadprivateLine(const VarDecl *V) const {
    if (!V || !V->hasGlobalStorage())
      return std::nullopt;
    // (`threadprivate(x)`: its parentheses make it a clause of the directive.)
    for (const PragmaLine &P : U.Pragmas)
      if (P.D.Model == PragmaModel::OpenMP && clauseNaming(P.D, V, "threadprivate"))
        return Ctx.getSourceManager().getPresumedLineNumber(P.Loc);
    // A header's, naming a variable of that header.
    const SourceManager &SM = Ctx.getSourceManager();
    for (const PragmaLine &P : U.HeaderThreadprivate)
      if (clauseNaming(P.D, V, "threadprivate") &&
          SM.getFileID(P.Loc) == SM.getFileID(SM.getFileLoc(V->getLocation())))
        return SM.getPresumedLineNumber(P.Loc);
    return std::nullopt;
  }

  /// Whether a directive other than a loop's, region's or data's (an
  /// `atomic`, a `critical`) stands in the loop.
  bool guardedWithin() const {
    const std::optional<Span> Loop = spanOf(C.Loop->getSourceRange(), Ctx);
    for (const PragmaLine &P : U.Pragmas)
      if (Loop && P.D.Kind == DirectiveKind::Other && Loop->Begin <= P.Begin && P.Begin < Loop->End)
        return true;
    return false;
  }

  /// The clause of this loop's directive naming V, if any.
  const Clause *clauseNaming(const VarDecl *V, const char *Name) const {
    return M.Pragma ? clauseNaming(*M.Pragma, V, Name) : nullptr;
  }
  /// D's (any clause of D's, with Name null).
  static const Clause *clauseNaming(const Directive &D, const VarDecl *V, const char *Name) {
    for (const Clause &Cl : D.Clauses)
      if (!Name || Cl.Name == Name)
        for (const std::string &N : clauseVariables(Cl.Args))
          if (N == V->getName())
            return &Cl;
    return nullptr;
  }

  /// Whether V, a plain loop's C array of the function's own, is scratch
  /// each iteration fills before it reads it (`double v[3]; ... v[0] =
  /// a[i]; v[1] = ...; b[i] = v[0] * v[1];`), so that it can be each
  /// iteration's own, as a `private` clause would make it: used nowhere
  /// in the function outside the loop (its last values are not read
  /// after), in the loop only by elements at full rank with constant
  /// subscripts, and every element a statement of the body reads written
  /// by an earlier statement, surely (an expression statement or
  /// declaration, not under a condition). Otherwise its accesses are the
  /// dependence test's, which says why the loop must run in order.
  bool scratchArray(const VarDecl *V) const {
    const ArrayVar *Info = U.Arrays.find(V);
    if (!Info || Info->K != ArrayVar::Kind::CArray || Info->Rows || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
        !V->getType()->isConstantArrayType() || !plainElement(Info->Element) ||
        Info->Element.isConstQualified())
      return false;
    for (const VarRef &R : Facts.Refs)
      if (R.Var == V)
        return false;
    const std::optional<Span> Loop = spanOf(C.Loop->getSourceRange(), Ctx);
    const auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
    if (!Loop || !F || !F->getBody())
      return false;
    const SourceManager &SM = Ctx.getSourceManager();
    for (const DeclRefExpr *R : namesIn(F->getBody()))
      if (R->getDecl() == V) {
        const unsigned At = SM.getFileOffset(SM.getFileLoc(R->getLocation()));
        if (At < Loop->Begin || At >= Loop->End)
          return false;
      }
    // The body's statements in order, and each access's element.
    std::vector<const Stmt *> Statements;
    if (const auto *Block = dyn_cast<CompoundStmt>(M.Body))
      Statements.assign(Block->body_begin(), Block->body_end());
    else
      Statements.push_back(M.Body);
    std::set<std::vector<std::int64_t>> Written;
    bool Whole = false; // every element written (a fill loop)
    for (const Stmt *St : Statements) {
      const std::optional<Span> In = spanOf(St->getSourceRange(), Ctx);
      if (!In)
        return false;
      // Each access of the statement: its element when its subscripts are
      // constants, none when they vary.
      std::vector<std::pair<std::optional<std::vector<std::int64_t>>, const ElementAccess *>> Here;
      for (const ElementAccess &A : Facts.Accesses) {
        if (A.Array != V)
          continue;
        const std::optional<Span> At = spanOf(A.Whole->getSourceRange(), Ctx);
        if (!At)
          return false;
        if (At->Begin < In->Begin || At->End > In->End)
          continue;
        if (static_cast<int>(A.Indices.size()) != Info->Rank || A.Through || A.Part || A.Mode.Address ||
            atomicallyUpdated(A.Whole))
          return false;
        std::optional<std::vector<std::int64_t>> Element(std::in_place);
        for (const Expr *I : A.Indices) {
          Expr::EvalResult R;
          if (I->isValueDependent() || !I->EvaluateAsInt(R, Ctx) || R.Val.getInt().getSignificantBits() > 64) {
            Element.reset();
            break;
          }
          Element->push_back(R.Val.getInt().getExtValue());
        }
        Here.push_back({std::move(Element), &A});
      }
      // A statement's reads come before its writes (`v[0] = v[0] + 1`);
      // a varying subscript reads an element of a filled array only.
      for (const auto &[Element, A] : Here)
        if (A->Mode.Read && !Whole && (!Element || !Written.count(*Element)))
          return false;
      const bool Sure = isa<Expr>(St) || isa<DeclStmt>(St);
      for (const auto &[Element, A] : Here)
        if (A->Mode.Write && Sure && !A->Conditional && Element)
          Written.insert(*Element);
      Whole |= fills(St, V, *Info);
    }
    return true;
  }

  /// Whether St is a loop writing every element of V, a rank-1 C array
  /// of constant extent: `for (int k = 0; k < 3; ++k) v[k] = ...;`, the
  /// loop's variable from 0 to the extent by 1, the write `v[k] = ...`
  /// one of the statements its body runs in order.
  bool fills(const Stmt *St, const VarDecl *V, const ArrayVar &Info) const {
    const auto *For = dyn_cast<ForStmt>(St);
    const auto *Type = dyn_cast<ConstantArrayType>(Ctx.getAsArrayType(V->getType()));
    if (!For || Info.Rank != 1 || !Type)
      return false;
    const std::variant<LoopLevel, std::string> Level = canonicalLevel(For, Ctx);
    const LoopLevel *L = std::get_if<LoopLevel>(&Level);
    Expr::EvalResult R;
    if (!L || !unitStep(*L) || !L->LowerExpr || !L->LowerExpr->EvaluateAsInt(R, Ctx))
      return false;
    const std::int64_t First = R.Val.getInt().getExtValue();
    if (!L->UpperExpr || !L->UpperExpr->EvaluateAsInt(R, Ctx) ||
        (L->Cmp != Comparison::Less && L->Cmp != Comparison::LessEqual))
      return false;
    const std::int64_t End = R.Val.getInt().getExtValue() + (L->Cmp == Comparison::LessEqual ? 1 : 0);
    if (First != 0 || End != static_cast<std::int64_t>(Type->getSize().getZExtValue()))
      return false;
    // Every pass reaches the write: nothing in the loop leaves a pass.
    const std::function<bool(const Stmt *)> Leaves = [&](const Stmt *X) {
      if (!X)
        return false;
      if (isa<BreakStmt>(X) || isa<ContinueStmt>(X) || isa<ReturnStmt>(X) || isa<GotoStmt>(X) ||
          isa<CXXThrowExpr>(X))
        return true;
      return std::any_of(X->child_begin(), X->child_end(), Leaves);
    };
    if (Leaves(For->getBody()))
      return false;
    std::vector<const Stmt *> Body;
    if (const auto *Block = dyn_cast<CompoundStmt>(For->getBody()))
      Body.assign(Block->body_begin(), Block->body_end());
    else
      Body.push_back(For->getBody());
    for (const Stmt *B : Body) {
      const auto *Assign = dyn_cast<BinaryOperator>(B);
      if (!Assign || Assign->getOpcode() != BO_Assign)
        continue;
      const auto *Sub = dyn_cast<ArraySubscriptExpr>(Assign->getLHS()->IgnoreParens());
      const auto *Base = Sub ? dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts()) : nullptr;
      const auto *Index = Sub ? dyn_cast<DeclRefExpr>(Sub->getIdx()->IgnoreParenImpCasts()) : nullptr;
      if (Base && Base->getDecl() == V && Index && Index->getDecl() == L->Var)
        return true;
    }
    return false;
  }

  /// How each thread of the original holds V, a C array the loop uses
  /// from outside it, when each holds a copy of its own: the directive's
  /// `private` clause names it; it is declared in the `omp parallel`
  /// region around an `omp for` (or the region's `private` clause names
  /// it, or the loop is orphaned and V is a local of the function the
  /// team runs); it is threadprivate. Empty when the threads share it.
  std::string threadsOwn(const VarDecl *V) const {
    if (clauseNaming(V, "private"))
      return "is named private";
    if (!M.Pragma || M.Pragma->Model != PragmaModel::OpenMP || !V->getType()->isConstantArrayType())
      return "";
    if (std::optional<unsigned> Line = threadprivateLine(V)) {
      const SourceManager &SM = Ctx.getSourceManager();
      const SourceLocation Decl = SM.getFileLoc(V->getLocation());
      const std::string File = SM.isWrittenInMainFile(Decl) ? "" : llvm::sys::path::filename(SM.getFilename(Decl)).str();
      return "is threadprivate (" + (File.empty() ? "" : File + ", ") + "line " + std::to_string(*Line) + ")";
    }
    if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && !teamShares(V) && !clauseNaming(V, "firstprivate") &&
        !clauseNaming(V, "lastprivate") && !clauseNaming(V, "reduction"))
      return "is each thread's own in the original (declared in its 'omp parallel' region, or a local of "
             "the function its team runs)";
    return "";
  }

  /// The C arrays each iteration owns: those the directive's `private`
  /// clause names (miniWeather's `private(stencil, vals)`), and those
  /// each thread of the original holds a copy of (threadsOwn: NPB BT's
  /// `dtemp`, declared in its region, and its threadprivate `ue`). Each
  /// becomes the kernel's own, declared in it as written: neither a
  /// field nor the subject of dependences. An array is taken when it is
  /// the function's own (or threadprivate) with constant extents, of
  /// plain values, used in the loop by its elements at full rank or
  /// handed to a helper that only writes it (WriteOnlyParameters.h), and
  /// every use of it is in loops that make it each thread's own
  /// (elsewhere it could become a field, whose accesses the kernel's
  /// array would not take, or hold a value the loop reads); its first
  /// access must be a write that always happens (a private copy starts
  /// with what the thread's previous iteration left, which a kernel's
  /// iteration does not have). Another C array the clause names refuses
  /// the loop: as a field, it would be shared.
  bool privateArrays() {
    std::vector<std::pair<const VarDecl *, std::string>> Named;
    auto Name = [&](const VarDecl *V) {
      if (std::any_of(Named.begin(), Named.end(), [&](const auto &N) { return N.first == V; }))
        return;
      // (An array each thread holds that the loop only reads by its
      // elements, such as a table, is the others' to judge.)
      if (std::string How = threadsOwn(V); !How.empty() && (mayWrite(V) || clauseNaming(V, "private")))
        Named.emplace_back(V, std::move(How));
      else if (M.From == Origin::Plain && scratchArray(V))
        Named.emplace_back(V, "is named private");
    };
    for (const ElementAccess &A : Facts.Accesses)
      Name(A.Array);
    for (const VarRef &R : Facts.Refs)
      if (R.Var->getType()->isArrayType())
        Name(R.Var);
    for (const auto &[V, How] : Named) {
      if (!V->getType()->isArrayType())
        continue; // a pointer the clause names: the kernel's copy of the pointer
      int Rank = 0;
      QualType Element = V->getType();
      while (const ArrayType *T = Ctx.getAsArrayType(Element))
        ++Rank, Element = T->getElementType();
      // Its uses in the loop in source order: element accesses, and the
      // array handed whole to a helper.
      struct Use {
        SourceLocation At;
        const Expr *E;
        bool Handed, Write, Read, Conditional;
      };
      std::vector<Use> Uses;
      auto NotOwn = [&, How = How](SourceLocation At, const std::string &Why) {
        return refuse(refusal(&Reporter::migrateVariable, At, {V->getName().str(), How + ", " + Why}));
      };
      for (const VarRef &R : Facts.Refs)
        if (R.Var == V) {
          if (!writeOnlyParameterOf(R.Ref, Ctx))
            return NotOwn(R.Ref->getExprLoc(), "and the loop uses it whole ('" + shownText(R.Ref, Ctx) +
                                                   "'), where a kernel's own copy is used by its elements "
                                                   "or handed to a helper that only writes it");
          Uses.push_back({R.Ref->getBeginLoc(), R.Ref, true, true, false, R.Conditional});
        }
      for (const ElementAccess &A : Facts.Accesses) {
        if (A.Array != V)
          continue;
        if (!A.Through && !A.Part && writeOnlyParameterOf(A.Whole, Ctx)) {
          Uses.push_back({A.Whole->getBeginLoc(), A.Whole, true, true, false, A.Conditional});
          continue;
        }
        if (static_cast<int>(A.Indices.size()) != Rank || A.Through || A.Part || A.Mode.Address ||
            atomicallyUpdated(A.Whole))
          return NotOwn(A.Whole->getBeginLoc(), "and the loop uses '" + shownText(A.Part ? A.Part : A.Whole, Ctx) +
                                                    "', where a kernel's own copy is used by whole elements");
        Uses.push_back({A.Whole->getBeginLoc(), A.Whole, false, A.Mode.Write, A.Mode.Read, A.Conditional});
      }
      const SourceLocation DeclAt = Uses.front().At;
      if (!V->getType()->isConstantArrayType() || isa<ParmVarDecl>(V) ||
          !(V->hasLocalStorage() || threadprivateLine(V)))
        return NotOwn(DeclAt, "and a kernel declares its own copy only of a C array of "
                              "the function's own with constant extents");
      if (!plainElement(Element) || Element.isConstQualified())
        return NotOwn(DeclAt, "and a kernel declares its own copy only of an array of plain values it can write");
      if (const DeclRefExpr *Outside = M.From == Origin::Plain ? nullptr : usedOutsideOwn(V))
        return NotOwn(DeclAt, "and the program also uses it outside the loops that make it each iteration's "
                              "own (line " +
                                  std::to_string(Ctx.getSourceManager().getPresumedLineNumber(
                                      Ctx.getSourceManager().getFileLoc(Outside->getLocation()))) +
                                  "); declare it in the loop");
      const SourceManager &SM = Ctx.getSourceManager();
      const Use &First = *std::min_element(Uses.begin(), Uses.end(), [&](const Use &X, const Use &Y) {
        return SM.isBeforeInTranslationUnit(SM.getFileLoc(X.At), SM.getFileLoc(Y.At));
      });
      // Under a condition, the write must come first in a block that
      // holds every other use (NPB LU's `if (...) { exact(0, jglob, k,
      // ue_1jk); ... ue_1jk[m] ... }`).
      auto Within = [&](const Stmt *Block, const Stmt *After, const Use &X) {
        const SourceLocation L = SM.getFileLoc(X.At);
        return !SM.isBeforeInTranslationUnit(L, SM.getFileLoc(After->getEndLoc())) &&
               SM.isBeforeInTranslationUnit(L, SM.getFileLoc(Block->getEndLoc()));
      };
      const Stmt *Statement = nullptr;
      const Stmt *Block = First.Conditional ? blockAround(First.E, Statement) : nullptr;
      const bool Dominates =
          Block && std::all_of(Uses.begin(), Uses.end(),
                               [&](const Use &X) { return X.E == First.E || Within(Block, Statement, X); });
      if (!First.Write || First.Read || (First.Conditional && !Dominates))
        return refuse(refusal(&Reporter::migrateCarried, First.At, {shownText(First.E, Ctx)}));
      PrivateArrays.insert(V);
      ScalarUse Own{V, ScalarRole::Private};
      Own.Extents = kernelExtents(V);
      M.Scalars.push_back(std::move(Own));
      for (const Use &X : Uses)
        if (X.Handed)
          M.OwnArrayParameters.push_back(writeOnlyParameterOf(X.E, Ctx));
    }
    Facts.Accesses.erase(std::remove_if(Facts.Accesses.begin(), Facts.Accesses.end(),
                                        [&](const ElementAccess &A) { return PrivateArrays.count(A.Array) > 0; }),
                         Facts.Accesses.end());
    Facts.Refs.erase(std::remove_if(Facts.Refs.begin(), Facts.Refs.end(),
                                    [&](const VarRef &R) { return PrivateArrays.count(R.Var) > 0; }),
                     Facts.Refs.end());
    return true;
  }
  /// Whether every use of V, a variable of static storage, in the unit
  /// is in the loop of an OpenMP loop directive of the main file whose
  /// every iteration writes V before it reads it: a temporary no value
  /// of which outlives an iteration.
  bool onlyTemporary(const VarDecl *V) const {
    std::map<const Stmt *, bool> Judged;
    return !firstUseOutside(V, functionBodies(Ctx), [&](unsigned At) {
      bool Within = false;
      for (const PragmaLine &P : U.Pragmas) {
        const auto *Loop = dyn_cast_or_null<ForStmt>(P.On);
        const std::optional<Span> On = Loop ? spanOf(Loop->getBody()->getSourceRange(), Ctx) : std::nullopt;
        if (P.D.Model != PragmaModel::OpenMP || P.D.Kind != DirectiveKind::Loop || !On || At < On->Begin ||
            At >= On->End)
          continue;
        auto [It, New] = Judged.try_emplace(Loop, false);
        if (New)
          It->second = readBeforeWritten(Loop->getBody(), {V}).empty();
        Within |= It->second;
      }
      return Within;
    });
  }

  /// The first use of V in Bodies that is outside the main file, or at
  /// a file offset Inside does not accept; null when there is none.
  const DeclRefExpr *firstUseOutside(const VarDecl *V, const std::vector<const Stmt *> &Bodies,
                                     const std::function<bool(unsigned)> &Inside) const {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const Stmt *Body : Bodies)
      for (const DeclRefExpr *R : namesIn(Body)) {
        if (R->getDecl() != V)
          continue;
        const SourceLocation Loc = SM.getFileLoc(R->getLocation());
        if (!SM.isWrittenInMainFile(Loc) || !Inside(SM.getFileOffset(Loc)))
          return R;
      }
    return nullptr;
  }

  /// The block E's statement is a statement of, when E happens whenever
  /// that statement does (no condition or loop between them: an
  /// assignment or call statement); Statement is set to it.
  const CompoundStmt *blockAround(const Expr *E, const Stmt *&Statement) const {
    const Stmt *S = E;
    while (true) {
      const Stmt *P = parentOf(S, Ctx);
      if (!P)
        return nullptr;
      if (const auto *Block = dyn_cast<CompoundStmt>(P)) {
        Statement = S;
        return isa<Expr>(S) ? Block : nullptr;
      }
      const auto *B = dyn_cast<BinaryOperator>(P);
      if (!(isa<CallExpr>(P) || isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) ||
            (isa<UnaryOperator>(P) && cast<UnaryOperator>(P)->getOpcode() == UO_AddrOf) ||
            (B && B->getOpcode() == BO_Assign) || isa<ArraySubscriptExpr>(P)))
        return nullptr;
      S = P;
    }
  }

  /// Whether the loop may write the array V: an element, or V handed on.
  bool mayWrite(const VarDecl *V) const {
    return std::any_of(Facts.Accesses.begin(), Facts.Accesses.end(),
                       [&](const ElementAccess &A) { return A.Array == V && (A.Mode.Write || A.Mode.Address); }) ||
           std::any_of(Facts.Refs.begin(), Facts.Refs.end(), [&](const VarRef &R) { return R.Var == V; });
  }
  /// Whether the OpenMP loop directive P makes V each thread's own: its
  /// `private` clause names V, or P is an `omp for` (no team of its own)
  /// and V is threadprivate or declared outside P's loop in a region
  /// around it, or a local of an orphaned loop's function.
  bool ownUnder(const PragmaLine &P, const VarDecl *V) const {
    if (clauseNaming(P.D, V, "private"))
      return true;
    if (P.D.Model != PragmaModel::OpenMP || P.D.Kind != DirectiveKind::Loop || !P.On ||
        clauseNaming(P.D, V, "copyin"))
      return false;
    if (threadprivateLine(V))
      return true; // each thread's under any construct
    const std::string K = P.D.construct();
    if (K.find("parallel") != std::string::npos || K.find("simd") != std::string::npos ||
        K.find("teams") != std::string::npos)
      return false;
    for (const char *Name : {"firstprivate", "lastprivate", "reduction", "shared"})
      if (clauseNaming(P.D, V, Name))
        return false;
    // Declared outside the loop, inside the region around it, or no
    // region around it in the function (orphaned).
    const std::optional<Span> Loop = spanOf(P.On->getSourceRange(), Ctx);
    const std::optional<Span> Decl = spanOf(V->getSourceRange(), Ctx);
    if (!Loop || !Decl || (Loop->Begin <= Decl->Begin && Decl->End <= Loop->End))
      return false;
    for (const PragmaLine &R : U.Pragmas)
      if (R.On && R.D.Kind == DirectiveKind::Region && R.D.Model == PragmaModel::OpenMP)
        if (std::optional<Span> S = spanOf(R.On->getSourceRange(), Ctx);
            S && S->Begin <= Loop->Begin && Loop->End <= S->End)
          return (S->Begin <= Decl->Begin && Decl->End <= S->End) || clauseNaming(R.D, V, "private");
    return V->hasLocalStorage(); // orphaned: the function's locals are each thread's
  }
  /// The first use of the array V (in its function; anywhere in the
  /// unit for a threadprivate one) outside the loops whose directives
  /// make it each thread's own (ownUnder), if any.
  const DeclRefExpr *usedOutsideOwn(const VarDecl *V) const {
    std::vector<const Stmt *> Bodies;
    if (V->hasLocalStorage()) {
      const auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
      if (!F || !F->getBody())
        return nullptr;
      Bodies.push_back(F->getBody());
    } else {
      Bodies = functionBodies(Ctx);
    }
    return firstUseOutside(V, Bodies, [&](unsigned At) {
      return std::any_of(U.Pragmas.begin(), U.Pragmas.end(), [&](const PragmaLine &P) {
        const std::optional<Span> On = P.On ? spanOf(P.On->getSourceRange(), Ctx) : std::nullopt;
        return On && On->Begin <= At && At < On->End && ownUnder(P, V);
      });
    });
  }
  std::optional<ReductionOp> clauseReduction(const VarDecl *V) const {
    if (!M.Pragma)
      return std::nullopt;
    for (const Clause &Cl : M.Pragma->Clauses)
      if (Cl.Name == "reduction")
        if (std::optional<ReductionClause> R = parseReduction(Cl.Args))
          for (const std::string &N : R->Vars)
            if (N == V->getName())
              return clauseOperator(R->Op);
    return std::nullopt;
  }

  bool scalars() {
    // Clauses dpstub does not carry over (OpenMP's: OpenACC's copyin is
    // a data clause).
    if (M.Pragma && M.Pragma->Model == PragmaModel::OpenMP)
      for (const char *Name : {"lastprivate", "linear", "ordered", "copyin", "copyprivate"})
        if (const Clause *Cl = M.Pragma->clause(Name))
          return refuse(refusal(&Reporter::migrateConstruct, C.Pragma->Loc,
                                {Name + std::string(Cl->HasArgs ? "(" + Cl->Args + ")" : ""),
                                 "has no counterpart in a dp call-site"}));
    if (!privateRecords() || !privateArrays())
      return false;
    // A member of another object (`m->x`) takes its kernel name where it
    // is written: not inside a macro.
    const MemberVars &Members = U.Arrays.memberVars();
    const SourceManager &SM = Ctx.getSourceManager();
    for (const VarRef &R : Facts.Refs)
      if (Members.rootOf(R.Var) && !PrivateRecords.count(Members.rootOf(R.Var)) && R.Ref->getBeginLoc().isMacroID())
        return refuse(refusal(&Reporter::migrateVariable, SM.getExpansionLoc(R.Ref->getExprLoc()),
                              {R.Var->getName().str(), "is written inside a macro, where the kernel cannot "
                                                       "take it as a parameter"}));
    for (const ElementAccess &A : Facts.Accesses)
      if (Members.rootOf(A.Array) && A.Whole->getBeginLoc().isMacroID())
        return refuse(refusal(&Reporter::migrateArray, SM.getExpansionLoc(A.Whole->getBeginLoc()),
                              {A.Array->getName().str(), "it is indexed inside a macro, where the kernel "
                                                         "cannot take it as a parameter"}));
    // Every outside variable by first mention.
    std::vector<const VarDecl *> Order;
    for (const VarRef &R : Facts.Refs) {
      if (LevelVars.count(R.Var)) {
        if (R.Mode.Write)
          return refuse(refusal(&Reporter::migrateNotCanonical, R.Ref->getExprLoc(),
                                {"the loop changes its variable '" + R.Var->getName().str() + "' in its body"}));
        continue;
      }
      if (!ByVar.count(R.Var))
        Order.push_back(R.Var);
      ByVar[R.Var].push_back(&R);
    }
    for (const VarDecl *V : Order) {
      const std::vector<const VarRef *> &Refs = ByVar[V];
      if (PrivateRecords.count(Members.rootOf(V)) || Companions.count(V))
        continue; // a member of the kernel's own struct, as written; an arg max's index
      if (isArrayLike(V->getType()) && !Facts.OffsetPointers.count(V)) {
        // Only element accesses (and v.size()) reach a kernel's fields.
        for (const VarRef *R : Refs) {
          const Stmt *P = parentOf(R->Ref, Ctx);
          if (const auto *ME = dyn_cast_or_null<MemberExpr>(P);
              ME && ME->getMemberDecl()->getName() == "size")
            continue;
          // Handed whole to a function of the file whose parameter becomes
          // a field with it (particlefilter's randu(seed, i)): the kernel
          // passes its field on, writable unless the parameter's elements
          // are const (the field parameter takes what the pointer took).
          if (const ParmVarDecl *Param = handedTo(dyn_cast<DeclRefExpr>(R->Ref))) {
            const ArrayVar *P = U.Arrays.find(Param);
            Handed[V] |= !P || !P->Element.isConstQualified();
            continue;
          }
          return refuse(refusal(&Reporter::migrateArray, R->Ref->getExprLoc(),
                                {V->getName().str(), "the loop uses it as a pointer ('" +
                                                         textOf(P ? P : R->Ref, Ctx) +
                                                         "'), not by its elements"}));
        }
        ArrayOnlySized.insert(V);
        continue;
      }
      bool Written = false;
      for (const VarRef *R : Refs) {
        if (R->Mode.Address && !handedOut(V, R->Ref))
          return false;
        Written |= R->Mode.Write;
      }
      if (!Written) {
        if (!readOnly(V, Refs))
          return false;
        continue;
      }
      if (!scalarWritten(V, Refs))
        return false;
    }
    // The variables the kernel's helpers read come in as values too.
    for (const VarDecl *V : HelperReads) {
      bool Have = false;
      for (const ScalarUse &S : M.Scalars)
        Have |= S.Var == V;
      if (!Have)
        M.Scalars.push_back({V, isHelperTable(V, Ctx) ? ScalarRole::HelperTable : ScalarRole::Parameter});
    }
    for (ScalarUse &S : M.Scalars)
      S.Offset = Facts.OffsetPointers.count(S.Var) > 0;
    return true;
  }

  /// True when Ref, a use of the scalar V that may write it, binds V to
  /// a reference parameter of a function that only reads and writes it
  /// (miniWeather's `thermal(x, z, r, u, w, t, hr, ht)`): the kernel's
  /// own variable can be bound there as the loop's was. Otherwise refused.
  bool handedOut(const VarDecl *V, const Expr *Ref) {
    const auto Binding = isa<DeclRefExpr>(Ref) ? boundByReference(Ref, Ctx) : std::nullopt;
    if (!Binding)
      return refuse(refusal(&Reporter::migrateVariable, Ref->getExprLoc(),
                            {V->getName().str(), "has its address taken (or is bound to a "
                                                 "reference) in the loop"}));
    std::string Why;
    const FunctionDecl *F = Binding->first->getDirectCallee();
    if (!outParameter(F, Binding->second, Why))
      return refuse(refusal(&Reporter::migrateVariable, Ref->getExprLoc(),
                            {V->getName().str(), "is bound to a reference parameter of " + Why}));
    return true;
  }

  /// A variable the loop only reads: captured, or passed in.
  bool readOnly(const VarDecl *V, const std::vector<const VarRef *> &Refs) {
    // A private copy (OpenMP's and OpenACC's alike) starts with no value:
    // the original reads whatever the thread's copy held (NeoRodinia's
    // stencil, `private(j)` over the enclosing loop's j), where a kernel
    // would read the value from before the loop.
    if (clauseNaming(V, "private") && !clauseNaming(V, "firstprivate"))
      return refuse(refusal(&Reporter::migratePrivateUnset, Refs.front()->Ref->getExprLoc(), {V->getName().str()}));
    if (V->hasGlobalStorage() || V->isStaticLocal()) {
      for (const VarRef *R : Refs)
        if (isa<DeclRefExpr>(R->Ref) && cast<DeclRefExpr>(R->Ref)->hasQualifier() && isHostVariable(V))
          return refuse(refusal(&Reporter::migrateVariable, R->Ref->getExprLoc(),
                                {shownText(R->Ref, Ctx), "is read by its qualified name, which the kernel's "
                                                      "parameter of that name cannot stand for"}));
      // Constants a device can use as they are need nothing.
      if (!isHostVariable(V))
        return true;
      M.Scalars.push_back({V, ScalarRole::Parameter});
      return true;
    }
    M.Scalars.push_back({V, ScalarRole::Captured});
    return true;
  }

  bool scalarWritten(const VarDecl *V, const std::vector<const VarRef *> &Refs) {
    const SourceLocation At = Refs.front()->Ref->getExprLoc();
    if (U.Arrays.memberVars().isMember(V))
      return refuse(refusal(&Reporter::migrateVariable, At,
                            {V->getName().str(), std::string("is a member of ") +
                                                     (U.Arrays.memberVars().rootOf(V) ? "another" : "the") +
                                                     " object, which the loop writes; copy it into a local "
                                                     "variable and back"}));
    // A reference (`double &mass`, where a caller takes a result) is
    // written through: only as a reduction, whose result goes back
    // through it after the call-site.
    const QualType T = V->getType().getNonReferenceType();
    const bool Reference = V->getType()->isReferenceType();
    const bool Template = plainTemplateParameter(T, V->getDeclContext());
    if ((!T->isScalarType() && !Template) ||
        (T->isPointerType() && (Reference || !Facts.OffsetPointers.count(V)))) // an offset is a value
      return refuse(refusal(&Reporter::migrateVariable, At,
                            {V->getName().str(), "is written in the loop and is not a plain value"}));
    auto WrittenThrough = [&] {
      return refusal(&Reporter::migrateVariable, At,
                     {V->getName().str(), "is a reference the loop writes other than as a reduction; write a "
                                          "local variable and assign it after the loop"});
    };
    if (V->isStaticLocal())
      return refuse(refusal(&Reporter::migrateVariable, At,
                            {V->getName().str(), "is a static variable every iteration writes"}));
    if (std::optional<ReductionOp> Op = clauseReduction(V))
      return reduces(At, Reduction::of(V, *Op));
    // A private copy is the thread's, not the iteration's: one that an
    // iteration may read before writing holds what the thread's previous
    // iteration left (Rodinia's hotspot reads `delta` where no branch set
    // it), which a kernel's iteration does not have.
    const bool Carried = readBeforeWritten(M.Body, {V}).count(V) > 0;
    const bool Private = clauseNaming(V, "private"), FirstPrivate = clauseNaming(V, "firstprivate");
    if ((Private || FirstPrivate) && Carried) {
      const Expr *Read = firstReadBeforeWritten(M.Body, V); // where no write came first
      return refuse(refusal(&Reporter::migrateCarried, Read ? Read->getExprLoc() : At, {V->getName().str()}));
    }
    if ((Private || FirstPrivate) && Reference)
      return refuse(WrittenThrough());
    if (Private || FirstPrivate) {
      M.Scalars.push_back({V, Private ? ScalarRole::Private : ScalarRole::FirstPrivate});
      return true;
    }
    std::vector<const DeclRefExpr *> Exprs;
    for (const VarRef *R : Refs)
      Exprs.push_back(cast<DeclRefExpr>(R->Ref)); // a member refused above
    if (Carried) {
      if (std::optional<Reduction> R = recogniseReduction(V, Exprs, Ctx)) {
        // Shared by the original's threads (or SIMD lanes), updated with
        // no clause and no atomic or critical update: they race on it
        // (NeoRodinia's matvec simd variants). OpenACC compilers find
        // such reductions themselves.
        if (M.Pragma && M.Pragma->Model == PragmaModel::OpenMP && !guardOf(V) && teamShares(V))
          M.Notes.push_back(refusal(&Reporter::migrateUnlistedReduction, At,
                                    {V->getName().str(), clauseSpelling(R->Op)}));
        // OpenACC's `parallel` makes it each gang's own (a spelling of
        // the reduction NVHPC accepts, GCC does not: the training's
        // Jacobi `error = fmax(error, ...)`).
        if (M.Pragma && M.Pragma->Model == PragmaModel::OpenACC && !guardOf(V))
          if (std::optional<std::string> Construct = gangsCopy(V))
            M.Notes.push_back(refusal(&Reporter::migrateFirstprivateReduction, At,
                                      {V->getName().str(), *Construct, clauseSpelling(R->Op)}));
        return reduces(At, std::move(*R));
      }
      if (std::optional<Reduction> R = recogniseLocated(V, Exprs, Ctx); R && goesWith(*R))
        return reduces(At, std::move(*R));
      if (const PragmaLine *P = guardOf(V))
        return refuse(notOnlyReduced(*P, V));
      if (M.Pragma && M.Pragma->Model == PragmaModel::OpenMP)
        return refuse(refusal(&Reporter::migrateSharedWrite, At, {V->getName().str()}));
      return refuse(refusal(&Reporter::migrateCarried, At, {V->getName().str()}));
    }
    if (V->hasGlobalStorage()) {
      // A temporary the original's threads share and race on (NPB BT's
      // `tmp1`, a static of its header every `omp for` of lhsx sets
      // first): each iteration's own, when the program uses it only in
      // such loops, so that no value of it is read after one.
      if (M.Pragma && M.Pragma->Model == PragmaModel::OpenMP && !guardOf(V) && teamShares(V) &&
          !Reference && onlyTemporary(V)) {
        M.Notes.push_back(refusal(&Reporter::migrateSharedTemporary, At, {V->getName().str()}));
        M.Scalars.push_back({V, ScalarRole::Private});
        return true;
      }
      return refuse(refusal(&Reporter::migrateVariable, At,
                            {V->getName().str(), "is a namespace-scope variable every iteration "
                                                 "writes; declare it in the loop"}));
    }
    if (liveAfter(C.Loop, V, Ctx)) {
      if (std::optional<Reduction> R = recogniseFlag(V, Exprs, Ctx)) { // `stop = true`
        M.Reductions.push_back(*R);
        return true;
      }
      return refuse(refusal(&Reporter::migrateLiveOut, At, {V->getName().str()}));
    }
    if (Reference)
      return refuse(WrittenThrough());
    M.Scalars.push_back({V, ScalarRole::Private});
    return true;
  }

  /// Takes `R` as one of the loop's reductions, with the variables an arg
  /// max sets beside its value. Whatever form the reduction took (a clause,
  /// a recognised update, an arg max), a namespace-scope variable is
  /// refused the same way, naming the way round it.
  bool reduces(SourceLocation At, Reduction R) {
    if (R.Var->hasGlobalStorage())
      return refuse(refusal(&Reporter::migrateVariable, At,
                            {R.Var->getName().str(), "is reduced into a namespace-scope variable; "
                                                     "reduce into a local and assign it"}));
    Companions.insert(R.Companions.begin(), R.Companions.end());
    M.Reductions.push_back(std::move(R));
    return true;
  }

  /// Each variable an arg max sets with its value is a local or parameter
  /// of plain type, that no clause names, and that the loop uses nowhere
  /// but there; it then goes with the value.
  bool goesWith(const Reduction &R) const {
    for (const VarDecl *V : R.Companions) {
      auto Refs = ByVar.find(V);
      const QualType T = V->getType();
      if (LevelVars.count(V) || Locals.count(V) || Companions.count(V) || V->hasGlobalStorage() ||
          V->isStaticLocal() || !(T->isArithmeticType() || T->isEnumeralType()) || T.isVolatileQualified() ||
          U.Arrays.memberVars().isMember(V) || Refs == ByVar.end() || Refs->second.size() != 1 ||
          clauseNaming(V, "private") || clauseNaming(V, "firstprivate") || clauseReduction(V))
        return false;
    }
    return true;
  }

  /// Whether E mentions the element of one of the loop's atomic updates
  /// inside that update.
  bool atomicallyUpdated(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    return std::any_of(M.AtomicUpdates.begin(), M.AtomicUpdates.end(), [&](const AtomicUpdate &A) {
      return std::find(A.Mentions.begin(), A.Mentions.end(), E) != A.Mentions.end();
    });
  }

  bool arrays() {
    // An array the loop updates atomically it touches nowhere else, and
    // with one operator: its elements are sums (maxima, ...) being made,
    // and updates of two operators would not commute.
    std::map<const VarDecl *, const AtomicUpdate *> AddedTo;
    for (const ElementAccess &A : Facts.Accesses)
      for (const AtomicUpdate &Update : M.AtomicUpdates)
        if (A.Whole == Update.Place) {
          auto [It, New] = AddedTo.emplace(A.Array, &Update);
          if (!New && It->second->Op != Update.Op)
            return refuse(refusal(&Reporter::migrateConstruct, A.Whole->getBeginLoc(),
                                  {Update.Construct, "updates '" + shownText(Update.Place, Ctx) + "' with dp::" +
                                                         atomicName(Update.Op) + ", and the loop updates '" +
                                                         shownText(It->second->Place, Ctx) + "' with dp::" +
                                                         atomicName(It->second->Op) +
                                                         ": updates of one array by two operators do not "
                                                         "commute"}));
        }
    for (const ElementAccess &A : Facts.Accesses)
      if (auto It = AddedTo.find(A.Array); It != AddedTo.end() && !atomicallyUpdated(A.Whole))
        return refuse(refusal(&Reporter::migrateConstruct, A.Whole->getBeginLoc(),
                              {It->second->Construct, "updates '" + shownText(It->second->Place, Ctx) +
                                                          "', and the loop also uses '" + shownText(A.Whole, Ctx) +
                                                          "': an element other iterations update can only be "
                                                          "updated atomically in the loop"}));
    std::map<const VarDecl *, bool> Written;
    std::map<const VarDecl *, std::string> Borrowed;
    std::vector<const VarDecl *> Order;
    for (ElementAccess &A : Facts.Accesses) {
      const ArrayVar *Info = U.Arrays.find(A.Array);
      const SourceLocation At = A.Whole->getBeginLoc();
      if (!Info)
        return refuse(refusal(&Reporter::migrateArray, At,
                              {A.Array->getName().str(), "it is not declared in this file"}));
      if (Info->Rows && A.Indices.size() != static_cast<size_t>(Info->Rank))
        return refuse(refusal(&Reporter::migrateArray, At,
                              {A.Array->getName().str(),
                               std::string("the loop takes a ") +
                                   (A.Indices.size() + 1 == static_cast<size_t>(Info->Rank) ? "row" : "plane") +
                                   " of it ('" + shownText(A.Whole, Ctx) + "'), which a call-site cannot borrow alone"}));
      if (const Refusal &R = U.Arrays.refusal(A.Array)) {
        if (copiedParameter(*Info)) {
          copyParameter(A.Array);
          continue; // the call-site copies it, the lambda copies the copy
        }
        const std::optional<std::string> NoCopy = whyNoCopy(*Info, A);
        if (!NoCopy && !A.Array->hasLocalStorage())
          declareTable(A.Array);
        if (!NoCopy)
          continue; // the kernel's lambda copies it, or declares its own
        bool Unsized = false;
        if (const OffsetMaking *Made = A.Through ? madeOutside(A.Through) : nullptr)
          return refuse(refusal(
              &Reporter::migrateArray, At,
              {A.Array->getName().str(),
               "'" + A.Through->getName().str() + "' points into it from outside the loop ('" +
                   shownText(Made->Value, Ctx) + "', line " +
                   std::to_string(Ctx.getSourceManager().getPresumedLineNumber(Made->Value->getBeginLoc())) +
                   "), where it stays a pointer: a call-site borrows the array for the loop alone; make '" +
                   A.Through->getName().str() + "' in the loop"}));
        if (Borrowed.count(A.Array) || Unmeasured.count(A.Array)) {
          // judged at its first access
        } else if (std::optional<std::string> N = borrowable(*Info, Unsized)) {
          Borrowed[A.Array] = *N;
        } else {
          // Said at the loop's access; the text names the place. An
          // array of rows says its own reach (its group's reason may be a
          // caller's array of the same kind, named elsewhere).
          const Refusal &Own = U.Arrays.ownRefusal(A.Array);
          Refusal Here = Info->Rows && Own ? Own : R;
          Here.Loc = At;
          if (std::optional<std::string> Clause =
                  Info->Device || Info->DeviceAllocated ? std::nullopt : deviceClauseOf(A.Array)) {
            Here.Args.back() = "the directive names it in '" + *Clause +
                               "': device memory, which the host cannot read, so no call-site may borrow it";
            return refuse(std::move(Here));
          }
          if (!NoCopy->empty())
            Here.Args.back() += "; nor can its kernel take a copy: " + *NoCopy;
          if (!Unsized)
            return refuse(std::move(Here));
          // The accesses may say how far the loop reaches (dependences()).
          Unmeasured.emplace(A.Array, std::move(Here));
        }
      }
      // A block of a borrowed array handed to a helper, or an element's
      // address (NPB BT's `binvcrhs(lhs[i][j][k][BB], ...)`, LU's
      // `exact(i, j, k, &u[i][j][k][0])`): the kernel hands on a pointer
      // into its field (ArrayData.h's handedBlock), which the helper may
      // write through; the dependence test knows the block's first
      // subscripts only.
      const QualType Block =
          static_cast<int>(A.Indices.size()) < Info->Rank ? handedBlock(A.Whole, Ctx) : QualType();
      const auto Borrow = Borrowed.find(A.Array);
      const bool Handed = !A.Part && !A.Through && Borrow != Borrowed.end() && !Borrow->second.empty() &&
                          (!Block.isNull() || (static_cast<int>(A.Indices.size()) == Info->Rank &&
                                               A.Mode.Address && handedElementAddress(A.Whole, Ctx)));
      if (Handed && !Block.isNull()) // read, and written unless the helper takes const elements
        A.Mode.Write |= !Ctx.getBaseElementType(Block->getPointeeType()).isConstQualified();
      if (static_cast<int>(A.Indices.size()) != Info->Rank && !Handed)
        return refuse(refusal(&Reporter::migrateArray, At,
                              {A.Array->getName().str(), "the loop takes part of it ('" +
                                                             textOf(A.Whole, Ctx) + "')"}));
      if (A.Mode.Address && !Handed)
        return refuse(refusal(&Reporter::migrateArray, At,
                              {A.Array->getName().str(), "the loop takes the address of '" +
                                                             textOf(A.Whole, Ctx) + "'"}));
      if (!Written.count(A.Array))
        Order.push_back(A.Array);
      Written[A.Array] |= A.Mode.Write;
    }
    // Arrays the body uses only whole (v.size(), handed to a function),
    // in source order.
    std::vector<const VarDecl *> Whole(ArrayOnlySized.begin(), ArrayOnlySized.end());
    std::sort(Whole.begin(), Whole.end(), [&](const VarDecl *X, const VarDecl *Y) {
      return Ctx.getSourceManager().isBeforeInTranslationUnit(X->getLocation(), Y->getLocation());
    });
    for (const VarDecl *V : Whole)
      if (auto It = Handed.find(V); It != Handed.end() && Written.count(V))
        Written[V] |= It->second;
    for (const VarDecl *V : Whole)
      if (!Written.count(V)) {
        if (const Refusal &R = U.Arrays.refusal(V)) {
          Refusal Here = R;
          Here.Loc = C.Loop->getBeginLoc();
          return refuse(std::move(Here));
        }
        Order.push_back(V);
        Written[V] = Handed.count(V) && Handed.at(V);
      }
    // Borrowed memory the loop adds to at elements it picks: how far it
    // reaches only a data clause can say.
    for (const auto &[V, Add] : AddedTo)
      if (auto It = Unmeasured.find(V); It != Unmeasured.end())
        return refuse(It->second);
    for (const VarDecl *V : Order) {
      ArrayUse Use;
      Use.Var = V;
      Use.Written = Written[V];
      Use.Borrowed = Borrowed[V];
      // (A pointer member's elements stay writable in a const member
      // function: only the pointer is const.)
      const ArrayVar *Info = U.Arrays.find(V);
      Use.ConstObject = !Use.Borrowed.empty() && Info && Info->K == ArrayVar::Kind::Vector &&
                        U.Arrays.memberVars().isMember(V) && !U.Arrays.memberVars().rootOf(V) &&
                        constThis(C.Loop->getBody());
      M.Arrays.push_back(std::move(Use));
    }
    return true;
  }

  /// Whether S reaches the object's members through a const `this` (it
  /// is in a const member function, or a lambda of one).
  static bool constThis(const Stmt *S) {
    if (const auto *T = dyn_cast<CXXThisExpr>(S))
      return T->getType()->getPointeeType().isConstQualified();
    for (const Stmt *Child : S->children())
      if (Child && constThis(Child))
        return true;
    return false;
  }

  /// Whether the loop may read the array of A through a copy its kernel
  /// takes (the lambda's capture by value), where the array cannot become
  /// a dp::field (a table of coefficients starting with values, `const
  /// double w[3] = {...}`): nothing when it may; else why not, for a C
  /// array that starts with values (empty for other arrays). It may when
  /// the array is the function's own, not static, of plain values, only
  /// read and indexed whole in the loop, and small enough to travel with
  /// a kernel's arguments (TableBytes, 1 KiB, of the 4 KiB a kernel's
  /// arguments hold on CUDA and HIP).
  std::optional<std::string> whyNoCopy(const ArrayVar &Info, const ElementAccess &A) const {
    const VarDecl *V = Info.Var;
    if (Info.K != ArrayVar::Kind::CArray || Info.Rows || !V->hasInit() || !plainElement(Info.Element) ||
        A.Through || ArrayOnlySized.count(V) || Handed.count(V) ||
        static_cast<int>(A.Indices.size()) != Info.Rank)
      return std::string();
    if (!V->hasLocalStorage() && !constantTable(V))
      return std::string(V->isStaticLocal() ? "it is static" : "it is declared outside the function") +
             ", and a kernel copies only the function's own arrays or declares its own copy of a "
             "constant table (`const`, its values literals)";
    if (A.Mode.Write || A.Mode.Address)
      return std::string("the loop ") + (A.Mode.Write ? "writes it" : "takes the address of an element");
    const int64_t Bytes = Ctx.getTypeSizeInChars(V->getType()).getQuantity();
    if (Bytes > TableBytes)
      return "its " + std::to_string(Bytes) + " bytes are more than the " + std::to_string(TableBytes) +
             " a kernel's arguments take";
    return std::nullopt;
  }
  static constexpr int64_t TableBytes = 1024;

  /// A small array parameter declared with its extent (NPB FT's `int
  /// d[3]`, passed `dims[0]`, a row of a 2-D array) that the loop reads
  /// only at constant subscripts inside that extent, and hands nowhere:
  /// whatever a caller passes, the loop reads those elements alone, so
  /// the call-site may copy them (ScalarRole::CopiedParameter).
  bool copiedParameter(const ArrayVar &Info) const {
    const auto *P = dyn_cast<ParmVarDecl>(Info.Var);
    const ConstantArrayType *T = P ? Ctx.getAsConstantArrayType(P->getOriginalType()) : nullptr;
    if (!T || Info.Rank != 1 || !T->getElementType()->isArithmeticType() || Handed.count(P) ||
        ArrayOnlySized.count(P) || Ctx.getTypeSizeInChars(QualType(T, 0)).getQuantity() > TableBytes)
      return false;
    bool Any = false;
    for (const ElementAccess &A : Facts.Accesses) {
      if (A.Array != P)
        continue;
      if (A.Indices.size() != 1 || A.Mode.Write || A.Mode.Address || A.Through || A.Part)
        return false;
      const std::optional<llvm::APSInt> K = A.Indices[0]->getIntegerConstantExpr(Ctx);
      if (!K || K->isNegative() || K->getZExtValue() >= T->getSize().getZExtValue())
        return false;
      Any = true;
    }
    return Any;
  }
  void copyParameter(const VarDecl *V) {
    for (const ScalarUse &S : M.Scalars)
      if (S.Var == V)
        return;
    ScalarUse Use{V, ScalarRole::CopiedParameter};
    Use.Extents = {std::to_string(
        Ctx.getAsConstantArrayType(cast<ParmVarDecl>(V)->getOriginalType())->getSize().getZExtValue())};
    M.Scalars.push_back(std::move(Use));
  }

  /// A table a kernel can declare as its own copy, with its values as
  /// written (`static const double w[3] = {0.25, 0.5, 0.25};`, at
  /// namespace scope or static in the function): its elements are const,
  /// so no code changes them, and its values are literals and constants
  /// a device can use as they are (no call, no host variable).
  bool constantTable(const VarDecl *V) const {
    const InitListExpr *Init = writtenValues(V);
    if (!Init || !Ctx.getBaseElementType(V->getType()).isConstQualified() ||
        !V->getType()->isConstantArrayType() || !spanOf(Init->getSourceRange(), Ctx))
      return false;
    struct Check : AstVisitor {
      bool Plain = true;
      bool VisitCallExpr(CallExpr *) override { return Plain = false; }
      bool VisitDeclRefExpr(DeclRefExpr *E) override {
        const auto *Var = dyn_cast<VarDecl>(E->getDecl());
        Plain &= isa<EnumConstantDecl>(E->getDecl()) || (Var && !isHostVariable(Var));
        return Plain;
      }
    } Visit;
    Visit.TraverseStmt(const_cast<InitListExpr *>(Init));
    return Visit.Plain;
  }

  /// The kernel declares its own copy of the constant table V.
  void declareTable(const VarDecl *V) {
    for (const ScalarUse &S : M.Scalars)
      if (S.Var == V)
        return;
    ScalarUse Use{V, ScalarRole::Table};
    Use.Extents = kernelExtents(V);
    Use.Values = textOf(writtenValues(V), Ctx);
    M.Scalars.push_back(std::move(Use));
  }

  /// The extents a kernel declares its own copy of the C array V with:
  /// as written (`NUM_VARS`), or the sizes its type has (`double t[] =
  /// {...}`).
  std::vector<std::string> kernelExtents(const VarDecl *V) const {
    if (std::optional<std::vector<std::string>> Written = writtenExtents(V, Ctx))
      return std::move(*Written);
    std::vector<std::string> Extents;
    for (QualType T = V->getType(); const auto *A = Ctx.getAsConstantArrayType(T); T = A->getElementType())
      Extents.push_back(std::to_string(A->getSize().getZExtValue()));
    return Extents;
  }

  /// V's braced values as written, or null.
  static const InitListExpr *writtenValues(const VarDecl *V) {
    const auto *Init = dyn_cast_or_null<InitListExpr>(V->getInit());
    return Init && Init->isSemanticForm() && Init->getSyntacticForm() ? Init->getSyntacticForm() : Init;
  }

  /// The clause of the loop's directive, or of a data or compute region
  /// around it, that says V is device memory (`deviceptr(V)`,
  /// `is_device_ptr(V)`); none otherwise.
  std::optional<std::string> deviceClauseOf(const VarDecl *V) const {
    std::optional<Span> Loop = spanOf(C.Loop->getSourceRange(), Ctx);
    auto Named = [&](const Directive &D) -> std::optional<std::string> {
      for (const char *Name : {"deviceptr", "is_device_ptr"})
        if (const Clause *Cl = D.clause(Name)) {
          const std::vector<std::string> Vars = clauseVariables(Cl->Args);
          if (std::find(Vars.begin(), Vars.end(), V->getName().str()) != Vars.end())
            return std::string(Name) + "(" + Cl->Args + ")";
        }
      return std::nullopt;
    };
    if (M.Pragma)
      if (std::optional<std::string> N = Named(*M.Pragma))
        return N;
    for (const PragmaLine &P : U.Pragmas)
      if (Loop && P.On && (P.D.Kind == DirectiveKind::Data || P.D.Kind == DirectiveKind::Region))
        if (std::optional<Span> Around = spanOf(P.On->getSourceRange(), Ctx);
            Around && Around->Begin <= Loop->Begin && Loop->End <= Around->End)
          if (std::optional<std::string> N = Named(P.D))
            return N;
    return std::nullopt;
  }

  /// The section of V an `enter data` directive before the loop maps
  /// (the OpenACC training's `#pragma acc enter data copyin(img[:w*h*ch])`
  /// ahead of a loop reading `img` under `present(img)`): the program
  /// asserts the loop's accesses lie in it. The directive stands in a
  /// block holding the loop, itself in no statement of that block (so the
  /// loop runs only after it), and no `exit data` naming V comes between.
  std::optional<Section> enteredSection(const VarDecl *V) const {
    const std::optional<Span> LoopSpan = spanOf(C.Loop->getSourceRange(), Ctx);
    if (!LoopSpan)
      return std::nullopt;
    const Span &Loop = *LoopSpan;
    const std::string Name = V->getName().str();
    const Stmt *Body = nullptr;
    for (DynTypedNodeList Up = Ctx.getParents(*C.Loop); !Up.empty() && !Body; Up = Ctx.getParents(Up[0])) {
      if (const auto *F = Up[0].get<FunctionDecl>())
        Body = F->getBody();
      else if (!Up[0].get<Stmt>())
        break;
    }
    // The directive, at Offset, stands directly in a block that holds the loop.
    const std::function<bool(const Stmt *, unsigned)> Above = [&](const Stmt *S, unsigned Offset) {
      for (const Stmt *Child : S ? S->children() : Stmt::const_child_range(nullptr, nullptr)) {
        std::optional<Span> In = Child ? spanOf(Child->getSourceRange(), Ctx) : std::nullopt;
        if (!In || Offset < In->Begin || In->End <= Offset)
          continue;
        if (const auto *D = dyn_cast<OMPExecutableDirective>(Child); D && !D->hasAssociatedStmt())
          break; // the directive itself (`omp target enter data`), a statement of S
        return Above(Child, Offset); // inside one of S's statements
      }
      std::optional<Span> Block = S && isa<CompoundStmt>(S) ? spanOf(S->getSourceRange(), Ctx) : std::nullopt;
      return Block && Block->Begin <= Loop.Begin && Loop.End <= Block->End;
    };
    const std::optional<Span> Function = Body ? spanOf(Body->getSourceRange(), Ctx) : std::nullopt;
    std::optional<Section> Found;
    for (const PragmaLine &P : U.Pragmas) {
      if (P.D.Kind != DirectiveKind::EnterExit || P.End > Loop.Begin || !Function || P.Begin < Function->Begin)
        continue; // (another function's: the constructor's, say)
      if (P.D.has("enter")) {
        if (std::optional<Section> Sec = dataSection(P.D, Name); Sec && Above(Body, P.Begin))
          Found = Sec;
        continue;
      }
      if (clauseNaming(P.D, V, nullptr))
        Found.reset(); // unmapped before the loop
    }
    return Found;
  }

  /// How many elements the call-site may borrow (dp::borrow) of an array
  /// that cannot become a field, its memory coming from callers dpstub
  /// cannot see: a pointer to plain values the loop only indexes, written
  /// in the file, whose count a data clause gives (`map(to: a[0:n])`,
  /// `copyin(a[:n])`): of the loop's directive, or of a data or compute
  /// region around it. None otherwise; Unsized when only that count is
  /// missing (no data clause names the array: the accesses may give it,
  /// measured()). An array of rows (ArrayVar::Rows) borrows as far as the
  /// accesses reach: always Unsized. A C array of static storage
  /// (wholeStaticArray) borrows whole, of any rank: the count is then its
  /// grid (`dp::grid<4>(13, 13, 13, 5)`).
  /// The grid of a C array of static storage the call-site borrows whole
  /// (wholeStaticArray), from its type's extents (the names a header
  /// writes them with may not reach the call-site); none for any other.
  std::optional<std::string> wholeGrid(const ArrayVar &A) const {
    if (A.K != ArrayVar::Kind::CArray || A.Rows || !wholeStaticArray(A.Var))
      return std::nullopt;
    const std::optional<std::vector<std::uint64_t>> Extents = constantExtents(A.Var->getType(), Ctx);
    if (!Extents || static_cast<int>(Extents->size()) != A.Rank)
      return std::nullopt;
    std::string Grid;
    for (std::uint64_t E : *Extents)
      Grid += (Grid.empty() ? "" : ", ") + std::to_string(E);
    return "dp::grid<" + std::to_string(A.Rank) + ">(" + Grid + ")";
  }

  std::optional<std::string> borrowable(const ArrayVar &A, bool &Unsized) const {
    const VarDecl *V = A.Var;
    std::optional<Span> Loop = spanOf(C.Loop->getSourceRange(), Ctx);
    // A std::vector member (MemberVars) borrows its elements, all of them.
    const bool VectorMember = A.K == ArrayVar::Kind::Vector && U.Arrays.memberVars().isMember(V);
    const std::optional<std::string> Whole = wholeGrid(A);
    if (!Loop || A.Device || deviceClauseOf(V) || !(A.K == ArrayVar::Kind::Pointer || VectorMember || Whole) ||
        (!A.Rows && A.Rank != 1 && !Whole) ||
        !(plainElement(A.Element) || plainTemplateParameter(A.Element, V->getDeclContext())) ||
        (ArrayOnlySized.count(V) && !VectorMember) || Handed.count(V))
      return std::nullopt;
    std::optional<Section> S =
        M.Pragma && !A.Rows && !VectorMember && !Whole ? dataSection(*M.Pragma, V->getName().str()) : std::nullopt;
    if (VectorMember)
      S = Section{V->getName().str(), "", V->getName().str() + ".size()"};
    if (Whole)
      S = Section{V->getName().str(), "", *Whole};
    for (const PragmaLine &P : U.Pragmas) {
      if (S || A.Rows)
        break;
      if (P.On && (P.D.Kind == DirectiveKind::Data || P.D.Kind == DirectiveKind::Region))
        if (std::optional<Span> Around = spanOf(P.On->getSourceRange(), Ctx);
            Around && Around->Begin <= Loop->Begin && Loop->End <= Around->End)
          S = dataSection(P.D, V->getName().str());
    }
    // dp::borrow takes the memory from its first element.
    if (S && !fromFirstElement(*S))
      return std::nullopt;
    // Each access's brackets are edited in the loop's text (not in a macro).
    // (and the offset pointers into it have theirs: OffsetPointer.h). An
    // accessor's call (`domain.x(i)`) is written as a field's element
    // access already: it has none.
    size_t Edits = 0;
    for (const ElementAccess &X : Facts.Accesses)
      Edits += X.Array == V && !isAccessorVar(V) ? X.Indices.size() + 1 : 0;
    for (const VarDecl *P : Facts.OffsetPointers)
      if (const OffsetPointer *O = offsetPointerOf(P); O && O->Array == V) {
        // Made outside the loop, it stays a pointer there (the call-site
        // borrows the array for the loop alone), so the kernel cannot
        // take it as an offset.
        if (madeOutside(P))
          return std::nullopt;
        for (const OffsetMaking &Making : O->Makings)
          Edits += makingEdits(Making);
        Edits += !P->getInit() && inLoop(P->getLocation());
      }
    // In the kernel's text: the parallel levels' bounds are the host's,
    // where the array stays as it is.
    const std::optional<Span> Kernel = spanOf(M.Body->getSourceRange(), Ctx);
    if (!Kernel || U.Arrays.editsWithin(V, Kernel->Begin, Kernel->End).size() != Edits)
      return std::nullopt;
    Unsized = !S;
    return S ? std::optional<std::string>(S->Length) : std::nullopt;
  }

  bool dependences() {
    Nest &N = M.Dependences;
    std::map<const VarDecl *, int> LoopVars;
    SymbolTable Symbols;
    AffineBuilder Affine(Ctx, LoopVars, Varying, Inline, Symbols, &U.Arrays.memberVars());
    // The levels, then the sequential loops inside the body.
    auto AddVar = [&](const LoopLevel &L, bool Parallel) {
      LoopVar V;
      V.Name = L.Name;
      V.Parallel = Parallel;
      V.Step = L.Step;
      if (L.RunTimeStep && !(V.RunTimeStep = Affine.invariant(L.RunTimeStep)))
        return false;
      const ForStmt *F = L.For;
      std::vector<const Expr *> B = boundExprs(F);
      const Expr *First = B.size() == 2 ? B[0] : nullptr;
      const auto *Cond = B.size() == 2 ? cast<BinaryOperator>(B[1]) : nullptr;
      if (!First || !Cond)
        return false;
      const Expr *Bound = namedVar(Cond->getLHS()) == L.Var ? Cond->getRHS() : Cond->getLHS();
      std::optional<Poly> Lo = Affine.invariant(First), Hi = Affine.invariant(Bound);
      std::optional<Linear> HiForm = Hi ? std::nullopt : Affine.build(Bound);
      if (!Lo || (!Hi && HiForm)) {
        // An inner loop whose bounds use outer variables (`j < i`), or a
        // triangle's inner level: its range for the witness search,
        // unknown to the proof.
        std::optional<Linear> From = Affine.build(First), To = Affine.build(Bound);
        if ((Parallel && M.Domain == LoopModel::Shape::Grid) || !From || !To || !unitStep(L) ||
            (L.Cmp != Comparison::Less && L.Cmp != Comparison::LessEqual))
          return false;
        auto AsSubscript = [](const Linear &X) {
          Subscript S;
          S.Affine = true;
          S.Coef = X.Coef;
          S.Const = X.Const;
          return S;
        };
        V.From = AsSubscript(*From);
        V.To = AsSubscript(*To);
        if (L.Cmp == Comparison::LessEqual)
          V.To->Const = V.To->Const + Poly::constant(1);
        LoopVars[L.Var] = static_cast<int>(N.Vars.size());
        N.Vars.push_back(std::move(V));
        return true;
      }
      V.Lower = *Lo;
      if (Hi && !L.RunTimeStep) {
        const std::int64_t S = L.Step;
        Poly Span = S > 0 ? *Hi - *Lo : *Lo - *Hi;
        if (L.Cmp == Comparison::LessEqual || L.Cmp == Comparison::GreaterEqual)
          Span = Span + Poly::constant(1);
        if (S == 1 || S == -1)
          V.Count = Span;
        else if (std::optional<std::int64_t> K = Span.asConstant())
          V.Count = Poly::constant(*K <= 0 ? 0 : (*K + std::abs(S) - 1) / std::abs(S));
      }
      LoopVars[L.Var] = static_cast<int>(N.Vars.size());
      N.Vars.push_back(std::move(V));
      return true;
    };
    for (const LoopLevel &L : M.Levels)
      if (!AddVar(L, true))
        return refuse(refusal(&Reporter::migrateNotCanonical, L.For->getBeginLoc(),
                              {"the first value of '" + L.Name + "' changes inside the loop"}));
    std::map<const ForStmt *, int> InnerIndex;
    std::map<const ForStmt *, const VarDecl *> InnerVar;
    for (const ForStmt *F : Facts.InnerLoops) {
      auto Level = canonicalLevel(F, Ctx);
      if (auto *L = std::get_if<LoopLevel>(&Level)) {
        const size_t Before = N.Vars.size();
        if (AddVar(*L, false)) {
          InnerIndex[F] = static_cast<int>(Before);
          InnerVar[F] = L->Var;
        }
      }
    }
    // Variables bound to loop variables keep varying (never symbols).
    for (const auto &[V, I] : LoopVars)
      Varying.erase(V);
    std::map<const VarDecl *, int> ArrayIds;
    for (const ElementAccess &A : Facts.Accesses) {
      // One variable for two inner loops in turn (`for (i1 = 0; i1 < n1;
      // i1++) ...; for (i1 = 1; i1 < n1 - 1; i1++) ...`, NPB MG's): here,
      // the one of the loop around this access.
      for (const ForStmt *F : A.InnerLoops)
        if (auto It = InnerIndex.find(F); It != InnerIndex.end())
          LoopVars[InnerVar.at(F)] = It->second;
      // Scalars the body sets before this access (`i3 = 2 * j3 - d3;`):
      // their values, for this access alone.
      std::vector<const VarDecl *> Set;
      for (const Expr *I : A.Indices)
        for (const DeclRefExpr *R : namesIn(I))
          if (const auto *V = dyn_cast<VarDecl>(R->getDecl());
              V && Varying.count(V) && !LoopVars.count(V) && !Inline.count(V) && V->getType()->isIntegerType())
            if (const Expr *Value = reachingValue(V, A.Whole)) {
              Inline[V] = Value;
              Set.push_back(V);
            }
      struct Unset {
        std::map<const VarDecl *, const Expr *> &Inline;
        const std::vector<const VarDecl *> &Set;
        ~Unset() {
          for (const VarDecl *V : Set)
            Inline.erase(V);
        }
      } Restore{Inline, Set};
      Access X;
      X.Array = ArrayIds.try_emplace(A.Array, static_cast<int>(ArrayIds.size())).first->second;
      X.Conditional = A.Conditional;
      X.Part = A.Part != nullptr;
      X.Text = textOf(A.Part ? A.Part : A.Whole, Ctx);
      X.Id = static_cast<unsigned>(M.AccessLocs.size());
      for (const ForStmt *F : A.InnerLoops)
        if (auto It = InnerIndex.find(F); It != InnerIndex.end())
          X.Loops.push_back(It->second);
      auto AsSubscript = [](const Linear &L) {
        Subscript S;
        S.Affine = true;
        S.Coef = L.Coef;
        S.Const = L.Const;
        return S;
      };
      for (const Expr *I : A.Indices) {
        std::optional<Linear> L = Affine.build(I);
        // Through an offset pointer: its offset plus the index, where the
        // offset means here what it meant where the pointer was made.
        if (L && A.Through) {
          std::optional<Linear> O = A.Offset && offsetHolds(A, LoopVars) ? Affine.build(A.Offset) : std::nullopt;
          L = O ? std::optional<Linear>(add(*O, *L, 1)) : std::nullopt;
        }
        X.Dims.push_back(L ? AsSubscript(*L) : Subscript());
      }
      // A block handed on (arrays()): any element of it.
      if (const ArrayVar *Info = U.Arrays.find(A.Array))
        while (static_cast<int>(X.Dims.size()) < Info->Rank)
          X.Dims.push_back(Subscript());
      // Under `if`s only: when it happens, if their conditions are bounds.
      if (!A.Guards.empty()) {
        std::vector<Subscript> When;
        for (const Expr *G : A.Guards) {
          std::optional<std::vector<Linear>> B = Affine.bounds(G);
          if (!B) {
            When.clear();
            break;
          }
          for (const Linear &L : *B)
            When.push_back(AsSubscript(L));
        }
        if (!When.empty())
          X.When = std::move(When);
      }
      M.AccessLocs.push_back(A.Whole->getBeginLoc()); // X.Id: the access's index in Facts
      if (atomicallyUpdated(A.Whole))
        continue; // additions commute: no order among them to keep
      if (A.Mode.Write) {
        X.Write = true;
        N.Accesses.push_back(X);
      }
      if (A.Mode.Read) {
        X.Write = false;
        N.Accesses.push_back(X);
      }
    }
    N.SymbolNames = Symbols.names();
    N.Quotients = Symbols.Quotients;
    if (!measured(N, ArrayIds, InnerIndex, Symbols))
      return false;
    if (!elementReductions(N, LoopVars))
      return false;
    const DependenceResult R = testNest(N);
    if (R.V == Verdict::Independent)
      return true;
    const Access &First = N.Accesses[R.First], &Second = N.Accesses[R.Second];
    if (R.V == Verdict::Dependent) {
      Refusal F = refusal(&Reporter::migrateDependence, M.AccessLocs[First.Id],
                          {First.Text, Second.Text, distanceText(R.Distance)});
      F.OtherAccess = M.AccessLocs[Second.Id];
      return refuse(std::move(F));
    }
    if (C.Asserted)
      return true; // the directive asserts what dpstub cannot prove
    return refuse(refusal(&Reporter::migrateUnproven, M.AccessLocs[First.Id], {R.Why}));
  }

  /// The value a scalar the body writes holds at Use, where a plain `=`
  /// sets it before (`i3 = 2 * j3 - d3;` at the top of the body, `i1 = 2
  /// * j1 - d1;` at the top of an inner loop's: NPB MG's projections): a
  /// statement of a block around Use, within the body, with nothing after
  /// it up to Use (the statement holding Use included, whole, as a loop
  /// runs it again) writing the scalar or a variable of the value. None
  /// otherwise.
  const Expr *reachingValue(const VarDecl *V, const Expr *Use) const {
    std::set<const ValueDecl *> Written; // from the statement holding Use on
    auto Note = [&](const Stmt *S) {
      for (const DeclRefExpr *R : namesIn(S))
        if (const UseMode U = useMode(R, Ctx); U.Write || U.Address)
          Written.insert(R->getDecl());
    };
    const Stmt *Child = Use;
    for (const Stmt *P = parentOf(Use, Ctx); P; Child = P, P = parentOf(P, Ctx)) {
      if (const auto *Block = dyn_cast<CompoundStmt>(P)) {
        const auto At = std::find(Block->body_begin(), Block->body_end(), Child);
        if (At == Block->body_end())
          return nullptr;
        Note(Child);
        for (auto It = At; It != Block->body_begin();) {
          --It;
          const auto *Assign = dyn_cast<BinaryOperator>(*It);
          if (Assign && Assign->getOpcode() == BO_Assign && namedVar(Assign->getLHS()) == V) {
            if (Written.count(V))
              return nullptr;
            for (const DeclRefExpr *R : namesIn(Assign->getRHS()))
              if (Written.count(R->getDecl()))
                return nullptr;
            return Assign->getRHS();
          }
          Note(*It);
        }
      }
      if (P == M.Body)
        break;
    }
    return nullptr;
  }

  /// P as an offset pointer (OffsetPointer.h); null when it is not one.
  const OffsetPointer *offsetPointerOf(const VarDecl *P) const { return U.Arrays.offsetPointers().of(P); }
  /// True when L is in the loop's text.
  bool inLoop(SourceLocation L) const {
    const SourceManager &SM = Ctx.getSourceManager();
    const std::optional<Span> Loop = spanOf(C.Loop->getSourceRange(), Ctx);
    const unsigned At = SM.getFileOffset(SM.getFileLoc(L));
    return Loop && Loop->Begin <= At && At < Loop->End;
  }
  /// A making of the offset pointer P outside the loop, if there is one.
  const OffsetMaking *madeOutside(const VarDecl *P) const {
    if (const OffsetPointer *O = offsetPointerOf(P))
      for (const OffsetMaking &M : O->Makings)
        if (!inLoop(M.Value->getBeginLoc()))
          return &M;
    return nullptr;
  }

  /// True when the offset of X's pointer (OffsetPointer.h) has at X the
  /// value it had where the pointer was made: the pointer is declared in
  /// the body, and every loop variable the offset names is a level's or
  /// one of a loop around that declaration (others may have moved on). The
  /// body's other variables are read as values or not at all (Affine).
  bool offsetHolds(const ElementAccess &X, const std::map<const VarDecl *, int> &LoopVars) const {
    if (!Locals.count(X.Through))
      return false;
    const SourceManager &SM = Ctx.getSourceManager();
    const SourceLocation Made = X.Through->getLocation();
    for (const DeclRefExpr *D : namesIn(X.Offset)) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      if (!V || !LoopVars.count(V) || LevelVars.count(V))
        continue;
      bool Around = false;
      for (const ForStmt *F : Facts.InnerLoops) {
        auto Level = canonicalLevel(F, Ctx);
        const auto *L = std::get_if<LoopLevel>(&Level);
        const SourceRange R = F->getBody()->getSourceRange();
        Around |= L && L->Var == V && !SM.isBeforeInTranslationUnit(Made, R.getBegin()) &&
                  SM.isBeforeInTranslationUnit(Made, R.getEnd());
      }
      if (!Around)
        return false;
    }
    return true;
  }

  /// Borrowed arrays no data clause gives a length of: as far as the
  /// loop's accesses reach (accessExtent), written with variables the
  /// host has before the loop. Refused with the pointer's reason when the
  /// reach is not known (an access in a loop the model does not count, a
  /// break or continue before it, a subscript that is not affine).
  bool measured(const Nest &N, const std::map<const VarDecl *, int> &ArrayIds,
                const std::map<const ForStmt *, int> &InnerIndex, const SymbolTable &Symbols) {
    if (Unmeasured.empty())
      return true;
    // An access inside an inner loop the nest does not model may not
    // happen at the loop's last values.
    Nest Reach = N;
    std::set<unsigned> Uncounted; // by Access::Id, the index of the body's access
    for (size_t K = 0; K < Facts.Accesses.size(); ++K)
      for (const ForStmt *F : Facts.Accesses[K].InnerLoops)
        if (!InnerIndex.count(F))
          Uncounted.insert(static_cast<unsigned>(K));
    for (Access &X : Reach.Accesses)
      if (Uncounted.count(X.Id)) {
        X.Conditional = true;
        X.When.reset(); // beside a loop's count it does not know
      }
    const std::optional<Span> Loop = spanOf(C.Loop->getSourceRange(), Ctx);
    auto OutsideVar = [&](const VarDecl *V) {
      if (V && U.Arrays.memberVars().isMember(V)) // `size` for this->size, in any file
        return V->getType()->isIntegerType();
      const SourceLocation L = V ? V->getLocation() : SourceLocation();
      const std::optional<Span> At = L.isValid() ? spanOf(SourceRange(L, L), Ctx) : std::nullopt;
      return V && V->getType()->isIntegerType() && At && Loop && !(Loop->Begin <= At->Begin && At->End <= Loop->End);
    };
    // A symbol for an expression (`r / 2`) is written with its variables.
    auto Outside = [&](int Id) {
      if (const VarDecl *V = Symbols.var(Id))
        return OutsideVar(V);
      const std::vector<const VarDecl *> &Uses = Symbols.uses(Id);
      return !Uses.empty() && std::all_of(Uses.begin(), Uses.end(), OutsideVar);
    };
    const std::map<int, std::int64_t> Known = enclosingBounds(Symbols, Reach.Relations);
    auto Writable = [&](const Poly &P) { // every symbol a variable the host has before the loop
      return std::all_of(P.terms().begin(), P.terms().end(), [&](const auto &T) {
        return std::all_of(T.first.begin(), T.first.end(), Outside);
      });
    };
    auto Name = [&](int Id) {
      const VarDecl *V = Symbols.var(Id);
      return V ? V->getName().str() : "(" + Symbols.names()[Id] + ")";
    };
    auto Unsigned = [&](int Id) {
      const VarDecl *V = Symbols.var(Id);
      return V ? V->getType()->isUnsignedIntegerType() : Symbols.isUnsigned(Id);
    };
    // The elements from the first up to the furthest the accesses reach.
    auto Reached = [&](const Nest &N, int Id) -> std::optional<std::string> {
      std::optional<Extent> E = Facts.Jumps ? std::nullopt : accessExtent(N, Id, Known);
      if (!E || !Writable(E->Length) ||
          !std::all_of(E->Guards.begin(), E->Guards.end(), [&](const Poly &G) { return Writable(G); }))
        return std::nullopt;
      return extentText(*E, Name, Unsigned);
    };
    // The elements from the first the loop touches to the last (where a
    // parameter of unknown sign places them). Apart: of inner loops that
    // run apart (Window::Alternatives), which a reach from the first
    // element says more simply where it can.
    auto Spanned = [&](const Nest &N, int Id, bool Apart) -> std::optional<WindowText> {
      std::optional<Window> W = Facts.Jumps ? std::nullopt : accessWindow(N, Id, Known);
      if (!W || W->Alternatives.empty() == Apart)
        return std::nullopt;
      const std::vector<int> Ids = windowSymbols(*W);
      return std::all_of(Ids.begin(), Ids.end(), Outside) ? windowText(*W, Name, Unsigned) : std::nullopt;
    };
    for (auto &[V, Why] : Unmeasured) {
      const int Id = ArrayIds.at(V);
      const ArrayVar *Info = U.Arrays.find(V);
      if (Info && Info->Rows) {
        // An array of rows: each subscript reaches on its own, from the
        // first it touches where dpstub can tell (a loop over t reading
        // row t + 1 borrows that row, not the t + 2 before it), else
        // from the first.
        // (An array of arrays of rows: its planes, rows and columns.)
        std::vector<WindowText> Along(static_cast<size_t>(Info->Rank));
        for (size_t Dim = 0; Dim < Along.size(); ++Dim) {
          Nest One = Reach;
          for (Access &X : One.Accesses)
            if (X.Array == Id)
              X.Dims = {X.Dims.at(Dim)};
          if (std::optional<WindowText> W = Spanned(One, Id, false))
            Along[Dim] = *W;
          else if (std::optional<std::string> T = Reached(One, Id))
            Along[Dim] = WindowText{std::string(), "0", *T};
          else if (std::optional<WindowText> Apart = Spanned(One, Id, true))
            Along[Dim] = *Apart;
          else
            return refuse(std::move(Why));
        }
        auto FirstOf = [](const WindowText &W) { return W.First == "0" ? std::string() : W.First; };
        for (ArrayUse &A : M.Arrays)
          if (A.Var == V) {
            A.Borrowed = Along.front().End;
            A.BorrowedFirst = FirstOf(Along.front());
            A.BorrowedWhen = Along.front().Guard;
            if (Along.size() == 3) {
              A.BorrowedRows = Along[1].End;
              A.BorrowedRowsFirst = FirstOf(Along[1]);
              A.BorrowedRowsWhen = Along[1].Guard;
            }
            A.BorrowedColumns = Along.back().End;
            A.BorrowedColumnsFirst = FirstOf(Along.back());
            A.BorrowedColumnsWhen = Along.back().Guard;
          }
        continue;
      }
      std::optional<std::string> Text = Reached(Reach, Id);
      std::optional<WindowText> Span = Text ? std::nullopt : Spanned(Reach, Id, false);
      if (!Text && !Span)
        Span = Spanned(Reach, Id, true);
      // Where the accesses do not tell, an `enter data` before the loop may.
      if (!Text && !Span)
        if (std::optional<Section> Entered = enteredSection(V); Entered && fromFirstElement(*Entered))
          Text = Entered->Length;
      if (!Text && !Span) {
        // What would let the call-site borrow it: a device directive's
        // data clause, or for a host loop a data region around it (which
        // an OpenMP compiler without a device runs on the host).
        // (An accessor's member, which no clause can name: nothing.)
        const bool Acc = M.Pragma && M.Pragma->Model == PragmaModel::OpenACC;
        const std::string Section = V->getName().str() + "[0:n]";
        const std::string Clause =
            isAccessorVar(V) ? std::string("; no data clause can name an accessor's member to give it")
            : Acc || (M.Pragma && M.Pragma->has("target"))
                ? "; a length in a data clause, such as " + std::string(Acc ? "copy(" : "map(tofrom: ") + Section +
                      "), would give it"
                : "; a data region around the loop would give its length: '#pragma omp target data map(tofrom: " +
                      Section + ")'";
        Why.Notes.push_back(refusal(&Reporter::migrateBorrowLength, Why.Loc, {V->getName().str(), Clause}));
        return refuse(std::move(Why));
      }
      for (ArrayUse &A : M.Arrays)
        if (A.Var == V) {
          A.Borrowed = Text ? *Text : Span->End;
          A.BorrowedFirst = Text || Span->First == "0" ? std::string() : Span->First;
          A.BorrowedWhen = Text ? std::string() : Span->Guard;
        }
    }
    return true;
  }

  /// What the function around the candidate says of symbols wherever it
  /// runs, as lower bounds, and upper ones as Relations (each at least
  /// 0): `for (i = 0; i < n; i++)`, its variable and bound written only
  /// by its step, has i >= 0 and n >= 1 there; a local that only ever
  /// holds constants lies between them (constantRanges).
  std::map<int, std::int64_t> enclosingBounds(const SymbolTable &Symbols, std::vector<Poly> &Relations) const {
    std::map<int, std::int64_t> Known;
    auto Note = [&](const VarDecl *V, std::int64_t Least) {
      if (std::optional<int> Id = Symbols.find(V)) {
        auto [It, New] = Known.try_emplace(*Id, Least);
        It->second = std::max(It->second, Least);
      }
    };
    std::vector<const ForStmt *> Around;
    const Stmt *Outermost = C.Loop;
    for (const Stmt *S = parentOf(C.Loop, Ctx); S; S = parentOf(S, Ctx)) {
      if (const auto *F = dyn_cast<ForStmt>(S))
        Around.push_back(F);
      Outermost = S;
    }
    // Nothing changes them through a pointer or a reference.
    const std::vector<const DeclRefExpr *> Names = namesIn(Outermost);
    std::set<const ValueDecl *> Addressed;
    for (const DeclRefExpr *R : Names)
      if (useMode(R, Ctx).Address)
        Addressed.insert(R->getDecl());
    constantRanges(Symbols, Names, Known, Relations);
    for (const ForStmt *F : Around) {
      auto Level = canonicalLevel(F, Ctx);
      const auto *L = std::get_if<LoopLevel>(&Level);
      Expr::EvalResult First;
      if (!L || L->Step <= 0 || !L->LowerExpr || !L->LowerExpr->EvaluateAsInt(First, Ctx) ||
          !First.Val.isInt() || !F->getBody())
        continue;
      // Only the step changes the variable, nothing the bound.
      const VarDecl *Bound = namedVar(L->UpperExpr);
      bool VarFixed = !Addressed.count(L->Var);
      bool BoundFixed = Bound && Bound->hasLocalStorage() && !Addressed.count(Bound);
      for (const DeclRefExpr *R : namesIn(F->getBody())) {
        const UseMode Use = useMode(R, Ctx);
        if (!Use.Write && !Use.Address)
          continue;
        VarFixed &= R->getDecl() != L->Var;
        BoundFixed &= R->getDecl() != Bound;
      }
      if (!VarFixed)
        continue;
      const std::int64_t Least = First.Val.getInt().getExtValue();
      Note(L->Var, Least);
      if (BoundFixed && (L->Cmp == Comparison::Less || L->Cmp == Comparison::LessEqual))
        Note(Bound, L->Cmp == Comparison::Less ? Least + 1 : Least);
    }
    return Known;
  }

  /// Locals of the function that only ever hold constants (`if (m3k ==
  /// 3) d3 = 2; else d3 = 1;`, NPB MG's): each from its least to its
  /// greatest, in Known (the least) and Relations (the greatest less it,
  /// at least 0). Only where every write is a plain `=` of a constant (or
  /// the initialiser one) and nothing takes its address.
  /// Names: every name the function uses.
  void constantRanges(const SymbolTable &Symbols, const std::vector<const DeclRefExpr *> &Names,
                      std::map<int, std::int64_t> &Known, std::vector<Poly> &Relations) const {
    for (int Id = 0; Id < static_cast<int>(Symbols.names().size()); ++Id) {
      const VarDecl *V = Symbols.var(Id);
      if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getType()->isIntegerType() ||
          V->getType().isVolatileQualified())
        continue;
      std::vector<std::int64_t> Values;
      auto Constant = [&](const Expr *E) {
        Expr::EvalResult R;
        if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
          return false;
        Values.push_back(R.Val.getInt().getExtValue());
        return true;
      };
      bool Only = !V->hasInit() || Constant(V->getInit());
      for (const DeclRefExpr *R : Names) {
        if (!Only)
          break;
        if (R->getDecl() != V)
          continue;
        const UseMode Use = useMode(R, Ctx);
        if (Use.Address) {
          Only = false;
        } else if (Use.Write) {
          const auto *Set = dyn_cast_or_null<BinaryOperator>(parentOf(R, Ctx));
          Only = Set && Set->getOpcode() == BO_Assign && Set->getLHS()->IgnoreParens() == R && Constant(Set->getRHS());
        }
      }
      if (!Only || Values.empty())
        continue;
      const auto [Least, Most] = std::minmax_element(Values.begin(), Values.end());
      auto [It, New] = Known.try_emplace(Id, *Least);
      It->second = std::max(It->second, *Least);
      Relations.push_back(Poly::constant(*Most) - Poly::symbol(Id));
    }
  }

  /// Arrays the nest writes only at one element its subscripts fix (`x[i]`
  /// in a loop over j), every mention of that element an update with one
  /// operator (`x[i] = x[i] - a[i][j] * x[j]`), and no other element it
  /// reads ever that one: reductions into the element, as into a scalar.
  /// Their mentions leave N; the kernel does not write the array. False
  /// (refused) when another access may read the element.
  bool elementReductions(Nest &N, const std::map<const VarDecl *, int> &LoopVars) {
    std::map<const VarDecl *, std::vector<size_t>> ByArray; // indices into Facts.Accesses
    for (size_t K = 0; K < Facts.Accesses.size(); ++K)
      ByArray[Facts.Accesses[K].Array].push_back(K);
    std::vector<std::string> Texts; // each access as written, blanks dropped
    for (const ElementAccess &X : Facts.Accesses)
      Texts.push_back(compactText(X.Whole, Ctx));
    for (const auto &[A, Ks] : ByArray) {
      // (Not through offset pointers, whose text names another variable.)
      if (std::any_of(Ks.begin(), Ks.end(), [&](size_t K) { return Facts.Accesses[K].Through != nullptr; }))
        continue;
      std::string Key;
      bool OneElement = true;
      for (size_t K : Ks)
        if (Facts.Accesses[K].Mode.Write) {
          OneElement &= !Texts[K].empty() && (Key.empty() || Key == Texts[K]);
          Key = Texts[K];
        }
      if (Key.empty() || !OneElement || ArrayOnlySized.count(A) || Handed.count(A))
        continue;
      std::vector<const Expr *> Mentions;
      std::set<unsigned> MentionIds, OtherIds;
      const ElementAccess *Element = nullptr;
      bool Plain = true;
      for (size_t K : Ks) {
        const ElementAccess &X = Facts.Accesses[K];
        if (Texts[K] != Key) {
          OtherIds.insert(static_cast<unsigned>(K));
          continue;
        }
        MentionIds.insert(static_cast<unsigned>(K));
        if (std::find(Mentions.begin(), Mentions.end(), X.Whole) == Mentions.end())
          Mentions.push_back(X.Whole);
        Element = Element ? Element : &X;
        // Each mention's subscripts name the outside variables (a local
        // `i` shadowing one would make the same text another element).
        Plain &= !X.Whole->getBeginLoc().isMacroID() && spanOf(X.Whole->getSourceRange(), Ctx).has_value() &&
                 std::all_of(X.Indices.begin(), X.Indices.end(),
                             [&](const Expr *I) { return fixedOutside(I, LoopVars); });
      }
      if (!Plain)
        continue;
      std::optional<Reduction> R = recogniseElementReduction(Mentions, Ctx);
      if (!R)
        continue;
      // The elements it reads otherwise are never that one, in any
      // iteration.
      Nest Check;
      Check.Vars = N.Vars;
      Check.SymbolNames = N.SymbolNames;
      for (const Access &X : N.Accesses)
        if (MentionIds.count(X.Id) && X.Write && Check.Accesses.empty())
          Check.Accesses.push_back(X);
      for (const Access &X : N.Accesses)
        if (OtherIds.count(X.Id))
          Check.Accesses.push_back(X);
      size_t Near = 1;
      while (Near < Check.Accesses.size() && provablyApart(Check, 0, Near))
        ++Near;
      if (Near < Check.Accesses.size()) {
        // (A nest of one iteration needs no reduction: the test decides.)
        if (testPair(Check, 0, 0).V == Verdict::Independent)
          continue;
        const Access &Other = Check.Accesses[Near];
        Refusal F = refusal(&Reporter::migrateReductionUse, Element->Whole->getBeginLoc(),
                            {shownText(Element->Whole, Ctx), "'" + Other.Text + "' may be the same element"});
        F.OtherAccess = M.AccessLocs[Other.Id];
        return refuse(std::move(F));
      }
      // An element of shared memory every iteration updates, under an
      // OpenMP directive, no clause naming it and no atomic or critical
      // section in the loop: the original's threads race on it.
      if (M.Pragma && M.Pragma->Model == PragmaModel::OpenMP && !clauseNaming(A, "reduction") &&
          !guardedWithin() && teamShares(A))
        M.Notes.push_back(refusal(&Reporter::migrateUnlistedReduction, Element->Whole->getBeginLoc(),
                                  {shownText(Element->Whole, Ctx), clauseSpelling(R->Op)}));
      R->Name = elementName(A, *Element, M.Reductions);
      R->Array = A;
      M.Reductions.push_back(std::move(*R));
      N.Accesses.erase(std::remove_if(N.Accesses.begin(), N.Accesses.end(),
                                      [&](const Access &X) { return MentionIds.count(X.Id) > 0; }),
                       N.Accesses.end());
      // The kernel reads the array's other elements, or has no use for it.
      for (auto It = M.Arrays.begin(); It != M.Arrays.end(); ++It)
        if (It->Var == A) {
          It->Written = false;
          if (OtherIds.empty())
            M.Arrays.erase(It);
          break;
        }
    }
    return true;
  }

  /// E has one value for the whole nest, which the host can compute before
  /// it: literals and variables from outside that the loop does not
  /// change, in arithmetic.
  bool fixedOutside(const Expr *E, const std::map<const VarDecl *, int> &LoopVars) const {
    E = E->IgnoreParenImpCasts();
    if (isa<IntegerLiteral>(E))
      return true;
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (isa<EnumConstantDecl>(D->getDecl()))
        return true;
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      return V && !LoopVars.count(V) && !Locals.count(V) && !Varying.count(V); // levels are LoopVars
    }
    if (const auto *Un = dyn_cast<UnaryOperator>(E))
      return (Un->getOpcode() == UO_Minus || Un->getOpcode() == UO_Plus) &&
             fixedOutside(Un->getSubExpr(), LoopVars);
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return (B->isAdditiveOp() || B->isMultiplicativeOp()) && fixedOutside(B->getLHS(), LoopVars) &&
             fixedOutside(B->getRHS(), LoopVars);
    return false;
  }

  /// The kernel's name for an element's partial value: `x_i`, `b_i_j` (or
  /// `x_element` for other subscripts), with `dp_` before it while the
  /// loop's text or another reduction uses the name.
  std::string elementName(const VarDecl *A, const ElementAccess &X, const std::vector<Reduction> &Others) const {
    std::string Name = kernelName(A);
    bool Simple = true;
    for (const Expr *I : X.Indices) {
      const std::string T = compactText(I, Ctx);
      Simple &= !T.empty() && std::all_of(T.begin(), T.end(), [](char C) {
        return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
      });
      Name += "_" + T;
    }
    if (!Simple)
      Name = kernelName(A) + "_element";
    const std::string Loop = textOf(C.Loop, Ctx);
    auto Used = [&](const std::string &N) {
      for (const Reduction &R : Others)
        if (R.Name == N)
          return true;
      return std::regex_search(Loop, std::regex("\\b" + N + "\\b"));
    };
    while (Used(Name) || Used("dp_" + Name))
      Name = "dp_" + Name;
    return Name;
  }

  const Candidate &C;
  const UnitFacts &U;
  ASTContext &Ctx;
  int Depth;
  int Required;
  int Reached = 0;
  LoopModel M;
  BodyFacts Facts;
  std::set<const VarDecl *> LevelVars, Varying, ArrayOnlySized, HelperReads;
  std::set<const VarDecl *> PrivateRecords; ///< privateRecords()
  std::set<const VarDecl *> PrivateArrays;  ///< privateArrays()
  /// Arrays the body hands whole to a function of the file: whether it may
  /// write through them.
  std::map<const VarDecl *, bool> Handed;
  /// Arrays to borrow whose length no data clause gives: their refusal
  /// if the accesses do not give it either.
  std::map<const VarDecl *, Refusal> Unmeasured;

  /// The parameter that becomes a field with the array Ref names, when Ref
  /// is a call's argument (fieldParameter), or null.
  const ParmVarDecl *handedTo(const DeclRefExpr *Ref) const {
    if (!Ref)
      return nullptr;
    const Stmt *Arg = nullptr;
    const auto *Call = dyn_cast_or_null<CallExpr>(meaningfulParent(Ref, Ctx, Arg));
    if (!Call)
      return nullptr;
    for (unsigned K = 0; K < Call->getNumArgs(); ++K)
      if (Call->getArg(K) == Arg)
        return fieldParameter(Call, K, Ctx.getSourceManager());
    return nullptr;
  }
  std::map<const VarDecl *, const Expr *> Locals, Inline;
  /// The references of each variable from outside the loop (scalars()).
  std::map<const VarDecl *, std::vector<const VarRef *>> ByVar;
  /// Variables an arg max sets with its value (goesWith()).
  std::set<const VarDecl *> Companions;
  /// Atomic and critical updates in the body, of these variables (scan()).
  std::vector<std::pair<const PragmaLine *, const VarDecl *>> Guarded;
};

/// How deep a nest of plain loops goes: perfectly nested for loops.
int plainDepth(const ForStmt *F) {
  int D = 1;
  while ((F = perfectlyNested(F->getBody())))
    ++D;
  return D;
}

} // namespace

LoopModel analyseLoop(const Candidate &C, const UnitFacts &U) {
  if (C.From == Origin::Pragma) {
    const Directive &D = C.Pragma->D;
    int Depth = D.collapse();
    if (const Clause *T = D.clause("tile")) // OpenACC tile(a, b): both loops
      Depth = static_cast<int>(clauseVariables(T->Args).size());
    if (Depth <= 0) {
      LoopModel M;
      M.Outer = C.Loop;
      M.Construct = C.Construct;
      M.Refused = refusal(&Reporter::migrateConstruct, C.Pragma->Loc,
                          {"collapse(" + std::string(D.clause("collapse")->Args) + ")",
                           "is not a constant dpstub can read"});
      return M;
    }
    // Perfectly nested loops carrying their own loop directive join the
    // nest where they can (`acc parallel loop gang` over `acc loop
    // vector`); the collapsed ones must.
    const int Required = Depth;
    const ForStmt *F = C.Loop;
    for (int K = 1; K < Depth && F; ++K)
      F = perfectlyNested(F->getBody());
    while (F) {
      const ForStmt *Next = perfectlyNested(F->getBody());
      bool Marked = false;
      for (const PragmaLine &P : U.Pragmas)
        Marked |= Next && P.On == Next && P.D.Kind == DirectiveKind::Loop && !P.D.clause("seq");
      if (!Marked)
        break;
      ++Depth;
      F = Next;
    }
    // The joined levels are the directives' to assert only level by
    // level: a nest that depends across them (an inner `acc loop` that is
    // really a reduction) keeps its inner loops in the kernel.
    std::optional<LoopModel> First;
    for (int D = Depth; D >= Required; --D) {
      Analysis A(C, U, D, Required);
      LoopModel M = A.run();
      if (!M.Refused || D == Required || !refusedForOrder(M.Refused))
        return First && M.Refused ? std::move(*First) : std::move(M);
      if (!First)
        First = std::move(M);
    }
    return std::move(*First);
  }
  // Plain loops and loops of a kernels region: the deepest nest proven
  // independent.
  std::optional<LoopModel> First;
  for (int Depth = plainDepth(C.Loop); Depth >= 1; --Depth) {
    Analysis A(C, U, Depth, 1);
    LoopModel M = A.run();
    if (!M.Refused)
      return M;
    if (!First)
      First = std::move(M);
    if (A.depth() < Depth)
      Depth = A.depth() + 1; // it stopped early: no use trying the depths between
  }
  return std::move(*First);
}

} // namespace dpstub::migrate
