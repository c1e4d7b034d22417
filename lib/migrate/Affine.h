//===- Affine.h - Subscripts and bounds as polynomials ----------*- C++ -*-===//
//
// Turns an integer expression of the loop into a Subscript (Dependence.h):
// a polynomial coefficient per loop variable and a constant part, through
// constants the tool can fold (`const int`, enumerators, literals),
// loop-invariant variables (symbols), and small index helpers whose body
// is `return <affine expression of the parameters>;`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/BodyScan.h"
#include "migrate/Dependence.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// Symbols: loop-invariant values, named for messages.
class SymbolTable {
public:
  /// The symbol of a variable, or of an expression's text (`s.nx`).
  int of(const clang::VarDecl *V);
  int of(const std::string &Text);
  /// The symbol of an expression (`r / 2`), told apart from others by
  /// Key and written as Text; the host can evaluate it before the loop
  /// from the variables Uses, when there are some.
  int of(const std::string &Key, const std::string &Text, std::vector<const clang::VarDecl *> Uses, bool Unsigned);
  const std::vector<std::string> &names() const { return Names; }
  /// An expression's variables, when it was given them; else empty.
  const std::vector<const clang::VarDecl *> &uses(int Id) const;
  /// Whether an expression's symbol is of an unsigned type.
  bool isUnsigned(int Id) const { return UnsignedText.count(Id) > 0; }
  /// The symbols that stand for a division by a positive constant.
  std::vector<Quotient> Quotients;
  /// The variable of a symbol; none for an expression's text.
  const clang::VarDecl *var(int Id) const;
  /// The symbol of a variable, if it has one.
  std::optional<int> find(const clang::VarDecl *V) const;

private:
  std::map<const clang::VarDecl *, int> ByVar;
  std::map<std::string, int> ByText;
  std::vector<std::string> Names;
  std::map<int, std::vector<const clang::VarDecl *>> Uses;
  std::set<int> UnsignedText;
};

/// sum(Coef[v] * v) + Const over the loop variables.
struct Linear {
  std::vector<Poly> Coef;
  Poly Const;
};

/// A + Sign * B.
Linear add(const Linear &A, const Linear &B, std::int64_t Sign);

/// Builds Linear forms of expressions.
class AffineBuilder {
public:
  /// LoopVars maps each loop variable to its index; Written holds the
  /// variables whose value changes within an iteration (never symbols);
  /// Inline the body's locals that keep their initial value
  /// (`const int ij = i * n + j;`), read as that value.
  /// Members, when given, reads a data member by its name as its
  /// variable (BodyScan.h).
  AffineBuilder(const clang::ASTContext &Ctx, const std::map<const clang::VarDecl *, int> &LoopVars,
                const std::set<const clang::VarDecl *> &Written,
                const std::map<const clang::VarDecl *, const clang::Expr *> &Inline, SymbolTable &Symbols,
                const MemberVars *Members = nullptr)
      : Ctx(Ctx), LoopVars(LoopVars), Written(Written), Inline(Inline), Symbols(Symbols), Members(Members) {}

  /// E as a linear form; none when it is not affine in the loop variables.
  std::optional<Linear> build(const clang::Expr *E);

  /// E as a polynomial with no loop variable in it; none otherwise.
  std::optional<Poly> invariant(const clang::Expr *E);

  /// A condition as forms that are each at least 0 exactly when it holds:
  /// comparisons of affine signed integers (`x < w` is `w - 1 - x`)
  /// joined by &&. None for anything else (||, !, ==, a call, unsigned
  /// operands, whose comparison wraps).
  std::optional<std::vector<Linear>> bounds(const clang::Expr *Cond);

private:
  std::optional<Linear> build(const clang::Expr *E,
                              const std::map<const clang::ParmVarDecl *, Linear> &Params, int Depth);
  std::optional<Linear> quotient(const clang::BinaryOperator *B,
                                 const std::map<const clang::ParmVarDecl *, Linear> &Params, int Depth);
  std::optional<Linear> call(const clang::CallExpr *C,
                             const std::map<const clang::ParmVarDecl *, Linear> &Params, int Depth);
  std::optional<Linear> choice(const clang::Expr *E, const std::map<const clang::ParmVarDecl *, Linear> &Params,
                               int Depth);
  Linear constant(Poly P) const;
  /// An expression symbol's parts: told apart by ids, written by names,
  /// and the variables the host evaluates them from (none when a part's
  /// symbol is no variable).
  static std::string keyOf(const Poly &P);
  std::string operandText(const Poly &P) const;
  std::vector<const clang::VarDecl *> variablesOf(const std::vector<Poly> &Parts) const;

  const clang::ASTContext &Ctx;
  const std::map<const clang::VarDecl *, int> &LoopVars;
  const std::set<const clang::VarDecl *> &Written;
  const std::map<const clang::VarDecl *, const clang::Expr *> &Inline;
  SymbolTable &Symbols;
  const MemberVars *Members;
};

} // namespace dpstub::migrate
