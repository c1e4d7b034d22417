//===- Analysis.cpp - Kernels and argument conversions --------------------===//

#include "dpstub/Analysis.h"
#include "dpstub/DpTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
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

namespace {

/// What the kernel expression turned out to be.
struct ResolvedKernel {
  Kernel Model;
  const FunctionDecl *Callable = nullptr; ///< free function or operator()
  const LambdaExpr *Lambda = nullptr;
  bool Generic = false;
};

const Expr *stripWrappers(const Expr *E) {
  for (;;) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Next);
        CE && CE->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(CE))
      Next = CE->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
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

/// The operator() of a function object that fits NArgs arguments.
const CXXMethodDecl *callOperatorOf(const CXXRecordDecl *RD, unsigned NArgs, bool &Generic) {
  const CXXMethodDecl *Found = nullptr;
  Generic = false;
  for (const Decl *D : RD->decls()) {
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D)) {
      if (const auto *M = dyn_cast<CXXMethodDecl>(FT->getTemplatedDecl());
          M && M->getOverloadedOperator() == OO_Call && !Found) {
        Found = M;
        Generic = true;
      }
    } else if (const auto *M = dyn_cast<CXXMethodDecl>(D);
               M && M->getOverloadedOperator() == OO_Call &&
               (M->getNumParams() == NArgs || M->getNumParams() == NArgs + 1)) {
      Found = M;
      Generic = false;
    }
  }
  return Found;
}

std::optional<ResolvedKernel> resolveKernel(const Expr *KernelArg, unsigned NArgs,
                                            llvm::StringRef Kind, const ASTContext &Ctx,
                                            Reporter &Diags) {
  const SourceLocation At = KernelArg->getExprLoc();
  const Expr *E = stripWrappers(KernelArg);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    E = stripWrappers(UO->getSubExpr());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->getInit())
      if (const auto *LE = dyn_cast<LambdaExpr>(stripWrappers(VD->getInit())))
        E = LE;

  ResolvedKernel R;
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    for (const LambdaCapture &Cap : LE->captures())
      if (Cap.getCaptureKind() == LCK_ByRef || Cap.getCaptureKind() == LCK_This)
        Diags.captureByReference(Cap.getLocation())
            << (Cap.capturesVariable() ? Cap.getCapturedVar()->getName() : "this");
    R.Lambda = LE;
    R.Callable = LE->getCallOperator();
    R.Generic = LE->isGenericLambda();
    R.Model.Kind = KernelKind::Lambda;
    R.Model.Mutable = LE->isMutable();
    R.Model.Name = "lambda";
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E);
             DRE && isa<FunctionDecl>(DRE->getDecl()) && !isa<CXXMethodDecl>(DRE->getDecl())) {
    const auto *FD = cast<FunctionDecl>(DRE->getDecl());
    R.Callable = FD->getDefinition();
    R.Model.Kind = KernelKind::FreeFunction;
    R.Model.Name = qualifiedCallName(FD);
    if (!R.Callable) {
      Diags.untouched(At) << Kind << "the kernel's body is not visible in this translation unit";
      return std::nullopt;
    }
  } else if (const CXXRecordDecl *RD = E->getType()->getAsCXXRecordDecl()) {
    if (RD->isLambda()) {
      Diags.untouched(At) << Kind
                          << "a lambda kernel must be written at the call-site or held in a "
                             "variable initialised with it";
      return std::nullopt;
    }
    const CXXMethodDecl *Op = callOperatorOf(RD, NArgs, R.Generic);
    if (!Op) {
      Diags.untouched(At) << Kind << "the function object has no operator() for these arguments";
      return std::nullopt;
    }
    R.Callable = Op->getDefinition();
    R.Model.Kind = KernelKind::FunctionObject;
    R.Model.Name = qualifiedCallName(RD);
    if (!R.Callable) {
      Diags.untouched(At) << Kind << "the function object's operator() body is not visible";
      return std::nullopt;
    }
  } else {
    Diags.untouched(At) << Kind
                        << "the kernel must be a lambda, a function or a function object";
    return std::nullopt;
  }
  R.Model.Generic = R.Generic;
  R.Model.Signature = R.Generic ? R.Model.Name + " (generic)"
                                : signatureOf(R.Callable, Ctx,
                                              R.Model.Kind == KernelKind::FreeFunction
                                                  ? R.Model.Name.substr(2)
                                                  : R.Model.Kind == KernelKind::Lambda
                                                        ? "lambda"
                                                        : R.Model.Name.substr(2) + "::operator()");
  return R;
}

bool isWritableFormal(QualType T) {
  return T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified();
}

} // namespace

