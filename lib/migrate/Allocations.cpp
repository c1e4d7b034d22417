//===- Allocations.cpp - What the program allocates, and how much --------===//

#include "migrate/Allocations.h"

#include "AstVisitor.h"
#include "dpstub/DpTypes.h"
#include "migrate/Text.h"

#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <functional>
#include <set>

using namespace clang;

namespace dpstub::migrate {

namespace {

/// The functions of OpenMP and OpenACC that return device memory, which
/// the host cannot read through.
bool returnsDeviceMemory(StringRef Name) {
  return Name.starts_with("omp_target_alloc") || Name.starts_with("llvm_omp_target_alloc") ||
         Name == "acc_malloc" || Name == "acc_create" || Name == "acc_copyin" || Name == "acc_deviceptr" ||
         Name == "acc_present_or_create" || Name == "acc_present_or_copyin";
}

/// The bytes a device allocator of no host memory is asked for
/// (`acc_malloc(bytes)`, `omp_target_alloc(bytes, device)`): memory only
/// device code touches, which a dp::field holds as well; null for other
/// calls (`acc_copyin(h, bytes)` and the like tie it to host memory).
const Expr *deviceAllocationBytes(const CallExpr *C) {
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return nullptr;
  const StringRef Name = FD->getName();
  return (Name == "acc_malloc" && C->getNumArgs() == 1) || (Name == "omp_target_alloc" && C->getNumArgs() == 2)
             ? C->getArg(0)
             : nullptr;
}

/// The element count of a `malloc` size: `n * sizeof(T)`, `sizeof(T) * n`,
/// `sizeof(T)`.
std::optional<std::string> countOfBytes(const Expr *Size, QualType Elem, const ASTContext &Ctx) {
  Size = Size->IgnoreParenImpCasts();
  if (const auto *S = dyn_cast<UnaryExprOrTypeTraitExpr>(Size))
    if (S->getKind() == UETT_SizeOf && sameElement(S->getTypeOfArgument(), Elem))
      return std::string("1");
  const auto *B = dyn_cast<BinaryOperator>(Size);
  if (!B || B->getOpcode() != BO_Mul)
    return std::nullopt;
  auto IsSize = [&](const Expr *E) {
    const auto *S = dyn_cast<UnaryExprOrTypeTraitExpr>(E->IgnoreParenImpCasts());
    return S && S->getKind() == UETT_SizeOf && sameElement(S->getTypeOfArgument(), Elem);
  };
  if (IsSize(B->getRHS()))
    return textOf(B->getLHS(), Ctx);
  if (IsSize(B->getLHS()))
    return textOf(B->getRHS(), Ctx);
  if (std::optional<std::string> L = countOfBytes(B->getLHS(), Elem, Ctx)) {
    const std::string R = textOf(B->getRHS(), Ctx);
    return *L == "1" ? R : *L + " * " + R;
  }
  return std::nullopt;
}

/// The element count of `bytes` bytes of Elem: `(bytes) / sizeof(T)`, for
/// an allocation sized otherwise than by a count of Elem (Rodinia's srad:
/// `(int *)malloc(sizeof(unsigned int *) * rows)`); its whole elements are
/// all the program may use.
std::string countOfAnyBytes(const std::string &Bytes, QualType Elem, const ASTContext &Ctx) {
  QualType E = Elem;
  E.removeLocalConst();
  return "(" + Bytes + ") / sizeof(" + printType(E, Ctx) + ")";
}

/// The function C calls when its body is one statement, or null.
const Stmt *onlyStatement(const CallExpr *C) {
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD || FD->isVariadic() || !FD->hasBody(Def))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  return Body && Body->size() == 1 ? Body->body_front() : nullptr;
}

/// The bytes a call to a C heap allocation asks for: malloc(n),
/// aligned_alloc(a, n), _mm_malloc(n, a); null for anything else.
const Expr *heapAllocationBytes(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return nullptr;
  const StringRef Name = FD->getName();
  if (Name == "malloc" && C->getNumArgs() == 1)
    return C->getArg(0);
  if (Name == "aligned_alloc" && C->getNumArgs() == 2)
    return C->getArg(1);
  if (Name == "_mm_malloc" && C->getNumArgs() == 2)
    return C->getArg(0);
  return nullptr;
}

/// The count a `malloc` size multiplies `sizeof(T)` by (`n * sizeof(T)`,
/// `sizeof(T) * n`), as an expression, or null.
const Expr *countOperand(const Expr *Size, QualType Elem) {
  const auto *B = dyn_cast<BinaryOperator>(Size->IgnoreParenImpCasts());
  if (!B || B->getOpcode() != BO_Mul)
    return nullptr;
  auto IsSize = [&](const Expr *E) {
    const auto *S = dyn_cast<UnaryExprOrTypeTraitExpr>(E->IgnoreParenImpCasts());
    return S && S->getKind() == UETT_SizeOf && sameElement(S->getTypeOfArgument(), Elem);
  };
  return IsSize(B->getRHS()) ? B->getLHS() : IsSize(B->getLHS()) ? B->getRHS() : nullptr;
}

/// The parameter whose value a one-statement helper's returned
/// allocation counts its elements by (`return new T[n];`, `return
/// static_cast<T *>(malloc(sizeof(T) * size));`), or null. Read from the
/// AST, not from the text: the helper may be in a header (LULESH's
/// `Allocate<T>`), whose text the migration does not hold.
const ParmVarDecl *countParameter(const Expr *E, QualType Elem) {
  E = E->IgnoreParenImpCasts();
  while (const auto *X = dyn_cast<ExplicitCastExpr>(E))
    E = X->getSubExpr()->IgnoreParenImpCasts();
  const Expr *Count = nullptr;
  if (const auto *N = dyn_cast<CXXNewExpr>(E)) {
    if (N->isArray() && N->getArraySize() && sameElement(N->getAllocatedType(), Elem) && !N->hasInitializer() &&
        !N->getNumPlacementArgs())
      Count = *N->getArraySize();
  } else if (const auto *C = dyn_cast<CallExpr>(E)) {
    if (const Expr *Bytes = heapAllocationBytes(C))
      Count = countOperand(Bytes, Elem);
  }
  const auto *R = Count ? dyn_cast<DeclRefExpr>(Count->IgnoreParenImpCasts()) : nullptr;
  return R ? dyn_cast<ParmVarDecl>(R->getDecl()) : nullptr;
}

bool isAllocationWrapper(const FunctionDecl *FD, int Depth);

/// Whether Size, in the body of Def, is Def's parameter P's value, or at
/// least it: P itself, or a local that starts as P and only grows (`size_t
/// padded = bytes; ... padded += alignment - excess;`).
bool atLeastParameter(const Expr *Size, const ParmVarDecl *P, const FunctionDecl *Def) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Size->IgnoreParenImpCasts());
  if (!Ref)
    return false;
  if (Ref->getDecl() == P)
    return true;
  const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
  const auto *Init = V && V->hasLocalStorage() && V->getInit()
                         ? dyn_cast<DeclRefExpr>(V->getInit()->IgnoreParenImpCasts())
                         : nullptr;
  if (!Init || Init->getDecl() != P || !V->getType()->isUnsignedIntegerType())
    return false;
  struct Writes : AstVisitor {
    const VarDecl *V;
    bool Shrinks = false;
    explicit Writes(const VarDecl *V) : V(V) {}
    bool VisitBinaryOperator(BinaryOperator *B) override {
      if (const auto *L = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()); L && L->getDecl() == V)
        Shrinks |= B->isAssignmentOp() && B->getOpcode() != BO_AddAssign;
      return !Shrinks;
    }
    bool VisitUnaryOperator(UnaryOperator *U) override {
      if (const auto *R = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()); R && R->getDecl() == V)
        Shrinks |= U->isDecrementOp() || U->getOpcode() == UO_AddrOf;
      return !Shrinks;
    }
  } W(V);
  W.TraverseStmt(Def->getBody());
  return !W.Shrinks; // unsigned: `+=` only grows it
}

