//===- Analyse.cpp - Which lambdas become function objects ----------------===//
//
// LambdaPlanner (Lambdas.h): during analysis, each lambda of an accepted
// call-site that nvcc refuses (nvccRestriction) is planned as a function
// object, or reported with the reason none can be written.
//
//===----------------------------------------------------------------------===//

#include "lambdas/Detail.h"
#include "lambdas/Lambdas.h"
#include "lambdas/Scope.h"
#include "dpstub/DpTypes.h"

using namespace clang;

namespace dpstub {

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

/// True when LE captures `this` (not a copy of `*this`).
bool capturesThis(const LambdaExpr *LE) {
  for (const LambdaCapture &C : LE->captures())
    if (C.capturesThis() && C.getCaptureKind() == LCK_This)
      return true;
  return false;
}

} // namespace

void LambdaPlanner::plan(AnalysedCall &A, ASTContext &Ctx, Reporter &Diags) {
  std::vector<const LambdaExpr *> Lambdas(A.StubLambdas.begin(), A.StubLambdas.end());
  if (A.Lambda)
    Lambdas.insert(Lambdas.begin(), A.Lambda);
  for (const LambdaExpr *LE : Lambdas) {
    std::optional<std::string> Why = nvccRestriction(LE, Ctx);
    if (!Why)
      continue;
    llvm::Expected<LambdaObject> P = planLambdaObject(LE, *Why, Ctx);
    if (P) {
      A.Objects.push_back(std::move(*P));
      continue;
    }
    const std::string WhyNot = llvm::toString(P.takeError());
    if (!Warned.insert(LE->getBeginLoc().getRawEncoding()).second)
      continue;
    if (capturesThis(LE)) // hipcc would compile it, and it would fault
      Diags.thisOnDevice(LE->getBeginLoc()) << WhyNot;
    else
      Diags.nvccLambda(LE->getBeginLoc()) << *Why << WhyNot;
  }
}

} // namespace dpstub
