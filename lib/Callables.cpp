//===- Callables.cpp - What a kernel or operator argument denotes ---------===//

#include "Callables.h"
#include "AstText.h"
#include "dpstub/DpTypes.h"

using namespace clang;

namespace dpstub {

namespace {

const Expr *stripWrappers(const Expr *E) {
  for (;;) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Next);
        CE && CE->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(CE))
      Next = CE->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
}

} // namespace

/// A variable of another type than its initializer's
/// (`std::function<...> k = [](...) {...};`) holds a conversion of its
/// initializer, decided at run time: it denotes itself.
const Expr *denotedCallable(const Expr *E) {
  E = stripWrappers(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    E = stripWrappers(UO->getSubExpr());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && !isa<ParmVarDecl>(VD) && VD->getInit()) {
      const Expr *Init = stripWrappers(VD->getInit());
      const QualType Held = VD->getType().getNonReferenceType().getUnqualifiedType();
      if (Held->getAsCXXRecordDecl() &&
          Held->getAsCXXRecordDecl() ==
              Init->getType().getNonReferenceType()->getAsCXXRecordDecl())
        return Init;
    }
  return E;
}

/// The operator() of a function object that fits NArgs arguments.
const CXXMethodDecl *callOperatorOf(const CXXRecordDecl *RD, unsigned NArgs, bool &Generic) {
  const CXXMethodDecl *Found = nullptr;
  Generic = false;
  for (const Decl *D : RD->decls()) {
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D)) {
      if (const auto *M = dyn_cast<CXXMethodDecl>(FT->getTemplatedDecl());
          M && M->getOverloadedOperator() == OO_Call && !Found) {
        Found = M;
        Generic = true;
      }
    } else if (const auto *M = dyn_cast<CXXMethodDecl>(D);
               M && M->getOverloadedOperator() == OO_Call &&
               (M->getNumParams() == NArgs || M->getNumParams() == NArgs + 1)) {
      Found = M;
      Generic = false;
    }
  }
  // An operator() inherited from a base (`struct k : base_kernel {}`): the
  // derived class's own one hides it, so bases are searched only without.
  if (!Found && RD->hasDefinition())
    for (const CXXBaseSpecifier &B : RD->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
        if (B.getAccessSpecifier() == AS_public)
          if ((Found = callOperatorOf(Base, NArgs, Generic)))
            break;
  return Found;
}

/// The definition of a function object's operator(). A member template of
/// a class template's specialization (`template <class P> auto
/// operator()(P)` in `S<float>`) is not instantiated until called: its
/// definition is then the member template's, as written.
const FunctionDecl *definitionOf(const CXXMethodDecl *M) {
  if (const FunctionDecl *Def = M->getDefinition())
    return Def;
  if (const FunctionTemplateDecl *FT = M->getDescribedFunctionTemplate())
    for (const FunctionTemplateDecl *From = FT->getInstantiatedFromMemberTemplate(); From;
         From = From->getInstantiatedFromMemberTemplate())
      if (const FunctionDecl *Def = From->getTemplatedDecl()->getDefinition())
        return Def;
  return nullptr;
}

/// Why a library function object cannot run on a device, if it cannot:
/// its operator() is library code with no device version (constexpr ones,
/// like std::plus<>, compile for every device). A std::function also
/// holds a callable known only at run time.
std::optional<std::string> hostOnlyLibraryCallable(const CXXRecordDecl *RD,
                                                   const CXXMethodDecl *Op,
                                                   const ASTContext &Ctx) {
  if (!isLibraryDecl(RD, Ctx.getSourceManager()) || Op->isConstexpr())
    return std::nullopt;
  const std::string Type = printType(QualType(RD->getTypeForDecl(), 0), Ctx);
  if (RD->getName() == "function" && RD->isInStdNamespace())
    return "a '" + Type + "' calls the callable it holds through host code, and which "
           "callable that is is known only at run time; pass the lambda, function or function "
           "object itself";
  return "'" + Type + "' is library code whose operator() is not constexpr, so it has no "
         "device version; use a lambda or a function object of your own";
}

std::optional<ResolvedKernel> resolveKernel(const Expr *KernelArg, unsigned NArgs,
                                            llvm::StringRef Kind, const ASTContext &Ctx,
                                            Reporter &Diags) {
  const SourceLocation At = KernelArg->getExprLoc();
  const Expr *E = denotedCallable(KernelArg);

  ResolvedKernel R;
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    // (A captured `this` becomes copies of what the kernel reads through
    // it, or an error: lib/lambdas/.)
    for (const LambdaCapture &Cap : LE->captures())
      if (Cap.getCaptureKind() == LCK_ByRef)
        Diags.captureByReference(Cap.getLocation()) << Cap.getCapturedVar()->getName();
    R.Lambda = LE;
    R.Callable = LE->getCallOperator();
    R.Generic = LE->isGenericLambda();
    R.Model.Kind = KernelKind::Lambda;
    R.Model.Mutable = LE->isMutable();
    R.Model.Name = "lambda";
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E);
             DRE && isa<FunctionDecl>(DRE->getDecl()) && !isa<CXXMethodDecl>(DRE->getDecl())) {
    const auto *FD = cast<FunctionDecl>(DRE->getDecl());
    R.Callable = FD->getDefinition();
    R.Model.Kind = KernelKind::FreeFunction;
    R.Model.Name = qualifiedCallName(FD);
    if (!R.Callable) {
      Diags.untouched(At) << Kind << "the kernel's body is not visible in this translation unit";
      return std::nullopt;
    }
  } else if (const CXXRecordDecl *RD = E->getType()->getAsCXXRecordDecl()) {
    if (RD->isLambda()) {
      Diags.untouched(At) << Kind
                          << "a lambda kernel must be written at the call-site or held in a "
                             "variable initialised with it";
      return std::nullopt;
    }
    const CXXMethodDecl *Op = callOperatorOf(RD, NArgs, R.Generic);
    if (!Op) {
      Diags.untouched(At) << Kind << "the function object has no operator() for these arguments";
      return std::nullopt;
    }
    if (std::optional<std::string> Why = hostOnlyLibraryCallable(RD, Op, Ctx)) {
      Diags.untouched(At) << Kind << *Why;
      return std::nullopt;
    }
    R.Callable = definitionOf(Op);
    R.Model.Kind = KernelKind::FunctionObject;
    R.Model.Name = qualifiedCallName(RD);
    if (!R.Callable) {
      Diags.untouched(At) << Kind << "the function object's operator() body is not visible";
      return std::nullopt;
    }
  } else {
    Diags.untouched(At) << Kind
                        << "the kernel must be a lambda, a function or a function object";
    return std::nullopt;
  }
  R.Model.Generic = R.Generic;
  R.Model.Signature = R.Generic ? R.Model.Name + " (generic)"
                                : signatureOf(R.Callable, Ctx,
                                              R.Model.Kind == KernelKind::FreeFunction
                                                  ? R.Model.Name.substr(2)
                                                  : R.Model.Kind == KernelKind::Lambda
                                                        ? "lambda"
                                                        : R.Model.Name.substr(2) + "::operator()");
  return R;
}

bool inStandardLibrary(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && NS->isStdNamespace())
      return true;
  return false;
}

} // namespace dpstub
