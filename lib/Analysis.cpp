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

/// The expression a callable argument denotes: the argument itself, what
/// `&f` takes the address of, or the initializer of a variable that holds
/// it as it is (`auto k = [](...) {...};`). A variable of another type
/// (`std::function<...> k = [](...) {...};`) holds a conversion of its
/// initializer, decided at run time: it denotes itself.
const Expr *denotedCallable(const Expr *E) {
  E = stripWrappers(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    E = stripWrappers(UO->getSubExpr());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && !isa<ParmVarDecl>(VD) && VD->getInit()) {
      const Expr *Init = stripWrappers(VD->getInit());
      const QualType Held = VD->getType().getNonReferenceType().getUnqualifiedType();
      if (Held->getAsCXXRecordDecl() &&
          Held->getAsCXXRecordDecl() ==
              Init->getType().getNonReferenceType()->getAsCXXRecordDecl())
        return Init;
    }
  return E;
}

} // namespace

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

namespace {

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
  // An operator() inherited from a base (`struct k : base_kernel {}`): the
  // derived class's own one hides it, so bases are searched only without.
  if (!Found && RD->hasDefinition())
    for (const CXXBaseSpecifier &B : RD->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
        if (B.getAccessSpecifier() == AS_public)
          if ((Found = callOperatorOf(Base, NArgs, Generic)))
            break;
  return Found;
}

/// The definition of a function object's operator(). A member template of
/// a class template's specialization (`template <class P> auto
/// operator()(P)` in `S<float>`) is not instantiated until called: its
/// definition is then the member template's, as written.
const FunctionDecl *definitionOf(const CXXMethodDecl *M) {
  if (const FunctionDecl *Def = M->getDefinition())
    return Def;
  if (const FunctionTemplateDecl *FT = M->getDescribedFunctionTemplate())
    for (const FunctionTemplateDecl *From = FT->getInstantiatedFromMemberTemplate(); From;
         From = From->getInstantiatedFromMemberTemplate())
      if (const FunctionDecl *Def = From->getTemplatedDecl()->getDefinition())
        return Def;
  return nullptr;
}

/// Why a library function object cannot run on a device, if it cannot:
/// its operator() is library code with no device version (constexpr ones,
/// like std::plus<>, compile for every device). A std::function also
/// holds a callable known only at run time.
std::optional<std::string> hostOnlyLibraryCallable(const CXXRecordDecl *RD,
                                                   const CXXMethodDecl *Op,
                                                   const ASTContext &Ctx) {
  if (!isLibraryDecl(RD, Ctx.getSourceManager()) || Op->isConstexpr())
    return std::nullopt;
  const std::string Type = printType(QualType(RD->getTypeForDecl(), 0), Ctx);
  if (RD->getName() == "function" && RD->isInStdNamespace())
    return "a '" + Type + "' calls the callable it holds through host code, and which "
           "callable that is is known only at run time; pass the lambda, function or function "
           "object itself";
  return "'" + Type + "' is library code whose operator() is not constexpr, so it has no "
         "device version; use a lambda or a function object of your own";
}

std::optional<ResolvedKernel> resolveKernel(const Expr *KernelArg, unsigned NArgs,
                                            llvm::StringRef Kind, const ASTContext &Ctx,
                                            Reporter &Diags) {
  const SourceLocation At = KernelArg->getExprLoc();
  const Expr *E = denotedCallable(KernelArg);

  ResolvedKernel R;
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    // (A captured `this` becomes copies of what the kernel reads through
    // it, or an error: LambdaObjects.cpp.)
    for (const LambdaCapture &Cap : LE->captures())
      if (Cap.getCaptureKind() == LCK_ByRef)
        Diags.captureByReference(Cap.getLocation()) << Cap.getCapturedVar()->getName();
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
    if (std::optional<std::string> Why = hostOnlyLibraryCallable(RD, Op, Ctx)) {
      Diags.untouched(At) << Kind << *Why;
      return std::nullopt;
    }
    R.Callable = definitionOf(Op);
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

/// The parameter of a (possibly generic) callable at index I, if it has one
/// that is not a pack.
const ParmVarDecl *formalAt(const FunctionDecl *FD, unsigned I) {
  if (I >= FD->getNumParams() || FD->getParamDecl(I)->isParameterPack())
    return nullptr;
  return FD->getParamDecl(I);
}


bool inStandardLibrary(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && NS->isStdNamespace())
      return true;
  return false;
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

} // namespace

unsigned optionsShift(const CallExpr *Call) {
  return Call->getNumArgs() > 0 && isExecOptions(Call->getArg(0)->getType()) ? 1 : 0;
}
const Expr *callArg(const CallExpr *Call, unsigned I) {
  return Call->getArg(I + optionsShift(Call));
}
unsigned callArgCount(const CallExpr *Call) { return Call->getNumArgs() - optionsShift(Call); }

bool convertible(QualType From, QualType To, const ASTContext &Ctx) {
  From = From.getNonReferenceType().getUnqualifiedType();
  To = To.getNonReferenceType().getUnqualifiedType();
  if (From->isDependentType() || To->isDependentType())
    return true;
  return Ctx.hasSameUnqualifiedType(From, To) ||
         (From->isArithmeticType() && To->isArithmeticType());
}

std::optional<int> checkCallShape(const CallExpr *Call, llvm::StringRef Kind, unsigned MinArgs,
                                  ASTContext &Ctx, Reporter &Diags, DomainSet Allowed,
                                  Domain *Out) {
  if (Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID()) {
    Diags.untouched(Call->getBeginLoc()) << Kind << "it is spelled inside a macro expansion";
    return std::nullopt;
  }
  if (callArgCount(Call) < MinArgs) {
    Diags.untouched(Call->getBeginLoc()) << Kind << "it has too few arguments";
    return std::nullopt;
  }
  const Expr *DomainArg = callArg(Call, 0);
  const std::optional<std::pair<int, Domain>> D = computeDomain(DomainArg->getType(), Ctx);
  if (!D || !(Allowed & domainBit(D->second.Kind))) {
    Diags.badDomain(DomainArg->getExprLoc())
        << Kind << describeDomains(Allowed)
        << printType(DomainArg->getType().getCanonicalType().getUnqualifiedType(), Ctx);
    return std::nullopt;
  }
  if (optionsShift(Call) && !checkOptions(Call->getArg(0), &D->second, Ctx, Diags))
    return std::nullopt;
  if (Out)
    *Out = D->second;
  return D->first;
}

std::string describeDomains(DomainSet Allowed) {
  if (Allowed == domainBit(DomainKind::Grid))
    return "a dp::grid<N> (tiled, dp::where and triangle domains are for dp::forall and the "
           "full dp::reduce)";
  return "a dp::grid<N>, a dp::tile<T...>(grid), a dp::where(grid, pred) or a "
         "dp::lower_triangle / dp::upper_triangle";
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

std::optional<AnalysedCall> analyseKernelCall(const CallExpr *Call, CallKind Kind,
                                              const KernelBinding &Binding, int Rc,
                                              ASTContext &Ctx, Reporter &Diags) {
  const unsigned NArgs = callArgCount(Call) - Binding.FirstArg;
  const unsigned Leading = Binding.LeadingFormals;
  std::optional<ResolvedKernel> K =
      resolveKernel(callArg(Call, Binding.KernelArg), NArgs + Leading, toString(Kind), Ctx, Diags);
  if (!K)
    return std::nullopt;

  AnalysedCall Out;
  Out.Call = Call;
  Out.Lambda = K->Lambda;
  Out.KernelFunction = K->Callable;
  CallSite &C = Out.Model;
  C.Kind = Kind;
  C.Loc = locationOf(Call->getBeginLoc(), Ctx.getSourceManager());
  C.ComputeRank = Rc;
  if (optionsShift(Call))
    C.Options = sourceText(Call->getArg(0), Ctx);
  C.K = K->Model;

  unsigned FirstFormal = Leading;
  const unsigned NParams = K->Callable->getNumParams();
  const bool Variadic = NParams > 0 && K->Callable->getParamDecl(NParams - 1)->isParameterPack();
  if (!Variadic) {
    C.K.ImplicitIndex = Binding.AllowImplicitIndex && NParams == NArgs + Leading + 1 &&
                        isDpIndex(K->Callable->getParamDecl(Leading)->getType(), Rc);
    if (NParams != NArgs + Leading && !C.K.ImplicitIndex) {
      Diags.arity(callArg(Call, Binding.KernelArg)->getExprLoc())
          << NParams << (NArgs + Leading) << Rc;
      return std::nullopt;
    }
    FirstFormal += C.K.ImplicitIndex ? 1 : 0;
  }

  bool Ok = true;
  llvm::DenseMap<const VarDecl *, std::vector<unsigned>> Uses;
  for (unsigned I = 0; I < NArgs; ++I) {
    const Expr *A = callArg(Call, Binding.FirstArg + I);
    Argument Arg;
    Arg.Position = I;
    Arg.Text = sourceText(A, Ctx);
    Arg.Loc = locationOf(A->getExprLoc(), Ctx.getSourceManager());
    const QualType AT = A->getType();
    // Canonical: `field<N + 1, T>` inside a view's return type reads as `field<3, float>`.
    Arg.ActualType = printType(AT.getCanonicalType().getUnqualifiedType(), Ctx);
    Arg.InstantiatedTypes = {Arg.ActualType};
    Arg.ActualRank = dpRank(AT, Ctx);
    Arg.ActualIsField = isDpField(AT);
    bool ReadOnlyActual = AT.isConstQualified();
    if (Arg.ActualIsField) {
      const QualType Elem = fieldElementType(AT);
      Arg.ElementConst = Elem.isConstQualified();
      Arg.ElementType = printType(Elem.getCanonicalType().getUnqualifiedType(), Ctx);
      ReadOnlyActual |= Arg.ElementConst;
    }
    const ParmVarDecl *P = formalAt(K->Callable, FirstFormal + I);
    const bool Known = P && !K->Generic;
    Arg.FormalKnown = Known;
    Arg.FormalType = P ? printType(P->getType(), Ctx) : "auto";
    Arg.FormalName = P ? P->getName().str() : "";
    const int Ra = Arg.ActualRank;
    // A generic parameter takes what the actual's rank suggests, as in the
    // host reference; a sort's extras always reach the comparator whole.
    int Rf = Known ? dpRank(P->getType(), Ctx) : (Ra == Rc && !Binding.BroadcastOnly ? 0 : Ra);
    if (!Known && P)
      if (std::optional<int> Declared = declaredFieldRank(P->getType(), Ctx); Declared && *Declared != Rf)
        Rf = *Declared; // the reference cannot bind it either: a mismatch below
    Arg.FormalRank = Rf;
    const bool WritableFormal = Known ? isWritableFormal(P->getType())
                                : P   ? genericFormalWritable(P->getType(), ReadOnlyActual)
                                      : !ReadOnlyActual;
    const std::string Formal = Arg.FormalName.empty() ? Arg.FormalType : Arg.FormalName;

    if (std::optional<IndexKind> Token = indexToken(AT); Token && !Binding.BroadcastOnly) {
      Arg.Conv = Conversion::SpecialIndex;
      Arg.Index = *Token;
      if (*Token == IndexKind::Group) {
        const QualType FT = Known ? P->getType() : QualType();
        if (Known && (!isTileGroup(FT, Rc) || isWritableFormal(FT))) {
          Diags.badTileFormal(A->getExprLoc()) << (I + 1) << Formal << Rc;
          Ok = false;
        }
      } else if (Known && !isDpIndex(P->getType(), Rc)) {
        Diags.badIndexFormal(A->getExprLoc()) << (I + 1) << Formal << Rc;
        Ok = false;
      }
    } else if (Ra == Rc && Rf == 0 && !Binding.BroadcastOnly) {
      Arg.Conv = Conversion::ElementalProjection;
    } else if (Rf > 0 && Ra == Rc + Rf && !Binding.BroadcastOnly) {
      Arg.Conv = Conversion::PartialProjection;
    } else if (Rf > 0 && Ra == Rf) {
      Arg.Conv = Conversion::BroadcastField;
    } else if (Ra == 0 && Rf == 0) {
      Arg.Conv = Conversion::BroadcastScalar;
      if (Known && WritableFormal) {
        Diags.scalarToReference(A->getExprLoc()) << (I + 1) << Formal;
        Diags.parameterNote(P->getLocation());
        Ok = false;
      }
    } else {
      if (Binding.BroadcastOnly)
        Diags.extraNotWhole(A->getExprLoc()) << (I + 1) << Arg.Text << Ra << Formal << Rf;
      else
        Diags.rankMismatch(A->getExprLoc()) << (I + 1) << Arg.Text << Ra << Formal << Rf << Rc;
      if (P)
        Diags.parameterNote(P->getLocation());
      // One rank short of a projection: dp::spread<0> gives it the leading
      // dimension (with a fix-it an editor offers).
      if (!Binding.BroadcastOnly && Arg.ActualIsField && Ra + 1 == Rc + Rf) {
        const std::string Fix = "dp::spread<0>(" + Arg.Text + ")";
        Diags.spreadNote(A->getExprLoc())
            << Arg.Text << Fix
            << FixItHint::CreateReplacement(
                   CharSourceRange::getTokenRange(A->getSourceRange()), Fix);
      }
      Ok = false;
      C.Args.push_back(Arg);
      continue;
    }
    const bool DataFlows = Arg.Conv != Conversion::SpecialIndex &&
                           Arg.Conv != Conversion::BroadcastScalar;
    Arg.Writable = DataFlows && WritableFormal;
    if (Arg.Writable && ReadOnlyActual) {
      if (Known) {
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

  // A forall kernel that writes no argument but assigns a parameter that
  // holds a copy of an element: the user meant a reference.
  if (Ok && Kind == CallKind::Forall)
    warnByValueWrites(C, K->Callable, FirstFormal, Diags);

  // A provably aliased writable field: the same variable twice, one of them
  // bound to a writable parameter the kernel declares.
  for (const auto &[VD, Positions] : Uses) {
    if (Positions.size() < 2)
      continue;
    for (unsigned W : Positions) {
      if (!C.Args[W].Writable || !C.Args[W].FormalKnown)
        continue; // a generic parameter may not write: the reference does not know either
      for (unsigned O : Positions)
        if (O != W) {
          Diags.aliased(callArg(Call, Binding.FirstArg + O)->getExprLoc())
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

std::optional<int> explicitDim(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return std::nullopt;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return static_cast<int>(Args->get(0).getAsIntegral().getExtValue());
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
