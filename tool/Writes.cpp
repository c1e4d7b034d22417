//===- Writes.cpp - What a dpstub run writes ------------------------------===//

#include "Writes.h"

#include "dpstub/ListReport.h"

#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace dpstub::driver {

namespace {

/// Make's and Ninja's dependency-file syntax: spaces and '$' escaped.
std::string depfileWord(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == ' ' || C == '#')
      Out += '\\';
    if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

/// A file already holding the bytes it would get is kept. Mirrored under
/// --out-dir, its time is renewed so that a build system sees its output
/// newer than the inputs; the user's own file (-i) is not touched at all.
void keepUnchanged(const std::string &Dest, const Destination &To) {
  int FD = -1;
  if (!To.InPlace && !fs::openFileForWrite(Dest, FD, fs::CD_OpenExisting, fs::OF_Append)) {
    (void)fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
    ::close(FD);
  }
}

/// The files one file-list of OUT/.dpstub names.
std::set<std::string> readList(const std::string &Path) {
  std::set<std::string> Files;
  if (std::optional<std::string> Text = readFile(Path)) {
    llvm::SmallVector<llvm::StringRef> Lines;
    llvm::StringRef(*Text).split(Lines, '\n', -1, false);
    for (llvm::StringRef L : Lines)
      Files.insert(L.str());
  }
  return Files;
}

/// The files the translation of R writes under --out-dir.
std::set<std::string> outputsOf(const TranslationResult &R, const Destination &To) {
  std::set<std::string> Now{To.of(R.MainFile)};
  if (!R.Whole.StubHeader.empty())
    Now.insert(To.of(stubHeaderPath(R)));
  for (const auto &[File, Reps] : R.Whole.Edits)
    if (To.holds(File))
      Now.insert(To.of(File));
  return Now;
}

} // namespace

void error(const llvm::Twine &Message) { llvm::errs() << "dpstub: error: " << Message << "\n"; }
void note(const llvm::Twine &Message) { llvm::errs() << "dpstub: note: " << Message << "\n"; }

std::string absolute(llvm::StringRef P) {
  llvm::SmallString<256> A(P);
  fs::make_absolute(A);
  path::remove_dots(A, true);
  return A.str().str();
}

std::string Destination::of(const std::string &File) const {
  return OutDir + File.substr(Root.size());
}

bool writeAtomically(const std::string &Path, llvm::StringRef Text) {
  if (std::error_code EC = fs::create_directories(path::parent_path(Path), true, fs::all_all)) {
    error("cannot create " + path::parent_path(Path) + ": " + EC.message());
    return false;
  }
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = fs::createUniqueFile(Path + ".dpstub-%%%%%%", FD, Temp)) {
    error("cannot create a temporary beside " + Path + ": " + EC.message());
    return false;
  }
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
    Out.close();
    if (Out.has_error()) {
      error("cannot write " + Temp + ": " + Out.error().message());
      Out.clear_error();
      fs::remove(Temp);
      return false;
    }
  }
  // createUniqueFile makes it private; the output is an ordinary file.
  const unsigned Mask = ::umask(0);
  ::umask(Mask);
  (void)fs::setPermissions(Temp, static_cast<fs::perms>(0666 & ~Mask));
  if (std::error_code EC = fs::rename(Temp, Path)) {
    error("cannot rename " + Temp + " to " + Path + ": " + EC.message());
    fs::remove(Temp);
    return false;
  }
  return true;
}

bool writeFiles(const std::map<std::string, FileOutput> &Files, const Units &Us,
                const Destination &To, std::map<std::string, std::string> &Written,
                unsigned &FilesWritten) {
  bool Ok = true;
  std::map<std::string, FileOutput> All = Files;
  if (!To.InPlace) // an unchanged source is still mirrored
    for (const auto &U : Us)
      if (U->succeeded() && !All.count(U->Result.MainFile))
        if (std::optional<std::string> Text = readFile(U->Result.MainFile))
          All[U->Result.MainFile] = FileOutput{Text, *Text};
  for (const auto &[File, Output] : All) {
    std::string Dest = File;
    if (!To.InPlace) {
      if (!To.holds(File)) {
        error(File + " is outside --root " + To.Root + "; not written");
        Ok = false;
        continue;
      }
      Dest = To.of(File);
    } else if (Output.Before && readFile(File) != Output.Before) {
      error(File + " changed after it was parsed; not written");
      Ok = false;
      continue;
    }
    Written[File] = Dest;
    if (readFile(Dest) == Output.After)
      keepUnchanged(Dest, To);
    else if (writeAtomically(Dest, Output.After))
      ++FilesWritten;
    else
      Ok = false;
  }
  return Ok;
}

