//===- Helpers.h - What a kernel's callees read from namespace scope -*- C++ -*-===//
//
// Real codes keep their sizes in namespace-scope variables and index
// through small helpers that read them (`static int at(int v, int k, int
// i) { return (v * NK + k) * NI + i; }`). A device cannot read the host's
// variables, so such a helper takes them as parameters defaulted to the
// variables themselves: host calls stay as written and read the
// variables, calls from kernels (and between such helpers) pass them on,
// and the kernel receives them as values. The helper's body is unchanged,
// its new parameters standing for the variables under the same names.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/Text.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// The namespace-scope variables each function of the main file reads.
class HelperGlobals {
public:
  explicit HelperGlobals(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// What F reads (itself or through its callees), sorted by name; none
  /// when it cannot be passed in (Why says what: a write, an array, a
  /// helper outside the main file).
  std::optional<std::vector<const clang::VarDecl *>> readBy(const clang::FunctionDecl *F,
                                                            std::string &Why);

  /// The edits passing the variables: every function of Needed takes them
  /// (defaulted on its first declaration), every call among them and every
  /// call in Calls (from kernels) passes them.
  void rewrite(const std::set<const clang::FunctionDecl *> &Needed,
               const std::vector<const clang::CallExpr *> &Calls, EditList &E);

private:
  struct Entry {
    bool Done = false, Busy = false;
    std::vector<const clang::VarDecl *> Reads;
    std::string Why; ///< non-empty: cannot be passed in
  };
  Entry &compute(const clang::FunctionDecl *F);
  void passArguments(const clang::CallExpr *C, EditList &E);

  clang::ASTContext &Ctx;
  std::map<const clang::FunctionDecl *, Entry> Cache;
};

/// The bytes of the largest table a kernel's helpers may read (a copy
/// travels with each kernel).
constexpr long long HelperTableBytes = 1024;

/// True when V is a small table of numbers of static storage (`double
/// ce[5][13]`, every extent known): a helper that reads it takes it as a
/// parameter, `const double (&ce)[5][13] = ::ce`, and a kernel passes
/// the copy the call-site makes of it.
bool isHelperTable(const clang::VarDecl *V, const clang::ASTContext &Ctx);

/// V's declarator: `const double (&ce)[5][13]` (Reference) or
/// `double ce[5][13]`.
std::string helperTableDeclarator(const clang::VarDecl *V, const clang::ASTContext &Ctx, bool Reference);

/// A namespace-scope or static variable a device cannot use as it is
/// (not constexpr, not a const integer with a constant initialiser).
bool isHostVariable(const clang::VarDecl *V);

} // namespace dpstub::migrate
