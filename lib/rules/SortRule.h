//===- SortRule.h - dp::sort<Dim> call-sites --------------------*- C++ -*-===//
#pragma once

#include "dpstub/Rule.h"

namespace dpstub {

/// dp::sort<Dim>(domain, cmp, sort_field, extra...): every pencil of the
/// sort field sorted in place; the extra arguments reach the comparator
/// whole.
class SortRule final : public Rule {
public:
  CallKind kind() const override { return CallKind::Sort; }
  clang::ast_matchers::StatementMatcher matcher() const override;
  std::optional<clang::ast_matchers::StatementMatcher> dependentMatcher() const override;
  std::optional<AnalysedCall> analyse(const clang::CallExpr *Call, clang::ASTContext &Ctx,
                                      Reporter &Diags) const override;
  StubSpec stubSpec(const CallSite &C) const override;
};

} // namespace dpstub
