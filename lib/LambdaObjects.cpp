//===- LambdaObjects.cpp - Lambdas rewritten as function objects ----------===//

#include "dpstub/LambdaObjects.h"
#include "AstText.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;

namespace dpstub {

namespace {

/// True when D is declared inside DC (at any depth).
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

std::string text(SourceRange R, const ASTContext &Ctx) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), Ctx.getSourceManager(),
                              Ctx.getLangOpts())
      .str();
}

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

/// Finds what in a type (or a lambda's code) cannot be named at namespace
/// scope: a function-local type, a template parameter (but those of the
/// function template the object is written for), a member of an enclosing
/// class. Derived: the visitor class (CRTP).
template <class Derived> class NameabilityBase : public RecursiveASTVisitor<Derived> {
public:
  using ParameterLists = std::vector<const TemplateParameterList *>;
  NameabilityBase(const LambdaExpr *LE, const ParameterLists &Allowed)
      : Op(LE->getCallOperator()), Allowed(Allowed) {
    for (const DeclContext *C : enclosingContexts(LE))
      if (const auto *RD = dyn_cast<CXXRecordDecl>(C); RD && !RD->isLambda())
        Records.push_back(RD);
  }
  std::string Problem;

  bool VisitTagTypeLoc(TagTypeLoc TL) { return checkNamed(TL.getDecl(), "type"); }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) { return checkNamed(TL.getTypedefNameDecl(), "type"); }
  bool VisitTagType(TagType *T) { return checkNamed(T->getDecl(), "type"); }
  bool VisitTypedefType(TypedefType *T) { return checkNamed(T->getDecl(), "type"); }
  bool VisitSubstTemplateTypeParmTypeLoc(SubstTemplateTypeParmTypeLoc TL) {
    return parameter(TL.getTypePtr()->getReplacedParameter());
  }
  bool VisitSubstTemplateTypeParmType(SubstTemplateTypeParmType *T) {
    return parameter(T->getReplacedParameter());
  }
  bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc TL) { return parameter(TL.getDecl()); }
  bool VisitTemplateTypeParmType(TemplateTypeParmType *T) { return parameter(T->getDecl()); }
  bool VisitSubstNonTypeTemplateParmExpr(SubstNonTypeTemplateParmExpr *E) {
    return parameter(E->getParameter());
  }
  bool VisitCXXThisExpr(CXXThisExpr *E) {
    return ThisReads.count(E) ? true : fail("it uses 'this' other than to read a data member");
  }
  /// The `this` of each data member read the object copies (thisMembers).
  llvm::SmallPtrSet<const CXXThisExpr *, 8> ThisReads;

protected:
  /// A template parameter named from the lambda: an `auto` parameter's
  /// invented type, one of the allowed template's, or a problem.
  bool parameter(const NamedDecl *D) {
    if (D && (D->isImplicit() || declaredWithin(D, Op)))
      return true;
    for (const TemplateParameterList *L : Allowed)
      for (const NamedDecl *P : *L)
        if (P == D)
          return true;
    return fail("it names '" + (D ? D->getName().str() : std::string("a template parameter")) +
                "', a parameter of its enclosing template");
  }
  /// D is named from the lambda: it must be the lambda's own, or visible at
  /// namespace scope.
  bool checkNamed(const NamedDecl *D, const char *What) {
    if (!D || declaredWithin(D, Op) || !Problem.empty())
      return true;
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D); RD && RD->isLambda())
      return fail("it names the type of another lambda");
    if (isLocal(D))
      return fail(std::string("it names '") + D->getName().str() + "', a " + What +
                  " local to its enclosing function");
    for (const CXXRecordDecl *RD : Records)
      if (declaredWithin(D, RD))
        return fail("it names '" + D->getName().str() + "', a member of its enclosing class '" +
                    RD->getName().str() + "'");
    return true;
  }
  bool fail(std::string Why) {
    if (Problem.empty())
      Problem = std::move(Why);
    return false;
  }

  const CXXMethodDecl *Op;
  ParameterLists Allowed;
  std::vector<const CXXRecordDecl *> Records;
};

/// Nameability of a capture's type.
class Nameability : public NameabilityBase<Nameability> {
public:
  using NameabilityBase::NameabilityBase;
};

