//===- Server.cpp - dpstub's language server ------------------------------===//

#include "Server.h"
#include "TextPositions.h"

#include "dpstub/Outputs.h"
#include "dpstub/Rule.h"
#include "dpstub/StubText.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace dpstub {

namespace {

/// Command ids of the code actions that need the server to finish them.
constexpr llvm::StringLiteral TranslateCallSite = "dpstub.translateCallSite";
constexpr llvm::StringLiteral TranslateFile = "dpstub.translateFile";
/// A code lens's command: shows the call-site's measured figures.
constexpr llvm::StringLiteral ShowProfile = "dpstub.showProfile";

std::string uriOf(const std::string &Path) {
  llvm::Expected<lsp::URIForFile> U = lsp::URIForFile::fromFile(Path);
  if (!U) {
    llvm::consumeError(U.takeError());
    return "file://" + Path;
  }
  return U->uri().str();
}

llvm::Error lspError(const std::string &Message, lsp::ErrorCode Code = lsp::ErrorCode::InvalidRequest) {
  return llvm::make_error<lsp::LSPError>(Message, Code);
}

/// The byte range of call-site I of a result, in the main file's text.
std::pair<unsigned, unsigned> callRange(const ListedCallSite &C, const TextPositions &Text) {
  return {Text.offset(C.Model.Loc.Line, C.Model.Loc.Column), Text.offset(C.EndLine, C.EndColumn)};
}

} // namespace

Server::Server(lsp::MessageHandler &Messages, ServerSettings Settings)
    : Messages(Messages), Settings(std::move(Settings)), Dbs(this->Settings.FallbackFlags) {
  Messages.method("initialize", this, &Server::onInitialize);
  Messages.method("shutdown", this, &Server::onShutdown);
  Messages.notification("textDocument/didOpen", this, &Server::onOpen);
  Messages.notification("textDocument/didChange", this, &Server::onChange);
  Messages.notification("textDocument/didClose", this, &Server::onClose);
  Messages.method("textDocument/hover", this, &Server::onHover);
  Messages.method("textDocument/codeAction", this, &Server::onCodeAction);
  Messages.method("workspace/executeCommand", this, &Server::onExecuteCommand);
  Messages.method("textDocument/codeLens", this, &Server::onCodeLens);
  ShowMessage = Messages.outgoingNotification<llvm::json::Value>("window/showMessage");
  PublishDiagnostics =
      Messages.outgoingNotification<llvm::json::Value>("textDocument/publishDiagnostics");
  ApplyEdit = Messages.outgoingRequest<llvm::json::Value, protocol::ApplyEditResult>(
      "workspace/applyEdit", [](llvm::json::Value, llvm::Expected<protocol::ApplyEditResult> Result) {
        if (!Result)
          lsp::Logger::error("workspace/applyEdit failed: {0}", llvm::toString(Result.takeError()));
        else if (!Result->Applied)
          lsp::Logger::error("the editor did not apply the edit");
      });
  Worker = std::thread([this] { work(); });
}

Server::~Server() {
  {
    std::lock_guard<std::mutex> Lock(M);
    Stopping = true;
  }
  Changed.notify_all();
  Worker.join();
}

//===----------------------------------------------------------------------===//
// Lifecycle and documents

void Server::onInitialize(const protocol::InitializeParams &Params,
                          lsp::Callback<llvm::json::Value> Reply) {
  Client = Params;
  Reply(llvm::json::Object{
      {"serverInfo", llvm::json::Object{{"name", "dpstub-lsp"}, {"version", Settings.Version}}},
      {"capabilities",
       llvm::json::Object{
           {"positionEncoding", Client.Utf8 ? "utf-8" : "utf-16"},
           {"textDocumentSync", llvm::json::Object{{"openClose", true}, {"change", 1}}},
           {"hoverProvider", true},
           {"codeActionProvider",
            llvm::json::Object{{"codeActionKinds", llvm::json::Array{"refactor.rewrite"}}}},
           {"codeLensProvider", llvm::json::Object{{"resolveProvider", false}}},
           {"executeCommandProvider",
            llvm::json::Object{
                {"commands", llvm::json::Array{TranslateCallSite, TranslateFile, ShowProfile}}}},
       }}});
}

