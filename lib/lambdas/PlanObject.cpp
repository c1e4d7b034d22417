//===- PlanObject.cpp - A lambda planned as a function object ------------===//
//
// planLambdaObject is a list of stages over one LambdaObject: where the
// lambda's text is, the lambda as written (in a template's pattern), the
// template head, where the object goes, then its captures, the members it
// reads through `this`, the names its body uses and its parameter list.
// Each stage either fills its part or says why no object can be written.
// What they ask of the AST is Scope.h's.
//
//===----------------------------------------------------------------------===//

#include "AstText.h"
#include "lambdas/Detail.h"
#include "lambdas/Scope.h"
#include "dpstub/DpTypes.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace clang;

namespace dpstub {

namespace {

/// A member of the function object: a capture, or a data member read
/// through a captured `this`. Its constructor parameter drops the const.
LambdaObject::Member memberOf(std::string Name, QualType T, std::string Init,
                              const ASTContext &Ctx) {
  LambdaObject::Member M;
  M.Name = std::move(Name);
  M.Type = printType(T, Ctx);
  M.ParamType = printType(T.getUnqualifiedType(), Ctx);
  M.Init = std::move(Init);
  return M;
}

/// The lambda's text in the main file: Begin and End.
llvm::Error locateText(const LambdaExpr *Instance, const ASTContext &Ctx, LambdaObject &O) {
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation EndLoc =
      Lexer::getLocForEndOfToken(Instance->getEndLoc(), 0, SM, Ctx.getLangOpts());
  if (!mainFileOffset(Instance->getBeginLoc(), SM, O.Begin) ||
      !mainFileOffset(EndLoc, SM, O.End))
    return cannot("it is spelled in a macro or an included file");
  return llvm::Error::success();
}

/// The lambda as written: in an instantiation of a template (a function
/// template, a member of a class template), the object is written for the
/// template, from the lambda in the template's pattern.
llvm::Expected<const LambdaExpr *> lambdaAsWritten(const LambdaExpr *Instance,
                                                   const TemplateContext &T,
                                                   const FunctionDecl *F) {
  if (T.Pattern == F)
    return Instance;
  PatternFinder Find(Instance->getBeginLoc());
  Find.TraverseStmt(T.Pattern->getBody());
  if (!Find.Found)
    return cannot("dpstub could not find it in its enclosing template");
  return Find.Found;
}

/// The object is a class template over the enclosing templates' parameters:
/// TemplateHead and TemplateArgs.
llvm::Error planTemplateHead(const TemplateContext &T, const ASTContext &Ctx, LambdaObject &O) {
  const std::vector<const TemplateParameterList *> &Allowed = T.Lists;
  if (Allowed.empty())
    return llvm::Error::success();
  std::vector<std::string> Args, Declarations;
  std::set<std::string> Names;
  for (const TemplateParameterList *List : Allowed)
    for (const NamedDecl *P : *List) {
      if (P->getName().empty())
        return cannot("a parameter of its enclosing template has no name");
      if (llvm::StringRef(P->getName()).starts_with("P"))
        return cannot("its enclosing template has a parameter named '" + P->getName().str() +
                      "', as dpstub names the parameters it invents");
      if (!Names.insert(P->getName().str()).second)
        return cannot("its enclosing templates name two parameters '" + P->getName().str() + "'");
      std::optional<std::string> Declared = parameterDeclaration(P, Ctx);
      if (!Declared)
        return cannot("its enclosing template has the template template parameter '" +
                      P->getName().str() + "'");
      Declarations.push_back(*Declared);
      Args.push_back(P->getName().str() + (P->isParameterPack() ? "..." : ""));
    }
  O.TemplateHead = T.FunctionTemplateOnly ? rangeText(Allowed.front()->getSourceRange(), Ctx)
                                          : "template <" + llvm::join(Declarations, ", ") + ">";
  O.TemplateArgs = "<" + llvm::join(Args, ", ") + ">";
  return llvm::Error::success();
}

/// Where it goes: before the declaration at namespace scope that holds it
/// (and its comment), in that declaration's namespace; its name and origin
/// from where the lambda is. The enclosing functions' using-declarations
/// could change what the body's names mean there.
llvm::Error planPlacement(const LambdaExpr *LE, ASTContext &Ctx, LambdaObject &O) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Decl *Outer = namespaceLevelDecl(LE);
  SourceLocation Before = SM.getFileLoc(Outer->getBeginLoc());
  if (const RawComment *RC = Ctx.getRawCommentForDeclNoCache(Outer))
    if (SM.isBeforeInTranslationUnit(RC->getBeginLoc(), Before))
      Before = RC->getBeginLoc();
  unsigned BeforeOffset = 0;
  if (!mainFileOffset(Before, SM, BeforeOffset))
    return cannot("the declaration that holds it is spelled in a macro");
  const FileID Main = SM.getMainFileID();
  O.InsertAt = SM.getFileOffset(SM.translateLineCol(Main, SM.getLineNumber(Main, BeforeOffset), 1));
  O.Scope = scopeOf(Outer->getDeclContext());
  const PresumedLoc P = SM.getPresumedLoc(LE->getBeginLoc());
  O.Origin = locationOf(LE->getBeginLoc(), SM).str();
  O.BaseName = "lambda_" + std::to_string(P.getLine()) + "_" + std::to_string(P.getColumn());
  for (const DeclContext *C : enclosingContexts(LE))
    if (const auto *FD = dyn_cast<FunctionDecl>(C); FD && FD->getBody()) {
      UsingFinder U;
      U.TraverseStmt(FD->getBody());
      if (!U.Found.empty())
        return cannot(U.Found);
    }
  return llvm::Error::success();
}

/// What the captures become.
struct Captures {
  std::set<const VarDecl *> Variables; ///< as written
  bool This = false;
};

/// Captures become members. An instantiation lists every capture; the
/// template as written only those it spells (implicit captures of
/// dependent variables are made per instantiation): each is matched to
/// its variable as written, by where that is declared.
llvm::Expected<Captures> planCaptures(const LambdaExpr *Instance, const LambdaExpr *LE,
                                      const TemplateContext &T, const ASTContext &Ctx,
                                      LambdaObject &O) {
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  LE->getLambdaClass()->getCaptureFields(Fields, ThisField);
  const LocalVariables Written(T.Pattern);
  Captures Out;
  for (const LambdaCapture &C : Instance->captures()) {
    if (C.capturesThis()) {
      if (C.getCaptureKind() != LCK_This)
        return cannot("it captures a copy of '*this'");
      Out.This = true;
      continue;
    }
    if (!C.capturesVariable() || C.getCaptureKind() != LCK_ByCopy)
      return cannot("it captures by reference");
    const auto *Inst = dyn_cast<VarDecl>(C.getCapturedVar());
    const VarDecl *Var = Inst && LE != Instance ? Written.at(Inst->getLocation()) : Inst;
    if (!Var || Var->isParameterPack() || C.isPackExpansion())
      return cannot("it captures a pack or a structured binding");
    Out.Variables.insert(Var);
    const FieldDecl *F = Fields.lookup(Var);
    const QualType Type = F ? F->getType() : Var->getType().getNonReferenceType();
    const std::string Name = Var->getName().str();
    if (Type->isArrayType())
      return cannot("it captures the array '" + Name + "'");
    if (Type->isUndeducedType() || (Type->isDependentType() && Type->getContainedDeducedType()))
      return cannot("the type of its init-capture '" + Name + "' depends on its enclosing template");
    Nameability N(LE, T.Lists);
    N.TraverseType(Type);
    if (!N.Problem.empty())
      return cannot("the type of its capture '" + Name + "' cannot be named outside its function (" +
                    N.Problem + ")");
    const std::string Init =
        Instance->isInitCapture(&C) ? rangeText(Var->getInit()->getSourceRange(), Ctx) : Name;
    if (Init.empty())
      return cannot("the initializer of its capture '" + Name + "' is not in the source");
    O.Members.push_back(memberOf(Name, Type, Init, Ctx));
  }
  return Out;
}

/// Captured `this`: the data members the body reads through it become
/// members of their own, named alike, so the body reads its copies (and
/// Check lets those reads of `this` pass). Nothing may be written through
/// it.
llvm::Error planThisReads(const LambdaExpr *Instance, const LambdaExpr *LE,
                          const TemplateContext &T, ASTContext &Ctx, BodyCheck &Check,
                          LambdaObject &O) {
  ThisReads Used;
  Used.TraverseStmt(LE->getBody());
  if (!Used.Problem.empty())
    return cannot(Used.Problem);
  ThisReads Instantiated;
  Instantiated.TraverseStmt(Instance->getBody());
  for (const MemberExpr *E : Instantiated.Reads)
    if (writesThroughThis(E, *Instance->getBody(), Ctx))
      return cannot("it writes '" + E->getMemberDecl()->getNameAsString() + "' through 'this'");
  std::set<const FieldDecl *> Copied;
  for (const MemberExpr *E : Used.Reads) {
    Check.ThisReads.insert(cast<CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()));
    const auto *FD = cast<FieldDecl>(E->getMemberDecl());
    if (!Copied.insert(FD).second)
      continue;
    const QualType Type = FD->getType();
    const std::string Name = FD->getName().str();
    if (Type->isReferenceType() || Type->isArrayType() || FD->isBitField())
      return cannot("it reads the member '" + Name + "' through 'this', and a " +
                    (Type->isReferenceType() ? "reference"
                     : Type->isArrayType()   ? "array"
                                             : "bit-field") +
                    " member cannot be copied as it is");
    for (const LambdaObject::Member &M : O.Members)
      if (M.Name == Name)
        return cannot("it captures '" + M.Name + "' and reads a member of that name through 'this'");
    Nameability N(LE, T.Lists);
    N.TraverseType(Type);
    if (!N.Problem.empty())
      return cannot("the type of the member '" + Name +
                    "' it reads through 'this' cannot be named outside its class (" + N.Problem +
                    ")");
    // Initialised in the member function by its name: this->name.
    O.Members.push_back(memberOf(Name, Type, Name, Ctx));
  }
  return llvm::Error::success();
}

