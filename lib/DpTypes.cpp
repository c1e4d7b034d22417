//===- DpTypes.cpp - Recognising dp:: types in the AST --------------------===//

#include "dpstub/DpTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace dpstub {

const ClassTemplateSpecializationDecl *dpSpecialization(QualType T, llvm::StringRef Name) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RT = T->getAs<RecordType>();
  if (!RT)
    return nullptr;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RT->getDecl());
  if (!Spec)
    return nullptr;
  const NamedDecl *Template = Spec->getSpecializedTemplate();
  const auto *NS = dyn_cast<NamespaceDecl>(Template->getDeclContext());
  if (Template->getName() != Name || !NS || NS->getName() != "dp" ||
      !NS->getParent()->isTranslationUnit())
    return nullptr;
  return Spec;
}

static std::optional<int> integralArg(const ClassTemplateSpecializationDecl *S, unsigned I) {
  if (!S || S->getTemplateArgs().size() <= I)
    return std::nullopt;
  const TemplateArgument &A = S->getTemplateArgs()[I];
  if (A.getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return static_cast<int>(A.getAsIntegral().getExtValue());
}

bool isDpField(QualType T) { return dpSpecialization(T, "field") != nullptr; }

bool isDpRows(QualType T) { return dpSpecialization(T, "rows") != nullptr; }

bool dpRowsElementConst(QualType T) {
  const ClassTemplateSpecializationDecl *S = dpSpecialization(T, "rows");
  return S && S->getTemplateArgs().size() >= 1 && S->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
         S->getTemplateArgs()[0].getAsType().isConstQualified();
}

QualType fieldElementType(QualType T) {
  const auto *S = dpSpecialization(T, "field");
  if (!S || S->getTemplateArgs().size() < 2)
    return QualType();
  return S->getTemplateArgs()[1].getAsType();
}

std::optional<int> gridRank(QualType T) { return integralArg(dpSpecialization(T, "grid"), 0); }

bool isDpIndex(QualType T, int Rank) {
  const std::optional<int> R = integralArg(dpSpecialization(T, "index"), 0);
  return R && *R == Rank;
}

bool isLibraryDecl(const Decl *D, const SourceManager &SM) {
  if (SM.isInSystemHeader(D->getLocation()))
    return true;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getParent()->isTranslationUnit() && (NS->getName() == "dp" || NS->getName() == "std"))
        return true;
  return false;
}

std::optional<IndexKind> indexToken(QualType T) {
  if (const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl())
    if (RD->getName() == "tile_token")
      if (const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
          NS && NS->getName() == "dp" && NS->getParent()->isTranslationUnit())
        return IndexKind::Group;
  const auto *S = dpSpecialization(T, "index_token");
  if (!S || S->getTemplateArgs().size() == 0)
    return std::nullopt;
  switch (S->getTemplateArgs()[0].getAsIntegral().getExtValue()) {
  case 1: return IndexKind::Tile;
  case 2: return IndexKind::Local;
  default: return IndexKind::Global;
  }
}

std::optional<std::pair<int, Domain>> computeDomain(QualType T, const ASTContext &Ctx) {
  Domain D;
  D.Type = printType(T.getNonReferenceType().getCanonicalType().getUnqualifiedType(), Ctx);
  if (std::optional<int> R = gridRank(T))
    return std::make_pair(*R, D);
  if (const auto *S = dpSpecialization(T, "tiled_grid")) {
    D.Kind = DomainKind::Tiled;
    const TemplateArgumentList &Args = S->getTemplateArgs();
    if (Args.size() != 2 || Args[1].getKind() != TemplateArgument::Pack)
      return std::nullopt;
    for (const TemplateArgument &E : Args[1].pack_elements())
      D.Tile.push_back(E.getAsIntegral().getExtValue());
    return std::make_pair(*integralArg(S, 0), D);
  }
  if (const auto *S = dpSpecialization(T, "where_domain")) {
    D.Kind = DomainKind::Where;
    return std::make_pair(*integralArg(S, 0), D);
  }
  if (const auto *S = dpSpecialization(T, "triangle_domain")) {
    D.Kind = S->getTemplateArgs()[0].getAsIntegral().getExtValue() == 0 ? DomainKind::LowerTriangle
                                                                         : DomainKind::UpperTriangle;
    return std::make_pair(2, D);
  }
  return std::nullopt;
}

bool isExecOptions(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getName() == "exec_options" && RD->getDeclContext()->isNamespace() &&
         cast<NamespaceDecl>(RD->getDeclContext())->getName() == "dp";
}

bool isTileGroup(QualType T, int Rank) {
  const std::optional<int> R = integralArg(dpSpecialization(T, "tile_group"), 0);
  return R && *R == Rank;
}

QualType tileStaticType(QualType T) {
  const auto *S = dpSpecialization(T, "tile_static");
  if (!S || S->getTemplateArgs().size() != 1)
    return QualType();
  return S->getTemplateArgs()[0].getAsType();
}

int dpRank(QualType T, const ASTContext &Ctx) {
  if (std::optional<int> R = integralArg(dpSpecialization(T, "field"), 0))
    return *R;
  if (std::optional<int> R = integralArg(dpSpecialization(T, "partial_view"), 1))
    return *R;
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return 0;
  RD = RD->getDefinition();
  bool HasSubscript = false;
  for (const CXXMethodDecl *M : RD->methods())
    HasSubscript |= M->getOverloadedOperator() == OO_Subscript;
  if (!HasSubscript)
    return 0;
  for (const Decl *D : RD->decls())
    if (const auto *VD = dyn_cast<VarDecl>(D))
      if (VD->isStaticDataMember() && VD->getName() == "rank" && VD->getInit())
        if (const APValue *V = VD->evaluateValue(); V && V->isInt())
          return static_cast<int>(V->getInt().getExtValue());
  (void)Ctx;
  return 0;
}

std::string printType(QualType T, const ASTContext &Ctx) {
  PrintingPolicy PP(Ctx.getLangOpts());
  PP.SuppressUnwrittenScope = true;
  PP.FullyQualifiedName = true;
  PP.PrintCanonicalTypes = false;
  PP.Bool = true; // C's _Bool is `bool` in the C++ dpstub writes
  return T.getAsString(PP);
}

} // namespace dpstub
