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
  const std::vector<std::string> &names() const { return Names; }
  /// The variable of a symbol; none for an expression's text.
  const clang::VarDecl *var(int Id) const;
  /// The symbol of a variable, if it has one.
  std::optional<int> find(const clang::VarDecl *V) const;

private:
  std::map<const clang::VarDecl *, int> ByVar;
  std::map<std::string, int> ByText;
  std::vector<std::string> Names;
};

/// sum(Coef[v] * v) + Const over the loop variables.
struct Linear {
  std::vector<Poly> Coef;
  Poly Const;
};

/// Builds Linear forms of expressions.
class AffineBuilder {
public:
  /// LoopVars maps each loop variable to its index; Written holds the
  /// variables whose value changes within an iteration (never symbols);
  /// Inline the body's locals that keep their initial value
  /// (`const int ij = i * n + j;`), read as that value.
  AffineBuilder(const clang::ASTContext &Ctx, const std::map<const clang::VarDecl *, int> &LoopVars,
                const std::set<const clang::VarDecl *> &Written,
                const std::map<const clang::VarDecl *, const clang::Expr *> &Inline, SymbolTable &Symbols)
      : Ctx(Ctx), LoopVars(LoopVars), Written(Written), Inline(Inline), Symbols(Symbols) {}

  /// E as a linear form; none when it is not affine in the loop variables.
  std::optional<Linear> build(const clang::Expr *E);

  /// E as a polynomial with no loop variable in it; none otherwise.
  std::optional<Poly> invariant(const clang::Expr *E);

private:
  std::optional<Linear> build(const clang::Expr *E,
                              const std::map<const clang::ParmVarDecl *, Linear> &Params, int Depth);
  std::optional<Linear> call(const clang::CallExpr *C,
                             const std::map<const clang::ParmVarDecl *, Linear> &Params, int Depth);
  Linear constant(Poly P) const;

  const clang::ASTContext &Ctx;
  const std::map<const clang::VarDecl *, int> &LoopVars;
  const std::set<const clang::VarDecl *> &Written;
  const std::map<const clang::VarDecl *, const clang::Expr *> &Inline;
  SymbolTable &Symbols;
};

} // namespace dpstub::migrate
