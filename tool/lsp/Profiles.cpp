//===- Profiles.cpp - What a profiled run measured, for the editor --------===//

#include "Profiles.h"

#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "mlir/Tools/lsp-server-support/Logging.h"

#include <algorithm>
#include <ctime>

namespace dpstub {

namespace {

constexpr llvm::StringLiteral SummarySuffix = ".dp-profile.json";

llvm::Error bad(llvm::StringRef Path, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Path + ": " + Why);
}

/// "1.2 ms", "35.0 us", "2.31 s".
std::string duration(double Ms) {
  if (Ms >= 1000)
    return llvm::formatv("{0:f2} s", Ms / 1000).str();
  if (Ms >= 1)
    return llvm::formatv("{0:f2} ms", Ms).str();
  return llvm::formatv("{0:f1} us", Ms * 1000).str();
}

/// "2.1 MB", "512 B" (decimal units).
std::string bytes(double B) {
  const char *Units[] = {"B", "kB", "MB", "GB", "TB"};
  int U = 0;
  while (B >= 1000 && U < 4)
    B /= 1000, ++U;
  return U == 0 ? llvm::formatv("{0} B", static_cast<int64_t>(B)).str()
                : llvm::formatv("{0:f1} {1}", B, Units[U]).str();
}

std::string utcTime(int64_t Unix) {
  const std::time_t T = static_cast<std::time_t>(Unix);
  std::tm Parts{};
  gmtime_r(&T, &Parts);
  char Out[32];
  std::strftime(Out, sizeof Out, "%Y-%m-%d %H:%M UTC", &Parts);
  return Out;
}

std::string modesText(const std::vector<int64_t> &Modes) {
  if (Modes.empty())
    return "";
  std::string Out = Modes.size() == 1 ? "dispatch mode " : "dispatch modes ";
  for (size_t I = 0; I < Modes.size(); ++I)
    Out += (I ? ", " : "") + std::to_string(Modes[I]);
  return Out;
}

} // namespace

llvm::Expected<ProfileSummary> parseProfileSummary(llvm::StringRef Path, llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Text);
  if (!Parsed)
    return bad(Path, "not JSON: " + llvm::toString(Parsed.takeError()));
  const llvm::json::Object *O = Parsed->getAsObject();
  if (!O || O->getString("format") != std::optional<llvm::StringRef>("dp-profile-summary"))
    return bad(Path, "not a dp profile summary (no \"format\": \"dp-profile-summary\")");
  if (O->getInteger("version") != std::optional<int64_t>(1))
    return bad(Path, "a dp profile summary of a version this server does not read (it reads 1)");
  ProfileSummary P;
  P.Path = Path.str();
  P.Program = O->getString("program").value_or("").str();
  P.WrittenUnix = O->getInteger("written_unix").value_or(0);
  P.RunMs = O->getNumber("run_ms").value_or(0);
  const llvm::json::Array *Sites = O->getArray("call_sites");
  if (!Sites)
    return bad(Path, "no \"call_sites\" array");
  std::vector<MeasuredCallSite> Rows;
  for (const llvm::json::Value &V : *Sites) {
    const llvm::json::Object *S = V.getAsObject();
    std::optional<llvm::StringRef> Site = S ? S->getString("site") : std::nullopt;
    if (!Site)
      return bad(Path, "a call-site without its \"site\"");
    MeasuredCallSite C;
    C.Site = Site->str();
    C.Kind = S->getString("kind").value_or("").str();
    C.Backend = S->getString("backend").value_or("").str();
    if (const llvm::json::Array *Modes = S->getArray("modes"))
      for (const llvm::json::Value &M : *Modes)
        if (std::optional<int64_t> Mode = M.getAsInteger())
          C.Modes.push_back(*Mode);
    C.Calls = S->getInteger("calls").value_or(0);
    C.Launches = S->getInteger("launches").value_or(0);
    C.BytesMoved = S->getInteger("bytes_moved").value_or(0);
    C.Reuploads = S->getInteger("reuploads").value_or(0);
    C.TotalMs = S->getNumber("total_ms").value_or(0);
    C.MeanMs = S->getNumber("mean_ms").value_or(0);
    C.Share = S->getNumber("share").value_or(0);
    Rows.push_back(std::move(C));
  }
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const MeasuredCallSite &A, const MeasuredCallSite &B) { return A.TotalMs > B.TotalMs; });
  for (size_t I = 0; I < Rows.size(); ++I) {
    Rows[I].Rank = static_cast<unsigned>(I + 1);
    P.BySite.emplace(Rows[I].Site, std::move(Rows[I]));
  }
  return P;
}

