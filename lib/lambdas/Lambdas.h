//===- Lambdas.h - Lambdas nvcc refuses, as function objects ----*- C++ -*-===//
//
// nvcc compiles a kernel lambda only as an "extended" __host__ __device__
// lambda, and those may not be generic, may not have init-captures, copy-
// initialise their captures (which a const dp::field refuses) and may not
// sit in many contexts (a function with a deduced return type, a private
// member, a generic lambda...). hipcc and host compilers take them all.
// dpstub turns such a lambda into a named function object at namespace
// scope, in the user's source, just before the declaration that holds it:
// its body and parameters copied as written, its captures as members. A
// named class is not an extended lambda, so none of those restrictions
// apply, and the translated source stays a source (its next translation
// sees an ordinary function object).
//
// The module has two entry points, one per tool phase:
//  * LambdaPlanner, during analysis: which lambdas of an accepted
//    call-site nvcc refuses, each planned as a LambdaObject, or a warning
//    saying why none can be written;
//  * LambdaRewrite, one stage of the planner: the objects named, their
//    definitions and constructions as edits, and the call-site models
//    described as the rewritten source will be.
// Everything else here (Detail.h, Scope.h) is theirs alone.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/Diagnostics.h"
#include "dpstub/Rule.h"
#include "dpstub/SourceEdits.h"
#include "lambdas/LambdaObject.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace dpstub {

/// Analysis: the function objects of the call-sites of one translation
/// unit.
class LambdaPlanner {
public:
  /// A's lambdas (kernel, operator, predicates) that nvcc cannot compile
  /// as written: a function object each in A.Objects, or a warning saying
  /// why none can be written (the lambda then stays, for hipcc and host
  /// compilers), once per lambda. A lambda that captures `this` and cannot
  /// be rewritten is an error: it would compile for hipcc and fault on the
  /// device.
  void plan(AnalysedCall &A, clang::ASTContext &Ctx, Reporter &Diags);

private:
  std::set<unsigned> Warned; ///< lambdas already reported
};

/// The planner's stage: every accepted call-site's function objects, one
/// per lambda (a template's instantiations, a lambda in a variable shared
/// by call-sites), each named after where it was, with a name no other
/// declaration has.
class LambdaRewrite {
public:
  LambdaRewrite(const std::vector<AnalysedCall> &Accepted, clang::ASTContext &Ctx);

  /// The lambdas that become objects (the device marks walk the objects).
  std::vector<const clang::LambdaExpr *> replaced() const;
  /// When objects are defined at E's offset, E's text goes first in their
  /// definitions (one edit per offset) and true; else false.
  bool prefixDefinitions(const Edit &E);
  /// The edits of the main file: each definition before the declaration
  /// that holds its lambda, then each construction in its lambda's place.
  std::vector<Edit> edits() const;
  /// A's kernel or operator, if it became an object, described as one:
  /// exactly what translating the rewritten source again finds there, so
  /// the stub header is the same both times.
  void describe(AnalysedCall &A, llvm::StringRef Buffer, clang::ASTContext &Ctx) const;

private:
  const LambdaObject *objectOf(const AnalysedCall &A, const clang::LambdaExpr *LE) const;

  std::map<unsigned, const LambdaObject *> Objects; ///< by the lambda's offset
  std::map<unsigned, std::string> Names;            ///< by the lambda's offset
  std::map<unsigned, std::string> Definitions;      ///< by insertion offset
};

} // namespace dpstub
