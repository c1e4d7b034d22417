//===- Helpers.cpp - What a kernel's callees read from namespace scope ----===//

#include "migrate/Helpers.h"

#include "migrate/ArrayData.h"
#include "migrate/BodyScan.h"
#include "AstText.h"
#include "dpstub/DpTypes.h"

#include "AstVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace clang;

namespace dpstub::migrate {

bool isHostVariable(const VarDecl *V) {
  if (!V->hasGlobalStorage() || V->isConstexpr())
    return false;
  const QualType T = V->getType();
  return !(T.isConstQualified() && T->isIntegralOrEnumerationType() && V->getInit() && V->hasConstantInitialization());
}

bool isHelperTable(const VarDecl *V, const ASTContext &Ctx) {
  const QualType T = V->getType();
  if (!V->hasGlobalStorage() || T->isDependentType() || !constantExtents(T, Ctx))
    return false;
  return Ctx.getBaseElementType(T)->isArithmeticType() &&
         Ctx.getTypeSizeInChars(T).getQuantity() <= HelperTableBytes;
}

std::string helperTableDeclarator(const VarDecl *V, const ASTContext &Ctx, bool Reference) {
  std::string Extents;
  for (std::uint64_t E : constantExtents(V->getType(), Ctx).value_or(std::vector<std::uint64_t>()))
    Extents += "[" + std::to_string(E) + "]";
  const std::string Element = printType(Ctx.getBaseElementType(V->getType()).getUnqualifiedType(), Ctx);
  const std::string Name = V->getName().str();
  return Reference ? "const " + Element + " (&" + Name + ")" + Extents : Element + " " + Name + Extents;
}

namespace {
const FunctionDecl *definitionOf(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  return F && F->hasBody(Def) ? Def : nullptr;
}
} // namespace

HelperGlobals::Entry &HelperGlobals::compute(const FunctionDecl *F) {
  F = F->getCanonicalDecl();
  Entry &E = Cache[F];
  if (E.Done || E.Busy)
    return E; // recursion: what the cycle reads is gathered by its first caller
  E.Busy = true;
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Def = definitionOf(F);
  std::set<const VarDecl *> Reads;
  if (Def && !isLibraryDecl(Def, SM)) {
    struct V : AstVisitor {
      HelperGlobals &H;
      ASTContext &Ctx;
      std::set<const VarDecl *> &Reads;
      std::string &Why;
      const FunctionDecl *Self;
      V(HelperGlobals &H, ASTContext &Ctx, std::set<const VarDecl *> &Reads, std::string &Why,
        const FunctionDecl *Self)
          : H(H), Ctx(Ctx), Reads(Reads), Why(Why), Self(Self) {}
      bool VisitDeclRefExpr(DeclRefExpr *D) override {
        const auto *Var = dyn_cast<VarDecl>(D->getDecl());
        if (!Var || !isHostVariable(Var))
          return true;
        if (D->hasQualifier() || Var->isStaticDataMember()) {
          Why = "reads '" + Var->getQualifiedNameAsString() + "' by a qualified name, which a parameter cannot stand for";
          return false;
        }
        if (Var->isStaticLocal() && Var->getDeclContext() == Self) {
          Why = "has the static local '" + Var->getName().str() + "'";
          return false;
        }
        if (useMode(D, Ctx).Write) {
          Why = "writes the namespace-scope '" + Var->getName().str() + "'";
          return false;
        }
        // A small table of numbers (NPB's `ce[5][13]`), read by element:
        // the kernel passes its own copy.
        if (isHelperTable(Var, Ctx)) {
          const Expr *E = D;
          for (QualType T = Var->getType(); T->isArrayType(); T = T->getAsArrayTypeUnsafe()->getElementType()) {
            const Stmt *P = parentOf(E, Ctx);
            while (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P)) {
              E = Cast;
              P = parentOf(E, Ctx);
            }
            const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(P);
            if (!Sub || Sub->getBase() != E) {
              Why = "uses the namespace-scope table '" + Var->getName().str() + "' otherwise than by its elements";
              return false;
            }
            E = Sub;
          }
          const UseMode Mode = useMode(E, Ctx);
          if (Mode.Write || Mode.Address) {
            Why = "writes the namespace-scope '" + Var->getName().str() + "'";
            return false;
          }
          Reads.insert(Var);
          return true;
        }
        if (!Var->getType()->isScalarType() || Var->getType()->isPointerType()) {
          Why = "reads the namespace-scope '" + Var->getName().str() + "', which is not a plain value";
          return false;
        }
        Reads.insert(Var);
        return true;
      }
      bool VisitCallExpr(CallExpr *C) override {
        const FunctionDecl *Callee = C->getDirectCallee();
        if (!Callee || Callee->getCanonicalDecl() == Self->getCanonicalDecl())
          return true;
        std::string Inner;
        std::optional<std::vector<const VarDecl *>> R = H.readBy(Callee, Inner);
        if (!R) {
          Why = "calls '" + Callee->getNameAsString() + "', which " + Inner;
          return false;
        }
        Reads.insert(R->begin(), R->end());
        return true;
      }
    } Visit(*this, Ctx, Reads, E.Why, Def);
    Visit.TraverseStmt(Def->getBody());
    if (E.Why.empty() && !Reads.empty() && !SM.isWrittenInMainFile(SM.getFileLoc(Def->getLocation())))
      E.Why = "reads namespace-scope variables and is not in the file dpstub rewrites";
  }
  E.Reads.assign(Reads.begin(), Reads.end());
  std::sort(E.Reads.begin(), E.Reads.end(),
            [](const VarDecl *A, const VarDecl *B) { return A->getName() < B->getName(); });
  for (const VarDecl *V : E.Reads)
    if (Def)
      for (const ParmVarDecl *P : Def->parameters())
        if (P->getName() == V->getName())
          E.Why = "already has a parameter named '" + P->getName().str() + "'";
  E.Busy = false;
  E.Done = true;
  return E;
}

