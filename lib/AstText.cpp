//===- AstText.cpp - Where and what the user wrote ------------------------===//

#include "AstText.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace dpstub {

Location locationOf(SourceLocation L, const SourceManager &SM) {
  const PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(L));
  Location Loc;
  if (P.isValid()) {
    Loc.File = llvm::sys::path::filename(P.getFilename()).str();
    Loc.Line = P.getLine();
    Loc.Column = P.getColumn();
  }
  return Loc;
}

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()),
                              Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

std::string signatureOf(const FunctionDecl *FD, const ASTContext &Ctx, llvm::StringRef Name) {
  std::string S = printType(FD->getReturnType(), Ctx) + " " + Name.str() + "(";
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    S += (I ? ", " : "") + printType(P->getType(), Ctx);
    if (!P->getName().empty())
      S += (P->getType()->isReferenceType() ? "" : " ") + P->getName().str();
  }
  return S + ")";
}

std::string qualifiedCallName(const NamedDecl *D) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy PP(D->getASTContext().getLangOpts());
  PP.SuppressUnwrittenScope = true; // no "(anonymous namespace)::"
  D->printQualifiedName(OS, PP);
  return "::" + OS.str();
}

unsigned optionsShift(const CallExpr *Call) {
  return Call->getNumArgs() > 0 && isExecOptions(Call->getArg(0)->getType()) ? 1 : 0;
}
const Expr *callArg(const CallExpr *Call, unsigned I) {
  return Call->getArg(I + optionsShift(Call));
}
unsigned callArgCount(const CallExpr *Call) { return Call->getNumArgs() - optionsShift(Call); }

std::optional<int> explicitDim(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return std::nullopt;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return static_cast<int>(Args->get(0).getAsIntegral().getExtValue());
}

} // namespace dpstub
