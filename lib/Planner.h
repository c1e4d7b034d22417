//===- Planner.h - Phase 3: the edits and the stub header ------*- C++ -*-===//
//
// The plan of a translation unit's accepted call-sites, as a list of named
// stages over plain data (Planner.cpp): the function objects that replace
// lambdas nvcc cannot compile, the device marks, the stub header's include,
// the call-sites' names and callee edits, line markers, then one step that
// completes the models and renders the stub header.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/DeviceDeclared.h"
#include "dpstub/Diagnostics.h"
#include "dpstub/Rule.h"
#include "dpstub/Translation.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/FileManager.h"

#include <string>
#include <vector>

namespace dpstub {

/// Path made absolute against the compile command's directory.
std::string absolutePath(llvm::StringRef Path, clang::FileManager &FM);

/// The stub header's name for a source: "k.cpp" -> "k.cpp.dpstub.hpp".
std::string stubHeaderNameOf(llvm::StringRef MainFile);

/// What the planner knows of the unit besides its call-sites.
struct PlanUnit {
  clang::ASTContext &Ctx;
  std::string MainFile; ///< absolute
  bool LineMarkers;     ///< --out-dir: the rewritten file keeps the user's lines
  /// declaredDefinitions(Ctx), found once for every plan of the unit.
  const std::vector<const clang::FunctionDecl *> &DeclaredDefinitions;
  /// The unit's device directives, read once for all its plans.
  DeviceDeclarations &Declared;
};

/// The edits that translate `Accepted` (in source order, from one unit's
/// main file), and their stub header. Kernels (and what they call) are
/// marked for the device, the stub header is included where it must be,
/// and every call-site's callee becomes its launcher, named after the
/// position the call-site has in the rewritten file.
TranslationPlan planTranslation(std::vector<AnalysedCall> Accepted, const PlanUnit &U,
                                Reporter &Diags);

/// A unit without call-sites: only the device marks of the definitions the
/// user declared for the device (DeviceDeclared.h), and what they call.
TranslationPlan planDeclaredDefinitions(const PlanUnit &U, Reporter &Diags);

} // namespace dpstub
