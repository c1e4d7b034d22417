//===- Scope.h - What a lambda names and where it sits ----------*- C++ -*-===//
//
// The questions planLambdaObject (PlanObject.cpp) asks of a lambda
// before it writes one as a function object at namespace scope: which
// functions, classes and templates surround it, whether every name in its
// captures' types, parameters and body can be named from there, what it
// reads through a captured `this`, and where in the main file it is.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/DpTypes.h"
#include "lambdas/LambdaObject.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "AstVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dpstub {

/// True when D is declared inside DC (at any depth).
bool declaredWithin(const clang::Decl *D, const clang::DeclContext *DC);
/// True when D is declared in a function (or a lambda): a local entity.
bool isLocal(const clang::Decl *D);
/// The functions and classes around a lambda, innermost first, up to the
/// declaration at namespace scope.
std::vector<const clang::DeclContext *> enclosingContexts(const clang::LambdaExpr *LE);
/// The first function around a lambda that is not itself a lambda.
const clang::FunctionDecl *enclosingFunction(const clang::LambdaExpr *LE);
/// The source text of a token range.
std::string rangeText(clang::SourceRange R, const clang::ASTContext &Ctx);
/// The location of the `auto` a generic lambda's parameter type is written
/// with, if it has one.
clang::SourceLocation autoLocation(clang::TypeLoc TL);
/// Offset of L in the main file; false when it is elsewhere or in a macro.
bool mainFileOffset(clang::SourceLocation L, const clang::SourceManager &SM, unsigned &Out);
/// The declaration at namespace scope that holds a lambda, as written (a
/// template, not one of its instantiations).
const clang::Decl *namespaceLevelDecl(const clang::LambdaExpr *LE);
/// "::" or "::ns::inner::": the named namespaces around DC, for a call.
std::string scopeOf(const clang::DeclContext *DC);

/// Why no function object can be written for a lambda, as an error.
llvm::Error cannot(const llvm::Twine &Why);

/// The templates around a lambda's enclosing function, as written: the
/// function's pattern (itself when it is no instantiation) and the
/// parameter lists of the class templates around it and of the function
/// template, outermost first.
struct TemplateContext {
  const clang::FunctionDecl *Pattern = nullptr;
  std::vector<const clang::TemplateParameterList *> Lists;
  bool FunctionTemplateOnly = false; ///< one list, the function template's
};
llvm::Expected<TemplateContext> templateContextOf(const clang::FunctionDecl *F);

/// A template parameter as its declaration in a template head, without a
/// default; none for a template template parameter.
std::optional<std::string> parameterDeclaration(const clang::NamedDecl *P,
                                                const clang::ASTContext &Ctx);

/// True when the data member read by E (in an instantiated body) is
/// written: assigned, incremented, bound to a non-const reference, or,
/// for a dp::field, an element of it is.
bool writesThroughThis(const clang::MemberExpr *E, const clang::Stmt &Body,
                       clang::ASTContext &Ctx);


/// Finds what in a type (or a lambda's code) cannot be named at namespace
/// scope: a function-local type, a template parameter (but those of the
/// function template the object is written for), a member of an enclosing
/// class.
class NameabilityBase : public AstVisitor {
public:
  using ParameterLists = std::vector<const clang::TemplateParameterList *>;
  NameabilityBase(const clang::LambdaExpr *LE, const ParameterLists &Allowed)
      : Op(LE->getCallOperator()), Allowed(Allowed) {
    for (const clang::DeclContext *C : enclosingContexts(LE))
      if (const auto *RD = llvm::dyn_cast<clang::CXXRecordDecl>(C); RD && !RD->isLambda())
        Records.push_back(RD);
  }
  std::string Problem;

