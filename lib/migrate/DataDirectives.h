//===- DataDirectives.h - Data clauses into dp's data controls --*- C++ -*-===//
//
// The directives that move data or order work, once their arrays are
// dp::fields, become dp's own controls: `acc data` and `omp target data`
// a dp::data_region at the start of their block, `enter/exit data` and
// `update` dp::update_device / dp::update_host (over a pointer that
// stays one, dp::enter_data / dp::exit_data), `async(q)` a dp::queue
// and `wait` its wait(), `routine` and `declare` nothing (dpstub marks a
// kernel's callees and passes its values itself). A directive that names
// something dp has no counterpart for stays, with a warning saying what.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "migrate/LoopAnalysis.h"
#include "migrate/Text.h"

#include "dpstub/Diagnostics.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace dpstub::migrate {

/// What the directives' rewrite needs to know of the migration.
struct DataContext {
  clang::ASTContext &Ctx;
  /// The arrays that become dp::fields (every member of their groups).
  const std::set<const clang::VarDecl *> &Fields;
  /// Every candidate loop was converted: no directive is left for a
  /// routine or declare directive to serve.
  bool AllConverted = false;
  /// Which functions the user declared for the device (shared with the
  /// loops' analysis, so each file's directives are read once).
  DeviceDeclarations &Device;
  /// Pointers that converted loops borrow (dp::borrow), with the field
  /// type they borrow them as; and where the converted loops are (their
  /// offsets in the main file). A region whose arrays are all fields or
  /// such pointers, used only by those loops, borrows them for its whole
  /// extent: the loops inside share its blocks, which cross to the device
  /// once and come back at the region's end.
  const std::map<const clang::VarDecl *, std::string> &Borrowed;
  const std::vector<Span> &CallSites;
  /// The host may touch borrowed memory between call-sites where the
  /// original did not: a converted loop reduces into an element of it,
  /// which the host then writes through the pointer, or a dependent loop
  /// runs in order on the host around call-sites. A block held across
  /// call-sites (dp::enter_data) would keep a device copy those host
  /// accesses miss, so `enter data` over pointers stays.
  bool HostWritesBorrowed = false;
  /// A data-moving `update`/`enter data`/`exit data` directive in a
  /// branch the preprocessor skipped (`#ifdef _OPENACC`), as text with its
  /// line; empty when there is none. Host code of the build taking that
  /// branch relies on it, and this migration cannot say it in dp's words,
  /// so `enter data` over pointers stays.
  std::string SkippedTransfer;
  /// A converted loop ran on the host's threads in the original (`omp
  /// parallel for`, a plain loop): its results are now the device's, and
  /// an `update device` over a pointer, which sent the host's, would send
  /// an older copy over them; such a file keeps its pointer transfers.
  bool HostLoopsConverted = false;
  /// The loops' member paths (`m->x`): a region over one borrows it as
  /// for a pointer variable (the loops' borrows are keyed by its variable).
  const MemberVars *Members = nullptr;
  /// The unit's offset pointers (ArrayData's), for the regions' scans.
  const OffsetPointers *Offsets = nullptr;
  /// Where loops keep their directive (refused, not run in order on the
  /// host): what OpenMP/OpenACC still runs. A data region around none of
  /// them serves only dp's call-sites and the host.
  std::vector<Span> KeptLoops;
};

/// `dp_async_queue(q)`: a dp::queue per OpenACC async number (OpenMP's
/// nowait is the default queue); the helper is added once when used.
std::string queueText(const std::string &Number);

/// The edits for every data directive of the main file (and the queue
/// helper when one of them, or Loops, needs it); warnings for those that
/// stay. Kept receives the constructs left in place.
void planDataDirectives(const std::vector<PragmaLine> &Pragmas, const DataContext &C, bool LoopsUseQueues,
                        EditList &E, Reporter &Diags, std::vector<std::string> &Kept);

/// The variable a directive's clause names at its place (the innermost
/// visible declaration), or null.
const clang::VarDecl *resolveName(const std::string &Name, unsigned Offset, clang::ASTContext &Ctx);

} // namespace dpstub::migrate
