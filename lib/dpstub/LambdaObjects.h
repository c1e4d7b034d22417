//===- LambdaObjects.h - Lambdas rewritten as function objects --*- C++ -*-===//
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
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace dpstub {

/// The function object written for one lambda: a plain model, rendered by
/// renderLambdaObject.
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

/// Why nvcc cannot compile LE as a __host__ __device__ lambda, if it cannot.
std::optional<std::string> nvccRestriction(const clang::LambdaExpr *LE, clang::ASTContext &Ctx);

/// The function object for LE (whose restriction is `Restriction`), or why
/// none can be written in its place (it names something local to its
/// enclosing function, is mutable, captures by reference...).
llvm::Expected<LambdaObject> planLambdaObject(const clang::LambdaExpr *LE, std::string Restriction,
                                              clang::ASTContext &Ctx);

/// The definition of the function object, named Name, ending in a newline.
std::string renderLambdaObject(const LambdaObject &O, llvm::StringRef Name);

} // namespace dpstub
