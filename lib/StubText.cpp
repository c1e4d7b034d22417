//===- StubText.cpp - Text pieces shared by the stub renderers ------------===//

#include "dpstub/StubText.h"

#include "dp/rt/stub/modes.hpp"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace dpstub {

namespace {
std::string rank(int R) { return std::to_string(R); }
std::string member(const Argument &A) { return "a" + std::to_string(A.Position); }
std::string valueName(const Argument &A) { return "v" + std::to_string(A.Position); }
bool varies(const Argument &A) { return !A.TypeParam.empty(); }
/// The element type (fields) or the type (scalars, user types) the stub
/// names: the concrete one, or the template's type parameter.
std::string typeOf(const Argument &A) {
  if (varies(A))
    return A.TypeParam;
  return A.ActualIsField ? A.ElementType : A.ActualType;
}
std::string element(const Argument &A, bool Const) { return (Const ? "const " : "") + typeOf(A); }
const char *indexName(IndexKind K) {
  switch (K) {
  case IndexKind::Global: return "logical index";
  case IndexKind::Tile: return "tile index";
  case IndexKind::Local: return "index within the tile";
  case IndexKind::Group: return "the tile_group";
  }
  return "?";
}
std::string accessOf(const Argument &A) {
  if (!A.Writable)
    return "dp::rt::access::read";
  return A.FormalKnown ? "dp::rt::access::write" : "dp::rt::access::may_write";
}
const char *domainMember(const CallSite &C) { return C.Dom.isTiled() ? "tiling" : "domain"; }
/// Type parameters in declaration order, each once.
std::vector<const Argument *> typeParams(const CallSite &C) {
  std::vector<const Argument *> Out;
  for (const Argument &A : C.Args)
    if (varies(A))
      Out.push_back(&A);
  return Out;
}
} // namespace

std::string describeConversion(const Argument &A) {
  if (A.Conv == Conversion::SpecialIndex)
    return std::string("special index (") + indexName(A.Index) + "), value";
  std::string S = toString(A.Conv);
  if (A.ActualIsRows)
    return S + std::string(", rows ") + (A.ElementConst ? "read-only" : "read-write") +
           " (moved where the launch runs)";
  if (A.Conv == Conversion::BroadcastScalar)
    return S + ", read-only";
  if (A.Writable)
    return S + ", read-write";
  return S + (A.ActualIsField ? ", read-only (const " + typeOf(A) + " *__restrict__)"
                              : std::string(", read-only"));
}

