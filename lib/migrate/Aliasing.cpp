//===- Aliasing.cpp - Loops over pointers a caller may pass twice ---------===//

#include "migrate/Aliasing.h"
#include "migrate/ArrayData.h"
#include "migrate/BodyScan.h"

#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace dpstub::migrate {
namespace {

/// Whether S or a statement inside it satisfies P.
bool any(const Stmt *S, const std::function<bool(const Stmt *)> &P) {
  if (!S)
    return false;
  if (P(S))
    return true;
  for (const Stmt *C : S->children())
    if (any(C, P))
      return true;
  return false;
}


/// An assignment, an increment or a decrement anywhere in S, or a call
/// that is handed one of Vars (which may write through it).
bool mayWrite(const Stmt *S, const std::vector<const VarDecl *> &Vars) {
  return any(S, [&](const Stmt *X) {
    if (const auto *B = dyn_cast<BinaryOperator>(X))
      return B->isAssignmentOp();
    if (const auto *U = dyn_cast<UnaryOperator>(X))
      return U->isIncrementDecrementOp();
    if (const auto *Call = dyn_cast<CallExpr>(X))
      return std::any_of(Call->arg_begin(), Call->arg_end(), [&](const Expr *A) { return names(A, Vars); });
    return false;
  });
}

} // namespace

bool readsBeforeWrites(const Stmt *Body, const VarDecl *Read, const std::vector<const VarDecl *> &Written) {
  std::vector<const Stmt *> Statements;
  if (const auto *Block = dyn_cast<CompoundStmt>(Body))
    Statements.assign(Block->body_begin(), Block->body_end());
  else
    Statements.push_back(Body);
  const std::vector<const VarDecl *> R{Read};
  auto First = std::find_if(Statements.begin(), Statements.end(),
                            [&](const Stmt *S) { return names(S, Written); });
  if (First == Statements.end())
    return true;
  if (std::any_of(First + 1, Statements.end(), [&](const Stmt *S) { return names(S, R); }))
    return false;
  if (!names(*First, R))
    return true; // every read is in a statement that names no written pointer
  // `w[i] = ... x[i] ...;`: the right side is read before the store.
  const auto *Store = dyn_cast<Expr>(*First);
  const auto *Assign = Store ? dyn_cast<BinaryOperator>(Store->IgnoreParenImpCasts()) : nullptr;
  if (!Assign || !Assign->isAssignmentOp())
    return false;
  return !names(Assign->getLHS(), R) && !mayWrite(Assign->getLHS(), Written) &&
         !mayWrite(Assign->getRHS(), Written);
}

bool readsThroughCopy(const LoopModel &M, const ArrayUse &A) {
  if (A.Borrowed.empty() || A.Written || !A.BorrowedColumns.empty()) // rows: dp::borrowed_rows
    return false;
  std::vector<const VarDecl *> Written;
  size_t Borrowed = 0;
  for (const ArrayUse &O : M.Arrays) {
    Borrowed += !O.Borrowed.empty();
    if (!O.Borrowed.empty() && O.Written)
      Written.push_back(O.Var);
  }
  return Borrowed > 1 && (Written.empty() || (M.From == Origin::Pragma && readsBeforeWrites(M.Body, A.Var, Written)));
}

std::vector<const VarDecl *> readApartFrom(const LoopModel &M, const ArrayUse &A, const ArrayData &Arrays) {
  if (!A.Borrowed.empty() || A.Written || M.From != Origin::Pragma)
    return {};
  std::vector<const VarDecl *> Written;
  for (const ArrayUse &O : M.Arrays)
    if (O.Borrowed.empty() && O.Written && (isa<ParmVarDecl>(A.Var) || isa<ParmVarDecl>(O.Var)) &&
        Arrays.mayBeOne(A.Var, O.Var) &&
        !A.Var->getType().isRestrictQualified() && !O.Var->getType().isRestrictQualified()) // C's promise
      Written.push_back(O.Var);
  if (Written.empty() || !readsBeforeWrites(M.Body, A.Var, Written))
    return {};
  return Written;
}

} // namespace dpstub::migrate