/// Parameters and body: everything they name must be reachable; the
/// constants of the enclosing function they use are copied in, by name.
llvm::Error checkBodyNames(const LambdaExpr *LE, BodyCheck &Check, LambdaObject &O) {
  const CXXMethodDecl *Op = LE->getCallOperator();
  for (const ParmVarDecl *PD : Op->parameters()) {
    if (const TypeSourceInfo *TSI = PD->getTypeSourceInfo())
      Check.TraverseTypeLoc(TSI->getTypeLoc());
    if (PD->hasDefaultArg())
      Check.TraverseStmt(const_cast<Expr *>(PD->getDefaultArg()));
  }
  if (LE->hasExplicitResultType())
    Check.TraverseTypeLoc(Op->getFunctionTypeLoc().getReturnLoc());
  Check.TraverseStmt(LE->getBody());
  if (!Check.Problem.empty())
    return cannot(Check.Problem);
  for (const auto &[VD, C] : Check.Constants)
    O.Constants.push_back(C);
  std::sort(O.Constants.begin(), O.Constants.end(),
            [](const auto &A, const auto &B) { return A.Name < B.Name; });
  return llvm::Error::success();
}

/// The parameter list as written, each `auto` a type parameter; the
/// return type and the body as written.
llvm::Error planSignature(const LambdaExpr *LE, const ASTContext &Ctx, LambdaObject &O) {
  const SourceManager &SM = Ctx.getSourceManager();
  const CXXMethodDecl *Op = LE->getCallOperator();
  const FunctionTypeLoc FTL = Op->getFunctionTypeLoc();
  if (LE->hasExplicitParameters()) {
    unsigned Open = 0, Close = 0;
    if (!mainFileOffset(FTL.getLParenLoc(), SM, Open) ||
        !mainFileOffset(FTL.getRParenLoc(), SM, Close))
      return cannot("its parameter list is spelled in a macro");
    const llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
    std::string Params;
    unsigned At = Open + 1;
    for (unsigned I = 0; I < Op->getNumParams(); ++I) {
      const ParmVarDecl *PD = Op->getParamDecl(I);
      const SourceLocation Auto = PD->getTypeSourceInfo()
                                      ? autoLocation(PD->getTypeSourceInfo()->getTypeLoc())
                                      : SourceLocation();
      if (Auto.isInvalid())
        continue;
      unsigned AutoOffset = 0;
      if (!mainFileOffset(Auto, SM, AutoOffset) || AutoOffset < At || AutoOffset >= Close ||
          Buffer.substr(AutoOffset, 4) != "auto")
        return cannot("dpstub could not find the `auto` of its parameter '" +
                      PD->getName().str() + "'");
      const std::string Name = "P" + std::to_string(I);
      O.TypeParams.push_back(std::string(PD->isParameterPack() ? "class... " : "class ") + Name);
      O.AutoParams.push_back({PD->getName().str(), Name});
      Params += Buffer.slice(At, AutoOffset).str() + Name;
      At = AutoOffset + 4;
    }
    Params += Buffer.slice(At, Close).str();
    O.Params = Params;
  }
  if (LE->isGenericLambda() && O.TypeParams.empty())
    return cannot("dpstub could not find the `auto` of its parameters");
  O.Return = LE->hasExplicitResultType() ? rangeText(FTL.getReturnLoc().getSourceRange(), Ctx)
                                         : std::string("auto");
  O.Body = rangeText(LE->getBody()->getSourceRange(), Ctx);
  if (O.Body.empty())
    return cannot("its body is not in the source");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<LambdaObject> planLambdaObject(const LambdaExpr *Instance, std::string Restriction,
                                              ASTContext &Ctx) {
  LambdaObject O;
  O.Lambda = Instance;
  O.Restriction = std::move(Restriction);
  if (llvm::Error E = locateText(Instance, Ctx, O))
    return E;
  const FunctionDecl *F = enclosingFunction(Instance);
  if (!F)
    return cannot("it is not inside a function");
  llvm::Expected<TemplateContext> T = templateContextOf(F);
  if (!T)
    return T.takeError();
  llvm::Expected<const LambdaExpr *> Written = lambdaAsWritten(Instance, *T, F);
  if (!Written)
    return Written.takeError();
  const LambdaExpr *LE = *Written;
  if (llvm::Error E = planTemplateHead(*T, Ctx, O))
    return E;
  if (LE->isMutable())
    return cannot("it is mutable (each of its calls must start from the captured state)");
  if (!LE->getExplicitTemplateParameters().empty())
    return cannot("it has an explicit template parameter list");
  if (llvm::Error E = planPlacement(LE, Ctx, O))
    return E;
  llvm::Expected<Captures> Captured = planCaptures(Instance, LE, *T, Ctx, O);
  if (!Captured)
    return Captured.takeError();
  BodyCheck Check(LE, T->Lists, Ctx);
  Check.Captured = Captured->Variables;
  if (Captured->This)
    if (llvm::Error E = planThisReads(Instance, LE, *T, Ctx, Check, O))
      return E;
  if (llvm::Error E = checkBodyNames(LE, Check, O))
    return E;
  if (llvm::Error E = planSignature(LE, Ctx, O))
    return E;
  return O;
}

} // namespace dpstub