/// Whether C allocates at least Def's parameter P's bytes: a heap
/// allocation or another wrapper asked for them.
bool allocatesParameter(const CallExpr *C, const ParmVarDecl *P, const FunctionDecl *Def, int Depth) {
  if (const Expr *Bytes = heapAllocationBytes(C))
    return atLeastParameter(Bytes, P, Def);
  return C->getDirectCallee() && isAllocationWrapper(C->getDirectCallee(), Depth + 1) && C->getNumArgs() == 1 &&
         atLeastParameter(C->getArg(0), P, Def);
}

/// Whether E, a wrapper's returned value, is a fresh allocation of at
/// least its parameter P's bytes: an allocating call, or a local pointer
/// that only ever holds one (or null): `void *p = NULL;
/// posix_memalign(&p, a, bytes); return p;`.
bool freshAllocation(const Expr *E, const ParmVarDecl *P, const FunctionDecl *Def, int Depth) {
  E = E->IgnoreParenCasts();
  if (const auto *C = dyn_cast<CallExpr>(E))
    return allocatesParameter(C, P, Def, Depth);
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getType()->isPointerType())
    return false;
  const std::function<bool(const Expr *)> Fresh = [&](const Expr *X) {
    X = X->IgnoreParenCasts();
    if (isa<GNUNullExpr>(X) || isa<CXXNullPtrLiteralExpr>(X))
      return true;
    if (const auto *I = dyn_cast<IntegerLiteral>(X))
      return I->getValue() == 0;
    const auto *C = dyn_cast<CallExpr>(X);
    return C && allocatesParameter(C, P, Def, Depth);
  };
  if (V->getInit() && !Fresh(V->getInit()))
    return false;
  // Every other use: assigned a fresh value, its address handed to
  // posix_memalign for P's bytes, or returned.
  struct Uses : AstVisitor {
    const VarDecl *V;
    const ParmVarDecl *P;
    const FunctionDecl *Def;
    const std::function<bool(const Expr *)> &Fresh;
    std::set<const Expr *> MemalignArg;
    bool Other = false;
    Uses(const VarDecl *V, const ParmVarDecl *P, const FunctionDecl *Def, const std::function<bool(const Expr *)> &F)
        : V(V), P(P), Def(Def), Fresh(F) {}
    bool VisitBinaryOperator(BinaryOperator *B) override {
      if (const auto *L = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()); L && L->getDecl() == V)
        Other |= B->getOpcode() != BO_Assign || !Fresh(B->getRHS());
      return !Other;
    }
    bool VisitUnaryOperator(UnaryOperator *U) override {
      if (const auto *R = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()); R && R->getDecl() == V)
        Other |= U->getOpcode() != UO_AddrOf || !MemalignArg.count(U);
      return !Other;
    }
    bool VisitCallExpr(CallExpr *C) override { // visited before its arguments
      const FunctionDecl *F = C->getDirectCallee();
      if (F && F->getIdentifier() && F->getName() == "posix_memalign" && C->getNumArgs() == 3 &&
          atLeastParameter(C->getArg(2), P, Def))
        MemalignArg.insert(C->getArg(0)->IgnoreParenCasts());
      return true;
    }
  } U(V, P, Def, Fresh);
  U.TraverseStmt(Def->getBody());
  return !U.Other;
}

