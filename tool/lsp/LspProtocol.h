//===- LspProtocol.h - The language server protocol, as dpstub uses it ----===//
//
// The one include of the protocol and its JSON-RPC transport. LLVM 19 ships
// them as MLIR's lsp-server-support library; where a later LLVM has them as
// llvm/Support/LSP, the includes and the alias below are what changes.
// What that Protocol.h lacks, dpstub adds here: the client capabilities it
// needs, position encodings, workspace edits with documentChanges and file
// creation, and workspace/executeCommand.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Tools/lsp-server-support/Logging.h"
#include "mlir/Tools/lsp-server-support/Protocol.h"
#include "mlir/Tools/lsp-server-support/Transport.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace dpstub {
namespace lsp = ::mlir::lsp;

namespace protocol {

/// What dpstub-lsp reads of the client's `initialize` request.
struct InitializeParams {
  /// workspace.workspaceEdit.documentChanges.
  bool DocumentChanges = false;
  /// workspace.workspaceEdit.resourceOperations holds "create".
  bool CreateFiles = false;
  /// general.positionEncodings offers "utf-8" (else columns are UTF-16).
  bool Utf8 = false;
  /// The workspace's folder: rootUri, else the first workspace folder,
  /// else rootPath; empty when the client names none.
  std::string RootPath;
};
bool fromJSON(const llvm::json::Value &V, InitializeParams &Out, llvm::json::Path P);

/// workspace/executeCommand.
struct ExecuteCommandParams {
  std::string Command;
  std::vector<llvm::json::Value> Arguments;
};
bool fromJSON(const llvm::json::Value &V, ExecuteCommandParams &Out, llvm::json::Path P);

/// textDocument/codeLens.
struct CodeLensParams {
  lsp::TextDocumentIdentifier textDocument;
};
inline bool fromJSON(const llvm::json::Value &V, CodeLensParams &Out, llvm::json::Path P) {
  llvm::json::ObjectMapper O(V, P);
  return O && O.map("textDocument", Out.textDocument);
}

/// The editor's answer to workspace/applyEdit.
struct ApplyEditResult {
  bool Applied = false;
};
inline bool fromJSON(const llvm::json::Value &V, ApplyEditResult &Out, llvm::json::Path P) {
  llvm::json::ObjectMapper O(V, P);
  return O && O.map("applied", Out.Applied);
}

/// Requests that take no parameters we read (shutdown).
struct NoParams {};
inline bool fromJSON(const llvm::json::Value &, NoParams &, llvm::json::Path) { return true; }

/// textDocument/codeAction, with the range it was asked for.
using CodeActionParams = lsp::CodeActionParams;

/// A change of one file in a workspace edit (documentChanges form):
/// edits of a text document at a version (none: the file as on disk).
llvm::json::Value textDocumentEdit(const std::string &URI, std::optional<int64_t> Version,
                                   llvm::json::Array Edits);
/// A file to create (documentChanges form).
llvm::json::Value createFile(const std::string &URI);
/// One text edit.
llvm::json::Value textEdit(const lsp::Range &Range, const std::string &NewText);

} // namespace protocol
} // namespace dpstub
