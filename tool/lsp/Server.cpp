//===- Server.cpp - dpstub's language server ------------------------------===//
//
// The documents the editor has open and their analyses (a worker thread
// translates each changed text in memory); diagnostics. Hover, code lenses
// and measured figures are Insights.cpp, code actions Actions.cpp, loop
// conversions Migrations.cpp.
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

#include <chrono>

namespace dpstub {

using namespace server_parts;

Server::Server(lsp::MessageHandler &Messages, ServerSettings Settings)
    : Messages(Messages), Settings(std::move(Settings)), Dbs(this->Settings.FallbackFlags, this->Settings.FallbackCFlags) {
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
    Opts.RecordLoops = true;
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
// Call-sites under a range

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

} // namespace dpstub
