//===- ForallStub.cpp - dp::forall: the invocation stub's text ------------===//
//
// Renders, from the CallSite model alone, the parameter block, the body
// (projection, kernel call, write-back at one logical position), the
// __global__ stub (physical thread -> logical position per dispatch mode)
// and the launcher that replaces the call-site.
//
//===----------------------------------------------------------------------===//

#include "ForallRule.h"
#include "dpstub/StubText.h"

namespace dpstub {

std::string ForallRule::renderStub(const CallSite &C) const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  const std::string Rc = std::to_string(C.ComputeRank);
  const std::string &N = C.StubName;

  renderHeaderComment(OS, C);
  renderParams(OS, C);

  // The body: projection, kernel call and write-back at one position.
  OS << "template <class Params>\n"
     << "DP_HOST_DEVICE inline void " << N << "_body(const dp::index<" << Rc
     << "> &pos, const Params &p) {\n";
  renderBindings(OS, C, "  ");
  OS << "  " << renderKernelCall(C) << ";\n";
  renderWriteBacks(OS, C, "  ");
  OS << "}\n\n";

  // The __global__ stub: physical thread -> logical position.
  OS << "template <int Mode, class Params>\n"
     << "DP_GLOBAL void " << N << "_stub(const dp::rt::launch_geometry<" << Rc
     << "> geometry, const Params p) {\n"
     << "  dp::index<" << Rc << "> pos; // logical position: 0-based, per dimension\n"
     << "  const dp::rt::thread_ids thread = dp::rt::this_thread();\n"
     << "  if (dp::rt::map_thread<Mode>(geometry, thread.group, thread.local, pos))\n"
     << "    " << N << "_body(pos, p); // surplus threads map to no position\n"
     << "}\n\n";

  // The launcher that replaces the call-site.
  renderLauncherSignature(OS, C);
  OS << " {\n";
  renderLauncherPrologue(OS, C);
  renderStubTable(OS, C);
  OS << "  launch.run(stubs, params, [](const dp::index<" << Rc
     << "> &pos, const params_type &p) {\n"
     << "    " << N << "_body(pos, p); // the native host path\n"
     << "  });\n"
     << "}\n";
  return OS.str();
}

} // namespace dpstub
