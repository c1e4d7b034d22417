//===- StubSpec.h - What one call-site kind's stub frame says ---*- C++ -*-===//
//
// Every stub shares one frame (StubText.h): the comment, the parameter
// block, the body, the launcher. What differs by kind is this value,
// which the kind's rule returns (Rule::stubSpec) and the frame renders:
// how the comment names the kernel and the result, the body's return
// type, the kind's own definitions, the launcher's parameters and the
// pattern it calls, what `dpstub --list` reports.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace dpstub {

struct StubSpec {
  /// How the comment names the kernel: "kernel", "comparator", "map".
  const char *KernelRole = "kernel";
  /// The comment's line about the result or sort field (after "//   "),
  /// or empty.
  std::string ResultLine;
  /// The launcher's template parameters after `class Domain, ` and its
  /// parameters after `const Domain &domain, `: the dp:: function's.
  const char *LauncherTemplate = "class Kernel, class... A";
  const char *LauncherParams = "Kernel &&kernel, A &&...a";
  /// The --list report's name for the call-site's result ("result",
  /// "sort_field"); null when the kind has none.
  const char *ListedResult = nullptr;
  /// The kind folds its kernel's values with an operator (C.Op): the
  /// comment and --list show it, and a tiled call-site folds each tile's
  /// values in tile memory.
  bool Operator = false;
  /// Whether --list reports the sort order.
  bool ListsOrder = false;
  /// The body's return type: "void" (it writes), "auto" (it yields the
  /// kernel's value); null when the kind has no body (a sort's comparator
  /// binds its extras once, in Definitions).
  const char *BodyReturn = "void";
  /// The kind's own definitions, between the body and the launcher: its
  /// __global__ stub, map function or comparator.
  std::string Definitions;
  /// The launcher's statements after its prologue: the runtime pattern it
  /// calls.
  std::string LauncherBody;
  /// The stub maps each launch position through its own view of a domain
  /// that is not a grid (a forall's: a dp::where predicate is then tested
  /// after that mapping).
  bool DomainView = false;
};

} // namespace dpstub
