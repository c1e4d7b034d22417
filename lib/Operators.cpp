//===- Operators.cpp - A reduction's operator, a sort's comparator --------===//

#include "Operators.h"
#include "AstText.h"
#include "Callables.h"
#include "Conversions.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace dpstub {

bool convertible(QualType From, QualType To, const ASTContext &Ctx) {
  From = From.getNonReferenceType().getUnqualifiedType();
  To = To.getNonReferenceType().getUnqualifiedType();
  if (From->isDependentType() || To->isDependentType())
    return true;
  return Ctx.hasSameUnqualifiedType(From, To) ||
         (From->isArithmeticType() && To->isArithmeticType());
}

std::optional<Operator> analyseOperator(const Expr *E, QualType T, llvm::StringRef Kind,
                                        ASTContext &Ctx, Reporter &Diags, AnalysedCall &Out) {
  Operator Op;
  Op.Text = sourceText(E, Ctx);
  const SourceLocation At = E->getExprLoc();
  const std::string TName = printType(T, Ctx);
  auto Reject = [&](const std::string &Why) {
    Diags.badOperator(At) << Kind << TName << Why;
    return std::nullopt;
  };
  const Expr *S = denotedCallable(E);

  const FunctionDecl *Callable = nullptr;
  bool Generic = false;
  if (const auto *LE = dyn_cast<LambdaExpr>(S)) {
    Op.Kind = KernelKind::Lambda;
    Callable = LE->getCallOperator();
    Generic = LE->isGenericLambda();
    Out.StubLambdas.push_back(LE);
    Out.OperatorLambda = LE;
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
             DRE && isa<FunctionDecl>(DRE->getDecl()) && !isa<CXXMethodDecl>(DRE->getDecl())) {
    const auto *FD = cast<FunctionDecl>(DRE->getDecl());
    Op.Kind = KernelKind::FreeFunction;
    Op.Name = qualifiedCallName(FD);
    Callable = FD->getDefinition();
    if (!Callable) {
      Diags.untouched(At) << Kind << "the operator's body is not visible in this translation unit";
      return std::nullopt;
    }
    Out.StubCalls.push_back(Callable);
  } else if (const CXXRecordDecl *RD = S->getType()->getAsCXXRecordDecl()) {
    Op.Kind = KernelKind::FunctionObject;
    Op.Library = inStandardLibrary(RD);
    if (RD->isLambda()) {
      Diags.untouched(At) << Kind
                          << "a lambda operator must be written at the call-site or held in a "
                             "variable initialised with it";
      return std::nullopt;
    }
    const CXXMethodDecl *M = callOperatorOf(RD, 2, Generic);
    if (!M)
      return Reject("it has no operator() taking two values");
    if (std::optional<std::string> Why = hostOnlyLibraryCallable(RD, M, Ctx)) {
      Diags.untouched(At) << Kind << *Why;
      return std::nullopt;
    }
    if (Op.Library)
      return Op; // std::plus<> and friends: constexpr, usable on every device
    Callable = definitionOf(M);
    if (!Callable) {
      Diags.untouched(At) << Kind << "the function object's operator() body is not visible";
      return std::nullopt;
    }
    Out.StubCalls.push_back(Callable);
  } else {
    return Reject("it is neither a lambda, a function nor a function object");
  }

  if (Callable->getNumParams() != 2)
    return Reject("it takes " + std::to_string(Callable->getNumParams()) + " parameter" +
                  (Callable->getNumParams() == 1 ? "" : "s"));
  if (Generic)
    return Op; // checked when the stub is compiled
  for (unsigned I = 0; I < 2; ++I) {
    const QualType PT = Callable->getParamDecl(I)->getType();
    if (isWritableFormal(PT))
      return Reject("its parameter " + std::to_string(I + 1) +
                    " is a non-const reference; take it by value or const&");
    if (!convertible(PT, T, Ctx))
      return Reject("its parameter " + std::to_string(I + 1) + " is '" + printType(PT, Ctx) + "'");
  }
  const QualType R = Callable->getReturnType();
  if (!R->isUndeducedType() && !convertible(R, T, Ctx))
    return Reject("it returns '" + printType(R, Ctx) + "'");
  return Op;
}

/// The order a comparator's body gives: `return a < b;` (ascending) or
/// `return a > b;` (descending) over its two parameters, else Custom.
static SortOrder orderOfBody(const FunctionDecl *Op) {
  const auto *Body = Op ? dyn_cast_or_null<CompoundStmt>(Op->getBody()) : nullptr;
  if (!Body || Body->size() != 1 || Op->getNumParams() != 2)
    return SortOrder::Custom;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  const auto *BO = Ret && Ret->getRetValue()
                       ? dyn_cast<BinaryOperator>(Ret->getRetValue()->IgnoreParenImpCasts())
                       : nullptr;
  if (!BO || (BO->getOpcode() != BO_LT && BO->getOpcode() != BO_GT))
    return SortOrder::Custom;
  auto ParamOf = [&](const Expr *X) -> int {
    if (const auto *D = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts()))
      for (unsigned I = 0; I < 2; ++I)
        if (D->getDecl() == Op->getParamDecl(I))
          return static_cast<int>(I);
    return -1;
  };
  const int L = ParamOf(BO->getLHS()), Rgt = ParamOf(BO->getRHS());
  if (L < 0 || Rgt < 0 || L == Rgt)
    return SortOrder::Custom;
  const bool Less = (BO->getOpcode() == BO_LT) == (L == 0);
  return Less ? SortOrder::Ascending : SortOrder::Descending;
}

SortOrder comparatorOrder(const Expr *Cmp, QualType R, const ASTContext &Ctx) {
  if (!R->isArithmeticType())
    return SortOrder::Custom;
  const Expr *S = denotedCallable(Cmp);
  if (const auto *LE = dyn_cast<LambdaExpr>(S))
    return orderOfBody(LE->getCallOperator());
  const CXXRecordDecl *RD = S->getType()->getAsCXXRecordDecl();
  if (!RD)
    return SortOrder::Custom;
  if (inStandardLibrary(RD)) {
    if (RD->getName() == "less")
      return SortOrder::Ascending;
    if (RD->getName() == "greater")
      return SortOrder::Descending;
    return SortOrder::Custom;
  }
  // A function object of the user's own (a lambda dpstub rewrote as one
  // is judged as the lambda was).
  bool Generic = false;
  const CXXMethodDecl *Op = callOperatorOf(RD, 2, Generic);
  (void)Ctx;
  return orderOfBody(Op ? definitionOf(Op) : nullptr);
}

QualType kernelResultType(const AnalysedCall &A) {
  if (!A.KernelFunction || A.Model.K.Generic)
    return QualType();
  const QualType R = A.KernelFunction->getReturnType();
  return R->isUndeducedType() || R->isDependentType() ? QualType() : R;
}

} // namespace dpstub
