//===- ForallRule.h - dp::forall call-sites ---------------------*- C++ -*-===//
#pragma once

#include "dpstub/Rule.h"

namespace dpstub {

/// dp::forall(domain, kernel, args...): one stub invocation per point.
class ForallRule final : public Rule {
public:
  CallKind kind() const override { return CallKind::Forall; }
  clang::ast_matchers::StatementMatcher matcher() const override;
  std::optional<clang::ast_matchers::StatementMatcher> dependentMatcher() const override;
  std::optional<AnalysedCall> analyse(const clang::CallExpr *Call, clang::ASTContext &Ctx,
                                      Reporter &Diags) const override;
  StubSpec stubSpec(const CallSite &C) const override;
};

} // namespace dpstub
