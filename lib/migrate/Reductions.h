//===- Reductions.h - Updates that fold into one value ----------*- C++ -*-===//
//
// A scalar that every iteration only updates with one associative,
// commutative operator (`s += e`, `s = max(s, e)`, `if (e > s) s = e`,
// ...) is a reduction: each iteration can start from the operator's
// identity and the partial values fold in any order. Recognising the
// forms is what lets a plain loop with `s += a[i]` become a dp::reduce.
// An array element the loop's subscripts fix (`y[i] += a[i][j] * x[j]`
// over j) is reduced the same way.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/LoopModel.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>

namespace dpstub::migrate {

/// The reduction S's every reference in Body forms, if they all are
/// updates with one operator; Refs are those references.
std::optional<Reduction> recogniseReduction(const clang::VarDecl *S,
                                            const std::vector<const clang::DeclRefExpr *> &Refs,
                                            clang::ASTContext &Ctx);

/// An arg max or arg min: S's references Refs are the comparison and the
/// assignment of `if (e > s) { s = e; k = f; ... }`, the block's other
/// statements each assigning a variable (a companion: the caller checks
/// the loop uses it nowhere else) from an expression that mentions
/// neither S nor a companion. `>` and `<` keep the first of equal values,
/// `>=` and `<=` the last.
std::optional<Reduction> recogniseLocated(const clang::VarDecl *S,
                                          const std::vector<const clang::DeclRefExpr *> &Refs,
                                          clang::ASTContext &Ctx);

/// The reduction into one array element (`x[i]` in a loop over j, its
/// subscripts fixed) whose every mention in the body Mentions are, if
/// they all are updates with one operator (`x[i] = x[i] - a[i][j] *
/// x[j]`). Name and Host are the caller's to fill.
std::optional<Reduction> recogniseElementReduction(const std::vector<const clang::Expr *> &Mentions,
                                                   clang::ASTContext &Ctx);

/// The update of one element Update makes under an atomic directive or
/// a critical section (`hist[k] += w`, `seen[k] |= b`, `if (v > peak[k])
/// peak[k] = v`, `m[k] = fmax(m[k], v)`), Place the mention it assigns:
/// its operator, the value it brings (null for `++` and `--`), whether
/// that value is subtracted, and every mention of the element it makes
/// (found by their text). None when Update does anything else with it.
struct ElementUpdate {
  ReductionOp Op = ReductionOp::Sum;
  const clang::Expr *Value = nullptr;
  bool Negated = false;
  const clang::IfStmt *Compares = nullptr; ///< the if of `if (e > m[k]) m[k] = e`
  std::vector<const clang::Expr *> Mentions;
};
std::optional<ElementUpdate> recogniseElementUpdate(const clang::Stmt *Update, const clang::Expr *Place,
                                                    clang::ASTContext &Ctx);

/// A flag: a bool the body only sets, always to one constant (`stop =
/// true`), whose value the program reads after the loop. OpenMP codes let
/// every iteration that sets it write it (the same value: a benign race);
/// it is the reduction `||` for true (each iteration from false), `&&`
/// for false. Refs are S's references in the body.
std::optional<Reduction> recogniseFlag(const clang::VarDecl *S,
                                       const std::vector<const clang::DeclRefExpr *> &Refs,
                                       clang::ASTContext &Ctx);

/// The operator of an OpenMP/OpenACC reduction clause (`+`, `max`, ...).
std::optional<ReductionOp> clauseOperator(const std::string &Op);
/// How a reduction clause names Op: "+", "max", "&&", ...
const char *clauseSpelling(ReductionOp Op);

/// The identity of Op for values of type T, as C++ text.
std::string identityText(ReductionOp Op, clang::QualType T, const clang::ASTContext &Ctx);

/// How two partial values combine: `A + B`, `A < B ? B : A`, `fmax(A, B)`.
std::string combineText(const Reduction &R, const std::string &A, const std::string &B);

/// The call-site's operator for one reduction: `std::plus<>()`, or a
/// lambda over T.
std::string operatorText(const Reduction &R, const std::string &T);

} // namespace dpstub::migrate
