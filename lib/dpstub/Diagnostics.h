//===- Diagnostics.h - dpstub's located diagnostics -------------*- C++ -*-===//
//
// Every message the tool reports about user code goes through the
// translation unit's DiagnosticsEngine with a custom ID, so users see
// file:line:col, the source line and a caret.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

namespace dpstub {

/// The custom diagnostics of dpstub, registered on one DiagnosticsEngine.
class Reporter {
public:
  explicit Reporter(clang::DiagnosticsEngine &DE);

  /// Rank mismatch: position, text, Ra, formal, Rf, Rc.
  clang::DiagnosticBuilder rankMismatch(clang::SourceLocation L);
  /// Scalar bound to a non-const reference: position, formal.
  clang::DiagnosticBuilder scalarToReference(clang::SourceLocation L);
  /// Read-only actual bound to a writable formal: position, formal.
  clang::DiagnosticBuilder readOnlyToWritable(clang::SourceLocation L);
  /// Arity: kernel parameters, call-site arguments.
  clang::DiagnosticBuilder arity(clang::SourceLocation L);
  /// Aliased writable field: variable, writable position, other position.
  clang::DiagnosticBuilder aliased(clang::SourceLocation L);
  /// A domain the call-site kind does not take: kind, what it takes, its type.
  clang::DiagnosticBuilder badDomain(clang::SourceLocation L);
  /// Special index token bound to a parameter that is not dp::index<Rc>.
  clang::DiagnosticBuilder badIndexFormal(clang::SourceLocation L);
  /// Call-site left untouched: kind, reason.
  clang::DiagnosticBuilder untouched(clang::SourceLocation L);
  /// A kernel calls a function with no visible definition: its name.
  clang::DiagnosticBuilder noDeviceDefinition(clang::SourceLocation L);
  /// A kernel lambda captures by reference: the variable.
  clang::DiagnosticBuilder captureByReference(clang::SourceLocation L);
  /// An edit could not be made: the reason.
  clang::DiagnosticBuilder editFailed(clang::SourceLocation L);
  /// A note pointing at a kernel parameter.
  clang::DiagnosticBuilder parameterNote(clang::SourceLocation L);
  /// A sort's extra argument whose rank differs from its comparator
  /// parameter's: position, text, Ra, formal, Rf.
  clang::DiagnosticBuilder extraNotWhole(clang::SourceLocation L);
  /// A reduce/scan operator with the wrong signature: kind, T, what is wrong.
  clang::DiagnosticBuilder badOperator(clang::SourceLocation L);
  /// An explicit Dim that names no dimension: spelling, Dim, compute rank.
  clang::DiagnosticBuilder dimensionOutOfRange(clang::SourceLocation L);
  /// A result (scalar, field, sort field) that cannot hold the call's values:
  /// spelling, what is wrong.
  clang::DiagnosticBuilder badResult(clang::SourceLocation L);
  /// A comparator with the wrong signature: what is wrong.
  clang::DiagnosticBuilder badComparator(clang::SourceLocation L);

  /// dp::_tile bound to a parameter that is not a dp::tile_group<Rc> by
  /// value or const&: position, formal, Rc.
  clang::DiagnosticBuilder badTileFormal(clang::SourceLocation L);
  /// A tile token on a domain that is not tiled: position, kind.
  clang::DiagnosticBuilder tileTokenUntiled(clang::SourceLocation L);
  /// A dp::tile_static in the kernel of a call-site that is not tiled: its
  /// type, kind.
  clang::DiagnosticBuilder tileStaticUntiled(clang::SourceLocation L);
  /// A barrier under a condition that depends on the thread.
  clang::DiagnosticBuilder divergentBarrier(clang::SourceLocation L);
  /// A note at that condition: what it depends on.
  clang::DiagnosticBuilder conditionNote(clang::SourceLocation L);
  /// A return (0), break (1) or continue (2) under a condition that
  /// depends on the thread, before a barrier it skips (or a call that
  /// reaches one).
  clang::DiagnosticBuilder divergentExit(clang::SourceLocation L);
  /// A note at the barrier (or the call reaching it) such a return skips.
  clang::DiagnosticBuilder skippedBarrierNote(clang::SourceLocation L);

  bool hasErrors() const { return Errors; }

private:
  clang::DiagnosticBuilder report(clang::SourceLocation L, unsigned ID, bool IsError);
  clang::DiagnosticsEngine &DE;
  unsigned RankMismatch, ScalarToReference, ReadOnlyToWritable, Arity, Aliased, BadDomain,
      BadIndexFormal, Untouched, NoDeviceDefinition, EditFailed, ParameterNote,
      CaptureByReference, ExtraNotWhole, BadOperator, DimensionOutOfRange, BadResult,
      BadComparator, BadTileFormal, TileTokenUntiled, TileStaticUntiled, DivergentBarrier,
      ConditionNote, DivergentExit, SkippedBarrierNote;
  bool Errors = false;
};

} // namespace dpstub