void renderHeaderComment(llvm::raw_ostream &OS, const CallSite &C, const StubSpec &Spec) {
  OS << "// " << C.spelling() << " at " << C.Loc.str() << "\n";
  std::string KernelRole = std::string(Spec.KernelRole) + ":";
  KernelRole.resize(std::max<size_t>(KernelRole.size(), 13), ' ');
  OS << "//   " << KernelRole << " " << C.K.Signature << " [" << toString(C.K.Kind)
     << (C.K.Mutable ? ", mutable" : "") << "]\n";
  if (Spec.Operator)
    OS << "//   operator:     " << C.Op.Text << " [" << toString(C.Op.Kind) << "]\n";
  if (!Spec.ResultLine.empty())
    OS << "//   " << Spec.ResultLine << "\n";
  OS << "//   compute rank: " << C.ComputeRank << "\n";
  if (!C.Options.empty())
    OS << "//   options:      " << C.Options
       << " (queue, when, group shape: the launcher passes them to the runtime)\n";
  switch (C.Dom.Kind) {
  case DomainKind::Grid:
    break;
  case DomainKind::Tiled: {
    OS << "//   domain:       tiled, one group per tile of ";
    for (size_t I = 0; I < C.Dom.Tile.size(); ++I)
      OS << (I ? " x " : "") << C.Dom.Tile[I];
    OS << "; padding threads run masked"
       << (C.Dom.Barrier ? ", and reach every barrier" : "") << "\n";
    if (Spec.Operator)
      OS << "//   fold:         each tile folds its in-domain values in tile memory, then the "
            "tiles' folds are folded\n";
    OS << "//   tile memory:  "
       << (C.Dom.TileStatics.empty() ? std::string("none")
                                     : "dp::tile_static<" +
                                           llvm::join(C.Dom.TileStatics, ">, dp::tile_static<") +
                                           ">")
       << "\n";
    break;
  }
  case DomainKind::Where:
    OS << "//   domain:       dp::where: the grid's points whose index value the predicate keeps"
       << (Spec.DomainView ? ", tested after the index mapping" : "") << "\n";
    break;
  case DomainKind::LowerTriangle:
  case DomainKind::UpperTriangle:
    OS << "//   domain:       " << toString(C.Dom.Kind)
       << ": n(n+1)/2 points launched as a rank-1 domain, each raised exactly to (i, j)\n";
    break;
  }
  if (C.K.ImplicitIndex)
    OS << "//   index:        the kernel's first parameter receives the logical index\n";
  for (const Argument &A : C.Args) {
    OS << "//   argument " << A.Position + 1 << " `" << A.Text << "` ";
    if (A.Conv != Conversion::SpecialIndex)
      OS << "(" << llvm::join(A.InstantiatedTypes, " or ") << ", rank " << A.ActualRank << ") ";
    // Every instantiation's parameter type, each with the parameter's name.
    llvm::SmallVector<llvm::StringRef, 2> Formals;
    llvm::StringRef(A.FormalType).split(Formals, " | ");
    OS << "-> ";
    for (size_t I = 0; I < Formals.size(); ++I) {
      const bool Tight = Formals[I].ends_with("&") || Formals[I].ends_with("*");
      OS << (I ? " | " : "") << Formals[I]
         << (A.FormalName.empty() ? "" : (Tight ? "" : " ") + A.FormalName);
    }
    OS << ": " << describeConversion(A) << "\n";
  }
  for (const Argument *A : typeParams(C))
    OS << "//   template:     " << A->TypeParam << " is the "
       << (A->ActualIsField ? "element type" : "type") << " of argument " << A->Position + 1
       << " in each instantiation\n";
}

void renderParams(llvm::raw_ostream &OS, const CallSite &C, const StubSpec &Spec) {
  const int Rc = C.ComputeRank;
  OS << "template <class Kernel";
  if (Spec.DomainView)
    OS << ", class DomainView";
  for (const Argument *A : typeParams(C))
    OS << ", class " << A->TypeParam;
  OS << "> struct " << C.StubName << "_params {\n";
  if (C.K.Kind != KernelKind::FreeFunction)
    OS << "  Kernel kernel; // captured fields refer to the launch's copies\n";
  if (Spec.DomainView)
    OS << "  DomainView " << domainMember(C) << "; // "
       << (C.Dom.isTiled()       ? "the grid's and the tile's extents: padding threads are masked"
           : C.Dom.isTriangle() ? "point number -> (i, j), exactly"
                                : "the predicate, tested after the index mapping")
       << "\n";
  if (C.usesIndexValues())
    OS << "  dp::rt::index_values<" << Rc << "> indices; // position -> index value\n";
  for (const Argument &A : C.Args) {
    const std::string M = member(A);
    const std::string Note = " // `" + A.Text + "`: " + describeConversion(A);
    switch (A.Conv) {
    case Conversion::SpecialIndex:
      break;
    case Conversion::ElementalProjection:
      if (!A.ActualIsField)
        OS << "  " << typeOf(A) << " " << M << ";" << Note << "\n";
      else
        OS << "  dp::rt::projection<" << element(A, !A.Writable) << ", " << Rc << "> " << M
           << ";" << Note << "\n";
      break;
    case Conversion::PartialProjection:
      OS << "  dp::rt::partial_projection<" << A.FormalRank << ", " << element(A, !A.Writable)
         << ", " << Rc << "> " << M << ";" << Note << "\n";
      break;
    case Conversion::BroadcastField:
      if (!A.ActualIsField)
        OS << "  " << typeOf(A) << " " << M << ";" << Note << "\n";
      else
        OS << "  dp::field<" << A.ActualRank << ", " << typeOf(A) << "> " << M << ";" << Note
           << "\n";
      break;
    case Conversion::BroadcastScalar:
      OS << "  " << typeOf(A) << " " << M << ";" << Note << "\n";
      break;
    }
  }
  OS << "};\n\n";
}