/// Walks a lambda's parameters and body: every entity it names must be its
/// own, a capture, a constant of the enclosing function (copied in) or
/// visible at namespace scope.
class BodyCheck : public NameabilityBase<BodyCheck> {
public:
  BodyCheck(const LambdaExpr *LE, const ParameterLists &Allowed, ASTContext &Ctx)
      : NameabilityBase(LE, Allowed), LE(LE), Ctx(Ctx) {}
  std::map<const VarDecl *, LambdaObject::Constant> Constants;
  /// The variables the lambda captures (in the template as written).
  std::set<const VarDecl *> Captured;

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (declaredWithin(D, Op) || !Problem.empty())
      return true;
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && isLocal(VD))
      return Captured.count(VD) ? true : constant(VD);
    if (isa<NonTypeTemplateParmDecl>(D))
      return parameter(D);
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D))
      return checkNamed(cast<NamedDecl>(EC->getDeclContext()), "type");
    return checkNamed(D, "function");
  }
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->isLambda() || !RD->isThisDeclarationADefinition())
      return true;
    return fail("it defines the class '" + RD->getName().str() + "'");
  }

private:
/// A local variable used without a capture: only a constant can be, and
  /// the function object gets a copy of its value.
  bool constant(const VarDecl *VD) {
    const QualType T = VD->getType().getNonReferenceType();
    const APValue *V = VD->isUsableInConstantExpressions(Ctx) ? VD->evaluateValue() : nullptr;
    if (!V || !(T->isIntegralOrEnumerationType() || T->isRealFloatingType()))
      return fail("it uses '" + VD->getName().str() + "' of its enclosing function without "
                  "capturing it");
    LambdaObject::Constant C;
    C.Name = VD->getName().str();
    C.Type = printType(T.getUnqualifiedType(), Ctx);
    if (V->isInt()) {
      const llvm::APSInt &I = V->getInt();
      C.Value = T->isBooleanType() ? (I.getBoolValue() ? "true" : "false")
                                   : "static_cast<" + C.Type + ">(" +
                                         llvm::toString(I, 10) + (I.isSigned() ? "LL" : "ULL") +
                                         ")";
    } else if (V->isFloat()) {
      llvm::SmallString<64> Hex;
      Hex.resize(64);
      const unsigned Len = V->getFloat().convertToHexString(Hex.data(), 0, false,
                                                            llvm::APFloat::rmNearestTiesToEven);
      Hex.resize(Len);
      C.Value = "static_cast<" + C.Type + ">(" + Hex.str().str() + "L)";
    } else {
      return fail("it uses '" + VD->getName().str() + "' of its enclosing function without "
                  "capturing it");
    }
    Constants[VD] = C;
    return true;
  }

  const LambdaExpr *LE;
  ASTContext &Ctx;
};

/// A using-directive, using-declaration or namespace alias in a function:
/// names the lambda's body finds through it are not found at namespace
/// scope.
class UsingFinder : public RecursiveASTVisitor<UsingFinder> {
public:
  std::string Found;
  bool VisitUsingDirectiveDecl(UsingDirectiveDecl *D) { return note(D); }
  bool VisitUsingDecl(UsingDecl *D) { return note(D); }
  bool VisitNamespaceAliasDecl(NamespaceAliasDecl *D) { return note(D); }
  bool VisitUsingEnumDecl(UsingEnumDecl *D) { return note(D); }

private:
  bool note(Decl *D) {
    Found = "its enclosing function has a using-declaration or namespace alias, which names in "
            "the lambda may depend on";
    return false;
  }
};

/// The location of the `auto` a generic lambda's parameter type is written
/// with, if it has one.
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

} // namespace

