//===- Diagnostics.cpp - dpstub's located diagnostics ---------------------===//

#include "dpstub/Diagnostics.h"

using namespace clang;

namespace dpstub {

Reporter::Reporter(DiagnosticsEngine &DE) : DE(DE) {
#define DIAGNOSTIC(Name, Level, Text)                                                              \
  IDs[static_cast<unsigned>(Id::Name)] = DE.getCustomDiagID(DiagnosticsEngine::Level, Text);    \
  IsError[static_cast<unsigned>(Id::Name)] = DiagnosticsEngine::Level == DiagnosticsEngine::Error;
#include "dpstub/Diagnostics.def"
}

DiagnosticBuilder Reporter::report(SourceLocation L, Id Which) {
  Errors |= IsError[static_cast<unsigned>(Which)];
  return DE.Report(L, IDs[static_cast<unsigned>(Which)]);
}

#define DIAGNOSTIC(Name, Level, Text)                                                              \
  DiagnosticBuilder Reporter::Name(SourceLocation L) { return report(L, Id::Name); }
#include "dpstub/Diagnostics.def"

} // namespace dpstub