void renderTileBytes(llvm::raw_ostream &OS, const CallSite &C) {
  if (!C.Dom.isTiled())
    return;
  // Every tile_static the kernel may declare, each in its own slot: a fixed
  // size the __shared__ array of the stub takes.
  const std::string &N = C.StubName;
  OS << "/// Tile memory per tile: room for every dp::tile_static of the kernel.\n"
     << "inline constexpr std::size_t " << N << "_tile_bytes = dp::rt::tile_bytes<"
     << llvm::join(C.Dom.TileStatics, ", ") << ">();\n"
     << "static_assert(" << N << "_tile_bytes <= dp::max_tile_static_bytes,\n"
     << "              \"the kernel's dp::tile_static objects need more than 48 KiB of tile "
        "memory\");\n";
  if (C.seesTilePlaceOnly())
    OS << "/// The kernel takes tile indices but no dp::_tile: on the host a tile's threads\n"
       << "/// run together; with no barrier and no tile memory, a device may run several\n"
       << "/// tiles side by side in one group.\n"
       << "inline constexpr auto " << N << "_tile_sight = dp::rt::sees_tile_place;\n\n";
  else if (C.seesTile())
    OS << "/// The kernel takes a tile token: on the host a tile's threads run together.\n"
       << "inline constexpr auto " << N << "_tile_sight = dp::rt::sees_tile;\n\n";
  else
    OS << "/// The kernel takes no tile token, so it cannot tell its tile: on the host\n"
       << "/// it runs as plain loops over the grid's rows, then once per padding thread.\n"
       << "inline constexpr auto " << N << "_tile_sight = dp::rt::blind_to_tile;\n\n";
}

void renderBodyHead(llvm::raw_ostream &OS, const CallSite &C, llvm::StringRef Result) {
  const std::string R = rank(C.ComputeRank);
  const std::string &N = C.StubName;
  if (C.Dom.isTiled() && C.seesTile()) {
    OS << "template <class Params>\n"
       << "DP_HOST_DEVICE DP_INLINE " << Result << " " << N << "_body(const dp::rt::tile_point<" << R
       << "> &at, const Params &p) {\n"
       << "  const dp::index<" << R << "> &pos = at.pos; // past the grid for a padding thread\n";
    return;
  }
  if (C.Dom.isTiled()) {
    OS << "// At: a dp::rt::tile_point<" << R << ">; on the host's rows, a dp::rt::row_point\n"
       << "// (a position, always in the grid), as the kernel cannot tell its tile.\n"
       << "template <class At, class Params>\n"
       << "DP_HOST_DEVICE DP_INLINE " << Result << " " << N
       << "_body(const At &at, const Params &p) {\n"
       << "  const auto &pos = at.pos; // past the grid for a padding thread\n";
    return;
  }
  OS << "// Pos: a dp::index<" << R << ">; on the host's rows where every elemental\n"
     << "// projection steps by one element and every whole field is dense, a\n"
     << "// dp::detail::unit_row_index<" << R << ">.\n"
     << "template <class Pos, class Params>\n"
     << "DP_HOST_DEVICE DP_INLINE " << Result << " " << N << "_body(const Pos &pos, const Params &p) {\n";
}

