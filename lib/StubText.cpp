//===- StubText.cpp - Text pieces shared by the stub renderers ------------===//

#include "dpstub/StubText.h"

namespace dpstub {

const char *toString(Conversion C) {
  switch (C) {
  case Conversion::SpecialIndex: return "special index";
  case Conversion::ElementalProjection: return "elemental projection";
  case Conversion::PartialProjection: return "partial projection";
  case Conversion::BroadcastField: return "broadcast field";
  case Conversion::BroadcastScalar: return "broadcast scalar";
  }
  return "?";
}

const char *toString(KernelKind K) {
  switch (K) {
  case KernelKind::FreeFunction: return "function";
  case KernelKind::Lambda: return "lambda";
  case KernelKind::FunctionObject: return "function object";
  }
  return "?";
}

std::string Location::str() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

namespace {
std::string rank(int R) { return std::to_string(R); }
std::string member(const Argument &A) { return "a" + std::to_string(A.Position); }
std::string element(const Argument &A, bool Const) {
  return (Const ? "const " : "") + A.ElementType;
}
const char *indexName(IndexKind K) {
  switch (K) {
  case IndexKind::Global: return "logical index";
  case IndexKind::Tile: return "tile index";
  case IndexKind::Local: return "index within the tile";
  }
  return "?";
}
} // namespace

std::string describeConversion(const Argument &A) {
  if (A.Conv == Conversion::SpecialIndex)
    return std::string("special index (") + indexName(A.Index) + "), value";
  std::string S = toString(A.Conv);
  if (A.Conv == Conversion::BroadcastScalar)
    return S + ", read-only";
  if (A.Writable)
    return S + ", read-write";
  return S + (A.ActualIsField ? ", read-only (const " + A.ElementType + " *__restrict__)"
                              : std::string(", read-only"));
}

void renderHeaderComment(llvm::raw_ostream &OS, const CallSite &C) {
  OS << "// dp::" << C.Kind << " at " << C.Loc.str() << "\n";
  OS << "//   kernel:       " << C.K.Signature << " [" << toString(C.K.Kind)
     << (C.K.Mutable ? ", mutable" : "") << "]\n";
  OS << "//   compute rank: " << C.ComputeRank << "\n";
  if (C.K.ImplicitIndex)
    OS << "//   index:        the kernel's first parameter receives the logical index\n";
  for (const Argument &A : C.Args) {
    OS << "//   argument " << A.Position + 1 << " `" << A.Text << "` ";
    if (A.Conv != Conversion::SpecialIndex)
      OS << "(" << A.ActualType << ", rank " << A.ActualRank << ") ";
    const bool Tight = llvm::StringRef(A.FormalType).ends_with("&") ||
                       llvm::StringRef(A.FormalType).ends_with("*");
    OS << "-> " << A.FormalType
       << (A.FormalName.empty() ? "" : (Tight ? "" : " ") + A.FormalName) << ": "
       << describeConversion(A) << "\n";
  }
}

std::string paramMember(const Argument &A, int Rc) {
  const std::string M = member(A);
  const std::string Note = " // `" + A.Text + "`: " + describeConversion(A);
  switch (A.Conv) {
  case Conversion::SpecialIndex:
    return "";
  case Conversion::ElementalProjection:
    if (!A.ActualIsField)
      return A.ActualType + " " + M + ";" + Note;
    return "dp::rt::projection<" + element(A, !A.Writable) + ", " + rank(Rc) + "> " + M + ";" +
           Note;
  case Conversion::PartialProjection:
    return "dp::rt::partial_projection<" + rank(A.FormalRank) + ", " + element(A, !A.Writable) +
           ", " + rank(Rc) + "> " + M + ";" + Note;
  case Conversion::BroadcastField:
    if (!A.ActualIsField)
      return A.ActualType + " " + M + ";" + Note;
    return "dp::field<" + rank(A.ActualRank) + ", " + A.ElementType + "> " + M + ";" + Note;
  case Conversion::BroadcastScalar:
    return A.ActualType + " " + M + ";" + Note;
  }
  return "";
}

std::string paramInit(const Argument &A) {
  const std::string M = member(A);
  const std::string Pos = std::to_string(A.Position);
  const std::string Writes = A.Writable ? "true" : "false";
  if (!A.ActualIsField)
    return A.Conv == Conversion::SpecialIndex ? "" : M;
  switch (A.Conv) {
  case Conversion::ElementalProjection:
    return "launch.project<" + element(A, !A.Writable) + ">(" + M + ", " + Pos + ", " + Writes +
           ")";
  case Conversion::PartialProjection:
    return "launch.project_partial<" + rank(A.FormalRank) + ", " + element(A, !A.Writable) +
           ">(" + M + ", " + Pos + ", " + Writes + ")";
  case Conversion::BroadcastField:
    return "launch.whole<" + A.ElementType + ">(" + M + ", " + Pos + ", " + Writes + ")";
  default:
    return M;
  }
}

std::string valueName(const Argument &A) { return "v" + std::to_string(A.Position); }

std::string bindArgument(const Argument &A, int Rc) {
  const std::string V = valueName(A), M = "p." + member(A), R = rank(Rc);
  switch (A.Conv) {
  case Conversion::SpecialIndex:
    if (A.Index == IndexKind::Tile)
      return "const dp::index<" + R + "> " + V + "{}; // a plain grid is a single tile";
    return "const dp::index<" + R + "> " + V + " = p.indices[pos];";
  case Conversion::ElementalProjection:
    if (!A.ActualIsField)
      return "const auto &" + V + " = " + M + "[p.indices[pos]];";
    if (A.Writable)
      return A.ElementType + " " + V + " = " + M + "[pos];";
    return "const " + A.ElementType + " &" + V + " = " + M + "[pos];";
  case Conversion::PartialProjection:
    if (A.Writable)
      return "dp::field<" + rank(A.FormalRank) + ", " + A.ElementType + "> " + V + " = " + M +
             ".view(pos);";
    return "const dp::field<" + rank(A.FormalRank) + ", " + A.ElementType + "> " + V +
           " = dp::rt::formal_view(" + M + ".view(pos));";
  case Conversion::BroadcastField:
    if (A.ActualIsField && A.Writable)
      return "dp::field<" + rank(A.ActualRank) + ", " + A.ElementType + "> " + V + " = " + M +
             ";";
    return "const auto &" + V + " = " + M + ";";
  case Conversion::BroadcastScalar:
    return "const auto &" + V + " = " + M + ";";
  }
  return "";
}

std::string writeBack(const Argument &A) {
  if (A.Conv == Conversion::ElementalProjection && A.ActualIsField && A.Writable)
    return "p." + member(A) + "[pos] = " + valueName(A) + ";";
  return "";
}

void renderLauncherSignature(llvm::raw_ostream &OS, const CallSite &C, bool NameKernel) {
  OS << "template <class Domain, class Kernel";
  for (const Argument &A : C.Args)
    OS << ", class A" << A.Position;
  OS << ">\nvoid " << C.StubName << "(const Domain &domain, Kernel &&" << (NameKernel ? "kernel" : "");
  for (const Argument &A : C.Args)
    OS << ", A" << A.Position << " &&a" << A.Position;
  OS << ")";
}

void renderGlobalStub(llvm::raw_ostream &OS, const CallSite &C) {
  const std::string R = rank(C.ComputeRank), &N = C.StubName;
  OS << "template <int Mode, class Kernel>\n"
     << "DP_GLOBAL void " << N << "_stub(const dp::rt::launch_geometry<" << R
     << "> geometry, const " << N << "_params<Kernel> p) {\n"
     << "  dp::index<" << R << "> pos; // logical position: 0-based, per dimension\n"
     << "  const dp::rt::thread_ids thread = dp::rt::this_thread();\n"
     << "  if (dp::rt::map_thread<Mode>(geometry, thread.group, thread.local, pos))\n"
     << "    " << N << "_body(pos, p); // surplus threads map to no position\n"
     << "}\n\n";
}

void renderStubTable(llvm::raw_ostream &OS, const CallSite &C) {
  const int Rc = C.ComputeRank;
  const int Direct = Rc < 3 ? Rc : 3;
  OS << "  // One stub instantiation per dispatch mode the planner may choose.\n"
     << "  static const dp::rt::stub_table<" << Rc << ", " << C.StubName
     << "_params<kernel_type>> stubs{{\n      nullptr";
  for (int Mode = 1; Mode <= 7; ++Mode) {
    const bool Used = Mode == Direct || Mode == 7 || (Rc == 3 && Mode >= 4 && Mode <= 6);
    OS << ",";
    if (Used)
      OS << "\n      &" << C.StubName << "_stub<" << Mode << ", kernel_type>";
    else
      OS << " nullptr";
  }
  OS << "}};\n";
}

} // namespace dpstub