void Server::onShutdown(const protocol::NoParams &, lsp::Callback<llvm::json::Value> Reply) {
  // Finish what was asked (its diagnostics go out) before saying done.
  std::unique_lock<std::mutex> Lock(M);
  Changed.wait(Lock, [&] { return Pending.empty() && !Busy; });
  Reply(nullptr);
}

void Server::onOpen(const lsp::DidOpenTextDocumentParams &Params) {
  const std::string URI = Params.textDocument.uri.uri().str();
  {
    std::lock_guard<std::mutex> Lock(M);
    Documents[URI] = Document{Params.textDocument.uri.file().str(), Params.textDocument.text,
                              Params.textDocument.version};
  }
  schedule(URI);
}

void Server::onChange(const lsp::DidChangeTextDocumentParams &Params) {
  const std::string URI = Params.textDocument.uri.uri().str();
  {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Documents.find(URI);
    if (It == Documents.end())
      return;
    if (failed(lsp::TextDocumentContentChangeEvent::applyTo(Params.contentChanges, It->second.Text)))
      lsp::Logger::error("could not apply a change to {0}", URI);
    It->second.Version = Params.textDocument.version;
  }
  schedule(URI);
}

void Server::onClose(const lsp::DidCloseTextDocumentParams &Params) {
  const std::string URI = Params.textDocument.uri.uri().str();
  {
    std::lock_guard<std::mutex> Lock(M);
    Documents.erase(URI);
    Analyses.erase(URI);
    Pending.erase(URI);
  }
  Changed.notify_all();
  PublishDiagnostics(llvm::json::Object{{"uri", URI}, {"diagnostics", llvm::json::Array{}}});
}

//===----------------------------------------------------------------------===//
// Analysis

void Server::schedule(const std::string &URI) {
  {
    std::lock_guard<std::mutex> Lock(M);
    Pending.insert(URI);
  }
  Changed.notify_all();
}

void Server::work() {
  for (;;) {
    std::string URI;
    Document Doc;
    auto A = std::make_shared<Analysis>();
    {
      std::unique_lock<std::mutex> Lock(M);
      Changed.wait(Lock, [&] { return Stopping || !Pending.empty(); });
      if (Stopping)
        return;
      URI = *Pending.begin();
      Pending.erase(Pending.begin());
      auto It = Documents.find(URI);
      if (It == Documents.end()) {
        Changed.notify_all();
        continue;
      }
      Busy = true;
      Doc = It->second;
      LoopRefusals.erase(URI); // said of an older version
    }
    // Every open document as the editor holds it, saved or not.
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = openDocuments(A->OpenVersions);
    TranslationOptions Opts;
    Opts.PlanEachCallSite = true;
    std::string Printed;
    A->Version = Doc.Version;
    A->Text = Doc.Text;
    A->ToolFailed = !translateUnit(Dbs.forFile(Doc.Path), Doc.Path, Opts, A->Result, Printed, FS);
    migrateFile(Doc.Path, FS, *A);
    bool Open;
    {
      std::lock_guard<std::mutex> Lock(M);
      Open = Documents.count(URI) > 0;
    }
    // Diagnostics go out before any request waiting for this analysis is
    // answered: the editor sees them in that order.
    if (Open)
      publishDiagnostics(URI, *A);
    {
      std::lock_guard<std::mutex> Lock(M);
      if (Documents.count(URI))
        Analyses[URI] = A;
      Busy = false;
    }
    Changed.notify_all();
  }
}

std::shared_ptr<const Server::Analysis> Server::analysis(const std::string &URI) {
  std::unique_lock<std::mutex> Lock(M);
  // The analysis of the version the editor holds now: requests never answer
  // from an older one.
  const bool Ready = Changed.wait_for(Lock, std::chrono::seconds(60), [&] {
    auto D = Documents.find(URI);
    if (D == Documents.end())
      return true;
    auto A = Analyses.find(URI);
    return A != Analyses.end() && A->second->Version == D->second.Version;
  });
  auto D = Documents.find(URI);
  auto A = Analyses.find(URI);
  if (!Ready || D == Documents.end() || A == Analyses.end())
    return nullptr;
  return A->second;
}

