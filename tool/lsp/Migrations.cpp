//===- Migrations.cpp - dpstub-lsp's loop conversions ---------------------===//
//
// The editor's side of `dpstub --migrate`: the file's loops with OpenMP or
// OpenACC directives are migrated with every analysis (their warnings say
// why a loop stays a loop), and a code action at a loop migrates just that
// one, plain loops included, as one workspace edit (one undo). At a loop
// that stays, the action is offered disabled with the reason, and the
// reason becomes a diagnostic at the loop.
//
//===----------------------------------------------------------------------===//

#include "Server.h"
#include "TextPositions.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

namespace dpstub {

namespace {
/// Worth migrating in the background: the text holds a directive.
bool holdsDirectives(llvm::StringRef Text) {
  return Text.contains("#pragma omp") || Text.contains("#pragma acc") || Text.contains("# pragma omp") ||
         Text.contains("# pragma acc");
}

/// Whether the lines of [Begin, End] in Text can hold what the loop action
/// would migrate: lines of a `for` statement of Loops (the analysis's
/// LoopSpans) or a directive (`pragma` anywhere on them). The action tests
/// this before it parses and migrates the file again, which at a call-site
/// or in straight code found nothing and took most of a code action's
/// time. (A loop only a parse without OpenMP sees, under `#ifndef
/// _OPENMP`, is not offered where the editor's parse did not see it.)
bool mayHoldLoop(llvm::StringRef Text, const TextPositions &Lines,
                 const std::vector<std::pair<unsigned, unsigned>> &Loops, unsigned Begin, unsigned End) {
  const unsigned From = Lines.lineBounds(Begin).first, To = Lines.lineBounds(End).second;
  if (Text.slice(From, To).contains("pragma"))
    return true;
  return std::any_of(Loops.begin(), Loops.end(), [&](const std::pair<unsigned, unsigned> &L) {
    return Lines.lineBounds(L.first).first <= To && From <= Lines.lineBounds(L.second).second;
  });
}
} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Server::openDocuments(std::map<std::string, int64_t> &Versions) {
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  {
    std::lock_guard<std::mutex> Lock(M);
    for (const auto &[U, D] : Documents) {
      Overlay->addFile(D.Path, 0, llvm::MemoryBuffer::getMemBufferCopy(D.Text, D.Path));
      Versions[D.Path] = D.Version;
    }
  }
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  FS->pushOverlay(Overlay);
  return FS;
}

void Server::migrateFile(const std::string &Path, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                         Analysis &A) {
  if (!holdsDirectives(A.Text))
    return;
  TranslationOptions Opts;
  Opts.Migrate = true;
  Opts.ListOnly = true; // its diagnostics only
  std::string Printed;
  if (!translateUnit(Dbs.forFile(Path), Path, Opts, A.Migration, Printed, FS))
    A.Migration = TranslationResult();
}

llvm::Error Server::loopActions(const std::string &URI, const Analysis &A, unsigned Begin, unsigned End,
                                llvm::json::Array &Actions) {
  // The loop at the cursor (or the loops in the range), migrated alone.
  const TextPositions Text(A.Text, Client.Utf8);
  const std::string &Path = A.Result.MainFile;
  if (Path.empty() || !mayHoldLoop(A.Text, Text, A.Result.LoopSpans, Begin, End))
    return llvm::Error::success();
  Analysis Loop;
  Loop.Version = A.Version;
  Loop.Text = A.Text;
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = openDocuments(Loop.OpenVersions);
  TranslationOptions Opts;
  Opts.Migrate = true;
  Selection S;
  S.File = Path;
  std::tie(S.BeginLine, S.BeginColumn) = Text.lineColumn(Begin);
  std::tie(S.EndLine, S.EndColumn) = Text.lineColumn(End);
  Opts.Only = S;
  std::string Printed;
  if (!translateUnit(Dbs.forFile(Path), Path, Opts, Loop.Result, Printed, FS) || Loop.Result.ParseFailed ||
      Loop.Result.SelectionEmpty || Loop.Result.Loops.empty())
    return llvm::Error::success();
  unsigned Converted = 0;
  std::vector<ListedDiagnostic> Why;
  for (const MigratedLoop &L : Loop.Result.Loops)
    Converted += L.Converted;
  for (const ListedDiagnostic &D : Loop.Result.Diagnostics)
    if (D.Own && D.Level == "warning")
      Why.push_back(D);
  const std::string Title = Loop.Result.Loops.size() == 1 ? "Convert this loop to a dp call-site"
                                                          : "Convert these loops to dp call-sites";
  if (Converted && !Loop.Result.HasErrors) {
    llvm::Expected<llvm::json::Value> Edit =
        workspaceEdit(Loop, Loop.Result.Whole, Client.DocumentChanges);
    if (!Edit)
      return Edit.takeError();
    Actions.push_back(llvm::json::Object{{"title", Title}, {"kind", "refactor.rewrite"}, {"edit", std::move(*Edit)}});
    return llvm::Error::success();
  }
  // It stays a loop: say why, in the menu and at the loop.
  const std::string Reason = Why.empty() ? std::string("dpstub cannot convert it") : Why.front().Message;
  Actions.push_back(llvm::json::Object{{"title", Title},
                                       {"kind", "refactor.rewrite"},
                                       {"disabled", llvm::json::Object{{"reason", Reason}}}});
  {
    std::lock_guard<std::mutex> Lock(M);
    LoopRefusals[URI] = Why;
  }
  publishDiagnostics(URI, A);
  return llvm::Error::success();
}

} // namespace dpstub
