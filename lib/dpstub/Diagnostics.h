//===- Diagnostics.h - dpstub's located diagnostics -------------*- C++ -*-===//
//
// Every message the tool reports about user code goes through the
// translation unit's DiagnosticsEngine with a custom ID, so users see
// file:line:col, the source line and a caret. The messages are listed once,
// in Diagnostics.def.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

namespace dpstub {

/// The custom diagnostics of dpstub, registered on one DiagnosticsEngine:
/// one method per entry of Diagnostics.def, streaming its arguments.
class Reporter {
public:
  explicit Reporter(clang::DiagnosticsEngine &DE);

#define DIAGNOSTIC(Name, Level, Text) clang::DiagnosticBuilder Name(clang::SourceLocation L);
#include "dpstub/Diagnostics.def"

  bool hasErrors() const { return Errors; }

private:
  /// Where each diagnostic's custom ID is kept.
  enum class Id : unsigned {
#define DIAGNOSTIC(Name, Level, Text) Name,
#include "dpstub/Diagnostics.def"
    Count
  };
  clang::DiagnosticBuilder report(clang::SourceLocation L, Id Which);

  clang::DiagnosticsEngine &DE;
  unsigned IDs[static_cast<unsigned>(Id::Count)];
  bool IsError[static_cast<unsigned>(Id::Count)];
  bool Errors = false;
};

} // namespace dpstub
