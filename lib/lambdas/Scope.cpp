//===- Scope.cpp - What a lambda names and where it sits -----------------===//

#include "lambdas/Scope.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace dpstub {

bool declaredWithin(const Decl *D, const DeclContext *DC) {
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (C == DC)
      return true;
  return false;
}

/// True when D is declared in a function (or a lambda): a local entity.
bool isLocal(const Decl *D) {
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (C->isFunctionOrMethod())
      return true;
  return false;
}

/// The functions and classes around a lambda, innermost first, up to the
/// declaration at namespace scope.
std::vector<const DeclContext *> enclosingContexts(const LambdaExpr *LE) {
  std::vector<const DeclContext *> Out;
  for (const DeclContext *C = LE->getLambdaClass()->getDeclContext(); C && !C->isFileContext();
       C = C->getParent())
    Out.push_back(C);
  return Out;
}

/// The first function around a lambda that is not itself a lambda.
const FunctionDecl *enclosingFunction(const LambdaExpr *LE) {
  for (const DeclContext *C : enclosingContexts(LE))
    if (const auto *FD = dyn_cast<FunctionDecl>(C))
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); !MD || !MD->getParent()->isLambda())
        return FD;
  return nullptr;
}

std::string rangeText(SourceRange R, const ASTContext &Ctx) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), Ctx.getSourceManager(),
                              Ctx.getLangOpts())
      .str();
}

SourceLocation autoLocation(TypeLoc TL) {
  while (!TL.isNull()) {
    TL = TL.getUnqualifiedLoc();
    if (auto A = TL.getAs<AutoTypeLoc>())
      return A.getNameLoc();
    if (auto P = TL.getAs<TemplateTypeParmTypeLoc>())
      return P.getDecl() && P.getDecl()->isImplicit() ? P.getNameLoc() : SourceLocation();
    if (auto R = TL.getAs<ReferenceTypeLoc>())
      TL = R.getPointeeLoc();
    else if (auto Pt = TL.getAs<PointerTypeLoc>())
      TL = Pt.getPointeeLoc();
    else if (auto PE = TL.getAs<PackExpansionTypeLoc>())
      TL = PE.getPatternLoc();
    else if (auto Pa = TL.getAs<ParenTypeLoc>())
      TL = Pa.getInnerLoc();
    else
      return SourceLocation();
  }
  return SourceLocation();
}

/// Offset of L in the main file; false when it is elsewhere or in a macro.
bool mainFileOffset(SourceLocation L, const SourceManager &SM, unsigned &Out) {
  if (L.isInvalid() || L.isMacroID() || !SM.isWrittenInMainFile(L))
    return false;
  Out = SM.getFileOffset(L);
  return true;
}

/// The declaration at namespace scope that holds a lambda, as written (a
/// template, not one of its instantiations).
const Decl *namespaceLevelDecl(const LambdaExpr *LE) {
  const Decl *D = LE->getLambdaClass();
  while (!D->getDeclContext()->isFileContext())
    D = cast<Decl>(D->getDeclContext());
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      FD = P;
    D = FD->getDescribedFunctionTemplate() ? static_cast<const Decl *>(FD->getDescribedFunctionTemplate())
                                           : FD;
  } else if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
    if (const CXXRecordDecl *P = RD->getTemplateInstantiationPattern())
      RD = P;
    D = RD->getDescribedClassTemplate() ? static_cast<const Decl *>(RD->getDescribedClassTemplate())
                                        : RD;
  }
  return D;
}

std::string scopeOf(const DeclContext *DC) {
  std::string Scope = "::";
  std::vector<std::string> Names;
  for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
      Names.insert(Names.begin(), NS->getName().str());
  for (const std::string &N : Names)
    Scope += N + "::";
  return Scope;
}

llvm::Error cannot(const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
}

llvm::Expected<TemplateContext> templateContextOf(const FunctionDecl *F) {
  TemplateContext T;
  T.Pattern = F->getTemplateInstantiationPattern() ? F->getTemplateInstantiationPattern() : F;
  for (const DeclContext *C = T.Pattern->getDeclContext(); C && !C->isFileContext();
       C = C->getParent()) {
    if (isa<ClassTemplatePartialSpecializationDecl>(C))
      return cannot("it is in a member of a partial specialization of a class template");
    if (const auto *RD = dyn_cast<CXXRecordDecl>(C)) {
      if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate())
        T.Lists.insert(T.Lists.begin(), CT->getTemplateParameters());
    } else if (isa<FunctionDecl>(C)) {
      return cannot("it is in a class local to a function");
    }
  }
  if (const FunctionTemplateDecl *FT = T.Pattern->getDescribedFunctionTemplate()) {
    T.FunctionTemplateOnly = T.Lists.empty();
    T.Lists.push_back(FT->getTemplateParameters());
  }
  return T;
}

/// A template parameter as its declaration in a template head, without a
/// default; none for a template template parameter.
std::optional<std::string> parameterDeclaration(const NamedDecl *P, const ASTContext &Ctx) {
  const std::string Pack = P->isParameterPack() ? "... " : " ";
  if (const auto *T = dyn_cast<TemplateTypeParmDecl>(P))
    return std::string(T->wasDeclaredWithTypename() ? "typename" : "class") + Pack +
           P->getName().str();
  if (const auto *N = dyn_cast<NonTypeTemplateParmDecl>(P))
    return printType(N->getType(), Ctx) + Pack + P->getName().str();
  return std::nullopt;
}

bool writesThroughThis(const MemberExpr *E, const Stmt &Body, ASTContext &Ctx) {
  ExprMutationAnalyzer Mutations(Body, Ctx);
  if (!isDpField(E->getType()))
    return Mutations.isMutated(E);
  // A field's non-const operator() or [] is picked in a non-const member
  // function whether or not the element is written: what counts is the
  // element.
  for (const DynTypedNode &Parent : Ctx.getParents(*E))
    if (const auto *Call = Parent.get<CXXOperatorCallExpr>();
        Call && Call->getNumArgs() > 0 && Call->getArg(0)->IgnoreParenImpCasts() == E)
      return Mutations.isMutated(Call);
  return Mutations.isMutated(E);
}

} // namespace dpstub
