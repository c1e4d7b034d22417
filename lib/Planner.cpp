//===- Planner.cpp - Phase 3: the edits and the stub header ---------------===//
//
// planTranslation reads as its stages. Each stage is a function over plain
// data; only completeModels writes into the call-site models, once every
// name is known, just before the stub header is rendered.
//
//===----------------------------------------------------------------------===//

#include "Planner.h"

#include "AstText.h"
#include "dpstub/DeviceMarking.h"
#include "dpstub/SourceEdits.h"
#include "dpstub/StubHeader.h"
#include "lambdas/Lambdas.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

using namespace clang;

namespace dpstub {

std::string absolutePath(llvm::StringRef Path, FileManager &FM) {
  SmallString<256> Abs(Path);
  FM.makeAbsolutePath(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return Abs.str().str();
}

std::string stubHeaderNameOf(llvm::StringRef MainFile) {
  return llvm::sys::path::filename(MainFile).str() + ".dpstub.hpp";
}

namespace {

/// The declaration directly in the translation unit that contains S.
const Decl *topLevelDeclOf(const Stmt *S, ASTContext &Ctx) {
  DynTypedNode N = DynTypedNode::create(*S);
  const Decl *Last = nullptr;
  for (;;) {
    const auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return Last;
    N = Parents[0];
    if (const Decl *D = N.get<Decl>()) {
      if (isa<TranslationUnitDecl>(D))
        return Last;
      Last = D;
    }
  }
}

/// A C++ identifier from a file name: "k.cpp" -> "k_cpp".
std::string sanitize(llvm::StringRef Name) {
  std::string S;
  for (char C : Name)
    S += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  if (S.empty() || std::isdigit(static_cast<unsigned char>(S[0])))
    S = "_" + S;
  return S;
}

/// A call-site's __global__ stub name, readable in a profiler:
/// "dp_forall__jacobi_cpp__21", or "dp_forall__jacobi_cpp__21_5" when
/// its line holds another call-site of its kind.
std::string kernelName(CallKind Kind, unsigned Line, unsigned Column, llvm::StringRef File,
                       bool SharedLine) {
  std::string Name = "dp_" + std::string(toString(Kind)) + "__" + File.str() + "__" +
                     std::to_string(Line);
  if (SharedLine)
    Name += "_" + std::to_string(Column);
  return Name;
}

/// The main file's edits, kept in the order they are made (line markers
/// depend on it), with the positions they give the rewritten text.
struct MainEdits {
  explicit MainEdits(llvm::StringRef Buffer) : Positions(Buffer) {}
  void add(const Edit &E) {
    Positions.add(E);
    List.push_back(E);
  }
  OutputPositions Positions;
  std::vector<Edit> List;
};

/// The kernels, and what they call, compile for the device too: the
/// marks, by absolute path.
std::vector<std::pair<std::string, Edit>> planDeviceMarks(const std::vector<AnalysedCall> &Accepted,
                                                          const LambdaRewrite &Objects,
                                                          const PlanUnit &U, Reporter &Diags) {
  ASTContext &Ctx = U.Ctx;
  DeviceMarker Marker(Ctx, Diags, U.Declared);
  for (const LambdaExpr *LE : Objects.replaced())
    Marker.replaced(LE);
  for (const AnalysedCall &A : Accepted)
    Marker.markKernel(A);
  Marker.markDeclaredDefinitions(U.DeclaredDefinitions);
  std::vector<std::pair<std::string, Edit>> Marks;
  for (const auto &[Key, Text] : Marker.texts())
    Marks.push_back({absolutePath(Key.first, Ctx.getSourceManager().getFileManager()),
                     {Key.second, 0, Text}});
  return Marks;
}

/// The line after the source's own `#include <dp/dp.hpp>` when it comes
/// before At outside any #if: the stub header's declarations (and the
/// runtime headers they include) go there, before the user's macros
/// (`#define N 64` would break the runtime's `template <int N>`).
unsigned afterDpInclude(llvm::StringRef Buffer, unsigned At) {
  int Depth = 0;
  for (unsigned Line = 0; Line < At && Line < Buffer.size();) {
    const size_t E = Buffer.find('\n', Line);
    const unsigned Next = E == llvm::StringRef::npos ? Buffer.size() : unsigned(E) + 1;
    llvm::StringRef L = Buffer.substr(Line, Next - Line).trim();
    if (L.consume_front("#")) {
      L = L.ltrim();
      if (L.starts_with("if"))
        ++Depth;
      else if (L.starts_with("endif"))
        --Depth;
      else if (Depth == 0 && L.consume_front("include") &&
               (L.contains("<dp/dp.hpp>") || L.contains("\"dp/dp.hpp\"")))
        return Next;
    }
    Line = Next;
  }
  return At;
}

/// The stub header's include: declarations before the first call-site's
/// top-level declaration, definitions after the last call-site. An
/// include at the offset where function objects are defined goes first in
/// their definitions (one edit per offset); the others are returned.
std::vector<Edit> planStubHeaderIncludes(const std::vector<AnalysedCall> &Accepted,
                                         llvm::StringRef HeaderName, llvm::StringRef Buffer,
                                         ASTContext &Ctx, LambdaRewrite &Objects) {
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned DeclarationsAt = 0;
  if (const Decl *Top = topLevelDeclOf(Accepted.front().Call, Ctx)) {
    const auto [FID, Offset] = SM.getDecomposedLoc(SM.getFileLoc(Top->getBeginLoc()));
    DeclarationsAt = SM.getFileOffset(SM.translateLineCol(FID, SM.getLineNumber(FID, Offset), 1));
  }
  DeclarationsAt = afterDpInclude(Buffer, DeclarationsAt);
  const SourceLocation LastEnd = Lexer::getLocForEndOfToken(
      SM.getFileLoc(Accepted.back().Call->getEndLoc()), 0, SM, Ctx.getLangOpts());
  std::vector<Edit> Includes;
  for (const Edit &E : planIncludes(Buffer, HeaderName, DeclarationsAt, SM.getFileOffset(LastEnd))) {
    if (!Objects.prefixDefinitions(E))
      Includes.push_back(E);
  }
  return Includes;
}

/// Where a call-site ends up and what its stub and kernel are called.
struct CallSiteName {
  unsigned Line = 0, Column = 0;
  std::string StubName, KernelName;
};

/// Each call-site, in source order, named after the position it has in
/// the rewritten file (its user's line under line markers), and its
/// callee replaced by its launcher. A callee edit moves the call-sites
/// after it on its line, so each is named after the edits before it.
std::vector<CallSiteName> nameCallSites(const std::vector<AnalysedCall> &Accepted,
                                        const std::string &Namespace, llvm::StringRef Buffer,
                                        const PlanUnit &U, MainEdits &Main) {
  const SourceManager &SM = U.Ctx.getSourceManager();
  const LangOptions &LO = U.Ctx.getLangOpts();
  std::vector<CallSiteName> Names;
  std::map<std::pair<CallKind, unsigned>, int> PerLine; // call-sites of a kind on a line
  for (const AnalysedCall &A : Accepted) {
    const Expr *Callee = A.Call->getCallee()->IgnoreImplicit();
    SourceLocation NameEnd = Callee->getEndLoc();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
      NameEnd = DRE->getNameInfo().getEndLoc(); // keeps explicit <Dim>
    const CharSourceRange Range = CharSourceRange::getTokenRange(
        SM.getFileLoc(Callee->getBeginLoc()), SM.getFileLoc(NameEnd));
    const unsigned Begin = SM.getFileOffset(Range.getBegin());
    const unsigned End = SM.getFileOffset(Lexer::getLocForEndOfToken(Range.getEnd(), 0, SM, LO));
    CallSiteName N;
    std::tie(N.Line, N.Column) = Main.Positions.lineColumn(Begin);
    if (U.LineMarkers)
      N.Line = SM.getPresumedLoc(Range.getBegin()).getLine();
    const CallKind Kind = A.Model.Kind;
    N.StubName = std::string(toString(Kind)) + "_" + std::to_string(N.Line) + "_" +
                 std::to_string(N.Column);
    ++PerLine[{Kind, N.Line}];
    const std::string Launcher = "dpstub::" + Namespace + "::" + N.StubName;
    if (Buffer.slice(Begin, End) != Launcher)
      Main.add({Begin, End - Begin, Launcher});
    Names.push_back(N);
  }
  for (size_t I = 0; I < Accepted.size(); ++I)
    Names[I].KernelName = kernelName(Accepted[I].Model.Kind, Names[I].Line, Names[I].Column,
                                     Namespace, PerLine[{Accepted[I].Model.Kind, Names[I].Line}] > 1);
  return Names;
}

/// The models as the stub header describes them: each call-site named and
/// located where the written file has it, its lambdas as function objects.
std::vector<CallSite> completeModels(std::vector<AnalysedCall> &Accepted,
                                     const std::vector<CallSiteName> &Names,
                                     const LambdaRewrite &Objects, llvm::StringRef Buffer,
                                     ASTContext &Ctx) {
  std::vector<CallSite> Models;
  for (size_t I = 0; I < Accepted.size(); ++I) {
    CallSite &C = Accepted[I].Model;
    C.Loc.Line = Names[I].Line;
    C.Loc.Column = Names[I].Column;
    C.StubName = Names[I].StubName;
    C.KernelName = Names[I].KernelName;
    Objects.describe(Accepted[I], Buffer, Ctx);
    Models.push_back(C);
  }
  return Models;
}

/// Insertions at one offset as one edit (clang's Replacements take one):
/// whole lines first (an #include, a definition), then text that starts a
/// line's code (DP_HOST_DEVICE before a function), each in its order.
std::vector<Edit> mergeInsertions(std::vector<Edit> List) {
  std::stable_sort(List.begin(), List.end(), [](const Edit &A, const Edit &B) {
    return A.Offset < B.Offset || (A.Offset == B.Offset && A.Length == 0 && B.Length != 0);
  });
  std::vector<Edit> Out;
  for (Edit &E : List) {
    if (!Out.empty() && E.Length == 0 && Out.back().Length == 0 && Out.back().Offset == E.Offset) {
      const bool Line = llvm::StringRef(E.Text).ends_with("\n");
      const bool OutLine = llvm::StringRef(Out.back().Text).ends_with("\n");
      Out.back().Text = Line && !OutLine ? E.Text + Out.back().Text : Out.back().Text + E.Text;
      continue;
    }
    Out.push_back(std::move(E));
  }
  return Out;
}

/// The main file's edits as written: with --out-dir, line markers keep the
/// user's line numbers below every edit that adds lines.
std::vector<Edit> mainFileEdits(MainEdits &Main, const PlanUnit &U) {
  const SourceManager &SM = U.Ctx.getSourceManager();
  const FileID MainID = SM.getMainFileID();
  if (U.LineMarkers)
    addLineMarkers(Main.List, SM.getBufferData(MainID), [&](unsigned Offset) {
      // The source's own name (no #line of the user's before): absolute.
      const PresumedLoc P = SM.getPresumedLoc(SM.getComposedLoc(MainID, Offset));
      const bool Own = llvm::StringRef(P.getFilename()) == SM.getFileEntryRefForID(MainID)->getName();
      return lineDirective(P.getLine(), Own ? U.MainFile : std::string(P.getFilename()));
    });
  return mergeInsertions(Main.List);
}

} // namespace

TranslationPlan planDeclaredDefinitions(const PlanUnit &U, Reporter &Diags) {
  TranslationPlan Plan;
  auto Add = [&](const std::string &Path, const Edit &E) {
    if (llvm::Error Err = Plan.Edits[Path].add(tooling::Replacement(Path, E.Offset, E.Length, E.Text)))
      Diags.editFailed(SourceLocation()) << llvm::toString(std::move(Err));
  };
  const std::vector<AnalysedCall> None;
  MainEdits Main(U.Ctx.getSourceManager().getBufferData(U.Ctx.getSourceManager().getMainFileID()));
  for (const auto &[Path, E] : planDeviceMarks(None, LambdaRewrite(None, U.Ctx), U, Diags))
    Path == U.MainFile ? Main.add(E) : Add(Path, E);
  for (const Edit &E : mainFileEdits(Main, U))
    Add(U.MainFile, E);
  return Plan;
}

TranslationPlan planTranslation(std::vector<AnalysedCall> Accepted, const PlanUnit &U,
                                Reporter &Diags) {
  TranslationPlan Plan;
  const SourceManager &SM = U.Ctx.getSourceManager();
  const FileID MainID = SM.getMainFileID();
  const llvm::StringRef Buffer = SM.getBufferData(MainID);
  const llvm::StringRef MainName = llvm::sys::path::filename(U.MainFile);
  const std::string Namespace = sanitize(MainName);
  auto Add = [&](const std::string &Path, const Edit &E) {
    if (llvm::Error Err = Plan.Edits[Path].add(tooling::Replacement(Path, E.Offset, E.Length, E.Text)))
      Diags.editFailed(SourceLocation()) << llvm::toString(std::move(Err));
  };
  MainEdits Main(Buffer);

  // Lambdas nvcc cannot compile become function objects: each one's
  // definition before the declaration that holds it, its construction in
  // its place.
  LambdaRewrite Objects(Accepted, U.Ctx);
  for (const auto &[Path, E] : planDeviceMarks(Accepted, Objects, U, Diags))
    Path == U.MainFile ? Main.add(E) : Add(Path, E);
  for (const Edit &E : planStubHeaderIncludes(Accepted, stubHeaderNameOf(U.MainFile), Buffer,
                                              U.Ctx, Objects))
    Main.add(E);
  for (const Edit &E : Objects.edits())
    Main.add(E);
  const std::vector<CallSiteName> Names = nameCallSites(Accepted, Namespace, Buffer, U, Main);

  for (const Edit &E : mainFileEdits(Main, U))
    Add(U.MainFile, E);

  const std::vector<CallSite> Models = completeModels(Accepted, Names, Objects, Buffer, U.Ctx);
  // The source's macros at its end, where the definitions are read.
  const IdentifierTable &Idents = U.Ctx.Idents;
  Plan.StubHeader = renderStubHeader(Models, MainName, Namespace, [&](llvm::StringRef Name) {
    auto It = Idents.find(Name);
    return It != Idents.end() && It->second->hasMacroDefinition();
  });
  return Plan;
}

} // namespace dpstub