std::optional<std::string> nvccRestriction(const LambdaExpr *LE, ASTContext &Ctx) {
  if (LE->isGenericLambda())
    return std::string("nvcc takes no generic lambda, one with auto parameters, as a "
                       "__host__ __device__ lambda");
  for (const LambdaCapture &C : LE->captures()) {
    if (LE->isInitCapture(&C))
      return std::string("nvcc takes no init-capture in a __host__ __device__ lambda");
    if (C.capturesVariable() && C.getCaptureKind() == LCK_ByCopy) {
      const QualType T = C.getCapturedVar()->getType().getNonReferenceType();
      if (T.isConstQualified() && T->isRecordType())
        return "nvcc copy-initialises the captures of a __host__ __device__ lambda, and '" +
               C.getCapturedVar()->getName().str() + "' is a const '" +
               printType(T.getUnqualifiedType(), Ctx) + "'" +
               (isDpField(T) ? ", which refuses a copy that could write" : "");
    }
  }
  for (const LambdaCapture &C : LE->captures())
    if (C.capturesThis() && C.getCaptureKind() == LCK_This)
      return std::string("on a device, the 'this' it captures would point to the object in host "
                         "memory");
  for (const DeclContext *C : enclosingContexts(LE))
    if (const auto *MD = dyn_cast<CXXMethodDecl>(C); MD && MD->getParent()->isLambda() &&
                                                     MD->getParent()->isGenericLambda())
      return std::string("nvcc takes no __host__ __device__ lambda inside a generic lambda");
  const FunctionDecl *F = enclosingFunction(LE);
  if (!F)
    return std::nullopt;
  if (F->getDeclaredReturnType()->getContainedDeducedType())
    return "nvcc takes no __host__ __device__ lambda in a function whose return type is "
           "deduced, as '" + F->getNameAsString() + "''s is";
  for (const DeclContext *C = F; C && !C->isFileContext(); C = C->getParent()) {
    const auto *D = dyn_cast<Decl>(C);
    if (const auto *RD = dyn_cast<CXXRecordDecl>(C); RD && RD->isLocalClass())
      return std::string("nvcc takes no __host__ __device__ lambda in a member function of a "
                         "class local to a function");
    if (D && D->getDeclContext()->isRecord() &&
        (D->getAccess() == AS_private || D->getAccess() == AS_protected))
      return "nvcc takes no __host__ __device__ lambda in a private or protected member, and '" +
             cast<NamedDecl>(D)->getNameAsString() + "' is one";
  }
  if (const TemplateArgumentList *Args = F->getTemplateSpecializationArgs())
    for (const TemplateArgument &A : Args->asArray())
      if (A.getKind() == TemplateArgument::Type)
        if (const TagDecl *TD = A.getAsType()->getAsTagDecl(); TD && isLocal(TD))
          return std::string("nvcc takes no __host__ __device__ lambda in a function template "
                             "instantiated with a type local to a function");
  (void)Ctx;
  return std::nullopt;
}

namespace {

/// The templates around a lambda's enclosing function, as written: the
/// function's pattern (itself when it is no instantiation) and the
/// parameter lists of the class templates around it and of the function
/// template, outermost first.
struct TemplateContext {
  const FunctionDecl *Pattern = nullptr;
  std::vector<const TemplateParameterList *> Lists;
  bool FunctionTemplateOnly = false; ///< one list, the function template's
};

/// Why no function object can be written for a lambda, as an error.
static llvm::Error cannot(const llvm::Twine &Why) {
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

/// The data members a lambda that captures `this` reads through it: the
/// function object copies them and its body, unchanged, reads its own
/// copies. Anything else done through `this` (calling a member function,
/// naming a member of a dependent base) is a problem.
class ThisReads : public RecursiveASTVisitor<ThisReads> {
public:
  std::vector<const MemberExpr *> Reads;
  std::string Problem;

  bool VisitMemberExpr(MemberExpr *E) {
    if (!isa<CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()))
      return true;
    if (isa<FieldDecl>(E->getMemberDecl())) {
      Reads.push_back(E);
      return true;
    }
    return fail("it calls '" + E->getMemberDecl()->getNameAsString() + "' through 'this'");
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    if (E->isImplicitAccess() || isa<CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()))
      return fail("it names '" + E->getMember().getAsString() +
                  "' of a base that depends on its template through 'this'");
    return true;
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *E) {
    if (E->isImplicitAccess() || isa<CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()))
      return fail("it calls '" + E->getMemberName().getAsString() + "' through 'this'");
    return true;
  }

private:
  bool fail(std::string Why) {
    if (Problem.empty())
      Problem = std::move(Why);
    return false;
  }
};

/// A function's parameters and local variables, by where they are
/// declared: an instantiation's variables keep their template's locations.
class LocalVariables : public RecursiveASTVisitor<LocalVariables> {
public:
  explicit LocalVariables(const FunctionDecl *F) {
    for (const ParmVarDecl *P : F->parameters())
      At[P->getLocation().getRawEncoding()] = P;
    if (F->getBody())
      TraverseStmt(F->getBody());
  }
  bool VisitVarDecl(VarDecl *D) {
    At.emplace(D->getLocation().getRawEncoding(), D);
    return true;
  }
  /// The variable declared at L, or null.
  const VarDecl *at(SourceLocation L) const {
    const auto It = At.find(L.getRawEncoding());
    return It == At.end() ? nullptr : It->second;
  }

private:
  std::map<unsigned, const VarDecl *> At;
};

/// True when the data member read by E (in an instantiated body) is
/// written: assigned, incremented, bound to a non-const reference, or,
/// for a dp::field, an element of it is.
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

} // namespace

