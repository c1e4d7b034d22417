//===- Server.h - dpstub's language server ---------------------*- C++ -*-===//
//
// A small language server beside clangd: it analyses each open source with
// dpstub's library (unsaved buffers included) and offers, at dp::
// call-sites, hover (how the kernel receives each argument, and what the
// newest DP_PROFILE run measured there), code lenses on the hottest
// call-sites, diagnostics as you type, and code actions that translate one
// call-site or the whole file as a workspace edit the editor applies (so
// undo works). At a loop, the action *Convert this loop to a dp call-site*
// migrates it (Migrations.cpp); a loop it cannot convert gets a diagnostic
// saying why.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Databases.h"
#include "LspProtocol.h"
#include "Profiles.h"

#include "dpstub/Translation.h"

#include "llvm/Support/VirtualFileSystem.h"

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace dpstub {

/// What the server is told at start.
struct ServerSettings {
  /// For files no database covers: C++ sources and headers, and C
  /// sources (`.c`), which C++ flags would parse as C++.
  std::vector<std::string> FallbackFlags, FallbackCFlags;
  std::string Version;
};

class Server {
public:
  Server(lsp::MessageHandler &Messages, ServerSettings Settings);
  ~Server();
  Server(const Server &) = delete;
  Server &operator=(const Server &) = delete;

private:
  /// An open document as the editor holds it.
  struct Document {
    std::string Path;
    std::string Text;
    int64_t Version = 0;
  };
  /// The analysis of one version of a document, and of the other open
  /// documents as they were then.
  struct Analysis {
    int64_t Version = 0;
    std::string Text;
    std::map<std::string, int64_t> OpenVersions; ///< path -> version, for versioned edits
    TranslationResult Result;
    bool ToolFailed = false;
    /// Migration of the whole file, when it holds OpenMP or OpenACC
    /// directives: its warnings say why a loop stays a loop.
    TranslationResult Migration;
  };

  // The protocol's messages.
  void onInitialize(const protocol::InitializeParams &Params, lsp::Callback<llvm::json::Value> Reply);
  void onShutdown(const protocol::NoParams &, lsp::Callback<llvm::json::Value> Reply);
  void onOpen(const lsp::DidOpenTextDocumentParams &Params);
  void onChange(const lsp::DidChangeTextDocumentParams &Params);
  void onClose(const lsp::DidCloseTextDocumentParams &Params);
  void onHover(const lsp::TextDocumentPositionParams &Params, lsp::Callback<llvm::json::Value> Reply);
  void onCodeAction(const protocol::CodeActionParams &Params, lsp::Callback<llvm::json::Value> Reply);
  void onExecuteCommand(const protocol::ExecuteCommandParams &Params,
                        lsp::Callback<llvm::json::Value> Reply);
  void onCodeLens(const protocol::CodeLensParams &Params, lsp::Callback<llvm::json::Value> Reply);
  void showProfile(const llvm::json::Object *Arg, lsp::Callback<llvm::json::Value> Reply);

  /// The newest profile in the workspace, as it stands for document
  /// `Path`: stale when `Path` was saved after it. Looked up (and the file
  /// stat'ed) once per request, then asked per call-site.
  struct DocumentProfile {
    std::shared_ptr<const ProfileSummary> Profile;
    bool Stale = false;
    /// Its row for call-site C; null when it measured none there.
    const MeasuredCallSite *at(const ListedCallSite &C) const;
  };
  DocumentProfile profileFor(const std::string &Path);

  // Analysis, on one worker thread; requests wait for the current version.
  void schedule(const std::string &URI);
  void work();
  std::shared_ptr<const Analysis> analysis(const std::string &URI);
  void publishDiagnostics(const std::string &URI, const Analysis &A);

  // Edits.
  /// The workspace edit that applies `Plan` of A (documentChanges with
  /// versions and file creation when the client takes them, else changes).
  llvm::Expected<llvm::json::Value> workspaceEdit(const Analysis &A, const TranslationPlan &Plan,
                                                  bool Versioned);
  /// The call-sites of A whose call overlaps [Begin, End] (byte offsets).
  std::vector<size_t> callSitesAt(const Analysis &A, unsigned Begin, unsigned End) const;

  // Migration (Migrations.cpp).
  /// Every open document as the editor holds it, over the real files;
  /// Versions gets each one's version by path.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> openDocuments(std::map<std::string, int64_t> &Versions);
  /// The file's migration, for its diagnostics (Analysis::Migration).
  void migrateFile(const std::string &Path, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS, Analysis &A);
  /// The action converting the loop at [Begin, End] of A's document, or,
  /// when it stays a loop, a disabled one saying why (and a diagnostic).
  llvm::Error loopActions(const std::string &URI, const Analysis &A, unsigned Begin, unsigned End,
                          llvm::json::Array &Actions);

  lsp::MessageHandler &Messages;
  ServerSettings Settings;
  Databases Dbs;
  protocol::InitializeParams Client;
  lsp::OutgoingNotification<llvm::json::Value> PublishDiagnostics;
  lsp::OutgoingRequest<llvm::json::Value> ApplyEdit;
  lsp::OutgoingNotification<llvm::json::Value> ShowMessage;
  ProfileFinder Profiles;
  int64_t NextRequestId = 1;

  std::mutex M;
  std::condition_variable Changed;
  std::map<std::string, Document> Documents;                    ///< by URI
  std::map<std::string, std::shared_ptr<const Analysis>> Analyses; ///< by URI
  std::set<std::string> Pending;                                ///< URIs to analyse
  /// By URI: why the loop a code action was asked at stays a loop (shown
  /// with the document's diagnostics until it changes).
  std::map<std::string, std::vector<ListedDiagnostic>> LoopRefusals;
  bool Busy = false; ///< the worker is analysing
  bool Stopping = false;
  std::thread Worker;
};

} // namespace dpstub
