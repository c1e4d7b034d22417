//===- LspProtocol.cpp - What MLIR's Protocol.h lacks ---------------------===//

#include "LspProtocol.h"

namespace dpstub::protocol {

bool fromJSON(const llvm::json::Value &V, InitializeParams &Out, llvm::json::Path P) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O) {
    P.report("expected an object");
    return false;
  }
  auto PathOf = [](llvm::StringRef URI) -> std::string {
    llvm::Expected<lsp::URIForFile> File = lsp::URIForFile::fromURI(URI);
    if (!File) {
      llvm::consumeError(File.takeError());
      return "";
    }
    return File->file().str();
  };
  if (std::optional<llvm::StringRef> Root = O->getString("rootUri"))
    Out.RootPath = PathOf(*Root);
  if (const llvm::json::Array *Folders = O->getArray("workspaceFolders"))
    if (Out.RootPath.empty() && !Folders->empty())
      if (const llvm::json::Object *First = Folders->front().getAsObject())
        if (std::optional<llvm::StringRef> URI = First->getString("uri"))
          Out.RootPath = PathOf(*URI);
  if (std::optional<llvm::StringRef> Root = O->getString("rootPath"); Root && Out.RootPath.empty())
    Out.RootPath = Root->str();
  const llvm::json::Object *Caps = O->getObject("capabilities");
  if (!Caps)
    return true;
  if (const llvm::json::Object *Workspace = Caps->getObject("workspace"))
    if (const llvm::json::Object *Edit = Workspace->getObject("workspaceEdit")) {
      Out.DocumentChanges = Edit->getBoolean("documentChanges").value_or(false);
      if (const llvm::json::Array *Ops = Edit->getArray("resourceOperations"))
        for (const llvm::json::Value &Op : *Ops)
          Out.CreateFiles |= Op.getAsString() == std::optional<llvm::StringRef>("create");
    }
  if (const llvm::json::Object *General = Caps->getObject("general"))
    if (const llvm::json::Array *Encodings = General->getArray("positionEncodings"))
      for (const llvm::json::Value &E : *Encodings)
        Out.Utf8 |= E.getAsString() == std::optional<llvm::StringRef>("utf-8");
  return true;
}

bool fromJSON(const llvm::json::Value &V, ExecuteCommandParams &Out, llvm::json::Path P) {
  llvm::json::ObjectMapper O(V, P);
  if (!O || !O.map("command", Out.Command))
    return false;
  if (const llvm::json::Object *Obj = V.getAsObject())
    if (const llvm::json::Array *Args = Obj->getArray("arguments"))
      Out.Arguments.assign(Args->begin(), Args->end());
  return true;
}

llvm::json::Value textDocumentEdit(const std::string &URI, std::optional<int64_t> Version,
                                   llvm::json::Array Edits) {
  llvm::json::Object Doc{{"uri", URI}};
  Doc["version"] = Version ? llvm::json::Value(*Version) : llvm::json::Value(nullptr);
  return llvm::json::Object{{"textDocument", std::move(Doc)}, {"edits", std::move(Edits)}};
}

llvm::json::Value createFile(const std::string &URI) {
  return llvm::json::Object{{"kind", "create"},
                            {"uri", URI},
                            {"options", llvm::json::Object{{"ignoreIfExists", true}}}};
}

llvm::json::Value textEdit(const lsp::Range &Range, const std::string &NewText) {
  return llvm::json::Object{{"range", toJSON(Range)}, {"newText", NewText}};
}

} // namespace dpstub::protocol