void Server::publishDiagnostics(const std::string &URI, const Analysis &A) {
  const TextPositions Text(A.Text, Client.Utf8);
  llvm::json::Array Diagnostics;
  std::vector<const ListedDiagnostic *> All;
  for (const ListedDiagnostic &D : A.Result.Diagnostics)
    All.push_back(&D);
  // Migration's warnings: why a loop with a directive stays a loop.
  for (const ListedDiagnostic &D : A.Migration.Diagnostics)
    if (D.Level == "warning")
      All.push_back(&D);
  std::vector<ListedDiagnostic> Refusals;
  {
    std::lock_guard<std::mutex> Lock(M);
    if (auto It = LoopRefusals.find(URI); It != LoopRefusals.end())
      Refusals = It->second;
  }
  for (const ListedDiagnostic &D : Refusals)
    All.push_back(&D);
  std::set<std::pair<unsigned, std::string>> Said; // one line once
  for (const ListedDiagnostic *P : All) {
    const ListedDiagnostic &D = *P;
    // dpstub's own diagnostics in this file; clangd reports the compiler's.
    if (!D.Own || D.Path != A.Result.MainFile || D.Level == "note" || D.Level == "remark" ||
        !Said.insert({D.Loc.Line, D.Message}).second)
      continue;
    const unsigned Begin = Text.offset(D.Loc.Line, D.Loc.Column);
    lsp::Diagnostic Out;
    Out.range = lsp::Range(Text.position(Begin), Text.position(Begin + D.Length));
    Out.severity = D.Level == "error" ? lsp::DiagnosticSeverity::Error : lsp::DiagnosticSeverity::Warning;
    Out.source = "dpstub";
    Out.message = D.Message;
    Diagnostics.push_back(toJSON(Out));
  }
  PublishDiagnostics(llvm::json::Object{
      {"uri", URI}, {"version", A.Version}, {"diagnostics", std::move(Diagnostics)}});
}

//===----------------------------------------------------------------------===//
// Hover

std::vector<size_t> Server::callSitesAt(const Analysis &A, unsigned Begin, unsigned End) const {
  const TextPositions Text(A.Text, Client.Utf8);
  const std::string MainName = llvm::sys::path::filename(A.Result.MainFile).str();
  std::vector<size_t> Found;
  for (size_t I = 0; I < A.Result.CallSites.size(); ++I) {
    const ListedCallSite &C = A.Result.CallSites[I];
    if (C.Model.Loc.File != MainName)
      continue; // in an included file
    const auto [CallBegin, CallEnd] = callRange(C, Text);
    if (CallBegin <= End && Begin <= CallEnd)
      Found.push_back(I);
  }
  return Found;
}

void Server::onHover(const lsp::TextDocumentPositionParams &Params,
                     lsp::Callback<llvm::json::Value> Reply) {
  const std::shared_ptr<const Analysis> A = analysis(Params.textDocument.uri.uri().str());
  if (!A)
    return Reply(nullptr);
  const TextPositions Text(A->Text, Client.Utf8);
  const unsigned At = Text.offset(Params.position);
  const std::vector<size_t> Found = callSitesAt(*A, At, At);
  if (Found.empty())
    return Reply(nullptr);
  // The innermost call-site under the cursor: the last one that starts.
  const ListedCallSite &C = A->Result.CallSites[Found.back()];
  const auto [Begin, End] = callRange(C, Text);
  lsp::Hover H(lsp::Range(Text.position(Begin), Text.position(End + 1)));
  std::string Body;
  llvm::raw_string_ostream OS(Body);
  if (C.Translated) {
    OS << "```cpp\n";
    renderHeaderComment(OS, C.Model, stubSpecOf(C.Model));
    OS << "```\n";
    if (C.Launch)
      OS << "\nTranslated: this call-site launches its stub.\n";
  } else {
    OS << "**" << C.Model.spelling() << "**: not translated";
    for (const ListedDiagnostic &D : A->Result.Diagnostics)
      if (D.Own && D.Path == A->Result.MainFile && D.Loc.Line >= C.Model.Loc.Line &&
          D.Loc.Line <= C.EndLine && D.Level != "note")
        OS << "\n\n" << D.Level << ": " << D.Message;
    OS << "\n";
  }
  const DocumentProfile P = profileFor(A->Result.MainFile);
  if (const MeasuredCallSite *Row = P.at(C))
    OS << "\n---\n\n" << describeMeasured(*Row, *P.Profile, P.Stale);
  H.contents.value = OS.str();
  Reply(toJSON(H));
}

