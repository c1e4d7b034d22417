//===- LambdaObjects.cpp - Lambdas rewritten as function objects ----------===//

#include "dpstub/LambdaObjects.h"
#include "dpstub/Analysis.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>

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

/// Finds what in a type (or a lambda's code) cannot be named at namespace
/// scope: a function-local type, a template parameter (but those of the
/// function template the object is written for), a member of an enclosing
/// class. Derived: the visitor class (CRTP).
template <class Derived> class NameabilityBase : public RecursiveASTVisitor<Derived> {
public:
  NameabilityBase(const LambdaExpr *LE, const TemplateParameterList *Allowed)
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
  bool VisitCXXThisExpr(CXXThisExpr *) { return fail("it uses 'this'"); }

protected:
  /// A template parameter named from the lambda: an `auto` parameter's
  /// invented type, one of the allowed template's, or a problem.
  bool parameter(const NamedDecl *D) {
    if (D && (D->isImplicit() || declaredWithin(D, Op)))
      return true;
    if (D && Allowed)
      for (const NamedDecl *P : *Allowed)
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
  const TemplateParameterList *Allowed;
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
  BodyCheck(const LambdaExpr *LE, const TemplateParameterList *Allowed, ASTContext &Ctx)
      : NameabilityBase(LE, Allowed), LE(LE), Ctx(Ctx) {}
  std::map<const VarDecl *, LambdaObject::Constant> Constants;

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (declaredWithin(D, Op) || !Problem.empty())
      return true;
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && isLocal(VD)) {
      for (const LambdaCapture &C : LE->captures())
        if (C.capturesVariable() && C.getCapturedVar() == VD)
          return true;
      return constant(VD);
    }
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

std::variant<LambdaObject, std::string> planLambdaObject(const LambdaExpr *Instance,
                                                         std::string Restriction,
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
    return std::string("it is spelled in a macro or an included file");
  O.End = EndToken;
  const FunctionDecl *F = enclosingFunction(Instance);
  if (!F)
    return std::string("it is not inside a function");

  // In an instantiation of a function template, the object is written for
  // the template: from the lambda as written, over the template's
  // parameters.
  const LambdaExpr *LE = Instance;
  const TemplateParameterList *Allowed = nullptr;
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern()) {
    const FunctionTemplateDecl *FT = F->getPrimaryTemplate();
    for (const DeclContext *C = F->getDeclContext(); C && !C->isFileContext(); C = C->getParent())
      if (const auto *RD = dyn_cast<CXXRecordDecl>(C);
          !FT || (RD && (RD->getTemplateInstantiationPattern() || RD->getDescribedClassTemplate())))
        return std::string("it is in a member of a class template");
    PatternFinder Find(Instance->getBeginLoc());
    Find.TraverseStmt(Pattern->getBody());
    if (!FT || !Find.Found)
      return std::string("dpstub could not find it in its enclosing template");
    LE = Find.Found;
    Allowed = FT->getTemplateParameters();
    std::vector<std::string> Args;
    for (const NamedDecl *P : *Allowed) {
      if (P->getName().empty())
        return std::string("a parameter of its enclosing template has no name");
      if (llvm::StringRef(P->getName()).starts_with("P"))
        return "its enclosing template has a parameter named '" + P->getName().str() +
               "', as dpstub names the parameters it invents";
      Args.push_back(P->getName().str() + (P->isParameterPack() ? "..." : ""));
    }
    O.TemplateHead = text(Allowed->getSourceRange(), Ctx);
    O.TemplateArgs = "<" + llvm::join(Args, ", ") + ">";
  }
  const CXXMethodDecl *Op = LE->getCallOperator();
  if (LE->isMutable())
    return std::string("it is mutable (each of its calls must start from the captured state)");
  if (!LE->getExplicitTemplateParameters().empty())
    return std::string("it has an explicit template parameter list");

  // Where it goes: before the declaration at namespace scope that holds it.
  const Decl *Outer = namespaceLevelDecl(LE);
  SourceLocation Before = SM.getFileLoc(Outer->getBeginLoc());
  if (const RawComment *RC = Ctx.getRawCommentForDeclNoCache(Outer))
    if (SM.isBeforeInTranslationUnit(RC->getBeginLoc(), Before))
      Before = RC->getBeginLoc();
  unsigned BeforeOffset = 0;
  if (!mainFileOffset(Before, SM, BeforeOffset))
    return std::string("the declaration that holds it is spelled in a macro");
  const FileID Main = SM.getMainFileID();
  O.InsertAt = SM.getFileOffset(
      SM.translateLineCol(Main, SM.getLineNumber(Main, BeforeOffset), 1));
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
        return U.Found;
    }

  // Captures become members.
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  LE->getLambdaClass()->getCaptureFields(Fields, ThisField);
  for (const LambdaCapture &C : LE->captures()) {
    if (C.capturesThis())
      return std::string("it captures 'this'");
    if (!C.capturesVariable() || C.getCaptureKind() != LCK_ByCopy)
      return std::string("it captures by reference");
    const auto *Var = dyn_cast<VarDecl>(C.getCapturedVar());
    const FieldDecl *F = Var ? Fields.lookup(Var) : nullptr;
    if (!Var || !F || Var->isParameterPack() || C.isPackExpansion())
      return std::string("it captures a pack or a structured binding");
    const QualType T = F->getType();
    if (T->isArrayType())
      return "it captures the array '" + Var->getName().str() + "'";
    if (T->isUndeducedType() || (T->isDependentType() && T->getContainedDeducedType()))
      return "the type of its init-capture '" + Var->getName().str() +
             "' depends on its enclosing template";
    Nameability N(LE, Allowed);
    N.TraverseType(T);
    if (!N.Problem.empty())
      return "the type of its capture '" + Var->getName().str() + "' cannot be named outside "
             "its function (" + N.Problem + ")";
    LambdaObject::Member M;
    M.Name = Var->getName().str();
    M.Type = printType(T, Ctx);
    M.ParamType = printType(T.getUnqualifiedType(), Ctx);
    M.Init = LE->isInitCapture(&C) ? text(Var->getInit()->getSourceRange(), Ctx) : M.Name;
    if (M.Init.empty())
      return "the initializer of its capture '" + M.Name + "' is not in the source";
    O.Members.push_back(std::move(M));
  }

  // Parameters and body: everything they name must be reachable.
  BodyCheck Check(LE, Allowed, Ctx);
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
    return Check.Problem;
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
      return std::string("its parameter list is spelled in a macro");
    const llvm::StringRef Buffer = SM.getBufferData(Main);
    std::string Params;
    unsigned At = Open + 1;
    for (unsigned I = 0; I < Op->getNumParams(); ++I) {
      const ParmVarDecl *PD = Op->getParamDecl(I);
      const SourceLocation Auto =
          PD->getTypeSourceInfo() ? autoLocation(PD->getTypeSourceInfo()->getTypeLoc())
                                  : SourceLocation();
      if (Auto.isInvalid())
        continue;
      unsigned AutoOffset = 0;
      if (!mainFileOffset(Auto, SM, AutoOffset) || AutoOffset < At || AutoOffset >= Close ||
          Buffer.substr(AutoOffset, 4) != "auto")
        return std::string("dpstub could not find the `auto` of its parameter '" +
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
    return std::string("dpstub could not find the `auto` of its parameters");
  O.Return = LE->hasExplicitResultType() ? text(FTL.getReturnLoc().getSourceRange(), Ctx)
                                         : std::string("auto");
  O.Body = text(LE->getBody()->getSourceRange(), Ctx);
  if (O.Body.empty())
    return std::string("its body is not in the source");
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
    OS << "  explicit " << Name << "(";
    for (size_t I = 0; I < O.Members.size(); ++I)
      OS << (I ? ", " : "") << "const " << O.Members[I].ParamType << " &" << O.Members[I].Name << "_";
    OS << ")\n      : ";
    for (size_t I = 0; I < O.Members.size(); ++I)
      OS << (I ? ", " : "") << O.Members[I].Name << "(" << O.Members[I].Name << "_)";
    OS << " {}\n";
  }
  if (!O.TypeParams.empty())
    OS << "  template <" << llvm::join(O.TypeParams, ", ") << ">\n";
  OS << "  DP_HOST_DEVICE " << O.Return << " operator()(" << O.Params << ") const " << O.Body
     << "\n};\n";
  return S;
}

} // namespace dpstub
