//===- ResultField.cpp - The field a call-site writes ---------------------===//

#include "ResultField.h"
#include "AstText.h"
#include "dpstub/DpTypes.h"

using namespace clang;

namespace dpstub {

Result resultOf(const Expr *Arg, const ASTContext &Ctx) {
  Result Out;
  Out.Text = sourceText(Arg, Ctx);
  Out.Type = printType(Arg->getType().getCanonicalType().getUnqualifiedType(), Ctx);
  return Out;
}

std::optional<QualType> analyseResultField(const Expr *Arg, int Want, llvm::StringRef Role,
                                           llvm::StringRef RankWhy, llvm::StringRef Spelling,
                                           ASTContext &Ctx, Reporter &Diags, Result &Out) {
  const QualType FT = Arg->getType();
  if (!isDpField(FT) || dpRank(FT, Ctx) != Want) {
    Diags.badResult(Arg->getExprLoc())
        << Spelling << (Role + " must be a dp::field of rank " + std::to_string(Want) + " (" +
                        RankWhy + "), not '" + Out.Type + "'")
                           .str();
    return std::nullopt;
  }
  const QualType T = fieldElementType(FT);
  if (T.isConstQualified() || FT.isConstQualified()) {
    Diags.badResult(Arg->getExprLoc())
        << Spelling << (Role + " '" + Out.Text + "' is read-only; it must be writable").str();
    return std::nullopt;
  }
  Out.Rank = Want;
  Out.ElementType = printType(T.getCanonicalType().getUnqualifiedType(), Ctx);
  return T;
}

} // namespace dpstub
