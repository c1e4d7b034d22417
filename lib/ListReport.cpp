//===- ListReport.cpp - The --list JSON report ----------------------------===//
//
// One object per call-site: where it is, its kind, whether it was
// translated, and for a translated one what its model says (domain,
// operator, result, kernel, each argument's conversion and access); then
// the diagnostics reported inside it.
//
//===----------------------------------------------------------------------===//

#include "dpstub/ListReport.h"
#include "dpstub/Rule.h"
#include "dpstub/StubText.h"

#include "llvm/Support/JSON.h"

#include <utility>
#include <vector>

namespace dpstub {

namespace {

using llvm::json::OStream;

void writeDomain(OStream &J, const Domain &D) {
  J.attributeObject("domain", [&] {
    J.attribute("kind", toString(D.Kind));
    J.attribute("type", D.Type);
    if (!D.isTiled())
      return;
    J.attributeArray("tile", [&] {
      for (long long T : D.Tile)
        J.value(T);
    });
    J.attributeArray("tile_static", [&] {
      for (const std::string &T : D.TileStatics)
        J.value(T);
    });
    J.attribute("barrier", D.Barrier);
  });
}

void writeKernel(OStream &J, const Kernel &K) {
  J.attributeObject("kernel", [&] {
    J.attribute("kind", toString(K.Kind));
    J.attribute("name", K.Name);
    J.attribute("signature", K.Signature);
    J.attribute("implicit_index", K.ImplicitIndex);
    J.attribute("mutable", K.Mutable);
    J.attribute("generic", K.Generic);
  });
}

void writeArguments(OStream &J, const std::vector<Argument> &Args) {
  J.attributeArray("arguments", [&] {
    for (const Argument &A : Args)
      J.object([&] {
        J.attribute("position", A.Position + 1);
        J.attribute("text", A.Text);
        J.attribute("actual_type", A.ActualType);
        J.attribute("actual_rank", A.ActualRank);
        J.attribute("formal_type", A.FormalType);
        J.attribute("formal_rank", A.FormalRank);
        J.attribute("conversion", toString(A.Conv));
        J.attribute("access", A.Conv == Conversion::SpecialIndex ? "value"
                              : A.Writable                       ? "read-write"
                                                                 : "read-only");
      });
  });
}

/// What a translated call-site's model says; what its kind reports beyond
/// the common fields comes from its rule's StubSpec.
void writeModel(OStream &J, const CallSite &C) {
  const StubSpec Spec = stubSpecOf(C);
  J.attribute("compute_rank", C.ComputeRank);
  if (!C.Options.empty())
    J.attribute("options", C.Options);
  writeDomain(J, C.Dom);
  if (Spec.Operator)
    J.attributeObject("operator", [&] {
      J.attribute("text", C.Op.Text);
      J.attribute("kind", toString(C.Op.Kind));
    });
  if (Spec.ListedResult)
    J.attributeObject(Spec.ListedResult, [&] {
      J.attribute("text", C.Out.Text);
      J.attribute("type", C.Out.Type);
      J.attribute("rank", C.Out.Rank);
    });
  if (Spec.ListsOrder)
    J.attribute("order", toString(C.Order));
  writeKernel(J, C.K);
  writeArguments(J, C.Args);
}

/// The unit's diagnostics on the lines of call-site L.
void writeDiagnostics(OStream &J, const TranslationResult &U, const ListedCallSite &L) {
  const CallSite &C = L.Model;
  J.attributeArray("diagnostics", [&] {
    for (const ListedDiagnostic &D : U.Diagnostics)
      if (D.Loc.File == C.Loc.File && D.Loc.Line >= C.Loc.Line &&
          D.Loc.Line <= std::max(L.EndLine, C.Loc.Line))
        J.object([&] {
          J.attribute("level", D.Level);
          J.attribute("line", D.Loc.Line);
          J.attribute("column", D.Loc.Column);
          J.attribute("message", D.Message);
        });
  });
}

} // namespace

/// A unit's file as the report names it: below Root, relative to it.
std::string reportedFile(std::string File, llvm::StringRef Root) {
  if (!Root.empty() && llvm::StringRef(File).starts_with((Root + "/").str()))
    File = File.substr(Root.size() + 1);
  return File;
}

void writeListReport(llvm::raw_ostream &OS, const std::vector<const TranslationResult *> &Units,
                     llvm::StringRef Root) {
  OStream J(OS, 2);
  J.array([&] {
    for (const TranslationResult *U : Units) {
      const std::string File = reportedFile(U->MainFile, Root);
      for (const ListedCallSite &L : U->CallSites) {
        const CallSite &C = L.Model;
        J.object([&] {
          J.attribute("file", File);
          J.attribute("line", C.Loc.Line);
          J.attribute("column", C.Loc.Column);
          J.attribute("kind", toString(C.Kind));
          if (C.Dim >= 0)
            J.attribute("dim", C.Dim);
          J.attribute("translated", L.Translated);
          if (L.Translated)
            writeModel(J, C);
          writeDiagnostics(J, *U, L);
        });
      }
    }
  });
  OS << "\n";
}

void writeMigrationReport(llvm::raw_ostream &OS, const std::vector<const TranslationResult *> &Units,
                          llvm::StringRef Root) {
  OStream J(OS, 2);
  J.array([&] {
    for (const TranslationResult *U : Units) {
      // Loops in their order, each device region of statements alone (in
      // the main file) before the first of the main file's loops after it.
      std::vector<std::pair<const MigratedLoop *, bool>> Entries;
      size_t Next = 0;
      for (const MigratedLoop &L : U->Loops) {
        for (; Next < U->Regions.size() && L.Path == U->Regions[Next].Path &&
               U->Regions[Next].Loc.Line < L.Loc.Line;
             ++Next)
          Entries.push_back({&U->Regions[Next], true});
        Entries.push_back({&L, false});
      }
      for (; Next < U->Regions.size(); ++Next)
        Entries.push_back({&U->Regions[Next], true});
      for (const auto &[E, Statements] : Entries)
        J.object([&, &L = *E, Statements = Statements] {
          J.attribute("file", reportedFile(L.Path, Root));
          J.attribute("line", L.Loc.Line);
          J.attribute("column", L.Loc.Column);
          J.attribute("construct", L.Construct);
          if (Statements)
            J.attribute("statements", true); // a region of statements, not a loop
          J.attribute("verdict", L.Converted ? "converted" : "refused");
          if (L.Converted) {
            J.attribute("kind", "dp::" + L.Kind);
            J.attribute("rank", L.Rank);
            J.attribute("grid", L.Grid);
            if (L.LeftRegionLine)
              J.attribute("left_region", L.LeftRegionLine); // the region split around it
          } else {
            J.attribute("reason", L.Reason);
            J.attribute("diagnostic", L.Category);
            if (L.RunsInOrder)
              J.attribute("directive", Statements ? "removed: the statements run on the host"
                                                  : "removed: the loop runs in order on the host");
          }
        });
    }
  });
  OS << "\n";
}

} // namespace dpstub