/// In the pattern of a function template, the lambda that LE instantiates.
class PatternFinder : public RecursiveASTVisitor<PatternFinder> {
public:
  explicit PatternFinder(SourceLocation At) : At(At) {}
  const LambdaExpr *Found = nullptr;
  bool VisitLambdaExpr(LambdaExpr *E) {
    if (E->getBeginLoc() == At)
      Found = E;
    return !Found;
  }

private:
  SourceLocation At;
};

llvm::Expected<LambdaObject> planLambdaObject(const LambdaExpr *Instance, std::string Restriction,
                                              ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  LambdaObject O;
  O.Lambda = Instance;
  O.Restriction = std::move(Restriction);

  unsigned EndToken = 0;
  const SourceLocation EndLoc =
      Lexer::getLocForEndOfToken(Instance->getEndLoc(), 0, SM, Ctx.getLangOpts());
  if (!mainFileOffset(Instance->getBeginLoc(), SM, O.Begin) ||
      !mainFileOffset(EndLoc, SM, EndToken))
    return cannot("it is spelled in a macro or an included file");
  O.End = EndToken;
  const FunctionDecl *F = enclosingFunction(Instance);
  if (!F)
    return cannot("it is not inside a function");

  // In an instantiation of a template (a function template, a member of a
  // class template), the object is written for the template: from the
  // lambda as written, over the templates' parameters.
  llvm::Expected<TemplateContext> Context = templateContextOf(F);
  if (!Context)
    return Context.takeError();
  const TemplateContext &T = *Context;
  const LambdaExpr *LE = Instance;
  const std::vector<const TemplateParameterList *> &Allowed = T.Lists;
  if (T.Pattern != F) {
    PatternFinder Find(Instance->getBeginLoc());
    Find.TraverseStmt(T.Pattern->getBody());
    if (!Find.Found)
      return cannot("dpstub could not find it in its enclosing template");
    LE = Find.Found;
  }
  if (!Allowed.empty()) {
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
    O.TemplateHead = T.FunctionTemplateOnly ? text(Allowed.front()->getSourceRange(), Ctx)
                                            : "template <" + llvm::join(Declarations, ", ") + ">";
    O.TemplateArgs = "<" + llvm::join(Args, ", ") + ">";
  }
  const CXXMethodDecl *Op = LE->getCallOperator();
  if (LE->isMutable())
    return cannot("it is mutable (each of its calls must start from the captured state)");
  if (!LE->getExplicitTemplateParameters().empty())
    return cannot("it has an explicit template parameter list");

  // Where it goes: before the declaration at namespace scope that holds it.
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

  // The enclosing functions' using-declarations could change what the
  // body's names mean at namespace scope.
  for (const DeclContext *C : enclosingContexts(LE))
    if (const auto *FD = dyn_cast<FunctionDecl>(C); FD && FD->getBody()) {
      UsingFinder U;
      U.TraverseStmt(FD->getBody());
      if (!U.Found.empty())
        return cannot(U.Found);
    }

  // Captures become members. An instantiation lists every capture; the
  // template as written only those it spells (implicit captures of
  // dependent variables are made per instantiation): each is matched to
  // its variable as written, by where that is declared.
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  LE->getLambdaClass()->getCaptureFields(Fields, ThisField);
  const LocalVariables Written(T.Pattern);
  bool CapturesThis = false;
  std::set<const VarDecl *> Captured;
  for (const LambdaCapture &C : Instance->captures()) {
    if (C.capturesThis()) {
      if (C.getCaptureKind() != LCK_This)
        return cannot("it captures a copy of '*this'");
      CapturesThis = true;
      continue;
    }
    if (!C.capturesVariable() || C.getCaptureKind() != LCK_ByCopy)
      return cannot("it captures by reference");
    const auto *Inst = dyn_cast<VarDecl>(C.getCapturedVar());
    const VarDecl *Var = Inst && LE != Instance ? Written.at(Inst->getLocation()) : Inst;
    if (!Var || Var->isParameterPack() || C.isPackExpansion())
      return cannot("it captures a pack or a structured binding");
    Captured.insert(Var);
    const FieldDecl *F = Fields.lookup(Var);
    const QualType T = F ? F->getType() : Var->getType().getNonReferenceType();
    if (T->isArrayType())
      return cannot("it captures the array '" + Var->getName().str() + "'");
    if (T->isUndeducedType() || (T->isDependentType() && T->getContainedDeducedType()))
      return cannot("the type of its init-capture '" + Var->getName().str() +
                    "' depends on its enclosing template");
    Nameability N(LE, Allowed);
    N.TraverseType(T);
    if (!N.Problem.empty())
      return cannot("the type of its capture '" + Var->getName().str() +
                    "' cannot be named outside "
                    "its function (" +
                    N.Problem + ")");
    const std::string Name = Var->getName().str();
    const std::string Init =
        Instance->isInitCapture(&C) ? text(Var->getInit()->getSourceRange(), Ctx) : Name;
    if (Init.empty())
      return cannot("the initializer of its capture '" + Name + "' is not in the source");
    O.Members.push_back(memberOf(Name, T, Init, Ctx));
  }

  // Captured `this`: the data members the body reads through it become
  // members of their own, named alike, so the body reads its copies.
  BodyCheck Check(LE, Allowed, Ctx);
  Check.Captured = Captured;
  if (CapturesThis) {
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
      if (Type->isReferenceType() || Type->isArrayType() || FD->isBitField())
        return cannot("it reads the member '" + FD->getName().str() + "' through 'this', and a " +
                      (Type->isReferenceType() ? "reference"
                       : Type->isArrayType()   ? "array"
                                               : "bit-field") +
                      " member cannot be copied as it is");
      for (const LambdaObject::Member &M : O.Members)
        if (M.Name == FD->getName())
          return cannot("it captures '" + M.Name +
                        "' and reads a member of that name through 'this'");
      Nameability N(LE, Allowed);
      N.TraverseType(Type);
      if (!N.Problem.empty())
        return cannot("the type of the member '" + FD->getName().str() +
                      "' it reads through 'this' "
                      "cannot be named outside its class (" +
                      N.Problem + ")");
      // Initialised in the member function by its name: this->name.
      O.Members.push_back(memberOf(FD->getName().str(), Type, FD->getName().str(), Ctx));
    }
  }

  // Parameters and body: everything they name must be reachable.
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

  // The parameter list as written, each `auto` a type parameter.
  const FunctionTypeLoc FTL = Op->getFunctionTypeLoc();
  if (LE->hasExplicitParameters()) {
    unsigned Open = 0, Close = 0;
    if (!mainFileOffset(FTL.getLParenLoc(), SM, Open) ||
        !mainFileOffset(FTL.getRParenLoc(), SM, Close))
      return cannot("its parameter list is spelled in a macro");
    const llvm::StringRef Buffer = SM.getBufferData(Main);
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
  O.Return = LE->hasExplicitResultType() ? text(FTL.getReturnLoc().getSourceRange(), Ctx)
                                         : std::string("auto");
  O.Body = text(LE->getBody()->getSourceRange(), Ctx);
  if (O.Body.empty())
    return cannot("its body is not in the source");
  return O;
}

