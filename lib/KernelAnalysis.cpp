//===- KernelAnalysis.cpp - A call-site's kernel and its arguments --------===//

#include "KernelAnalysis.h"
#include "AstText.h"
#include "Callables.h"
#include "Conversions.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace dpstub {

namespace {

/// The parameter of a (possibly generic) callable at index I, if it has one
/// that is not a pack.
const ParmVarDecl *formalAt(const FunctionDecl *FD, unsigned I) {
  if (I >= FD->getNumParams() || FD->getParamDecl(I)->isParameterPack())
    return nullptr;
  return FD->getParamDecl(I);
}

/// The index of the kernel's parameter bound to the first argument: after
/// the leading formals and, when the kernel has one more parameter than
/// arguments and it is a dp::index<Rc>, after that implicit index (noted in
/// C.K). Nothing when the parameters fit neither (reported).
std::optional<unsigned> firstBoundFormal(const FunctionDecl *Kernel, unsigned NArgs,
                                         const KernelBinding &Binding, int Rc,
                                         SourceLocation KernelAt, CallSite &C,
                                         Reporter &Diags) {
  const unsigned Leading = Binding.LeadingFormals;
  const unsigned NParams = Kernel->getNumParams();
  if (NParams > 0 && Kernel->getParamDecl(NParams - 1)->isParameterPack())
    return Leading; // variadic: every argument binds as it comes
  C.K.ImplicitIndex = Binding.AllowImplicitIndex && NParams == NArgs + Leading + 1 &&
                      isDpIndex(Kernel->getParamDecl(Leading)->getType(), Rc);
  if (NParams != NArgs + Leading && !C.K.ImplicitIndex) {
    Diags.arity(KernelAt) << NParams << (NArgs + Leading) << Rc;
    return std::nullopt;
  }
  return Leading + (C.K.ImplicitIndex ? 1 : 0);
}

/// The field variable an argument names, if it names one.
const VarDecl *namedField(const Expr *A, const Argument &Arg) {
  if (!Arg.ActualIsField)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The stub indexes a user indexable type itself: its operator[] must
/// compile for the device.
void addUserSubscripts(const Expr *A, const Argument &Arg,
                       std::vector<const FunctionDecl *> &StubCalls) {
  if (Arg.Conv != Conversion::ElementalProjection || Arg.ActualIsField)
    return;
  if (const CXXRecordDecl *RD = A->getType()->getAsCXXRecordDecl())
    for (const CXXMethodDecl *M : RD->methods())
      if (M->getOverloadedOperator() == OO_Subscript)
        StubCalls.push_back(M);
}

/// E without parentheses, reads of its value and copies of it.
const Expr *withoutCopies(const Expr *E) {
  for (;;) {
    E = E->IgnoreParens();
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E);
        IC && (IC->getCastKind() == CK_LValueToRValue || IC->getCastKind() == CK_NoOp)) {
      E = IC->getSubExpr();
    } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
               CE && CE->getNumArgs() == 1 && CE->getConstructor()->isCopyOrMoveConstructor()) {
      E = CE->getArg(0);
    } else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MT->getSubExpr();
    } else {
      return E;
    }
  }
}

/// Whether running S loops: a loop statement in it, or in a function of
/// the user's it calls whose definition is in view (followed once each,
/// through Seen). dp's and the standard library's functions do not count:
/// a field's element access loops over its dimensions, and unrolls.
bool loops(const Stmt *S, llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
           const SourceManager &SM) {
  if (!S)
    return false;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = Call->getDirectCallee())
      if (const FunctionDecl *Def = F->getDefinition())
        if (!isLibraryDecl(Def, SM) && Seen.insert(Def).second && loops(Def->getBody(), Seen, SM))
          return true;
  for (const Stmt *Child : S->children())
    if (loops(Child, Seen, SM))
      return true;
  return false;
}

/// Whether a kernel loops itself (Kernel::Loops): its body, or a function
/// of the user's it calls, holds a loop.
bool loopsItself(const FunctionDecl *Kernel, const SourceManager &SM) {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen{Kernel};
  return loops(Kernel->getBody(), Seen, SM);
}