void renderBindings(llvm::raw_ostream &OS, const CallSite &C, llvm::StringRef Indent, bool AtPosition) {
  const std::string R = rank(C.ComputeRank);
  const bool Tiled = C.Dom.isTiled();
  for (const Argument &A : C.Args) {
    const std::string V = valueName(A), M = "p." + member(A);
    // A type parameter of the parameter block is not in scope here: types
    // that vary between instantiations are deduced.
    const bool Auto = varies(A);
    OS << Indent;
    switch (A.Conv) {
    case Conversion::SpecialIndex:
      switch (A.Index) {
      case IndexKind::Global:
        OS << "const dp::index<" << R << "> " << V << " = p.indices[pos];";
        break;
      case IndexKind::Tile:
        OS << "const dp::index<" << R << "> " << V << " = at.tile;";
        break;
      case IndexKind::Local:
        OS << "const dp::index<" << R << "> " << V << " = at.local;";
        break;
      case IndexKind::Group:
        OS << "const dp::tile_group<" << R << "> " << V
           << " = at.group(p.indices.lb, p.indices.stride);";
        break;
      }
      break;
    case Conversion::ElementalProjection:
      if (!A.ActualIsField && Tiled)
        OS << "const auto " << V << " = dp::rt::masked(" << M
           << ", p.indices[pos], at.in_domain); // padding: a default value";
      else if (!A.ActualIsField)
        OS << "const auto &" << V << " = " << M << "[p.indices[pos]];";
      else if (Tiled)
        OS << (A.Writable ? "" : "const ") << (Auto ? "auto" : typeOf(A)) << " " << V
           << " = dp::rt::masked(" << M << ", pos, at.in_domain); // padding: "
           << (Auto ? "value-initialised" : typeOf(A) + "()")
           << (A.Writable ? ", written back below" : "");
      else if (A.Writable)
        OS << (Auto ? "auto" : typeOf(A)) << " " << V << " = " << M << "[pos]; // written back below";
      else
        OS << "const " << (Auto ? "auto" : typeOf(A)) << " &" << V << " = " << M << "[pos];";
      break;
    case Conversion::PartialProjection: {
      const std::string Field =
          Auto ? "auto" : "dp::field<" + rank(A.FormalRank) + ", " + typeOf(A) + ">";
      const std::string View = Tiled ? "dp::rt::masked_view(" + M + ", pos, at.in_domain)"
                                     : M + ".view(pos)";
      if (A.Writable)
        OS << Field << " " << V << " = " << View << ";";
      else
        OS << "const " << Field << " " << V << " = dp::rt::formal_view(" << View << ");";
      if (Tiled)
        OS << " // padding: empty";
      break;
    }
    case Conversion::BroadcastField:
      if (A.ActualIsField) {
        // The formal's own type, so binding it converts nothing per element.
        // An element type that varies between instantiations is the
        // member's own (the parameter block's type parameters are not in
        // scope here).
        const bool Const = A.FormalKnown ? A.FormalElementConst : A.ElementConst;
        const std::string E = Auto ? std::string(Const ? "const " : "") + "dp::rt::element_t<decltype(" + M + ")>"
                                   : element(A, Const);
        OS << (Auto ? "auto" : "dp::field<" + rank(A.ActualRank) + ", " + E + ">") << " " << V
           << " = dp::rt::launch_handle<" << E << ">(" << M << (AtPosition ? ", pos" : "")
           << "); // a handle on the launch's copy";
      }
      else
        OS << "const auto &" << V << " = " << M << ";";
      break;
    case Conversion::BroadcastScalar:
      OS << "const auto &" << V << " = " << M << ";";
      break;
    }
    OS << "\n";
  }
}