std::string describeMeasured(const MeasuredCallSite &C, const ProfileSummary &P, bool Stale,
                             Markup M) {
  const bool Marked = M == Markup::Markdown;
  const auto Strong = [&](llvm::StringRef S) { return Marked ? ("**" + S + "**").str() : S.str(); };
  const auto Code = [&](llvm::StringRef S) { return Marked ? ("`" + S + "`").str() : S.str(); };
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  const std::string Program = llvm::sys::path::filename(P.Program).str();
  OS << Strong(Stale ? "Measured, stale" : "Measured") << " by DP_PROFILE ("
     << (Program.empty() ? "a run" : Code(Program)) << ", " << utcTime(P.WrittenUnix) << ")";
  if (Stale)
    OS << ": the source was saved after this run; run the program with DP_PROFILE again";
  OS << "\n\n" << C.Calls << (C.Calls == 1 ? " call, " : " calls, ") << duration(C.TotalMs)
     << " in all, " << duration(C.MeanMs) << " a call, "
     << llvm::formatv("{0:f1}", 100 * C.Share) << "% of the run";
  if (C.Rank == 1)
    OS << " (the slowest call-site)";
  else
    OS << " (the " << C.Rank << (C.Rank == 2 ? "nd" : C.Rank == 3 ? "rd" : "th") << " slowest)";
  OS << "\n\n" << C.Launches << (C.Launches == 1 ? " launch" : " launches");
  if (!C.Backend.empty())
    OS << " on " << C.Backend;
  if (!C.Modes.empty())
    OS << ", " << modesText(C.Modes);
  if (C.BytesMoved > 0) {
    OS << "; moved " << bytes(static_cast<double>(C.BytesMoved)) << " for its arguments";
    if (C.TotalMs > 0)
      OS << " (" << bytes(static_cast<double>(C.BytesMoved) / (C.TotalMs / 1000)) << "/s of its time)";
  }
  OS << "\n";
  if (C.Reuploads > 0)
    OS << "\n" << C.Reuploads << (C.Reuploads == 1 ? " copy" : " copies")
       << " to the device made again because the host wrote a field: read elements through "
       << Code("std::as_const(f)") << " or a const reference\n";
  return Out;
}

std::string lensTitle(const MeasuredCallSite &C, bool Stale) {
  std::string Out = llvm::formatv("{0:f1}% of the run, {1} a call", 100 * C.Share, duration(C.MeanMs)).str();
  if (C.BytesMoved > 0)
    Out += ", " + bytes(static_cast<double>(C.BytesMoved)) + " moved";
  if (C.Reuploads > 0)
    Out += ", " + std::to_string(C.Reuploads) + " re-uploads";
  return Stale ? Out + " (stale profile)" : Out;
}

bool isHot(const MeasuredCallSite &C) { return C.Rank <= 5 || C.Share >= 0.1; }

int64_t modifiedUnix(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return 0;
  return static_cast<int64_t>(llvm::sys::toTimeT(Status.getLastModificationTime()));
}

std::shared_ptr<const ProfileSummary> ProfileFinder::latest(const std::string &Dir) {
  std::lock_guard<std::mutex> Lock(M);
  const auto Now = std::chrono::steady_clock::now();
  if (Dir != Root || Now - Searched > std::chrono::seconds(2)) {
    // A workspace's summaries sit beside its programs, in build folders:
    // search it whole but bounded (hidden folders skipped).
    Root = Dir;
    Searched = Now;
    Found.clear();
    FoundMtime = 0;
    std::error_code EC;
    size_t Seen = 0;
    for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC && Seen < 100000;
         It.increment(EC), ++Seen) {
      const llvm::StringRef Name = llvm::sys::path::filename(It->path());
      if (It->type() == llvm::sys::fs::file_type::directory_file) {
        if (Name.starts_with(".") || It.level() >= 8)
          It.no_push();
        continue;
      }
      if (!Name.ends_with(SummarySuffix))
        continue;
      const int64_t Mtime = modifiedUnix(It->path());
      if (Found.empty() || Mtime > FoundMtime)
        Found = It->path(), FoundMtime = Mtime;
    }
  }
  if (Found.empty())
    return Loaded = nullptr;
  if (Loaded && Loaded->Path == Found && LoadedMtime == FoundMtime)
    return Loaded;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Found);
  if (!Text) {
    mlir::lsp::Logger::error("cannot read the profile {0}: {1}", Found, Text.getError().message());
    return Loaded = nullptr;
  }
  llvm::Expected<ProfileSummary> P = parseProfileSummary(Found, (*Text)->getBuffer());
  if (!P) {
    mlir::lsp::Logger::error("{0}", llvm::toString(P.takeError()));
    return Loaded = nullptr;
  }
  LoadedMtime = FoundMtime;
  return Loaded = std::make_shared<const ProfileSummary>(std::move(*P));
}

} // namespace dpstub