std::string LambdaObject::construction(llvm::StringRef Name) const {
  std::vector<std::string> Args;
  for (const Member &M : Members)
    Args.push_back(M.Init);
  return Name.str() + TemplateArgs + "(" + llvm::join(Args, ", ") + ")";
}

std::string renderLambdaObject(const LambdaObject &O, llvm::StringRef Name) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "/// dpstub: the lambda at " << O.Origin << ", as a function object:\n/// "
     << O.Restriction << ".\n";
  if (!O.TemplateHead.empty())
    OS << O.TemplateHead << "\n";
  OS << "struct " << Name << " {\n";
  for (const LambdaObject::Constant &C : O.Constants)
    OS << "  static constexpr " << C.Type << " " << C.Name << " = " << C.Value << ";\n";
  for (const LambdaObject::Member &M : O.Members)
    OS << "  " << M.Type << " " << M.Name << ";\n";
  if (!O.Members.empty()) {
    // The parameter of member x is x_ (x_in for a member x_, as x__
    // would be a reserved name).
    auto Parameter = [](const std::string &Member) {
      return Member + (llvm::StringRef(Member).ends_with("_") ? "in" : "_");
    };
    OS << "  explicit " << Name << "(";
    for (size_t I = 0; I < O.Members.size(); ++I)
      OS << (I ? ", " : "") << "const " << O.Members[I].ParamType << " &"
         << Parameter(O.Members[I].Name);
    OS << ")\n      : ";
    for (size_t I = 0; I < O.Members.size(); ++I)
      OS << (I ? ", " : "") << O.Members[I].Name << "(" << Parameter(O.Members[I].Name) << ")";
    OS << " {}\n";
  }
  if (!O.TypeParams.empty())
    OS << "  template <" << llvm::join(O.TypeParams, ", ") << ">\n";
  OS << "  DP_HOST_DEVICE " << O.Return << " operator()(" << O.Params << ") const " << O.Body
     << "\n};\n";
  return S;
}

} // namespace dpstub
