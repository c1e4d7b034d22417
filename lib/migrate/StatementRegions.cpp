//===- StatementRegions.cpp - Device regions of statements alone ----------===//

#include "migrate/StatementRegions.h"

#include "migrate/BodyScan.h"
#include "migrate/DataDirectives.h"
#include "migrate/Render.h"

#include "AstVisitor.h"

#include <algorithm>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// Clauses that only say where data lives (moot once the data is dp's)
/// or how many threads to start (one point needs one).
bool onlyPlacesData(const Clause &C) {
  static const char *const Names[] = {"deviceptr", "is_device_ptr", "map",           "default",   "defaultmap",
                                      "num_gangs", "num_workers",   "vector_length", "num_teams", "thread_limit"};
  return dataKind(C.Name) != "?" ||
         std::any_of(std::begin(Names), std::end(Names), [&](const char *N) { return C.Name == N; });
}

/// Why the statements of Body cannot be a kernel's (empty when they can),
/// and the fields they use.
struct Scan : AstVisitor {
  ASTContext &Ctx;
  const std::set<const VarDecl *> &Fields;
  const Stmt *Body;
  std::vector<const VarDecl *> Used;
  std::string Why;

  Scan(ASTContext &Ctx, const std::set<const VarDecl *> &Fields, const Stmt *Body)
      : Ctx(Ctx), Fields(Fields), Body(Body) {}

  bool inside(const Decl *D) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return !SM.isBeforeInTranslationUnit(D->getLocation(), Body->getBeginLoc()) &&
           SM.isBeforeInTranslationUnit(D->getLocation(), Body->getEndLoc());
  }
  bool stop(std::string Reason) {
    if (Why.empty())
      Why = std::move(Reason);
    return false;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (!V)
      return isa<FunctionDecl>(E->getDecl()) || isa<EnumConstantDecl>(E->getDecl())
                 ? true
                 : stop("it names '" + E->getDecl()->getNameAsString() + "'");
    const std::string Name = V->getName().str();
    if (Fields.count(V) || Fields.count(V->getCanonicalDecl())) {
      if (std::find(Used.begin(), Used.end(), V) == Used.end())
        Used.push_back(V);
      return true;
    }
    if (inside(V))
      return true;
    if (!V->hasLocalStorage())
      return V->isUsableInConstantExpressions(Ctx) // a constant the compiler folds in
                 ? true
                 : stop("it uses '" + Name + "', a variable of namespace scope or static, which a device cannot read");
    if (V->getType()->isPointerType() || V->getType()->isArrayType() || V->getType()->isReferenceType())
      return stop("it uses '" + Name + "', which stays a pointer");
    const UseMode Use = useMode(E, Ctx);
    if (Use.Write || Use.Address)
      return stop("it writes '" + Name + "', a variable of the host, which a kernel's copy would not change");
    return true;
  }
  bool VisitCallExpr(CallExpr *C) override {
    const FunctionDecl *F = C->getDirectCallee();
    return stop("it calls '" + (F ? F->getNameAsString() : std::string("a function")) + "'");
  }
  bool VisitReturnStmt(ReturnStmt *) override { return stop("it returns"); }
  bool VisitGotoStmt(GotoStmt *) override { return stop("it jumps out with 'goto'"); }
  bool VisitLambdaExpr(LambdaExpr *) override { return stop("it holds a lambda"); }
  bool VisitCXXThisExpr(CXXThisExpr *) override { return stop("it uses 'this'"); }
  bool VisitMemberExpr(MemberExpr *M) override { return stop("it uses the member '" + M->getMemberNameInfo().getAsString() + "'"); }
};

} // namespace

std::variant<OnePointKernel, std::string> onePointKernel(const PragmaLine &P, const std::set<const VarDecl *> &Fields,
                                                         ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(P.On);
  if (!Body)
    return std::string("its statement is not a block");
  std::string Queue, When;
  for (const Clause &C : P.D.Clauses) {
    if (C.Name == "if" && C.HasArgs) {
      When = C.Args;
      continue;
    }
    if (C.Name == "async" || (C.Name == "nowait" && P.D.Model == PragmaModel::OpenMP)) {
      Queue = queueText(C.HasArgs ? C.Args : std::string());
      continue;
    }
    // dp orders the kernel behind the work on the fields it uses, the only
    // data it shares with other work: a wait() adds nothing (a loop's is
    // dropped too).
    if (C.Name == "wait" && P.D.Model == PragmaModel::OpenACC)
      continue;
    if (!onlyPlacesData(C))
      return "its clause '" + C.Name + (C.HasArgs ? "(" + C.Args + ")" : std::string()) +
             "' has no counterpart in a kernel of one point";
  }
  Scan S(Ctx, Fields, Body);
  S.TraverseStmt(const_cast<CompoundStmt *>(Body));
  if (!S.Why.empty())
    return S.Why;
  if (S.Used.empty())
    return std::string("it uses no dp::field");
  return OnePointKernel{S.Used, Queue, When};
}

std::vector<TextEdit> onePointKernelEdits(const PragmaLine &P, const OnePointKernel &K, const ArrayData &Arrays,
                                          ASTContext &Ctx) {
  const auto *Body = cast<CompoundStmt>(P.On);
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Formals, Actuals;
  for (const VarDecl *V : K.Fields) {
    const ArrayVar *Info = Arrays.find(V);
    Formals += ", " + Arrays.fieldType(V, Info && Info->Element.isConstQualified()) + " &" + V->getName().str();
    Actuals += ", " + V->getName().str();
  }
  // Its options, as a loop's call-site's: dp::on(q).when(c), .
  std::vector<std::string> Parts;
  if (!K.Queue.empty())
    Parts.push_back("on(" + K.Queue + ")");
  if (!K.When.empty())
    Parts.push_back("when(" + K.When + ")");
  const std::string Options = optionsArgument(Parts);
  const unsigned Open = SM.getFileOffset(SM.getFileLoc(Body->getLBracLoc()));
  const unsigned Close = SM.getFileOffset(SM.getFileLoc(Body->getRBracLoc())) + 1;
  return {{P.Begin, P.End - P.Begin, ""},
          {Open, 0,
           "dp::forall(" + Options + "dp::grid<1>(1), [=](dp::index<1>" + Formals + ") "},
          {Close, 0, Actuals + ");"}};
}

} // namespace dpstub::migrate
