//===- Conversions.cpp - How each argument reaches its kernel -------------===//

#include "Conversions.h"
#include "AstText.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace dpstub {

std::optional<Conversion> classifyConversion(const ArgumentShape &S) {
  const int Ra = S.ActualRank, Rf = S.FormalRank, Rc = S.ComputeRank;
  if (S.IndexToken && !S.BroadcastOnly)
    return Conversion::SpecialIndex;
  if (Ra == Rc && Rf == 0 && !S.BroadcastOnly)
    return Conversion::ElementalProjection;
  if (Rf > 0 && Ra == Rc + Rf && !S.BroadcastOnly)
    return Conversion::PartialProjection;
  if (Rf > 0 && Ra == Rf)
    return Conversion::BroadcastField;
  if (Ra == 0 && Rf == 0)
    return Conversion::BroadcastScalar;
  return std::nullopt;
}

bool isWritableFormal(QualType T) {
  return T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified();
}

namespace {

/// Whether a generic kernel's parameter, as its template declares it, can
/// write to what it receives: `T &` and a forwarding `T &&` can (the actual
/// decides whether it is const), `const T &` and `T` cannot.
bool genericFormalWritable(QualType Pattern, bool ReadOnlyActual) {
  if (const auto *LR = Pattern->getAs<LValueReferenceType>())
    return !LR->getPointeeType().isConstQualified() && !ReadOnlyActual;
  if (const auto *RR = Pattern->getAs<RValueReferenceType>())
    return !RR->getPointeeType().isConstQualified() && !ReadOnlyActual;
  return false;
}

/// The rank a generic parameter's declared type fixes (`dp::field<1, T> &`),
/// if it fixes one.
std::optional<int> declaredFieldRank(QualType Pattern, const ASTContext &Ctx) {
  QualType T = Pattern.getNonReferenceType().getUnqualifiedType();
  if (!T->isDependentType())
    return isDpField(T) ? std::optional<int>(dpRank(T, Ctx)) : std::nullopt;
  const auto *TST = T->getAs<TemplateSpecializationType>();
  if (!TST)
    return std::nullopt;
  const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl();
  if (!TD || TD->getQualifiedNameAsString() != "dp::field" || TST->template_arguments().empty())
    return std::nullopt;
  const TemplateArgument &A = TST->template_arguments()[0];
  if (A.getKind() == TemplateArgument::Integral)
    return static_cast<int>(A.getAsIntegral().getExtValue());
  if (A.getKind() == TemplateArgument::Expression)
    if (std::optional<llvm::APSInt> V = A.getAsExpr()->getIntegerConstantExpr(Ctx))
      return static_cast<int>(V->getExtValue());
  return std::nullopt;
}

/// A rank mismatch, with the parameter it concerns; one rank short of a
/// projection, dp::spread<0> gives it the leading dimension (with a fix-it
/// an editor offers).
void reportRankMismatch(const ArgumentFacts &F, Reporter &Diags) {
  const Argument &Arg = F.Model;
  const ArgumentShape &S = F.Shape;
  const SourceLocation At = F.Actual->getExprLoc();
  const unsigned N = Arg.Position + 1;
  if (S.BroadcastOnly)
    Diags.extraNotWhole(At) << N << Arg.Text << S.ActualRank << F.FormalDisplay << S.FormalRank;
  else
    Diags.rankMismatch(At) << N << Arg.Text << S.ActualRank << F.FormalDisplay << S.FormalRank
                           << S.ComputeRank;
  if (F.Formal)
    Diags.parameterNote(F.Formal->getLocation());
  if (!S.BroadcastOnly && Arg.ActualIsField && S.ActualRank + 1 == S.ComputeRank + S.FormalRank) {
    const std::string Fix = "dp::spread<0>(" + Arg.Text + ")";
    Diags.spreadNote(At) << Arg.Text << Fix
                         << FixItHint::CreateReplacement(
                                CharSourceRange::getTokenRange(F.Actual->getSourceRange()), Fix);
  }
}

} // namespace

