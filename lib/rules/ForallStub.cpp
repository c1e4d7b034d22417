//===- ForallStub.cpp - dp::forall: the invocation stub's text ------------===//
//
// A forall's own parts of its stub, from the CallSite model alone: the
// __global__ stub (physical thread -> logical position per dispatch mode)
// and the launcher's run over the stub table. The shared frame
// (StubText.h) renders the comment, parameter block, body and launcher
// around them.
//
//===----------------------------------------------------------------------===//

#include "ForallRule.h"
#include "dpstub/StubText.h"

#include "llvm/ADT/StringExtras.h"

namespace dpstub {

namespace {

/// The __global__ stub: physical thread -> logical position.
std::string globalStub(const CallSite &C) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  const std::string Rc = std::to_string(C.ComputeRank);
  const std::string &N = C.StubName;
  OS << "template <int Mode, class Params>\n"
     << "DP_GLOBAL void " << C.KernelName << "(const dp::rt::launch_geometry<" << C.launchedRank()
     << "> geometry, const Params p) {\n"
     << "  const dp::rt::thread_ids thread = dp::rt::this_thread();\n";
  switch (C.Dom.Kind) {
  case DomainKind::Grid:
    OS << "  dp::index<" << Rc << "> pos; // logical position: 0-based, per dimension\n"
       << "  if (dp::rt::map_thread<Mode>(geometry, thread.group, thread.local, pos))\n"
       << "    " << N << "_body(pos, p); // surplus threads map to no position\n";
    break;
  case DomainKind::Where:
    OS << "  dp::index<" << Rc << "> pos; // logical position: 0-based, per dimension\n"
       << "  if (dp::rt::map_thread<Mode>(geometry, thread.group, thread.local, pos) &&\n"
       << "      p.domain.keep(pos))\n"
       << "    " << N << "_body(pos, p); // only the points the predicate keeps\n";
    break;
  case DomainKind::LowerTriangle:
  case DomainKind::UpperTriangle:
    OS << "  dp::index<1> point; // the point's number in the triangle\n"
       << "  if (dp::rt::map_thread<Mode>(geometry, thread.group, thread.local, point))\n"
       << "    " << N << "_body(p.domain(point[0]), p); // raised exactly to (i, j)\n";
    break;
  case DomainKind::Tiled:
    OS << "  // One group per tile: the group's id gives the tile, the thread's id its\n"
       << "  // place in the tile. A group leaves only as a whole, so barriers hold.\n"
       << "  static constexpr std::int64_t first[3] = {0, 0, 0};\n"
       << "  dp::rt::tile_point<" << Rc << "> at;\n"
       << "  if (!dp::rt::map_thread<Mode>(geometry, thread.group, first, at.tile))\n"
       << "    return;\n"
       << "  p.tiling.place(thread.local, at); // padding threads: at.in_domain == false\n"
       << "  dp::detail::tile_memory memory{dp::rt::tile_shared<" << N << "_tile_bytes>(), "
       << N << "_tile_bytes, 0};\n"
       << "  at.memory = &memory;\n"
       << "  " << N << "_body(at, p);\n";
    break;
  }
  OS << "}\n\n";
  return OS.str();
}

/// The launcher's statements: the stub table, then the run on the
/// executor the runtime picks (the native host path calls the body).
std::string launcherBody(const CallSite &C) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  const std::string Rc = std::to_string(C.ComputeRank);
  const std::string &N = C.StubName;
  renderStubTable(OS, C);
  if (C.Dom.isTiled())
    OS << "  launch.run_tiled(\n"
       << "      stubs, params, " << N << "_tile_bytes, " << N << "_tile_sight,\n"
       << "      [](const " << (C.seesTile() ? "dp::rt::tile_point<" + Rc + ">" : std::string("auto"))
       << " &at, const params_type &p) DP_ALWAYS_INLINE {\n"
       << "        " << N << "_body(at, p); // the native host path: "
       << (C.seesTile() ? "a tile's threads in turn" : "the grid's rows, then padding threads")
       << "\n"
       << "      });\n";
  else if (C.hostOneRowLoop())
    OS << "  // The kernel loops itself: the host's rows compile it once per position type.\n"
       << "  launch.run(stubs, params, dp::rt::looping([](const auto &pos, const params_type &p) DP_ALWAYS_INLINE {\n"
       << "    " << N << "_body(pos, p); // the native host path\n"
       << "  }));\n";
  else
    OS << "  launch.run(stubs, params, [](const auto &pos, const params_type &p) DP_ALWAYS_INLINE {\n"
       << "    " << N << "_body(pos, p); // the native host path\n"
       << "  });\n";
  return OS.str();
}

} // namespace

StubSpec ForallRule::stubSpec(const CallSite &C) const {
  StubSpec S;
  S.DomainView = C.Dom.Kind != DomainKind::Grid;
  S.BodyReturn = "void";
  S.Definitions = globalStub(C);
  S.LauncherBody = launcherBody(C);
  return S;
}

} // namespace dpstub
