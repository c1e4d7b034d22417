//===- LambdaObject.h - A lambda as a function object: the model -*- C++ -*-===//
//
// The plain model of one lambda written as a named function object: what
// planLambdaObject (PlanObject.cpp) finds and renderLambdaObject
// (Rewrite.cpp) writes. The module's entry points are in Lambdas.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace dpstub {

/// The function object written for one lambda: a plain model, planned by
/// planLambdaObject and rendered by renderLambdaObject (lambdas/Detail.h).
struct LambdaObject {
  const clang::LambdaExpr *Lambda = nullptr;
  std::string Restriction; ///< why nvcc rejects the lambda as written
  std::string Origin;      ///< "file.cpp:16:17", where the lambda was
  std::string BaseName;    ///< "lambda_16_17", before any clash is avoided
  /// The namespace it is written in, qualified for a call: "::" or "::ns::".
  std::string Scope;
  unsigned InsertAt = 0;   ///< line start in the main file it goes before
  /// For a lambda in a function template: that template's parameter list,
  /// as written ("template <class T>"), and the arguments that name its
  /// parameters ("<T>"); the object is a class template over them.
  std::string TemplateHead, TemplateArgs;
  unsigned Begin = 0, End = 0; ///< the lambda's text in the main file

  /// A capture, as a member initialised from the capture's initializer.
  struct Member {
    std::string Type;      ///< as the lambda holds it ("const dp::field<1, float>")
    std::string ParamType; ///< without const, for the constructor's parameter
    std::string Name, Init;
  };
  /// A constant of the enclosing function the body names without capturing.
  struct Constant {
    std::string Type, Name, Value;
  };
  std::vector<Member> Members;
  std::vector<Constant> Constants;
  /// One type parameter per `auto` parameter: "class P0", "class... P1".
  std::vector<std::string> TypeParams;
  std::string Params; ///< the parameter list, each `auto` replaced
  /// For each `auto` parameter: its name and its type parameter ("P0").
  std::vector<std::pair<std::string, std::string>> AutoParams;
  std::string Return; ///< the trailing return type as written, else "auto"
  std::string Body;   ///< the compound statement, as written

  /// `lambda_16_17(3.0f, u)`: how the call-site makes it.
  std::string construction(llvm::StringRef Name) const;
};

} // namespace dpstub