  bool VisitTagTypeLoc(clang::TagTypeLoc TL) override { return checkNamed(TL.getDecl(), "type"); }
  bool VisitTypedefTypeLoc(clang::TypedefTypeLoc TL) override { return checkNamed(TL.getTypedefNameDecl(), "type"); }
  bool VisitTagType(clang::TagType *T) override { return checkNamed(T->getDecl(), "type"); }
  bool VisitTypedefType(clang::TypedefType *T) override { return checkNamed(T->getDecl(), "type"); }
  bool VisitSubstTemplateTypeParmTypeLoc(clang::SubstTemplateTypeParmTypeLoc TL) override {
    return parameter(TL.getTypePtr()->getReplacedParameter());
  }
  bool VisitSubstTemplateTypeParmType(clang::SubstTemplateTypeParmType *T) override {
    return parameter(T->getReplacedParameter());
  }
  bool VisitTemplateTypeParmTypeLoc(clang::TemplateTypeParmTypeLoc TL) override { return parameter(TL.getDecl()); }
  bool VisitTemplateTypeParmType(clang::TemplateTypeParmType *T) override { return parameter(T->getDecl()); }
  bool VisitSubstNonTypeTemplateParmExpr(clang::SubstNonTypeTemplateParmExpr *E) override {
    return parameter(E->getParameter());
  }
  bool VisitCXXThisExpr(clang::CXXThisExpr *E) override {
    return ThisReads.count(E) ? true : fail("it uses 'this' other than to read a data member");
  }
  /// The `this` of each data member read the object copies (thisMembers).
  llvm::SmallPtrSet<const clang::CXXThisExpr *, 8> ThisReads;

protected:
  /// A template parameter named from the lambda: an `auto` parameter's
  /// invented type, one of the allowed template's, or a problem.
  bool parameter(const clang::NamedDecl *D) {
    if (D && (D->isImplicit() || declaredWithin(D, Op)))
      return true;
    for (const clang::TemplateParameterList *L : Allowed)
      for (const clang::NamedDecl *P : *L)
        if (P == D)
          return true;
    return fail("it names '" + (D ? D->getName().str() : std::string("a template parameter")) +
                "', a parameter of its enclosing template");
  }
  /// D is named from the lambda: it must be the lambda's own, or visible at
  /// namespace scope.
  bool checkNamed(const clang::NamedDecl *D, const char *What) {
    if (!D || declaredWithin(D, Op) || !Problem.empty())
      return true;
    if (const auto *RD = llvm::dyn_cast<clang::CXXRecordDecl>(D); RD && RD->isLambda())
      return fail("it names the type of another lambda");
    if (isLocal(D))
      return fail(std::string("it names '") + D->getName().str() + "', a " + What +
                  " local to its enclosing function");
    for (const clang::CXXRecordDecl *RD : Records)
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

  const clang::CXXMethodDecl *Op;
  ParameterLists Allowed;
  std::vector<const clang::CXXRecordDecl *> Records;
};

/// Nameability of a capture's type.
class Nameability : public NameabilityBase {
public:
  using NameabilityBase::NameabilityBase;
};

/// Walks a lambda's parameters and body: every entity it names must be its
/// own, a capture, a constant of the enclosing function (copied in) or
/// visible at namespace scope.
class BodyCheck : public NameabilityBase {
public:
  BodyCheck(const clang::LambdaExpr *LE, const ParameterLists &Allowed, clang::ASTContext &Ctx)
      : NameabilityBase(LE, Allowed), LE(LE), Ctx(Ctx) {}
  std::map<const clang::VarDecl *, LambdaObject::Constant> Constants;
  /// The variables the lambda captures (in the template as written).
  std::set<const clang::VarDecl *> Captured;

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) override {
    const clang::ValueDecl *D = E->getDecl();
    if (declaredWithin(D, Op) || !Problem.empty())
      return true;
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D); VD && isLocal(VD))
      return Captured.count(VD) ? true : constant(VD);
    if (llvm::isa<clang::NonTypeTemplateParmDecl>(D))
      return parameter(D);
    if (const auto *EC = llvm::dyn_cast<clang::EnumConstantDecl>(D))
      return checkNamed(llvm::cast<clang::NamedDecl>(EC->getDeclContext()), "type");
    return checkNamed(D, "function");
  }
  bool VisitCXXRecordDecl(clang::CXXRecordDecl *RD) override {
    if (RD->isLambda() || !RD->isThisDeclarationADefinition())
      return true;
    return fail("it defines the class '" + RD->getName().str() + "'");
  }