std::optional<AnalysedCall> analyseKernelCall(const CallExpr *Call, llvm::StringRef Kind,
                                              unsigned KernelArg, unsigned FirstArg, int Rc,
                                              ASTContext &Ctx, Reporter &Diags) {
  const unsigned NArgs = Call->getNumArgs() - FirstArg;
  std::optional<ResolvedKernel> K =
      resolveKernel(Call->getArg(KernelArg), NArgs, Kind, Ctx, Diags);
  if (!K)
    return std::nullopt;

  AnalysedCall Out;
  Out.Call = Call;
  Out.Lambda = K->Lambda;
  Out.KernelFunction = K->Callable;
  CallSite &C = Out.Model;
  C.Kind = Kind.str();
  C.Loc = locationOf(Call->getBeginLoc(), Ctx.getSourceManager());
  C.ComputeRank = Rc;
  C.K = K->Model;
  C.StubName = C.Kind + "_" + std::to_string(C.Loc.Line) + "_" + std::to_string(C.Loc.Column);

  unsigned FirstFormal = 0;
  if (!K->Generic) {
    const unsigned NParams = K->Callable->getNumParams();
    C.K.ImplicitIndex =
        NParams == NArgs + 1 && isDpIndex(K->Callable->getParamDecl(0)->getType(), Rc);
    if (NParams != NArgs && !C.K.ImplicitIndex) {
      Diags.arity(Call->getArg(KernelArg)->getExprLoc()) << NParams << NArgs << Rc;
      return std::nullopt;
    }
    FirstFormal = C.K.ImplicitIndex ? 1 : 0;
  }

  bool Ok = true;
  llvm::DenseMap<const VarDecl *, std::vector<unsigned>> Uses;
  for (unsigned I = 0; I < NArgs; ++I) {
    const Expr *A = Call->getArg(FirstArg + I);
    Argument Arg;
    Arg.Position = I;
    Arg.Text = sourceText(A, Ctx);
    Arg.Loc = locationOf(A->getExprLoc(), Ctx.getSourceManager());
    const QualType AT = A->getType();
    // Canonical: `field<N + 1, T>` inside a view's return type reads as `field<3, float>`.
    Arg.ActualType = printType(AT.getCanonicalType().getUnqualifiedType(), Ctx);
    Arg.ActualRank = dpRank(AT, Ctx);
    Arg.ActualIsField = isDpField(AT);
    bool ReadOnlyActual = AT.isConstQualified();
    if (Arg.ActualIsField) {
      const QualType Elem = fieldElementType(AT);
      Arg.ElementConst = Elem.isConstQualified();
      Arg.ElementType = printType(Elem.getCanonicalType().getUnqualifiedType(), Ctx);
      ReadOnlyActual |= Arg.ElementConst;
    }
    const ParmVarDecl *P = K->Generic ? nullptr : K->Callable->getParamDecl(FirstFormal + I);
    Arg.FormalKnown = P != nullptr;
    Arg.FormalType = P ? printType(P->getType(), Ctx) : "auto";
    Arg.FormalName = P ? P->getName().str() : "";
    const int Ra = Arg.ActualRank;
    const int Rf = P ? dpRank(P->getType(), Ctx) : (Ra == Rc ? 0 : Ra);
    Arg.FormalRank = Rf;
    const bool WritableFormal = P ? isWritableFormal(P->getType()) : !ReadOnlyActual;
    const std::string Formal = Arg.FormalName.empty() ? Arg.FormalType : Arg.FormalName;

    if (std::optional<IndexKind> Token = indexToken(AT)) {
      Arg.Conv = Conversion::SpecialIndex;
      Arg.Index = *Token;
      if (P && !isDpIndex(P->getType(), Rc)) {
        Diags.badIndexFormal(A->getExprLoc()) << (I + 1) << Formal << Rc;
        Ok = false;
      }
    } else if (Ra == Rc && Rf == 0) {
      Arg.Conv = Conversion::ElementalProjection;
    } else if (Rf > 0 && Ra == Rc + Rf) {
      Arg.Conv = Conversion::PartialProjection;
    } else if (Rf > 0 && Ra == Rf) {
      Arg.Conv = Conversion::BroadcastField;
    } else if (Ra == 0 && Rf == 0) {
      Arg.Conv = Conversion::BroadcastScalar;
      if (P && WritableFormal) {
        Diags.scalarToReference(A->getExprLoc()) << (I + 1) << Formal;
        Diags.parameterNote(P->getLocation());
        Ok = false;
      }
    } else {
      Diags.rankMismatch(A->getExprLoc()) << (I + 1) << Arg.Text << Ra << Formal << Rf << Rc;
      if (P)
        Diags.parameterNote(P->getLocation());
      Ok = false;
      C.Args.push_back(Arg);
      continue;
    }
    const bool DataFlows = Arg.Conv != Conversion::SpecialIndex &&
                           Arg.Conv != Conversion::BroadcastScalar;
    Arg.Writable = DataFlows && WritableFormal;
    if (Arg.Writable && ReadOnlyActual) {
      if (P) {
        Diags.readOnlyToWritable(A->getExprLoc()) << (I + 1) << Formal;
        Ok = false;
      }
      Arg.Writable = false;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && Arg.ActualIsField)
        Uses[VD].push_back(I);
    // The stub indexes a user indexable type itself: its operator[] must
    // compile for the device.
    if (Arg.Conv == Conversion::ElementalProjection && !Arg.ActualIsField)
      if (const CXXRecordDecl *RD = AT->getAsCXXRecordDecl())
        for (const CXXMethodDecl *M : RD->methods())
          if (M->getOverloadedOperator() == OO_Subscript)
            Out.StubCalls.push_back(M);
    C.Args.push_back(Arg);
  }

  // A provably aliased writable field: the same variable twice, one of them
  // bound to a writable parameter the kernel declares.
  for (const auto &[VD, Positions] : Uses) {
    if (Positions.size() < 2)
      continue;
    for (unsigned W : Positions) {
      if (!C.Args[W].Writable || !C.Args[W].FormalKnown)
        continue;
      for (unsigned O : Positions)
        if (O != W) {
          Diags.aliased(Call->getArg(FirstArg + O)->getExprLoc())
              << VD->getName() << (W + 1) << (O + 1);
          Ok = false;
          break;
        }
      break;
    }
  }
  if (!Ok)
    return std::nullopt;
  return Out;
}

} // namespace dpstub