/// An allocation wrapper of several statements (ParRes Kernels'
/// `prk_malloc(bytes)`, which pads the bytes to an alignment and calls
/// aligned_alloc or posix_memalign): its body in view, one integer
/// parameter, the bytes asked for, a pointer returned, and every return
/// a fresh allocation of at least those bytes (atLeastParameter). A
/// helper taking a count of elements (`malloc(n * sizeof(T))`) is not
/// one.
bool isAllocationWrapper(const FunctionDecl *FD, int Depth) {
  const FunctionDecl *Def = nullptr;
  if (Depth > 2 || !FD || FD->isVariadic() || !FD->hasBody(Def) || Def->getNumParams() != 1 ||
      !Def->getParamDecl(0)->getType()->isIntegerType() || !Def->getReturnType()->isPointerType())
    return false;
  struct Returns : AstVisitor {
    std::vector<const ReturnStmt *> All;
    bool VisitReturnStmt(ReturnStmt *R) override {
      All.push_back(R);
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) override { return true; } // its returns are its own
  } R;
  R.TraverseStmt(Def->getBody());
  const ParmVarDecl *P = Def->getParamDecl(0);
  return !R.All.empty() && std::all_of(R.All.begin(), R.All.end(), [&](const ReturnStmt *S) {
    return S->getRetValue() && freshAllocation(S->getRetValue(), P, Def, Depth);
  });
}

} // namespace