private:
  /// A local variable used without a capture: only a constant can be, and
  /// the function object gets a copy of its value.
  bool constant(const clang::VarDecl *VD) {
    const clang::QualType T = VD->getType().getNonReferenceType();
    const clang::APValue *V = VD->isUsableInConstantExpressions(Ctx) ? VD->evaluateValue() : nullptr;
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

  const clang::LambdaExpr *LE;
  clang::ASTContext &Ctx;
};

/// A using-directive, using-declaration or namespace alias in a function:
/// names the lambda's body finds through it are not found at namespace
/// scope.
class UsingFinder : public AstVisitor {
public:
  std::string Found;
  bool VisitUsingDirectiveDecl(clang::UsingDirectiveDecl *D) override { return note(D); }
  bool VisitUsingDecl(clang::UsingDecl *D) override { return note(D); }
  bool VisitNamespaceAliasDecl(clang::NamespaceAliasDecl *D) override { return note(D); }
  bool VisitUsingEnumDecl(clang::UsingEnumDecl *D) override { return note(D); }

private:
  bool note(clang::Decl *D) {
    Found = "its enclosing function has a using-declaration or namespace alias, which names in "
            "the lambda may depend on";
    return false;
  }
};

/// The data members a lambda that captures `this` reads through it: the
/// function object copies them and its body, unchanged, reads its own
/// copies. Anything else done through `this` (calling a member function,
/// naming a member of a dependent base) is a problem.
class ThisReads : public AstVisitor {
public:
  std::vector<const clang::MemberExpr *> Reads;
  std::string Problem;

  bool VisitMemberExpr(clang::MemberExpr *E) override {
    if (!llvm::isa<clang::CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()))
      return true;
    if (llvm::isa<clang::FieldDecl>(E->getMemberDecl())) {
      Reads.push_back(E);
      return true;
    }
    return fail("it calls '" + E->getMemberDecl()->getNameAsString() + "' through 'this'");
  }
  bool VisitCXXDependentScopeMemberExpr(clang::CXXDependentScopeMemberExpr *E) override {
    if (E->isImplicitAccess() || llvm::isa<clang::CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()))
      return fail("it names '" + E->getMember().getAsString() +
                  "' of a base that depends on its template through 'this'");
    return true;
  }
  bool VisitUnresolvedMemberExpr(clang::UnresolvedMemberExpr *E) override {
    if (E->isImplicitAccess() || llvm::isa<clang::CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()))
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
class LocalVariables : public AstVisitor {
public:
  explicit LocalVariables(const clang::FunctionDecl *F) {
    for (const clang::ParmVarDecl *P : F->parameters())
      At[P->getLocation().getRawEncoding()] = P;
    if (F->getBody())
      TraverseStmt(F->getBody());
  }
  bool VisitVarDecl(clang::VarDecl *D) override {
    At.emplace(D->getLocation().getRawEncoding(), D);
    return true;
  }
  /// The variable declared at L, or null.
  const clang::VarDecl *at(clang::SourceLocation L) const {
    const auto It = At.find(L.getRawEncoding());
    return It == At.end() ? nullptr : It->second;
  }

private:
  std::map<unsigned, const clang::VarDecl *> At;
};

/// In the pattern of a function template, the lambda that LE instantiates.
class PatternFinder : public AstVisitor {
public:
  explicit PatternFinder(clang::SourceLocation At) : At(At) {}
  const clang::LambdaExpr *Found = nullptr;
  bool VisitLambdaExpr(clang::LambdaExpr *E) override {
    if (E->getBeginLoc() == At)
      Found = E;
    return !Found;
  }

private:
  clang::SourceLocation At;
};

} // namespace dpstub