// A file an earlier run wrote that no translation writes now (a helper
// header moved to another include directory, or no longer marked for the
// device) is removed: left behind, it would shadow the header it came from
// and build stale code.
bool removeStaleOutputs(const Units &Us, const Destination &To) {
  const std::string Lists = To.OutDir + "/.dpstub";
  bool Ok = true;
  std::set<std::string> Dropped;
  for (const auto &U : Us) {
    const TranslationResult &R = U->Result;
    if (!U->succeeded() || !To.holds(R.MainFile))
      continue;
    const std::set<std::string> Now = outputsOf(R, To);
    const std::string List = Lists + R.MainFile.substr(To.Root.size()) + ".files";
    for (const std::string &F : readList(List))
      if (!Now.count(F))
        Dropped.insert(F);
    std::string Text;
    for (const std::string &F : Now)
      Text += F + "\n";
    Ok &= writeAtomically(List, Text);
  }
  if (Dropped.empty())
    return Ok;
  // Still written for another source: kept.
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Lists, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".files"))
      for (const std::string &F : readList(It->path()))
        Dropped.erase(F);
  for (const std::string &F : Dropped)
    if (llvm::StringRef(F).starts_with(To.OutDir + "/") && fs::exists(F))
      if (std::error_code E = fs::remove(F)) {
        error("cannot remove the stale " + F + ": " + E.message());
        Ok = false;
      }
  return Ok;
}

// Ninja wants a dependency file to name only the build step's own output.
bool writeDepfile(const std::string &File, const std::map<std::string, std::string> &Written,
                  const Units &Us) {
  std::set<std::string> Inputs;
  std::string Text;
  for (const auto &U : Us) {
    Inputs.insert(U->Result.Inputs.begin(), U->Result.Inputs.end());
    if (auto It = Written.find(U->Result.MainFile); It != Written.end())
      Text += (Text.empty() ? "" : " ") + depfileWord(It->second);
  }
  Text += ":";
  for (const std::string &I : Inputs)
    Text += " \\\n  " + depfileWord(I);
  return writeAtomically(absolute(File), Text + "\n");
}

// Applying the fixes gives what -i writes. A stub header is one
// replacement of its whole content; since the applier edits only files
// that exist, a new one is created empty.
bool exportFixes(const std::map<std::string, FileOutput> &Files, const Units &Us,
                 const std::string &YamlFile) {
  clang::tooling::TranslationUnitReplacements TUR;
  TUR.MainSourceFile = Us.size() == 1 ? Us.front()->Source : "";
  for (const auto &[File, Output] : Files) {
    if (!Output.Before && !writeAtomically(File, ""))
      return false;
    if (Output.Before == Output.After)
      continue;
    for (const clang::tooling::Replacement &R : Output.Edits)
      TUR.Replacements.push_back(R);
  }
  std::string YAML;
  llvm::raw_string_ostream OS(YAML);
  llvm::yaml::Output Y(OS);
  Y << TUR;
  OS.flush();
  return writeAtomically(absolute(YamlFile), YAML);
}

Tally tally(const Units &Us) {
  Tally T;
  for (const auto &U : Us)
    for (const ListedCallSite &C : U->Result.CallSites) {
      std::array<unsigned, 3> &Row = T.ByKind[std::string("dp::") + toString(C.Model.Kind)];
      ++Row[0];
      if (C.Translated || C.Launch)
        ++Row[1];
      else
        ++Row[2], ++T.LeftOnHost;
    }
  return T;
}

void printSummary(const Tally &T, unsigned UnitCount, unsigned FilesWritten, bool Writes) {
  unsigned Found = 0, Translated = 0;
  std::string Kinds;
  for (const auto &[Kind, Row] : T.ByKind) {
    Found += Row[0];
    Translated += Row[1];
    Kinds += (Kinds.empty() ? "" : ", ") + Kind + " " + std::to_string(Row[0]) + " found/" +
             std::to_string(Row[1]) + " translated/" + std::to_string(Row[2]) + " on the host";
  }
  llvm::errs() << "dpstub: " << UnitCount << (UnitCount == 1 ? " unit, " : " units, ") << Found
               << (Found == 1 ? " call-site: " : " call-sites: ") << Translated << " translated, "
               << T.LeftOnHost << " left on the host" << (Kinds.empty() ? "" : " (" + Kinds + ")");
  if (Writes)
    llvm::errs() << "; " << FilesWritten << (FilesWritten == 1 ? " file" : " files") << " written";
  llvm::errs() << "\n";
}

unsigned refusedLoops(const Units &Us) {
  unsigned Refused = 0;
  for (const auto &U : Us)
    for (const MigratedLoop &L : U->Result.Loops)
      Refused += !L.Converted;
  return Refused;
}

void printMigrationSummary(const Units &Us) {
  unsigned Found = 0;
  for (const auto &U : Us)
    Found += U->Result.Loops.size();
  const unsigned Converted = Found - refusedLoops(Us);
  llvm::errs() << "migrated " << Converted << " of " << Found << (Found == 1 ? " loop" : " loops") << " ("
               << Found - Converted << " refused)\n";
  // Loops the summary counts as converted, in files an error kept as
  // they were.
  for (const auto &U : Us)
    if (U->Result.HasErrors && !U->Result.ParseFailed && !U->Result.MainFile.empty())
      for (const MigratedLoop &L : U->Result.Loops)
        if (L.Converted) {
          error(U->Result.MainFile + " is not written: the errors above stop it");
          break;
        }
}

} // namespace dpstub::driver
