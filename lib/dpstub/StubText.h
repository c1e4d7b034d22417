//===- StubText.h - Text pieces shared by the stub renderers ----*- C++ -*-===//
//
// Every call-site kind renders one frame from its CallSite model and its
// rule's StubSpec: the comment, the parameter block (what every GPU thread
// receives), the body (argument bindings at one logical position, the
// kernel call, write-backs), the kind's own definitions (a __global__
// stub, a map function, a comparator), and the launcher that replaces the
// call-site. The pieces below are what the rules' definitions reuse.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/CallSite.h"
#include "dpstub/StubSpec.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace dpstub {

/// One call-site's stub, from its kind's Spec.
std::string renderStubFrame(const CallSite &C, const StubSpec &Spec);

/// The comment above a stub: location, kernel, one line per argument.
void renderHeaderComment(llvm::raw_ostream &OS, const CallSite &C, const StubSpec &Spec);

/// "elemental projection, read-write" and friends.
std::string describeConversion(const Argument &A);

/// `template <class Kernel[, class T0...]> struct NAME_params { ... };`
void renderParams(llvm::raw_ostream &OS, const CallSite &C, const StubSpec &Spec);

/// A tiled call-site's tile memory: `NAME_tile_bytes`, room for every
/// dp::tile_static its kernel declares, checked against 48 KiB, and
/// `NAME_tile_sight`, whether the kernel can tell its tile. Nothing for
/// other domains.
void renderTileBytes(llvm::raw_ostream &OS, const CallSite &C);

/// A body function's template head, name, parameters and opening brace:
/// it returns Result and takes a position (of any dp::index<R> type), or a
/// tile's thread (`at`, with `pos` its position).
void renderBodyHead(llvm::raw_ostream &OS, const CallSite &C, llvm::StringRef Result);

/// The statements binding every argument's value at `pos` (or, for a
/// sort's extras, once: AtPosition false), each line prefixed by Indent.
void renderBindings(llvm::raw_ostream &OS, const CallSite &C, llvm::StringRef Indent,
                    bool AtPosition = true);

/// The kernel call with the bound values: `p.kernel(v0, v1)`, `::f(...)`.
/// Leading: arguments before the bound values (a comparator's operands).
std::string renderKernelCall(const CallSite &C, llvm::StringRef Leading = "");

/// The statements writing read-write elements back after the call.
void renderWriteBacks(llvm::raw_ostream &OS, const CallSite &C, llvm::StringRef Indent);

/// The launcher's signature: the dp:: function's parameters with the
/// call-site's arguments as a pack, so that a declaration left from an
/// earlier translation still parses after its call-site changed.
void renderLauncherSignature(llvm::raw_ostream &OS, const CallSite &C, const StubSpec &Spec);

/// The start of the launcher's body: checks that the call-site still
/// matches the stub, names the arguments, makes the launch context and the
/// parameter block `params`.
void renderLauncherPrologue(llvm::raw_ostream &OS, const CallSite &C, const StubSpec &Spec);

/// The table of __global__ stub instantiations, one per dispatch mode the
/// planner may choose for the compute rank.
void renderStubTable(llvm::raw_ostream &OS, const CallSite &C);

} // namespace dpstub
