//===- ForallStub.cpp - dp::forall: the invocation stub's text ------------===//
//
// Renders, from the CallSite model alone, the parameter block, the body
// (projection, kernel call, write-back at one logical position), the
// __global__ stub (physical thread -> logical position per dispatch mode)
// and the host launcher that replaces the call-site.
//
//===----------------------------------------------------------------------===//

#include "ForallRule.h"
#include "dpstub/StubText.h"

#include "llvm/Support/FormatVariadic.h"

namespace dpstub {

std::string ForallRule::renderStub(const CallSite &C) const {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  const std::string Rc = std::to_string(C.ComputeRank);
  const std::string &N = C.StubName;
  const bool HasObject = C.K.Kind != KernelKind::FreeFunction;

  renderHeaderComment(OS, C);

  // The parameter block: what every GPU thread receives besides geometry.
  OS << "template <class Kernel> struct " << N << "_params {\n";
  if (HasObject)
    OS << "  Kernel kernel; // captured fields refer to the launch's copies\n";
  if (C.usesIndexValues())
    OS << "  dp::rt::index_values<" << Rc << "> indices; // position -> index value\n";
  for (const Argument &A : C.Args)
    if (std::string M = paramMember(A, C.ComputeRank); !M.empty())
      OS << "  " << M << "\n";
  OS << "};\n\n";

  // The body: projection, kernel call and write-back at one position.
  OS << "template <class Kernel>\n"
     << "DP_HOST_DEVICE inline void " << N << "_body(const dp::index<" << Rc
     << "> &pos, const " << N << "_params<Kernel> &p) {\n";
  std::string CallArgs;
  if (C.K.ImplicitIndex)
    CallArgs = "p.indices[pos]";
  for (const Argument &A : C.Args) {
    OS << "  " << bindArgument(A, C.ComputeRank) << "\n";
    CallArgs += (CallArgs.empty() ? "" : ", ") + valueName(A);
  }
  if (C.K.Kind == KernelKind::FreeFunction)
    OS << "  " << C.K.Name << "(" << CallArgs << ");\n";
  else if (C.K.Mutable)
    OS << "  Kernel kernel = p.kernel; // a mutable lambda: called on a copy\n"
       << "  kernel(" << CallArgs << ");\n";
  else
    OS << "  p.kernel(" << CallArgs << ");\n";
  for (const Argument &A : C.Args)
    if (std::string W = writeBack(A); !W.empty())
      OS << "  " << W << "\n";
  OS << "}\n\n";

  renderGlobalStub(OS, C);

  // The launcher that replaces the call-site.
  renderLauncherSignature(OS, C, /*NameKernel=*/HasObject);
  OS << " {\n";
  OS << "  using kernel_type = "
     << (HasObject ? "std::decay_t<Kernel>" : "dp::rt::no_kernel_object") << ";\n";
  OS << "  dp::rt::launch_context<" << Rc << "> launch(\"dp::" << C.Kind << "\", \""
     << C.Loc.str() << "\", domain);\n";
  OS << "  const " << N << "_params<kernel_type> params{\n";
  std::vector<std::string> Inits;
  if (HasObject)
    Inits.push_back(std::string("launch.capture(kernel, ") + (C.K.Mutable ? "true" : "false") +
                    ")");
  if (C.usesIndexValues())
    Inits.push_back("launch.indices()");
  for (const Argument &A : C.Args)
    if (std::string I = paramInit(A); !I.empty())
      Inits.push_back(I);
  for (size_t I = 0; I < Inits.size(); ++I)
    OS << "      " << Inits[I] << (I + 1 < Inits.size() ? ",\n" : "};\n");
  if (Inits.empty())
    OS << "  };\n";
  renderStubTable(OS, C);
  OS << "  launch.run(stubs, params, [](const dp::index<" << Rc << "> &pos, const " << N
     << "_params<kernel_type> &p) {\n"
     << "    " << N << "_body(pos, p); // the native host path\n"
     << "  });\n";
  OS << "}\n";
  return OS.str();
}

} // namespace dpstub
