//===- ScanRule.h - dp::scan<Dim> -----------------------------*- C++ -*-===//
#pragma once

#include "ValueCall.h"
#include "dpstub/Rule.h"

namespace dpstub {

/// dp::scan<Dim>(domain, r, result, f, args...): an inclusive prefix per pencil.
class ScanRule final : public Rule {
public:
  llvm::StringRef kind() const override { return "scan"; }
  bool handles(const CallSite &C) const override {
    return C.Kind == "scan" && (C.Dim >= 0) == true;
  }
  clang::ast_matchers::StatementMatcher matcher() const override;
  std::optional<clang::ast_matchers::StatementMatcher> dependentMatcher() const override;
  std::optional<AnalysedCall> analyse(const clang::CallExpr *Call, clang::ASTContext &Ctx,
                                      Reporter &Diags) const override;
  std::string renderStub(const CallSite &C) const override { return renderValueStub(C); }
};

} // namespace dpstub