//===----------------------------------------------------------------------===//
// Measured figures

Server::DocumentProfile Server::profileFor(const std::string &Path) {
  DocumentProfile Out;
  const std::string Root =
      Client.RootPath.empty() ? llvm::sys::path::parent_path(Path).str() : Client.RootPath;
  Out.Profile = Profiles.latest(Root);
  Out.Stale = Out.Profile && modifiedUnix(Path) > Out.Profile->WrittenUnix;
  return Out;
}

const MeasuredCallSite *Server::DocumentProfile::at(const ListedCallSite &C) const {
  if (!Profile)
    return nullptr;
  // The stub names its call-site after the user's place of it, as the
  // model does ("k.cpp:4:3"), translated or not.
  auto It = Profile->BySite.find(C.Model.Loc.str());
  return It == Profile->BySite.end() ? nullptr : &It->second;
}

void Server::onCodeLens(const protocol::CodeLensParams &Params, lsp::Callback<llvm::json::Value> Reply) {
  const std::string URI = Params.textDocument.uri.uri().str();
  const std::shared_ptr<const Analysis> A = analysis(URI);
  if (!A)
    return Reply(llvm::json::Array{});
  const TextPositions Text(A->Text, Client.Utf8);
  llvm::json::Array Lenses;
  const DocumentProfile P = profileFor(A->Result.MainFile);
  for (size_t I : P.Profile ? callSitesAt(*A, 0, static_cast<unsigned>(A->Text.size()))
                            : std::vector<size_t>()) {
    const ListedCallSite &C = A->Result.CallSites[I];
    const MeasuredCallSite *Row = P.at(C);
    if (!Row || !isHot(*Row))
      continue;
    const auto [Begin, End] = callRange(C, Text);
    Lenses.push_back(llvm::json::Object{
        {"range", toJSON(lsp::Range(Text.position(Begin), Text.position(End + 1)))},
        {"command", llvm::json::Object{{"title", lensTitle(*Row, P.Stale)},
                                       {"command", ShowProfile},
                                       {"arguments", llvm::json::Array{llvm::json::Object{
                                                         {"uri", URI}, {"callSite", int64_t(I)}}}}}}});
  }
  Reply(std::move(Lenses));
}

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

void Server::showProfile(const llvm::json::Object *Arg, lsp::Callback<llvm::json::Value> Reply) {
  const std::optional<llvm::StringRef> URI = Arg ? Arg->getString("uri") : std::nullopt;
  const std::optional<int64_t> CallSite = Arg ? Arg->getInteger("callSite") : std::nullopt;
  if (!URI || !CallSite)
    return Reply(lspError(std::string(ShowProfile) + " needs {uri, callSite}", lsp::ErrorCode::InvalidParams));
  const std::shared_ptr<const Analysis> A = analysis(URI->str());
  if (!A || *CallSite < 0 || static_cast<size_t>(*CallSite) >= A->Result.CallSites.size())
    return Reply(lspError("no call-site " + std::to_string(*CallSite) + " in that document"));
  const ListedCallSite &C = A->Result.CallSites[static_cast<size_t>(*CallSite)];
  const DocumentProfile P = profileFor(A->Result.MainFile);
  const MeasuredCallSite *Row = P.at(C);
  if (!Row)
    return Reply(lspError("no profile measured " + C.Model.Loc.str()));
  // window/showMessage is plain text: the hover's paragraph without its markup.
  const std::string Text = C.Model.spelling() + " at " + C.Model.Loc.str() + ": " +
                           describeMeasured(*Row, *P.Profile, P.Stale, Markup::Plain);
  ShowMessage(llvm::json::Object{{"type", 3}, {"message", Text}});
  Reply(nullptr);
}

} // namespace dpstub
