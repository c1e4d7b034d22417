//===- Insights.cpp - what dpstub-lsp shows at a call-site ----------------===//
//
// Hover (how each argument reaches the kernel, or why the call-site stays
// as written), and the figures the newest DP_PROFILE run measured there:
// in the hover, as code lenses on the hottest call-sites, and in a message
// when a lens is clicked.
//
//===----------------------------------------------------------------------===//

#include "ServerParts.h"

#include "dpstub/Rule.h"
#include "dpstub/StubText.h"

#include "llvm/Support/raw_ostream.h"

namespace dpstub {

using namespace server_parts;

//===----------------------------------------------------------------------===//
// Hover

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