std::string renderKernelCall(const CallSite &C, llvm::StringRef Leading) {
  std::string Args = Leading.str();
  if (C.K.ImplicitIndex)
    Args += (Args.empty() ? "" : ", ") + std::string("p.indices[pos]");
  for (const Argument &A : C.Args)
    Args += (Args.empty() ? "" : ", ") + valueName(A);
  if (C.K.Kind == KernelKind::FreeFunction)
    return C.K.Name + "(" + Args + ")";
  if (C.K.Mutable)
    return "dp::rt::mutable_copy(p.kernel)(" + Args + ")";
  return "p.kernel(" + Args + ")";
}

void renderWriteBacks(llvm::raw_ostream &OS, const CallSite &C, llvm::StringRef Indent) {
  std::string Lines;
  const std::string Inner = C.Dom.isTiled() ? Indent.str() + "  " : Indent.str();
  for (const Argument &A : C.Args)
    if (A.Conv == Conversion::ElementalProjection && A.ActualIsField && A.Writable)
      Lines += Inner + "p." + member(A) + "[pos] = " + valueName(A) + ";\n";
  if (Lines.empty())
    return;
  if (C.Dom.isTiled())
    OS << Indent << "if (at.in_domain) { // a padding thread's writes are dropped\n"
       << Lines << Indent << "}\n";
  else
    OS << Lines;
}

void renderLauncherSignature(llvm::raw_ostream &OS, const CallSite &C, const StubSpec &Spec) {
  OS << "template <" << (C.Dim >= 0 ? "int Dim, " : "") << "class Domain, ";
  const std::string Options = C.Options.empty() ? "" : "const dp::exec_options &options, ";
  OS << Spec.LauncherTemplate << ">\nvoid " << C.StubName << "(" << Options
     << "const Domain &domain, " << Spec.LauncherParams << ")";
}

void renderLauncherPrologue(llvm::raw_ostream &OS, const CallSite &C, const StubSpec &Spec) {
  const std::string N = std::to_string(C.Args.size());
  OS << "  static_assert(" << (C.Dim >= 0 ? "Dim == " + std::to_string(C.Dim) + " && " : "")
     << "sizeof...(A) == " << N << ",\n"
     << "                \"dpstub: this call-site changed since its stub was generated; "
        "run dpstub again\");\n";
  if (!C.Args.empty()) {
    OS << "  auto &&[";
    for (const Argument &A : C.Args)
      OS << (A.Position ? ", " : "") << member(A);
    OS << "] = std::forward_as_tuple(std::forward<A>(a)...);\n";
  }
  const bool HasObject = C.K.Kind != KernelKind::FreeFunction;
  if (!HasObject)
    OS << "  (void)kernel; // a function: the stub calls it by name\n";
  OS << "  using kernel_type = "
     << (HasObject ? "std::decay_t<Kernel>" : "dp::rt::no_kernel_object") << ";\n";
  for (const Argument *A : typeParams(C))
    OS << "  using " << A->TypeParam << " = "
       << (A->ActualIsField ? "dp::rt::element_t" : "std::decay_t") << "<dp::rt::arg_t<"
       << A->Position << ", A...>>;\n";
  OS << "  dp::rt::launch_context<" << C.ComputeRank
     << (C.Dom.Kind == DomainKind::Grid ? "" : ", Domain") << "> launch("
     << (C.Options.empty() ? "" : "options, ") << "\"" << C.spelling() << "\", \""
     << C.Loc.str() << "\", domain);\n";
  OS << "  using params_type = " << C.StubName << "_params<kernel_type";
  if (Spec.DomainView)
    OS << (C.Dom.isTiled() ? ", dp::rt::tiling_t<Domain>" : ", dp::rt::domain_map_t<Domain>");
  for (const Argument *A : typeParams(C))
    OS << ", " << A->TypeParam;
  OS << ">;\n";

  // Over a domain type the launch context depends on, its member templates
  // are named with `template`.
  const std::string L =
      C.Dom.Kind == DomainKind::Grid ? "launch." : "launch.template ";
  std::vector<std::string> Inits;
  if (HasObject)
    Inits.push_back(std::string("launch.capture(kernel, ") + (C.K.Mutable ? "true" : "false") +
                    ")");
  if (Spec.DomainView)
    Inits.push_back(C.Dom.isTiled() ? "launch.tiling()" : "launch.domain_map()");
  if (C.usesIndexValues())
    Inits.push_back("launch.indices()");
  for (const Argument &A : C.Args) {
    const std::string M = member(A), Pos = std::to_string(A.Position);
    if (A.Conv == Conversion::SpecialIndex)
      continue;
    if (A.ActualIsRows) {
      Inits.push_back(L + "rows(" + M + ", " + Pos + ", " +
                      (A.ElementConst ? "dp::rt::access::read" : "dp::rt::access::write") + ")");
      continue;
    }
    if (!A.ActualIsField) {
      Inits.push_back(M);
      continue;
    }
    switch (A.Conv) {
    case Conversion::ElementalProjection:
      Inits.push_back(L + "project<" + element(A, !A.Writable) + ">(" + M + ", " + Pos + ", " +
                      accessOf(A) + ")");
      break;
    case Conversion::PartialProjection:
      Inits.push_back(L + "project_partial<" + rank(A.FormalRank) + ", " +
                      element(A, !A.Writable) + ">(" + M + ", " + Pos + ", " + accessOf(A) + ")");
      break;
    case Conversion::BroadcastField:
      Inits.push_back(L + "whole<" + typeOf(A) + ">(" + M + ", " + Pos + ", " + accessOf(A) +
                      ")");
      break;
    default:
      Inits.push_back(M);
    }
  }
  OS << "  const params_type params{";
  for (size_t I = 0; I < Inits.size(); ++I)
    OS << "\n      " << Inits[I] << (I + 1 < Inits.size() ? "," : "");
  OS << "};\n";
}

