//===- Diagnostics.cpp - dpstub's located diagnostics ---------------------===//

#include "dpstub/Diagnostics.h"

using namespace clang;

namespace dpstub {

Reporter::Reporter(DiagnosticsEngine &DE) : DE(DE) {
  RankMismatch = DE.getCustomDiagID(DiagnosticsEngine::Error, "argument %0 ('%1') has rank %2, but kernel parameter '%3' has rank %4 "
                     "and the compute rank is %5: no conversion applies (elemental needs "
                     "rank %5, partial projection rank %5 + %4, broadcast rank %4)");
  ScalarToReference = DE.getCustomDiagID(DiagnosticsEngine::Error, "argument %0 is a scalar broadcast to every point, but kernel "
                          "parameter '%1' is a non-const reference; take it by value or "
                          "const&");
  ReadOnlyToWritable = DE.getCustomDiagID(DiagnosticsEngine::Error, "argument %0 is read-only, but kernel parameter '%1' is writable "
                           "(a non-const reference)");
  Arity = DE.getCustomDiagID(DiagnosticsEngine::Error, "the kernel takes %0 parameter%s0, but the call-site passes %1 argument%s1 "
              "(a kernel may take one extra leading dp::index<%2> for the index)");
  Aliased = DE.getCustomDiagID(DiagnosticsEngine::Error, "'%0' is bound to writable parameter %1 and also passed as argument %2; "
                "iterations would race (pass a clone())");
  BadDomain = DE.getCustomDiagID(DiagnosticsEngine::Error,
                                 "the compute domain of dp::%0 must be %1, not '%2'");
  BadTileFormal = DE.getCustomDiagID(
      DiagnosticsEngine::Error, "argument %0 is dp::_tile, but kernel parameter '%1' is not a "
                                "dp::tile_group<%2> taken by value or const&");
  TileTokenUntiled = DE.getCustomDiagID(
      DiagnosticsEngine::Error,
      "argument %0 is a tile token, but this dp::%1 is not over a tiled domain: write "
      "dp::tile<T0, ...>(grid) to run it in tiles");
  TileStaticUntiled = DE.getCustomDiagID(
      DiagnosticsEngine::Error,
      "dp::tile_static<%0> in the kernel of a dp::%1 that is not over a tiled domain: tile "
      "memory exists only for the threads of a tile (a dp::forall or dp::reduce over "
      "dp::tile<T0, ...>(grid))");
  DivergentBarrier = DE.getCustomDiagID(
      DiagnosticsEngine::Error,
      "barrier under a condition that depends on the thread: the threads of a tile that skip "
      "it never meet the others (padding threads run the kernel too, with in_domain() false); "
      "move the barrier out of the condition");
  ConditionNote = DE.getCustomDiagID(DiagnosticsEngine::Note,
                                     "this condition depends on the thread through '%0'");
  DivergentExit = DE.getCustomDiagID(
      DiagnosticsEngine::Error,
      "%select{return|break|continue|goto}0 under a condition that depends on the thread, before a "
      "barrier: the threads of a tile that %select{return|leave the loop|skip to the next "
      "iteration|jump}0 never meet the others there (padding threads run the kernel too, with "
      "in_domain() false); let every thread reach the barrier and guard the work instead");
  SkippedBarrierNote = DE.getCustomDiagID(DiagnosticsEngine::Note,
                                          "the barrier those threads never reach");
  BadIndexFormal = DE.getCustomDiagID(DiagnosticsEngine::Error, "argument %0 is a special index token, but kernel parameter '%1' is "
                       "not a dp::index<%2>");
  Untouched = DE.getCustomDiagID(DiagnosticsEngine::Warning, "dp::%0 call-site left untouched: %1");
  NoDeviceDefinition = DE.getCustomDiagID(DiagnosticsEngine::Warning, "'%0' is called from a kernel but has no visible definition and "
                            "no device version; the device build will fail to link it");
  EditFailed = DE.getCustomDiagID(DiagnosticsEngine::Error, "dpstub could not make this edit: %0");
  CaptureByReference = DE.getCustomDiagID(
      DiagnosticsEngine::Warning,
      "kernel lambda captures '%0' by reference: on a GPU the reference points to host "
      "memory; capture it by value");
  ParameterNote = DE.getCustomDiagID(DiagnosticsEngine::Note, "kernel parameter declared here");
  ExtraNotWhole = DE.getCustomDiagID(
      DiagnosticsEngine::Error,
      "extra argument %0 ('%1') has rank %2, but comparator parameter '%3' has rank %4: "
      "dp::sort passes extra arguments to the comparator whole, so the ranks must be equal");
  BadOperator = DE.getCustomDiagID(
      DiagnosticsEngine::Error,
      "the operator of dp::%0 must be callable as r(T, T) with T = '%1', the result's element "
      "type, but %2");
  DimensionOutOfRange = DE.getCustomDiagID(
      DiagnosticsEngine::Error, "%0: dimension %1 does not exist in a compute grid of rank %2");
  BadResult = DE.getCustomDiagID(DiagnosticsEngine::Error, "%0: %1");
  BadComparator = DE.getCustomDiagID(
      DiagnosticsEngine::Error,
      "the comparator of dp::sort must be callable as cmp(const R &, const R &, extra...) "
      "and return bool, but %0");
}

DiagnosticBuilder Reporter::report(SourceLocation L, unsigned ID, bool IsError) {
  Errors |= IsError;
  return DE.Report(L, ID);
}

DiagnosticBuilder Reporter::rankMismatch(SourceLocation L) { return report(L, RankMismatch, true); }
DiagnosticBuilder Reporter::scalarToReference(SourceLocation L) {
  return report(L, ScalarToReference, true);
}
DiagnosticBuilder Reporter::readOnlyToWritable(SourceLocation L) {
  return report(L, ReadOnlyToWritable, true);
}
DiagnosticBuilder Reporter::arity(SourceLocation L) { return report(L, Arity, true); }
DiagnosticBuilder Reporter::aliased(SourceLocation L) { return report(L, Aliased, true); }
DiagnosticBuilder Reporter::badDomain(SourceLocation L) { return report(L, BadDomain, true); }
DiagnosticBuilder Reporter::badIndexFormal(SourceLocation L) {
  return report(L, BadIndexFormal, true);
}
DiagnosticBuilder Reporter::untouched(SourceLocation L) { return report(L, Untouched, false); }
DiagnosticBuilder Reporter::noDeviceDefinition(SourceLocation L) {
  return report(L, NoDeviceDefinition, false);
}
DiagnosticBuilder Reporter::captureByReference(SourceLocation L) {
  return report(L, CaptureByReference, false);
}
DiagnosticBuilder Reporter::editFailed(SourceLocation L) { return report(L, EditFailed, true); }
DiagnosticBuilder Reporter::parameterNote(SourceLocation L) {
  return report(L, ParameterNote, false);
}
DiagnosticBuilder Reporter::extraNotWhole(SourceLocation L) { return report(L, ExtraNotWhole, true); }
DiagnosticBuilder Reporter::badOperator(SourceLocation L) { return report(L, BadOperator, true); }
DiagnosticBuilder Reporter::dimensionOutOfRange(SourceLocation L) {
  return report(L, DimensionOutOfRange, true);
}
DiagnosticBuilder Reporter::badResult(SourceLocation L) { return report(L, BadResult, true); }
DiagnosticBuilder Reporter::badTileFormal(SourceLocation L) { return report(L, BadTileFormal, true); }
DiagnosticBuilder Reporter::tileTokenUntiled(SourceLocation L) {
  return report(L, TileTokenUntiled, true);
}
DiagnosticBuilder Reporter::tileStaticUntiled(SourceLocation L) {
  return report(L, TileStaticUntiled, true);
}
DiagnosticBuilder Reporter::divergentBarrier(SourceLocation L) {
  return report(L, DivergentBarrier, true);
}
DiagnosticBuilder Reporter::conditionNote(SourceLocation L) {
  return report(L, ConditionNote, false);
}
DiagnosticBuilder Reporter::divergentExit(SourceLocation L) {
  return report(L, DivergentExit, true);
}
DiagnosticBuilder Reporter::skippedBarrierNote(SourceLocation L) {
  return report(L, SkippedBarrierNote, false);
}
DiagnosticBuilder Reporter::badComparator(SourceLocation L) {
  return report(L, BadComparator, true);
}

} // namespace dpstub