/// Whether a kernel of one parameter hands on the field element it takes as
/// it is: its body is `return x;`, x receives the element unconverted (a
/// generic parameter, or the element's type) and leaves unconverted (a
/// deduced return type, or the element's type). A map that does so lets a
/// vendor reduce or scan read the elements themselves.
bool returnsItsElement(const FunctionDecl *Kernel, QualType Element, bool Generic) {
  if (Kernel->getNumParams() != 1 || Element.isNull())
    return false;
  const ParmVarDecl *P = Kernel->getParamDecl(0);
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  const auto *Return = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
  const Expr *Value = Return ? Return->getRetValue() : nullptr;
  const auto *Ref = Value ? dyn_cast<DeclRefExpr>(withoutCopies(Value)) : nullptr;
  if (!Ref || Ref->getDecl() != P)
    return false;
  const QualType Elem = Element.getCanonicalType().getUnqualifiedType();
  const auto plain = [](QualType T) {
    return T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  };
  if (Generic) // auto x / const auto &x, returning auto: the element's type
    return isa<TemplateTypeParmType>(plain(P->getType())) &&
           isa<AutoType>(Kernel->getReturnType().getTypePtr());
  return plain(P->getType()) == Elem && Kernel->getReturnType().getCanonicalType() == Elem;
}

/// The first assignment (=, op=, ++, --) to P in S, if any.
const Expr *firstAssignmentTo(const Stmt *S, const ParmVarDecl *P) {
  if (!S)
    return nullptr;
  auto Names = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == P;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Names(BO->getLHS()))
    return BO;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp() && Names(UO->getSubExpr()))
    return UO;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
      OC && OC->isAssignmentOp() && OC->getNumArgs() > 0 && Names(OC->getArg(0)))
    return OC;
  for (const Stmt *Child : S->children())
    if (const Expr *E = firstAssignmentTo(Child, P))
      return E;
  return nullptr;
}

/// A kernel with no writable argument that assigns a by-value parameter
/// bound to an element (projection): the assignment is lost.
void warnByValueWrites(const CallSite &C, const FunctionDecl *Kernel, unsigned FirstFormal,
                       Reporter &Diags) {
  if (!Kernel || !Kernel->hasBody() || C.K.Mutable)
    return;
  for (const Argument &Arg : C.Args)
    if (Arg.Writable)
      return;
  for (const Argument &Arg : C.Args) {
    if (!Arg.FormalKnown || (Arg.Conv != Conversion::ElementalProjection &&
                             Arg.Conv != Conversion::PartialProjection))
      continue;
    const ParmVarDecl *P = formalAt(Kernel, FirstFormal + Arg.Position);
    if (!P || P->getType()->isReferenceType() || P->getType().isConstQualified())
      continue;
    if (const Expr *At = firstAssignmentTo(Kernel->getBody(), P))
      Diags.byValueWrite(At->getExprLoc())
          << P->getName() << P->getType().getUnqualifiedType().getAsString();
  }
}

/// The model of a call-site of Kind with kernel K, before its arguments.
AnalysedCall callWithKernel(const CallExpr *Call, CallKind Kind, const ResolvedKernel &K, int Rc,
                            const ASTContext &Ctx) {
  AnalysedCall Out;
  Out.Call = Call;
  Out.Lambda = K.Lambda;
  Out.KernelFunction = K.Callable;
  CallSite &C = Out.Model;
  C.Kind = Kind;
  C.Loc = locationOf(Call->getBeginLoc(), Ctx.getSourceManager());
  C.ComputeRank = Rc;
  if (optionsShift(Call))
    C.Options = sourceText(Call->getArg(0), Ctx);
  C.K = K.Model;
  return Out;
}

} // namespace

