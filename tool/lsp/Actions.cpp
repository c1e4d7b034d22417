//===- Actions.cpp - dpstub-lsp's code actions ----------------------------===//
//
// Translating the call-site at the cursor, or the whole file, as one
// workspace edit, and the commands that finish them.
//
//===----------------------------------------------------------------------===//

#include "ServerParts.h"

#include "dpstub/Outputs.h"
#include "dpstub/Rule.h"
#include "dpstub/StubText.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace dpstub {

using namespace server_parts;

//===----------------------------------------------------------------------===//
// Code actions

llvm::Expected<llvm::json::Value> Server::workspaceEdit(const Analysis &A, const TranslationPlan &Plan,
                                                        bool Versioned) {
  llvm::Expected<std::map<std::string, FileOutput>> Files = computeOutputs(A.Result, Plan);
  if (!Files)
    return Files.takeError();
  llvm::json::Array DocumentChanges;
  llvm::json::Object Changes;
  for (const auto &[Path, Output] : *Files) {
    if (Output.Before == Output.After)
      continue;
    const std::string URI = uriOf(Path);
    const std::string Before = Output.Before.value_or("");
    const TextPositions Text(Before, Client.Utf8);
    llvm::json::Array Edits;
    for (const clang::tooling::Replacement &R : Output.Edits)
      Edits.push_back(protocol::textEdit(
          lsp::Range(Text.position(R.getOffset()), Text.position(R.getOffset() + R.getLength())),
          R.getReplacementText().str()));
    if (!Versioned) {
      Changes[URI] = std::move(Edits);
      continue;
    }
    if (!Output.Before)
      DocumentChanges.push_back(protocol::createFile(URI));
    std::optional<int64_t> Version;
    if (auto It = A.OpenVersions.find(Path); It != A.OpenVersions.end())
      Version = It->second; // refused by the editor if it changed since
    DocumentChanges.push_back(protocol::textDocumentEdit(URI, Version, std::move(Edits)));
  }
  if (Versioned)
    return llvm::json::Object{{"documentChanges", std::move(DocumentChanges)}};
  return llvm::json::Object{{"changes", std::move(Changes)}};
}

void Server::onCodeAction(const protocol::CodeActionParams &Params,
                          lsp::Callback<llvm::json::Value> Reply) {
  const std::string URI = Params.textDocument.uri.uri().str();
  const std::shared_ptr<const Analysis> A = analysis(URI);
  if (!A || A->ToolFailed || A->Result.ParseFailed || A->Result.HasErrors)
    return Reply(llvm::json::Array{});
  const TextPositions Text(A->Text, Client.Utf8);
  const bool Edits = Client.DocumentChanges && Client.CreateFiles;
  llvm::json::Array Actions;
  auto Action = [&](const std::string &Title, const TranslationPlan &Plan, llvm::StringRef Command,
                    int64_t CallSite) -> llvm::Error {
    llvm::json::Object Out{{"title", Title}, {"kind", "refactor.rewrite"}};
    if (Edits) {
      llvm::Expected<llvm::json::Value> Edit = workspaceEdit(*A, Plan, /*Versioned=*/true);
      if (!Edit)
        return Edit.takeError();
      Out["edit"] = std::move(*Edit);
    } else {
      // The server finishes it: it writes the stub header itself and asks
      // the editor to apply the source's edits.
      Out["command"] = llvm::json::Object{
          {"title", Title},
          {"command", Command},
          {"arguments", llvm::json::Array{llvm::json::Object{
                            {"uri", URI}, {"version", A->Version}, {"callSite", CallSite}}}}};
    }
    Actions.push_back(std::move(Out));
    return llvm::Error::success();
  };
  const unsigned Begin = Text.offset(Params.range.start), End = Text.offset(Params.range.end);
  if (llvm::Error E = loopActions(URI, *A, Begin, End, Actions))
    return Reply(std::move(E));
  for (size_t I : callSitesAt(*A, Begin, End))
    if (auto It = A->Result.Each.find(I); It != A->Result.Each.end())
      if (llvm::Error E = Action("Translate this " + A->Result.CallSites[I].Model.spelling() +
                                     " call-site to a HIP stub",
                                 It->second, TranslateCallSite, static_cast<int64_t>(I)))
        return Reply(std::move(E));
  if (!A->Result.Each.empty())
    if (llvm::Error E = Action("Translate every call-site in this file", A->Result.Whole,
                               TranslateFile, -1))
      return Reply(std::move(E));
  Reply(std::move(Actions));
}

void Server::onExecuteCommand(const protocol::ExecuteCommandParams &Params,
                              lsp::Callback<llvm::json::Value> Reply) {
  const llvm::json::Object *Arg =
      Params.Arguments.empty() ? nullptr : Params.Arguments.front().getAsObject();
  if (Params.Command == ShowProfile)
    return showProfile(Arg, std::move(Reply));
  if (Params.Command != TranslateCallSite && Params.Command != TranslateFile)
    return Reply(lspError("unknown command " + Params.Command, lsp::ErrorCode::MethodNotFound));
  const std::optional<llvm::StringRef> URI = Arg ? Arg->getString("uri") : std::nullopt;
  const std::optional<int64_t> Version = Arg ? Arg->getInteger("version") : std::nullopt;
  const int64_t CallSite = Arg ? Arg->getInteger("callSite").value_or(-1) : -1;
  if (!URI || !Version)
    return Reply(lspError(Params.Command + " needs {uri, version, callSite}",
                          lsp::ErrorCode::InvalidParams));
  const std::shared_ptr<const Analysis> A = analysis(URI->str());
  if (!A)
    return Reply(lspError("the document is not open"));
  if (A->Version != *Version)
    return Reply(lspError("the document changed since this action was offered (version " +
                          std::to_string(*Version) + ", now " + std::to_string(A->Version) +
                          "); ask for the action again"));
  const TranslationPlan *Plan = &A->Result.Whole;
  if (Params.Command == TranslateCallSite) {
    auto It = A->Result.Each.find(static_cast<size_t>(CallSite));
    if (It == A->Result.Each.end())
      return Reply(lspError("no call-site " + std::to_string(CallSite) + " to translate"));
    Plan = &It->second;
  }
  // New files (the stub header) are the server's to write: the edit of an
  // editor without resource operations can only change existing files.
  llvm::Expected<std::map<std::string, FileOutput>> Files = computeOutputs(A->Result, *Plan);
  if (!Files)
    return Reply(Files.takeError());
  for (const auto &[Path, Output] : *Files)
    if (!Output.Before) {
      std::error_code EC;
      llvm::raw_fd_ostream Out(Path, EC);
      if (EC)
        return Reply(lspError("cannot write " + Path + ": " + EC.message()));
      Out << Output.After;
    }
  llvm::Expected<llvm::json::Value> Edit = workspaceEdit(*A, *Plan, /*Versioned=*/false);
  if (!Edit)
    return Reply(Edit.takeError());
  ApplyEdit(llvm::json::Object{{"label", "dpstub: translate"}, {"edit", std::move(*Edit)}},
            llvm::json::Value(NextRequestId++));
  Reply(nullptr);
}
} // namespace dpstub