/// The body: projection, kernel call and write-back at one position (one
/// thread of a tile); it yields the kernel's value unless Return is "void".
static void renderBody(llvm::raw_ostream &OS, const CallSite &C, llvm::StringRef Return) {
  renderBodyHead(OS, C, Return);
  renderBindings(OS, C, "  ");
  std::string WriteBacks;
  llvm::raw_string_ostream WB(WriteBacks);
  renderWriteBacks(WB, C, "  ");
  if (Return == "void")
    OS << "  " << renderKernelCall(C) << ";\n" << WB.str();
  else if (WB.str().empty())
    OS << "  return " << renderKernelCall(C) << ";\n";
  else
    OS << "  auto value = " << renderKernelCall(C) << ";\n" << WB.str() << "  return value;\n";
  OS << "}\n\n";
}

std::string renderStubFrame(const CallSite &C, const StubSpec &Spec) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  renderHeaderComment(OS, C, Spec);
  renderParams(OS, C, Spec);
  renderTileBytes(OS, C);
  if (Spec.BodyReturn)
    renderBody(OS, C, Spec.BodyReturn);
  OS << Spec.Definitions;
  renderLauncherSignature(OS, C, Spec);
  OS << " {\n";
  renderLauncherPrologue(OS, C, Spec);
  OS << Spec.LauncherBody << "}\n";
  return OS.str();
}

void renderStubTable(llvm::raw_ostream &OS, const CallSite &C) {
  const int Rc = C.launchedRank();
  OS << "  // One stub instantiation per dispatch mode the planner may choose.\n"
     << "  static const dp::rt::stub_table<" << Rc << ", params_type> stubs{{\n      nullptr";
  for (int Mode = 1; Mode <= 7; ++Mode) {
    const bool Used = dp::rt::rank_uses_mode(Rc, Mode);
    OS << ",";
    if (Used)
      OS << "\n      &" << C.KernelName << "<" << Mode << ", params_type>";
    else
      OS << " nullptr";
  }
  OS << "}};\n";
}

} // namespace dpstub
