//===- ValueRule.h - dp::reduce, dp::reduce<Dim>, dp::scan<Dim> -*- C++ -*-===//
//
// One rule, parametrised, for the three call-site forms whose kernel maps
// to values (ValueCall.h): they differ only in their name and whether
// they take <Dim>.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ValueCall.h"
#include "dpstub/Rule.h"

namespace dpstub {

/// dp::reduce(domain, r, result, f, args...) into a dp::scalar (one fused
/// map-reduce), dp::reduce<Dim> into a field (one fold per pencil) and
/// dp::scan<Dim> (one scan per pencil).
class ValueRule final : public Rule {
public:
  /// ReportsTemplates: this rule reports the call-sites of its name in
  /// uninstantiated templates (one rule per name does: in a pattern,
  /// reduce and reduce<Dim> look alike).
  ValueRule(CallKind Kind, bool WithDim, bool ReportsTemplates)
      : Kind(Kind), WithDim(WithDim), ReportsTemplates(ReportsTemplates) {}
  CallKind kind() const override { return Kind; }
  bool handles(const CallSite &C) const override {
    return C.Kind == Kind && (C.Dim >= 0) == WithDim;
  }
  clang::ast_matchers::StatementMatcher matcher() const override {
    return valueCallMatcher(name(), WithDim);
  }
  std::optional<clang::ast_matchers::StatementMatcher> dependentMatcher() const override;
  std::optional<AnalysedCall> analyse(const clang::CallExpr *Call, clang::ASTContext &Ctx,
                                      Reporter &Diags) const override {
    return analyseValueCall(Call, Kind, Ctx, Diags);
  }
  StubSpec stubSpec(const CallSite &C) const override { return valueStubSpec(C); }

private:
  CallKind Kind;
  bool WithDim;
  bool ReportsTemplates;
};

} // namespace dpstub
