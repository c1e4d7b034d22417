//===- Rule.h - One call-site kind: matcher, analysis, renderer -*- C++ -*-===//
//
// Like a clang-tidy check: each call-site kind owns its matcher, its
// analysis into a CallSite model and its stub renderer, and is registered
// by one line in Rules.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/Diagnostics.h"
#include "lambdas/LambdaObject.h"
#include "dpstub/StubSpec.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dpstub {

/// A call-site that analysis accepted, with the AST nodes the rewrite needs.
struct AnalysedCall {
  CallSite Model;
  const clang::CallExpr *Call = nullptr;
  /// The kernel's lambda, when the kernel is one (annotated after `]`).
  const clang::LambdaExpr *Lambda = nullptr;
  /// The function whose definition is the kernel (free function or
  /// operator()); annotated with the host+device macro.
  const clang::FunctionDecl *KernelFunction = nullptr;
  /// Further functions and lambdas the stub calls on the device (a user
  /// indexable type's operator[], a reduction's operator).
  std::vector<const clang::FunctionDecl *> StubCalls;
  std::vector<const clang::LambdaExpr *> StubLambdas;
  /// The reduce or scan operator, when it is a lambda (one of StubLambdas).
  const clang::LambdaExpr *OperatorLambda = nullptr;
  /// The lambdas above that nvcc cannot compile as written, each to be
  /// rewritten as a function object.
  std::vector<LambdaObject> Objects;
};

/// The callee of a call-site of `Kind`: the dp:: function template, or the
/// launcher dpstub generated for one (a translated source is still a
/// source: translating it again regenerates its stubs).
clang::ast_matchers::internal::Matcher<clang::NamedDecl> callSiteCallee(llvm::StringRef Kind);

/// One kind of call-site.
class Rule {
public:
  virtual ~Rule() = default;
  /// Which dp:: function its call-sites call.
  virtual CallKind kind() const = 0;
  /// "forall", "reduce", "scan", "sort": for matchers and messages.
  llvm::StringRef name() const { return toString(kind()); }
  /// True when this rule renders the call-site (reduce and reduce<Dim> share
  /// a kind).
  virtual bool handles(const CallSite &C) const { return C.Kind == kind(); }
  /// The matcher; binds the call expression as "call".
  virtual clang::ast_matchers::StatementMatcher matcher() const = 0;
  /// Matches the call-site in a template's pattern, where the callee is
  /// still unresolved; binds "call". Used to report templates that are
  /// never instantiated (and so never translated). Nothing when another
  /// rule of the same kind reports them.
  virtual std::optional<clang::ast_matchers::StatementMatcher> dependentMatcher() const = 0;
  /// The model of a matched call, or nothing when it was rejected (the
  /// reason is already reported).
  virtual std::optional<AnalysedCall> analyse(const clang::CallExpr *Call,
                                              clang::ASTContext &Ctx,
                                              Reporter &Diags) const = 0;
  /// What the shared stub frame (StubText.h) renders for this kind's
  /// call-site C: its own definitions and pattern call among them.
  virtual StubSpec stubSpec(const CallSite &C) const = 0;
};

/// Every rule, in registration order.
const std::vector<std::unique_ptr<Rule>> &allRules();

/// The rule that renders a call-site.
const Rule &ruleFor(const CallSite &C);

/// ruleFor(C).stubSpec(C).
StubSpec stubSpecOf(const CallSite &C);

} // namespace dpstub
