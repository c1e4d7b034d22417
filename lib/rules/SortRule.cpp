//===- SortRule.cpp - dp::sort<Dim>: analysis and stub --------------------===//

#include "SortRule.h"
#include "AstText.h"
#include "KernelAnalysis.h"
#include "Operators.h"
#include "ResultField.h"
#include "DomainAnalysis.h"
#include "dpstub/DpTypes.h"
#include "dpstub/StubText.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace dpstub {

StatementMatcher SortRule::matcher() const {
  return callExpr(callee(functionDecl(callSiteCallee(name())))).bind("call");
}

std::optional<StatementMatcher> SortRule::dependentMatcher() const {
  return callExpr(callee(unresolvedLookupExpr(
                      hasAnyDeclaration(functionTemplateDecl(callSiteCallee(name()))))))
      .bind("call");
}

std::optional<AnalysedCall> SortRule::analyse(const CallExpr *Call, ASTContext &Ctx,
                                              Reporter &Diags) const {
  const std::optional<int> Rc = checkCallShape(Call, name(), 3, Ctx, Diags);
  if (!Rc)
    return std::nullopt;
  const std::optional<int> Dim = explicitDim(Call);
  if (!Dim) {
    Diags.untouched(Call->getBeginLoc()) << name() << "its Dim is not a constant the tool can see";
    return std::nullopt;
  }
  const std::string Spelling = "dp::sort<" + std::to_string(*Dim) + ">";
  if (*Dim < 0 || *Dim >= *Rc) {
    Diags.dimensionOutOfRange(Call->getBeginLoc()) << Spelling << *Dim << *Rc;
    return std::nullopt;
  }
  const Expr *FieldArg = callArg(Call, 2);
  Result Out = resultOf(FieldArg, Ctx);
  const std::optional<QualType> Element = analyseResultField(
      FieldArg, *Rc, "the sort field", "the compute rank", Spelling, Ctx, Diags, Out);
  if (!Element)
    return std::nullopt;
  const QualType R = *Element;

  KernelBinding Binding;
  Binding.KernelArg = 1;
  Binding.FirstArg = 3;
  Binding.LeadingFormals = 2; // the two elements compared
  Binding.BroadcastOnly = true;
  Binding.AllowImplicitIndex = false;
  std::optional<AnalysedCall> A = analyseKernelCall(Call, kind(), Binding, *Rc, Ctx, Diags);
  if (!A || !stubsCanPass(*A, name(), Binding.FirstArg, Diags))
    return std::nullopt;
  const SourceLocation CmpAt = callArg(Call, 1)->getExprLoc();
  if (const FunctionDecl *Cmp = A->KernelFunction; Cmp && !A->Model.K.Generic) {
    for (unsigned I = 0; I < 2 && I < Cmp->getNumParams(); ++I) {
      const QualType PT = Cmp->getParamDecl(I)->getType();
      if (PT->isLValueReferenceType() && !PT.getNonReferenceType().isConstQualified()) {
        Diags.badComparator(CmpAt) << "it takes operand " + std::to_string(I + 1) + " ('" +
                                          printType(PT, Ctx) +
                                          "') by non-const reference; take it by value or const&";
        return std::nullopt;
      }
      if (!convertible(R, PT, Ctx)) {
        Diags.badComparator(CmpAt) << "its operand " + std::to_string(I + 1) + " is '" +
                                          printType(PT, Ctx) + "', but the sort field holds '" +
                                          Out.ElementType + "'";
        return std::nullopt;
      }
    }
    const QualType Ret = kernelResultType(*A);
    if (!Ret.isNull() && !Ret->isBooleanType() && !Ret->isArithmeticType()) {
      Diags.badComparator(CmpAt) << "it returns '" + printType(Ret, Ctx) + "'";
      return std::nullopt;
    }
  }
  // The sort field is written while the comparator reads the extras.
  if (const auto *FieldRef = dyn_cast<DeclRefExpr>(FieldArg->IgnoreParenImpCasts()))
    for (unsigned I = Binding.FirstArg; I < callArgCount(Call); ++I)
      if (const auto *E = dyn_cast<DeclRefExpr>(callArg(Call, I)->IgnoreParenImpCasts());
          E && E->getDecl() == FieldRef->getDecl()) {
        Diags.badResult(callArg(Call, I)->getExprLoc())
            << Spelling << "the sort field '" + Out.Text + "' is also extra argument " +
                               std::to_string(I - Binding.FirstArg + 1) + "; pass a clone()";
        return std::nullopt;
      }
  A->Model.Dim = *Dim;
  A->Model.Out = Out;
  A->Model.Order = A->Model.Args.empty() ? comparatorOrder(callArg(Call, 1), R, Ctx)
                                         : SortOrder::Custom;
  return A;
}

namespace {

/// The comparator with its extra arguments bound: the sort's order.
std::string comparatorDefinition(const CallSite &C) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "/// The comparator with its extra arguments bound: the sort's order.\n"
     << "template <class Params> struct " << C.StubName << "_less {\n"
     << "  Params p;\n"
     << "  template <class R> DP_HOST_DEVICE bool operator()(const R &a, const R &b) const {\n";
  renderBindings(OS, C, "    ", /*AtPosition=*/false); // a comparator has no position
  OS << "    return static_cast<bool>(" << renderKernelCall(C, "a, b") << ");\n"
     << "  }\n"
     << "};\n\n";
  return OS.str();
}

} // namespace

StubSpec SortRule::stubSpec(const CallSite &C) const {
  StubSpec S;
  S.KernelRole = "comparator";
  S.ResultLine = "sort field:   `" + C.Out.Text + "` (" + C.Out.Type + "), " +
                 (C.Order == SortOrder::Custom
                      ? std::string("merge sort with the comparator")
                      : std::string("radix sort, ") + toString(C.Order) + " (the natural order)") +
                 " on a GPU";
  S.BodyReturn = nullptr; // the comparator binds the extras itself, once
  S.Definitions = comparatorDefinition(C);
  S.LauncherTemplate = "class Kernel, class Field, class... A";
  S.LauncherParams = "Kernel &&kernel, Field &sort_field, A &&...a";
  S.LauncherBody = "  launch.sort<Dim>(sort_field, " + C.StubName + "_less<params_type>{params}, " +
                   "dp::rt::sort_order::" + toString(C.Order) + ");\n";
  S.ListedResult = "sort_field";
  S.ListsOrder = true;
  return S;
}

} // namespace dpstub