bool sameElement(QualType A, QualType B) {
  return A.getCanonicalType().getUnqualifiedType() == B.getCanonicalType().getUnqualifiedType();
}

/// The call that releases device memory from deviceAllocationBytes, with
/// the pointer its argument Index: `acc_free(p)`, `omp_target_free(p,
/// device)`.
bool freesDevice(const CallExpr *C, unsigned Index, StringRef Name) {
  return Index == 0 && ((Name == "acc_free" && C->getNumArgs() == 1) ||
                        (Name == "omp_target_free" && C->getNumArgs() == 2));
}

/// The call E is when it returns device memory (`(double *)
/// acc_malloc(n)`), or null.
const CallExpr *deviceAllocation(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenCasts());
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && returnsDeviceMemory(FD->getName()) ? Call : nullptr;
}

/// The element count of an allocation (malloc, calloc, new T[n], or a
/// helper that only returns one of those), or none when E is not one
/// dpstub reads.
std::optional<std::string> allocationCount(const Expr *E, QualType Elem, ASTContext &Ctx, int Depth) {
  E = E->IgnoreParenImpCasts();
  while (const auto *C = dyn_cast<ExplicitCastExpr>(E))
    E = C->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *N = dyn_cast<CXXNewExpr>(E)) {
    if (!N->isArray() || !N->getArraySize() || !sameElement(N->getAllocatedType(), Elem) ||
        (N->hasInitializer() && !isa<CXXConstructExpr>(N->getInitializer()) &&
         !isa<ImplicitValueInitExpr>(N->getInitializer())) ||
        N->getNumPlacementArgs())
      return std::nullopt;
    return textOf(*N->getArraySize(), Ctx);
  }
  const auto *C = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  const StringRef Name = FD->getName();
  const Expr *Bytes = heapAllocationBytes(C);
  if (!Bytes)
    Bytes = deviceAllocationBytes(C);
  if (!Bytes && isAllocationWrapper(FD, Depth))
    Bytes = C->getArg(0);
  if (Bytes) {
    if (std::optional<std::string> N = countOfBytes(Bytes, Elem, Ctx))
      return N;
    return countOfAnyBytes(textOf(Bytes, Ctx), Elem, Ctx);
  }
  if (Name == "calloc" && C->getNumArgs() == 2) {
    if (countOfBytes(C->getArg(1), Elem, Ctx) == std::optional<std::string>("1"))
      return textOf(C->getArg(0), Ctx);
    if (countOfBytes(C->getArg(0), Elem, Ctx) == std::optional<std::string>("1"))
      return textOf(C->getArg(1), Ctx);
    return countOfAnyBytes("(" + textOf(C->getArg(0), Ctx) + ") * (" + textOf(C->getArg(1), Ctx) + ")",
                           Elem, Ctx);
  }
  // An allocation helper (`template <class T> T *alloc(int n) { return
  // new T[n]; }`): its count, when that is one of its parameters, is the
  // call's argument.
  const auto *R = dyn_cast_or_null<ReturnStmt>(onlyStatement(C));
  if (!R || !R->getRetValue() || Depth > 2)
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  FD->hasBody(Def);
  const ParmVarDecl *P = countParameter(R->getRetValue(), Elem);
  const std::optional<std::string> N = P ? std::nullopt : allocationCount(R->getRetValue(), Elem, Ctx, Depth + 1);
  for (unsigned K = 0; Def && K < Def->getNumParams() && K < C->getNumArgs(); ++K)
    if (Def->getParamDecl(K) == P || (N && Def->getParamDecl(K)->getName() == *N))
      return textOf(C->getArg(K), Ctx);
  return std::nullopt;
}

