//===- DeviceMarking.cpp - Host+device annotations for kernels ------------===//

#include "dpstub/DeviceMarking.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "AstVisitor.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace dpstub {

namespace {
/// Collects the functions and lambdas a kernel body uses.
class CalleeCollector : public AstVisitor {
public:
  std::vector<std::pair<const FunctionDecl *, SourceLocation>> Calls;
  std::vector<const LambdaExpr *> Lambdas;

  bool VisitCallExpr(CallExpr *CE) override {
    if (const FunctionDecl *FD = CE->getDirectCallee())
      Calls.push_back({FD, CE->getExprLoc()});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) override {
    if (const CXXConstructorDecl *Ctor = CE->getConstructor(); Ctor && Ctor->isUserProvided())
      Calls.push_back({Ctor, CE->getExprLoc()});
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *LE) override {
    Lambdas.push_back(LE); // marked and walked on their own
    return true;
  }
};
} // namespace

DeviceMarker::DeviceMarker(ASTContext &Ctx, Reporter &Diags, DeviceDeclarations &Declared)
    : Ctx(Ctx), Diags(Diags), Declared(Declared) {}

void DeviceMarker::markKernel(const AnalysedCall &Call) {
  if (Call.Lambda)
    markLambda(Call.Lambda);
  else if (Call.KernelFunction)
    markFunction(Call.KernelFunction);
  for (const FunctionDecl *FD : Call.StubCalls)
    markFunction(FD);
  for (const LambdaExpr *LE : Call.StubLambdas)
    markLambda(LE);
}

bool DeviceMarker::isLibraryCode(const Decl *D) const {
  return isLibraryDecl(D, Ctx.getSourceManager());
}

bool DeviceMarker::alreadyMarked(SourceLocation L) const {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto [FID, Offset] = SM.getDecomposedLoc(L);
  bool Invalid = false;
  const llvm::StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return true;
  auto IsMark = [](llvm::StringRef Word) {
    return Word == "DP_HOST_DEVICE" || Word == "DP_DEVICE" || Word == "__host__" ||
           Word == "__device__";
  };
  // After: a mark written where we would insert one.
  const llvm::StringRef After = Buffer.substr(Offset).ltrim();
  if (IsMark(After.take_while([](char C) { return std::isalnum(C) || C == '_'; })))
    return true;
  // Before: a mark that expands to nothing for the host compiler, so the
  // declaration starts after it (a source dpstub translated before).
  const llvm::StringRef Before = Buffer.take_front(Offset).rtrim();
  const size_t WordStart =
      Before.find_last_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
  return IsMark(Before.substr(WordStart == llvm::StringRef::npos ? 0 : WordStart + 1));
}

void DeviceMarker::insertAt(SourceLocation L, llvm::StringRef Text) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (L.isMacroID() || alreadyMarked(L))
    return;
  const auto [FID, Offset] = SM.getDecomposedLoc(L);
  const OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  if (!FE)
    return;
  const std::string Path = FE->getName().str();
  // Text at one offset as one insertion: whole lines (an #include) first.
  auto Add = [&](unsigned At, llvm::StringRef T) {
    std::string &Slot = Texts[{Path, At}];
    Slot = T.ends_with("\n") ? T.str() + Slot : Slot + T.str();
  };
  if (IncludeChecked.insert(FID).second) {
    const llvm::StringRef Buffer = SM.getBufferData(FID);
    if (!includesDp(Buffer))
      Add(configIncludeOffset(Buffer), "#include <dp/config.hpp>\n");
  }
  Add(Offset, Text);
}

