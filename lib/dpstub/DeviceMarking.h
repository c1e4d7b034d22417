//===- DeviceMarking.h - Host+device annotations for kernels ----*- C++ -*-===//
//
// A kernel, and every function it calls that is defined in the project's own
// files, must compile for the device: each gets the DP_HOST_DEVICE macro of
// <dp/config.hpp> inserted in front of it (every redeclaration too). A
// callee defined in another file that the user declared for the device
// (DeviceDeclared.h) has its declarations marked; the unit that defines it
// marks the definition and what it calls, call-sites or not. A file that
// gets a mark and does not include dp gets <dp/config.hpp>.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dpstub/DeviceDeclared.h"
#include "dpstub/Diagnostics.h"
#include "dpstub/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Replacement.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace dpstub {

/// The definitions of the unit's own files that the user declared for the
/// device: they are marked whatever call-sites a plan holds, so a unit
/// finds them once.
std::vector<const clang::FunctionDecl *> declaredDefinitions(clang::ASTContext &Ctx,
                                                             DeviceDeclarations &Declared);

/// Insertions of the host+device macro, by file.
class DeviceMarker {
public:
  /// Declared: the unit's one reading of its device directives.
  DeviceMarker(clang::ASTContext &Ctx, Reporter &Diags, DeviceDeclarations &Declared);

  /// LE is rewritten as a function object (which carries its own mark):
  /// only what it calls is marked.
  void replaced(const clang::LambdaExpr *LE) { Replaced.insert(LE->getLambdaClass()); }

  /// Marks the kernel of a call-site and, transitively, what it calls.
  void markKernel(const AnalysedCall &Call);

  /// Marks Definitions (declaredDefinitions of the unit) and what they
  /// call.
  void markDeclaredDefinitions(const std::vector<const clang::FunctionDecl *> &Definitions);

  /// The insertions: text by (file path, offset), one per declaration.
  const std::map<std::pair<std::string, unsigned>, std::string> &texts() const { return Texts; }

private:
  void markFunction(const clang::FunctionDecl *FD);
  void markLambda(const clang::LambdaExpr *LE);
  void walk(const clang::Stmt *Body);
  void insertAt(clang::SourceLocation L, llvm::StringRef Text);
  bool alreadyMarked(clang::SourceLocation L) const;
  bool isLibraryCode(const clang::Decl *D) const;
  void markDeclarations(const clang::FunctionDecl *FD);

  clang::ASTContext &Ctx;
  Reporter &Diags;
  std::set<const clang::Decl *> Visited;
  std::set<const clang::Decl *> Replaced;
  DeviceDeclarations &Declared;
  std::set<clang::FileID> IncludeChecked;
  std::map<std::pair<std::string, unsigned>, std::string> Texts;
};

} // namespace dpstub
