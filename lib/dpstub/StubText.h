//===- StubText.h - Text pieces shared by the stub renderers ----*- C++ -*-===//
#pragma once

#include "dpstub/CallSite.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace dpstub {

/// The comment above a stub: location, kernel, one line per argument.
void renderHeaderComment(llvm::raw_ostream &OS, const CallSite &C);

/// The parameter-block member for an argument ("" when it needs none).
std::string paramMember(const Argument &A, int Rc);
/// The launcher's initialiser for that member ("" when none).
std::string paramInit(const Argument &A);
/// The body statement that binds the kernel's value for A at `pos`.
std::string bindArgument(const Argument &A, int Rc);
/// The local the kernel receives for A.
std::string valueName(const Argument &A);
/// The statement writing A back after the call ("" when read-only).
std::string writeBack(const Argument &A);

/// `template <class Domain, class Kernel, class A0...> void NAME(...)`, the
/// launcher that replaces the call-site. NameKernel: whether the kernel
/// parameter is named (free-function kernels are called by name instead).
void renderLauncherSignature(llvm::raw_ostream &OS, const CallSite &C, bool NameKernel);

/// The __global__ stub: physical thread -> logical position, then body.
void renderGlobalStub(llvm::raw_ostream &OS, const CallSite &C);
/// The table of stub instantiations, one per dispatch mode the planner can
/// choose for the compute rank.
void renderStubTable(llvm::raw_ostream &OS, const CallSite &C);

/// "elemental projection, read-write" and friends.
std::string describeConversion(const Argument &A);

} // namespace dpstub