void DeviceMarker::markLambda(const LambdaExpr *LE) {
  if (!Visited.insert(LE->getLambdaClass()).second)
    return;
  if (Replaced.count(LE->getLambdaClass())) {
    walk(LE->getBody());
    return;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  // After the capture list: `[=] DP_HOST_DEVICE (float &c) {...}`.
  const SourceLocation AfterIntroducer =
      Lexer::getLocForEndOfToken(LE->getIntroducerRange().getEnd(), 0, SM, Ctx.getLangOpts());
  bool Invalid = false;
  const char Next = *SM.getCharacterData(AfterIntroducer, &Invalid);
  const bool Spaced = !Invalid && (Next == ' ' || Next == '\t' || Next == '\n');
  std::string Text = LE->hasExplicitParameters() ? " DP_HOST_DEVICE" : " DP_HOST_DEVICE ()";
  insertAt(AfterIntroducer, Spaced ? Text : Text + " ");
  walk(LE->getBody());
}

void DeviceMarker::markFunction(const FunctionDecl *FD) {
  // A template is annotated once, at its pattern; the instantiation's body is
  // walked, since only it names concrete callees.
  const FunctionDecl *Pattern =
      FD->getTemplateInstantiationPattern() ? FD->getTemplateInstantiationPattern() : FD;
  if (!Visited.insert(Pattern->getCanonicalDecl()).second || isLibraryCode(Pattern) ||
      Pattern->isImplicit())
    return;
  for (const FunctionDecl *Redecl : Pattern->redecls())
    insertAt(Redecl->getBeginLoc(), "DP_HOST_DEVICE ");
  if (const FunctionDecl *Def = FD->getDefinition())
    walk(Def->getBody());
}

void DeviceMarker::markDeclarations(const FunctionDecl *FD) {
  if (!Visited.insert(FD->getCanonicalDecl()).second)
    return;
  for (const FunctionDecl *Redecl : FD->redecls())
    if (!isLibraryCode(Redecl))
      insertAt(Redecl->getBeginLoc(), "DP_HOST_DEVICE ");
}

namespace {
/// The function definitions of the unit's own files.
class DefinitionCollector : public AstVisitor {
public:
  std::vector<const FunctionDecl *> Definitions;
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() && !FD->isImplicit())
      Definitions.push_back(FD);
    return true;
  }
};
} // namespace

std::vector<const FunctionDecl *> declaredDefinitions(ASTContext &Ctx, DeviceDeclarations &Declared) {
  DefinitionCollector Collect;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!isLibraryDecl(D, Ctx.getSourceManager()))
      Collect.TraverseDecl(D);
  std::vector<const FunctionDecl *> Found;
  for (const FunctionDecl *FD : Collect.Definitions)
    if (Declared.declared(FD))
      Found.push_back(FD);
  return Found;
}

void DeviceMarker::markDeclaredDefinitions(const std::vector<const FunctionDecl *> &Definitions) {
  for (const FunctionDecl *FD : Definitions)
    markFunction(FD);
}

void DeviceMarker::walk(const Stmt *Body) {
  if (!Body)
    return;
  CalleeCollector Collect;
  Collect.TraverseStmt(const_cast<Stmt *>(Body));
  for (const auto &[FD, At] : Collect.Calls) {
    const FunctionDecl *Target = FD->getTemplateInstantiationPattern()
                                     ? FD->getTemplateInstantiationPattern()
                                     : FD;
    if (isLibraryCode(Target) || Target->isImplicit() || Target->getBuiltinID())
      continue;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Target); MD && MD->getParent()->isLambda())
      continue; // a lambda's call operator: marked with its lambda
    if (!FD->isDefined() && !Target->isDefined()) {
      if (Declared.declared(Target))
        markDeclarations(Target);
      else if (Visited.insert(Target->getCanonicalDecl()).second)
        Diags.noDeviceDefinition(At) << Target->getQualifiedNameAsString();
      continue;
    }
    markFunction(FD);
  }
  // A lambda defined in device code is device code already (nvcc and clang
  // give it its enclosing function's execution space), and nvcc rejects a
  // __host__ __device__ mark on a lambda inside another: only what it calls
  // is marked.
  for (const LambdaExpr *LE : Collect.Lambdas)
    if (Visited.insert(LE->getLambdaClass()).second)
      walk(LE->getBody());
}

} // namespace dpstub