std::vector<AliasedWrite> findAliasedWrites(llvm::ArrayRef<const VarDecl *> Named,
                                            llvm::ArrayRef<Argument> Args) {
  llvm::MapVector<const VarDecl *, std::vector<unsigned>> Uses;
  for (unsigned I = 0; I < Named.size(); ++I)
    if (Named[I])
      Uses[Named[I]].push_back(I);
  std::vector<AliasedWrite> Found;
  for (const auto &[VD, Positions] : Uses) {
    if (Positions.size() < 2)
      continue;
    for (unsigned W : Positions) {
      if (!Args[W].Writable || !Args[W].FormalKnown)
        continue; // a generic parameter may not write: the reference does not know either
      for (unsigned O : Positions)
        if (O != W) {
          Found.push_back({VD, W, O});
          break;
        }
      break;
    }
  }
  return Found;
}

std::optional<AnalysedCall> analyseKernelCall(const CallExpr *Call, CallKind Kind,
                                              const KernelBinding &Binding, int Rc,
                                              ASTContext &Ctx, Reporter &Diags) {
  const unsigned NArgs = callArgCount(Call) - Binding.FirstArg;
  const Expr *KernelArg = callArg(Call, Binding.KernelArg);
  std::optional<ResolvedKernel> K = resolveKernel(KernelArg, NArgs + Binding.LeadingFormals,
                                                  toString(Kind), Ctx, Diags);
  if (!K)
    return std::nullopt;
  AnalysedCall Out = callWithKernel(Call, Kind, *K, Rc, Ctx);
  CallSite &C = Out.Model;
  const std::optional<unsigned> FirstFormal =
      firstBoundFormal(K->Callable, NArgs, Binding, Rc, KernelArg->getExprLoc(), C, Diags);
  if (!FirstFormal)
    return std::nullopt;

  bool Ok = true;
  std::vector<const VarDecl *> Named;
  for (unsigned I = 0; I < NArgs; ++I) {
    const Expr *A = callArg(Call, Binding.FirstArg + I);
    const ArgumentFacts F = factsOf(A, I, formalAt(K->Callable, *FirstFormal + I), K->Generic,
                                    Rc, Binding.BroadcastOnly, Ctx);
    const CheckedArgument Checked = checkArgument(F, classifyConversion(F.Shape), Diags);
    Ok &= Checked.Ok;
    Named.push_back(Checked.Classified ? namedField(A, Checked.Model) : nullptr);
    if (Checked.Classified)
      addUserSubscripts(A, Checked.Model, Out.StubCalls);
    C.Args.push_back(Checked.Model);
  }

  C.K.Loops = loopsItself(K->Callable, Ctx.getSourceManager());
  if (Ok && NArgs == 1 && *FirstFormal == 0 && C.Args.front().ActualIsField)
    C.K.ReturnsItsElement = returnsItsElement(
        K->Callable, fieldElementType(callArg(Call, Binding.FirstArg)->getType()), K->Generic);

  // A forall kernel that writes no argument but assigns a parameter that
  // holds a copy of an element: the user meant a reference.
  if (Ok && Kind == CallKind::Forall)
    warnByValueWrites(C, K->Callable, *FirstFormal, Diags);
  for (const AliasedWrite &W : findAliasedWrites(Named, C.Args)) {
    Diags.aliased(callArg(Call, Binding.FirstArg + W.Other)->getExprLoc())
        << W.Var->getName() << (W.Writer + 1) << (W.Other + 1);
    Ok = false;
  }
  if (!Ok)
    return std::nullopt;
  return Out;
}

bool stubsCanPass(const AnalysedCall &A, llvm::StringRef Kind, unsigned FirstArg,
                  Reporter &Diags) {
  for (const Argument &Arg : A.Model.Args) {
    const bool UserType = Arg.ActualRank > 0 && !Arg.ActualIsField;
    if (UserType && (Arg.Conv == Conversion::PartialProjection || Arg.Writable)) {
      Diags.untouched(callArg(A.Call, FirstArg + Arg.Position)->getExprLoc())
          << Kind
          << (Arg.Conv == Conversion::PartialProjection
                  ? "partial projection of a user indexable type is not supported in stubs"
                  : "a user indexable type bound to a writable parameter is not supported in "
                    "stubs");
      return false;
    }
  }
  return true;
}

} // namespace dpstub
