//===- Conversions.h - How each argument reaches its kernel -----*- C++ -*-===//
//
// The argument conversions of docs/conversions.md, decided as the runtime's
// reference decides them (include/dp/reference/classify.hpp): the facts of
// one argument against its parameter, the conversion those facts give (a
// pure rule over ranks), and the checks each conversion makes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace dpstub {

/// What decides an argument's conversion: the ranks on both sides, the
/// compute rank, whether the actual is an index token, and whether the
/// call-site passes every argument whole (a sort's extras).
struct ArgumentShape {
  bool IndexToken = false;
  int ActualRank = 0;
  int FormalRank = 0;
  int ComputeRank = 0;
  bool BroadcastOnly = false;
};

/// The conversion an argument of this shape takes; nothing when none fits
/// (a rank mismatch). The same rule as the reference's `classify<>::value`.
std::optional<Conversion> classifyConversion(const ArgumentShape &S);

/// One call-site argument and the kernel parameter it binds, as read from
/// the AST: the model's fields except the conversion and writability.
struct ArgumentFacts {
  Argument Model;
  ArgumentShape Shape;
  const clang::Expr *Actual = nullptr;
  const clang::ParmVarDecl *Formal = nullptr; ///< none for a pack
  std::optional<IndexKind> Token;
  bool ReadOnlyActual = false; ///< const, or a field of const elements
  bool WritableFormal = false; ///< `T &`, or a generic one the actual allows
  std::string FormalDisplay;   ///< its name, else its type: for diagnostics
};

/// The facts of argument Actual at Position bound to parameter Formal (none
/// for a pack) of a kernel, generic or not, at compute rank Rc.
ArgumentFacts factsOf(const clang::Expr *Actual, unsigned Position,
                      const clang::ParmVarDecl *Formal, bool GenericKernel, int Rc,
                      bool BroadcastOnly, const clang::ASTContext &Ctx);

/// An argument as the call-site model records it, after the checks of its
/// conversion. Classified: a conversion fits; Ok: nothing was reported.
struct CheckedArgument {
  Argument Model;
  bool Classified = false;
  bool Ok = true;
};

/// Records Conv into the argument and checks what it asks: an index token
/// bound to a dp::index<Rc> (or a tile token to a const dp::tile_group<Rc>
/// &), no scalar bound to a writable reference, no read-only actual bound to
/// one; a rank mismatch (no Conv) is reported with the fix it is one rank
/// short of, if any. Data flows back through a writable projection or
/// field.
CheckedArgument checkArgument(const ArgumentFacts &F, std::optional<Conversion> Conv,
                              Reporter &Diags);

/// Whether a declared parameter type can write what it binds: a non-const
/// lvalue reference.
bool isWritableFormal(clang::QualType T);

} // namespace dpstub