/// True when the function C calls only releases its parameter `Index`
/// (`template <class T> void dealloc(T *p) { delete[] p; }`, or free(p)).
bool releasesOnly(const CallExpr *C, unsigned Index) {
  const Stmt *S = onlyStatement(C);
  const FunctionDecl *Def = nullptr;
  if (!S || !C->getDirectCallee()->hasBody(Def) || Index >= Def->getNumParams())
    return false;
  const Expr *Released = nullptr;
  if (const auto *Del = dyn_cast<CXXDeleteExpr>(S); Del && Del->isArrayForm())
    Released = Del->getArgument();
  else if (const auto *Free = dyn_cast<CallExpr>(S); Free && Free->getNumArgs() == 1 &&
                                                     Free->getDirectCallee() &&
                                                     Free->getDirectCallee()->getIdentifier() &&
                                                     Free->getDirectCallee()->getName() == "free")
    Released = Free->getArg(0);
  const auto *Ref = Released ? dyn_cast<DeclRefExpr>(Released->IgnoreParenImpCasts()) : nullptr;
  return Ref && Ref->getDecl() == Def->getParamDecl(Index);
}

bool releasesThrough(const CallExpr *C, unsigned Index) {
  const FunctionDecl *FD = C->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || FD->isVariadic() || !FD->hasBody(Def) || Index >= Def->getNumParams())
    return false;
  const ParmVarDecl *P = Def->getParamDecl(Index);
  // `*p`, the array's pointer.
  auto Pointee = [&](const Expr *E) {
    const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
    const auto *R = U && U->getOpcode() == UO_Deref ? dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts())
                                                     : nullptr;
    return R && R->getDecl() == P;
  };
  auto Null = [&](const Expr *E) {
    return E->IgnoreParenCasts()->isNullPointerConstant(Def->getASTContext(), Expr::NPC_ValueDependentIsNotNull) !=
           Expr::NPCK_NotNull;
  };
  // `*p`, `*p != NULL`, `NULL != *p`: whether there is one to release.
  auto Tests = [&](const Expr *E) {
    if (Pointee(E))
      return true;
    const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    return B && B->getOpcode() == BO_NE &&
           ((Pointee(B->getLHS()) && Null(B->getRHS())) || (Pointee(B->getRHS()) && Null(B->getLHS())));
  };
  int Releases = 0;
  const std::function<bool(const Stmt *)> Only = [&](const Stmt *S) {
    if (!S || isa<NullStmt>(S))
      return true;
    if (const auto *B = dyn_cast<CompoundStmt>(S))
      return std::all_of(B->body_begin(), B->body_end(), Only);
    if (const auto *If = dyn_cast<IfStmt>(S))
      return !If->getElse() && !If->getInit() && !If->getConditionVariable() && Tests(If->getCond()) &&
             Only(If->getThen());
    if (const auto *Del = dyn_cast<CXXDeleteExpr>(S))
      return Del->isArrayForm() && Pointee(Del->getArgument()) && ++Releases;
    if (const auto *Free = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *F = Free->getDirectCallee();
      return F && F->getIdentifier() && F->getName() == "free" && Free->getNumArgs() == 1 &&
             Pointee(Free->getArg(0)) && ++Releases;
    }
    const auto *B = dyn_cast<BinaryOperator>(S);
    return B && B->getOpcode() == BO_Assign && Pointee(B->getLHS()) && Null(B->getRHS());
  };
  return Only(Def->getBody()) && Releases == 1;
}

} // namespace dpstub::migrate
