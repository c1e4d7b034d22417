//===- Profiles.h - What a profiled run measured, for the editor -*- C++ -*-===//
//
// A program run with DP_PROFILE leaves "<program>.dp-profile.json" beside
// itself (format "dp-profile-summary", docs/profiling.md): per call-site,
// named after its place in the user's source (file:line:column, as the
// stub names it), its calls, times, share of the run, launches, dispatch
// modes and transfers. The server reads the newest one in the workspace
// and shows each call-site's figures on hover, and the hottest as code
// lenses; a profile older than the source on disk is said to be stale.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dpstub {

/// One call-site's row of a profile.
struct MeasuredCallSite {
  std::string Site; ///< "k.cpp:4:3"
  std::string Kind, Backend;
  std::vector<int64_t> Modes;
  int64_t Calls = 0, Launches = 0, BytesMoved = 0, Reuploads = 0;
  double TotalMs = 0, MeanMs = 0, Share = 0;
  unsigned Rank = 0; ///< 1: the call-site that took the most time
};

/// One profile summary file.
struct ProfileSummary {
  std::string Path;    ///< the file read
  std::string Program; ///< the program that wrote it
  int64_t WrittenUnix = 0;
  double RunMs = 0;
  std::map<std::string, MeasuredCallSite> BySite; ///< by "file:line:column"
};

/// Reads a summary's text; an error says what is wrong with it.
llvm::Expected<ProfileSummary> parseProfileSummary(llvm::StringRef Path, llvm::StringRef Text);

/// How a paragraph marks emphasis and code: Markdown for a hover, nothing
/// for plain text (window/showMessage).
enum class Markup { Markdown, Plain };

/// The hover paragraph of a call-site's figures. `Stale`: the source was
/// saved after the profile was taken.
std::string describeMeasured(const MeasuredCallSite &C, const ProfileSummary &P, bool Stale,
                             Markup M = Markup::Markdown);

/// A code lens's title: "38.2% of the run, 1.2 ms a call, 8 launches".
std::string lensTitle(const MeasuredCallSite &C, bool Stale);

/// Whether a call-site is hot enough for a code lens: among the profile's
/// five slowest, or at least a tenth of the run.
bool isHot(const MeasuredCallSite &C);

/// The newest profile summary under a folder (the workspace), searched
/// again at most every few seconds; read again when it changes.
class ProfileFinder {
public:
  /// The newest summary under `Root`, or null when there is none (or it
  /// cannot be read: the reason goes to the server's log).
  std::shared_ptr<const ProfileSummary> latest(const std::string &Root);

private:
  std::mutex M;
  std::string Root;
  std::chrono::steady_clock::time_point Searched;
  std::string Found;       ///< the newest file's path at the last search
  int64_t FoundMtime = 0;  ///< and its time
  std::shared_ptr<const ProfileSummary> Loaded;
  int64_t LoadedMtime = 0;
};

/// Seconds since the epoch when `Path` was last written; 0 if unknown.
int64_t modifiedUnix(const std::string &Path);

} // namespace dpstub