std::optional<std::vector<const VarDecl *>> HelperGlobals::readBy(const FunctionDecl *F, std::string &Why) {
  Entry &E = compute(F);
  if (!E.Why.empty()) {
    Why = E.Why;
    return std::nullopt;
  }
  return E.Reads;
}

void HelperGlobals::passArguments(const CallExpr *C, EditList &E) {
  const FunctionDecl *Callee = C->getDirectCallee();
  if (!Callee)
    return;
  const Entry &En = compute(Callee);
  if (En.Reads.empty() || !En.Why.empty())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation R = SM.getFileLoc(C->getRParenLoc());
  if (!SM.isWrittenInMainFile(R))
    return;
  std::string Args;
  for (const VarDecl *V : En.Reads)
    Args += (Args.empty() && C->getNumArgs() == 0 ? "" : ", ") + V->getName().str();
  E.add({SM.getFileOffset(R), 0, Args});
}

void HelperGlobals::rewrite(const std::set<const FunctionDecl *> &Needed, const std::vector<const CallExpr *> &Calls,
                            EditList &E) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::set<const FunctionDecl *> Done;
  // The helpers the kernels call, and the helpers those call in turn
  // (particlefilter's randn calls randu): each takes the variables.
  std::vector<const FunctionDecl *> Work(Needed.rbegin(), Needed.rend());
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back()->getCanonicalDecl();
    Work.pop_back();
    if (!Done.insert(F).second)
      continue;
    const Entry &En = compute(F);
    if (En.Reads.empty() || !En.Why.empty())
      continue;
    // Each declaration takes the variables; the first one defaults them.
    bool First = true;
    std::vector<const FunctionDecl *> Decls(F->redecls_begin(), F->redecls_end());
    std::sort(Decls.begin(), Decls.end(), [&](const FunctionDecl *A, const FunctionDecl *B) {
      return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
    });
    for (const FunctionDecl *R : Decls) {
      const FunctionTypeLoc TL = R->getFunctionTypeLoc();
      if (!TL)
        continue;
      const SourceLocation RParen = SM.getFileLoc(TL.getRParenLoc());
      std::string Params;
      for (const VarDecl *V : En.Reads) {
        Params += (Params.empty() && R->getNumParams() == 0 ? "" : ", ") +
                  (isHelperTable(V, Ctx) ? helperTableDeclarator(V, Ctx, /*Reference=*/true)
                                         : printType(V->getType().getUnqualifiedType(), Ctx) + " " +
                                               V->getName().str());
        if (First)
          Params += " = " + qualifiedCallName(V);
      }
      E.add({SM.getFileOffset(RParen), 0, Params});
      First = false;
    }
    // Its calls of other such helpers pass the variables on.
    if (const FunctionDecl *Def = definitionOf(F)) {
      for (const CallExpr *C : callsIn(Def->getBody())) {
        passArguments(C, E);
        if (const FunctionDecl *G = C->getDirectCallee(); G && definitionOf(G))
          Work.push_back(G);
      }
    }
  }
  for (const CallExpr *C : Calls)
    passArguments(C, E);
}

} // namespace dpstub::migrate
