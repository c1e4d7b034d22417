//===- DriverQuery.cpp - The database compiler's own include directory ----===//

#include "dpstub/DriverQuery.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <map>
#include <mutex>

namespace dpstub {

namespace {

/// Argv0 as an absolute path: found on PATH when it names no directory.
std::optional<std::string> resolve(const std::string &Compiler) {
  if (Compiler.empty())
    return std::nullopt;
  if (llvm::StringRef(Compiler).contains('/')) {
    llvm::SmallString<256> Abs(Compiler);
    if (llvm::sys::fs::make_absolute(Abs))
      return std::nullopt;
    llvm::sys::path::remove_dots(Abs, true);
    return std::string(Abs);
  }
  llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Compiler);
  if (!Found)
    return std::nullopt;
  return *Found;
}

bool allowed(const std::string &Path, const std::vector<std::string> &Globs) {
  for (const std::string &G : Globs) {
    llvm::Expected<llvm::GlobPattern> P = llvm::GlobPattern::create(G);
    if (!P) {
      llvm::consumeError(P.takeError());
      continue;
    }
    if (P->match(Path))
      return true;
  }
  return false;
}

/// `Path -print-file-name=include`: an existing absolute directory or none.
std::optional<std::string> ask(const std::string &Path) {
  llvm::SmallString<128> OutFile;
  if (llvm::sys::fs::createTemporaryFile("dpstub-query-driver", "txt", OutFile))
    return std::nullopt;
  const std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), OutFile.str(),
                                                      llvm::StringRef("")};
  const llvm::StringRef Args[] = {Path, "-print-file-name=include"};
  const int Rc = llvm::sys::ExecuteAndWait(Path, Args, std::nullopt, Redirects,
                                           /*SecondsToWait=*/20);
  std::optional<std::string> Dir;
  if (Rc == 0)
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Out =
            llvm::MemoryBuffer::getFile(OutFile))
      if (const llvm::StringRef Answer = (*Out)->getBuffer().trim();
          llvm::sys::path::is_absolute(Answer) && llvm::sys::fs::is_directory(Answer))
        Dir = Answer.str();
  llvm::sys::fs::remove(OutFile);
  return Dir;
}

} // namespace

std::vector<std::string> defaultQueryDrivers() { return {"/usr/bin/*", "/usr/local/bin/*"}; }

std::optional<CompilerHeaders> compilerHeaders(const std::string &Compiler,
                                               const std::vector<std::string> &Globs) {
  const std::optional<std::string> Path = resolve(Compiler);
  if (!Path || !allowed(*Path, Globs))
    return std::nullopt;
  static std::mutex Lock;
  static std::map<std::string, std::optional<std::string>> Asked;
  std::optional<std::string> Dir;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Asked.find(*Path);
    if (It == Asked.end())
      It = Asked.emplace(*Path, ask(*Path)).first;
    Dir = It->second;
  }
  if (!Dir)
    return std::nullopt;
  // GCC answers PREFIX/lib/gcc/TRIPLE/VERSION/include; clang its resource
  // directory, under lib/clang.
  const bool Gcc = llvm::StringRef(*Dir).contains("/gcc/");
  return CompilerHeaders{*Dir, Gcc};
}

std::vector<std::string> compilerHeaderArguments(const CompilerHeaders &H) {
  std::vector<std::string> Args = {"-idirafter", H.Dir};
  if (H.Gcc)
    Args.push_back("-D__malloc__(...)=__malloc__");
  return Args;
}

clang::tooling::ArgumentsAdjuster queryDriverAdjuster(std::vector<std::string> Globs) {
  return [Globs = std::move(Globs)](const clang::tooling::CommandLineArguments &Args,
                                    llvm::StringRef File) {
    if (Args.empty() || Globs.empty())
      return Args;
    const std::optional<CompilerHeaders> Headers = compilerHeaders(Args.front(), Globs);
    if (!Headers)
      return Args;
    return clang::tooling::getInsertArgumentAdjuster(compilerHeaderArguments(*Headers),
                                                     clang::tooling::ArgumentInsertPosition::END)(
        Args, File);
  };
}

} // namespace dpstub
