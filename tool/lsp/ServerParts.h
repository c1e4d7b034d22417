//===- ServerParts.h - what dpstub-lsp's request handlers share -*- C++ -*-===//
//
// The command ids and small helpers shared by the server's files:
// Server.cpp (documents and analysis), Insights.cpp (hover, code lenses,
// measured figures) and Actions.cpp (code actions and their commands).
//
//===----------------------------------------------------------------------===//

#ifndef DPSTUB_TOOL_LSP_SERVERPARTS_H
#define DPSTUB_TOOL_LSP_SERVERPARTS_H

#include "Server.h"
#include "TextPositions.h"

#include <string>
#include <utility>

namespace dpstub::server_parts {

/// Command ids of the code actions that need the server to finish them.
inline constexpr llvm::StringLiteral TranslateCallSite = "dpstub.translateCallSite";
inline constexpr llvm::StringLiteral TranslateFile = "dpstub.translateFile";
/// A code lens's command: shows the call-site's measured figures.
inline constexpr llvm::StringLiteral ShowProfile = "dpstub.showProfile";

inline std::string uriOf(const std::string &Path) {
  llvm::Expected<lsp::URIForFile> U = lsp::URIForFile::fromFile(Path);
  if (!U) {
    llvm::consumeError(U.takeError());
    return "file://" + Path;
  }
  return U->uri().str();
}

inline llvm::Error lspError(const std::string &Message,
                            lsp::ErrorCode Code = lsp::ErrorCode::InvalidRequest) {
  return llvm::make_error<lsp::LSPError>(Message, Code);
}

/// The byte range of a call-site of a result, in the main file's text.
inline std::pair<unsigned, unsigned> callRange(const ListedCallSite &C, const TextPositions &Text) {
  return {Text.offset(C.Model.Loc.Line, C.Model.Loc.Column), Text.offset(C.EndLine, C.EndColumn)};
}

} // namespace dpstub::server_parts

#endif
