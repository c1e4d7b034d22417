//===- Detail.h - The lambda module's own steps -----------------*- C++ -*-===//
//
// What the entry points of Lambdas.h are made of: whether nvcc refuses a
// lambda, the plan of its function object (PlanObject.cpp) and its text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lambdas/LambdaObject.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace dpstub {

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