ArgumentFacts factsOf(const Expr *A, unsigned Position, const ParmVarDecl *P, bool GenericKernel,
                      int Rc, bool BroadcastOnly, const ASTContext &Ctx) {
  ArgumentFacts F;
  F.Actual = A;
  F.Formal = P;
  Argument &Arg = F.Model;
  Arg.Position = Position;
  Arg.Text = sourceText(A, Ctx);
  Arg.Loc = locationOf(A->getExprLoc(), Ctx.getSourceManager());
  const QualType AT = A->getType();
  // Canonical: `field<N + 1, T>` inside a view's return type reads as `field<3, float>`.
  Arg.ActualType = printType(AT.getCanonicalType().getUnqualifiedType(), Ctx);
  Arg.InstantiatedTypes = {Arg.ActualType};
  Arg.ActualRank = dpRank(AT, Ctx);
  Arg.ActualIsField = isDpField(AT);
  F.ReadOnlyActual = AT.isConstQualified();
  Arg.ActualIsRows = isDpRows(AT);
  if (Arg.ActualIsRows)
    Arg.ElementConst = dpRowsElementConst(AT);
  if (Arg.ActualIsField) {
    const QualType Elem = fieldElementType(AT);
    Arg.ElementConst = Elem.isConstQualified();
    Arg.ElementType = printType(Elem.getCanonicalType().getUnqualifiedType(), Ctx);
    F.ReadOnlyActual |= Arg.ElementConst;
  }
  const bool Known = P && !GenericKernel;
  Arg.FormalKnown = Known;
  Arg.FormalType = P ? printType(P->getType(), Ctx) : "auto";
  if (Known && isDpField(P->getType().getNonReferenceType()))
    Arg.FormalElementConst = fieldElementType(P->getType().getNonReferenceType()).isConstQualified();
  Arg.FormalName = P ? P->getName().str() : "";
  const int Ra = Arg.ActualRank;
  // A generic parameter takes what the actual's rank suggests, as in the
  // host reference; a sort's extras always reach the comparator whole.
  int Rf = Known ? dpRank(P->getType(), Ctx) : (Ra == Rc && !BroadcastOnly ? 0 : Ra);
  if (!Known && P)
    if (std::optional<int> Declared = declaredFieldRank(P->getType(), Ctx); Declared && *Declared != Rf)
      Rf = *Declared; // the reference cannot bind it either: a mismatch then
  Arg.FormalRank = Rf;
  F.WritableFormal = Known ? isWritableFormal(P->getType())
                     : P   ? genericFormalWritable(P->getType(), F.ReadOnlyActual)
                           : !F.ReadOnlyActual;
  F.FormalDisplay = Arg.FormalName.empty() ? Arg.FormalType : Arg.FormalName;
  F.Token = indexToken(AT);
  F.Shape = {F.Token.has_value(), Ra, Rf, Rc, BroadcastOnly};
  return F;
}

CheckedArgument checkArgument(const ArgumentFacts &F, std::optional<Conversion> Conv,
                              Reporter &Diags) {
  CheckedArgument Out{F.Model};
  if (!Conv) {
    reportRankMismatch(F, Diags);
    Out.Ok = false;
    return Out;
  }
  Out.Classified = true;
  Argument &Arg = Out.Model;
  Arg.Conv = *Conv;
  const SourceLocation At = F.Actual->getExprLoc();
  const unsigned N = Arg.Position + 1;
  const bool Known = Arg.FormalKnown;
  const int Rc = F.Shape.ComputeRank;
  if (*Conv == Conversion::SpecialIndex) {
    Arg.Index = *F.Token;
    const QualType FT = Known ? F.Formal->getType() : QualType();
    if (*F.Token == IndexKind::Group) {
      if (Known && (!isTileGroup(FT, Rc) || isWritableFormal(FT))) {
        Diags.badTileFormal(At) << N << F.FormalDisplay << Rc;
        Out.Ok = false;
      }
    } else if (Known && !isDpIndex(FT, Rc)) {
      Diags.badIndexFormal(At) << N << F.FormalDisplay << Rc;
      Out.Ok = false;
    }
  } else if (*Conv == Conversion::BroadcastScalar && Known && F.WritableFormal) {
    Diags.scalarToReference(At) << N << F.FormalDisplay;
    Diags.parameterNote(F.Formal->getLocation());
    Out.Ok = false;
  }
  const bool DataFlows = *Conv != Conversion::SpecialIndex && *Conv != Conversion::BroadcastScalar;
  Arg.Writable = DataFlows && F.WritableFormal;
  if (Arg.Writable && F.ReadOnlyActual) {
    if (Known) {
      Diags.readOnlyToWritable(At) << N << F.FormalDisplay;
      Out.Ok = false;
    }
    Arg.Writable = false;
  }
  return Out;
}

} // namespace dpstub
