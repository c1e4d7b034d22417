//===- ListReport.cpp - The --list JSON report ----------------------------===//

#include "dpstub/ListReport.h"
#include "dpstub/StubText.h"

#include "llvm/Support/JSON.h"

namespace dpstub {

void writeListReport(llvm::raw_ostream &OS, const std::vector<const TranslationResult *> &Units,
                     llvm::StringRef Root) {
  llvm::json::OStream J(OS, 2);
  J.array([&] {
    for (const TranslationResult *U : Units) {
      std::string File = U->MainFile;
      if (!Root.empty() && llvm::StringRef(File).starts_with((Root + "/").str()))
        File = File.substr(Root.size() + 1);
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
          if (L.Translated) {
            J.attribute("compute_rank", C.ComputeRank);
            if (!C.Options.empty())
              J.attribute("options", C.Options);
            J.attributeObject("domain", [&] {
              J.attribute("kind", toString(C.Dom.Kind));
              J.attribute("type", C.Dom.Type);
              if (C.Dom.isTiled()) {
                J.attributeArray("tile", [&] {
                  for (long long T : C.Dom.Tile)
                    J.value(T);
                });
                J.attributeArray("tile_static", [&] {
                  for (const std::string &T : C.Dom.TileStatics)
                    J.value(T);
                });
                J.attribute("barrier", C.Dom.Barrier);
              }
            });
            if (C.mapsToValues())
              J.attributeObject("operator", [&] {
                J.attribute("text", C.Op.Text);
                J.attribute("kind", toString(C.Op.Kind));
              });
            if (C.Kind != CallKind::Forall)
              J.attributeObject(C.Kind == CallKind::Sort ? "sort_field" : "result", [&] {
                J.attribute("text", C.Out.Text);
                J.attribute("type", C.Out.Type);
                J.attribute("rank", C.Out.Rank);
              });
            if (C.Kind == CallKind::Sort)
              J.attribute("order", toString(C.Order));
            J.attributeObject("kernel", [&] {
              J.attribute("kind", toString(C.K.Kind));
              J.attribute("name", C.K.Name);
              J.attribute("signature", C.K.Signature);
              J.attribute("implicit_index", C.K.ImplicitIndex);
              J.attribute("mutable", C.K.Mutable);
              J.attribute("generic", C.K.Generic);
            });
            J.attributeArray("arguments", [&] {
              for (const Argument &A : C.Args)
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
          J.attributeArray("diagnostics", [&] {
            for (const ListedDiagnostic &D : U->Diagnostics)
              if (D.Loc.File == C.Loc.File && D.Loc.Line >= C.Loc.Line &&
                  D.Loc.Line <= std::max(L.EndLine, C.Loc.Line))
                J.object([&] {
                  J.attribute("level", D.Level);
                  J.attribute("line", D.Loc.Line);
                  J.attribute("column", D.Loc.Column);
                  J.attribute("message", D.Message);
                });
          });
        });
      }
    }
  });
  OS << "\n";
}

} // namespace dpstub
