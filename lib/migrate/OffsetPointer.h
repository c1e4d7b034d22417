//===- OffsetPointer.h - Pointers that name a place in an array -*- C++ -*-===//
//
// C loops often name a row or a record of an array through a local
// pointer: `double *row = &a[i * m];` then `row[j]`, or `pt *q = p + k;`
// then `q[j].x`, or, declared before the loop and private to it,
// `rA = &rv[first_i];` (Rodinia's lavaMD). Such a pointer keeps no memory
// of its own; it is an offset into the array. Migration keeps it as that
// offset (`const std::int64_t row = i * m;`, `rA = first_i;`) and its
// elements as the array's (`a(row + j)`), so the array can still become a
// dp::field and a loop through the pointer a call-site.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>
#include <optional>
#include <vector>

namespace dpstub::migrate {

/// One place the pointer is given its value: its initialiser, or the
/// right side of an assignment to it.
struct OffsetMaking {
  /// How it is written: `&a[e]`, `a + e`, `e + a`.
  enum class Form { Element, Plus, PlusLeft } How = Form::Element;
  const clang::Expr *Value = nullptr;    ///< the whole of it
  const clang::Expr *ArrayRef = nullptr; ///< the array's name in it
  const clang::Expr *Offset = nullptr;   ///< `e`
};

/// A local pointer P read only as an offset into one array.
struct OffsetPointer {
  const clang::VarDecl *Array = nullptr; ///< the array it points into
  std::vector<OffsetMaking> Makings;     ///< its initialiser first, if it has one
  /// Every use of P other than its makings: each the base of a subscript
  /// (`row[j]`), in order.
  std::vector<const clang::ArraySubscriptExpr *> Uses;
  /// `e` where P is made once, in its declaration (and so holds that
  /// value wherever it is used); else null.
  const clang::Expr *onlyOffset(const clang::VarDecl *P) const {
    return Makings.size() == 1 && Makings[0].Value == P->getInit() ? Makings[0].Offset : nullptr;
  }
};

/// The edits (ArrayData) turning one making into its offset's: the text
/// before `e`, and what follows it (`]`, ` + a`) but for `a + e`.
inline unsigned makingEdits(const OffsetMaking &M) { return M.How == OffsetMaking::Form::Plus ? 1 : 2; }

/// The unit's offset pointers, each decided once, at the first question
/// about it: one walk of a function's body finds the uses of all its
/// local pointers. ArrayData owns the unit's; BodyScan, LoopAnalysis and
/// the data directives ask it.
class OffsetPointers {
public:
  explicit OffsetPointers(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  OffsetPointers(const OffsetPointers &) = delete;
  OffsetPointers &operator=(const OffsetPointers &) = delete;

  /// P as an offset pointer, when it is one: a variable of a function
  /// body (not a parameter, not static) declared alone in its statement,
  /// outside any macro, given its values (an initialiser, assignments)
  /// only as `&a[e]`, `a + e` or `e + a` of one array `a` (no parentheses
  /// around their parts, `e` aside), a variable (a pointer or a
  /// one-dimensional C array) of P's element type, not itself a pointer or
  /// an array; every other use of P a subscript (in the file, or in a
  /// macro's argument) whose element is neither handed on as a pointer nor
  /// has its address taken. Null otherwise: P stays a pointer variable
  /// like any other.
  const OffsetPointer *of(const clang::VarDecl *P) const;

  /// The offset pointer a making of which names the array by D (the `a`
  /// of `&a[e]`), if there is one.
  const clang::VarDecl *namedBy(const clang::DeclRefExpr *D) const;

private:
  using UseMap = std::map<const clang::VarDecl *, std::vector<const clang::DeclRefExpr *>>;
  /// The uses of F's local pointers, in order (F walked at the first ask).
  const UseMap &usesIn(const clang::FunctionDecl *F) const;

  clang::ASTContext &Ctx;
  mutable std::map<const clang::VarDecl *, std::optional<OffsetPointer>> Known;
  mutable std::map<const clang::FunctionDecl *, UseMap> Uses;
};

} // namespace dpstub::migrate
