//===- Databases.cpp - Where a file's compile command comes from ----------===//

#include "Databases.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang::tooling;
namespace path = llvm::sys::path;

namespace dpstub {

const CompilationDatabase *Databases::load(const std::string &Dir) {
  auto It = ByDir.find(Dir);
  if (It != ByDir.end())
    return It->second.get();
  std::unique_ptr<CompilationDatabase> DB;
  const std::string File = Dir + "/compile_commands.json";
  if (llvm::sys::fs::exists(File)) {
    std::string Error;
    if (auto JSON = JSONCompilationDatabase::loadFromFile(File, Error, JSONCommandLineSyntax::AutoDetect))
      DB = inferMissingCompileCommands(std::move(JSON)); // headers get a neighbour's command
  }
  return (ByDir[Dir] = std::move(DB)).get();
}

const CompilationDatabase &Databases::forFile(const std::string &File) {
  std::lock_guard<std::mutex> Lock(M);
  for (llvm::StringRef Dir = path::parent_path(File); !Dir.empty(); Dir = path::parent_path(Dir)) {
    for (const std::string &Candidate : {Dir.str(), (Dir + "/build").str()})
      if (const CompilationDatabase *DB = load(Candidate))
        if (!DB->getCompileCommands(File).empty())
          return *DB;
    if (Dir == "/")
      break;
  }
  const std::string Dir = path::parent_path(File).str();
  const bool C = path::extension(File) == ".c";
  auto &DB = FallbackByDir[{Dir, C}];
  if (!DB)
    DB = std::make_unique<FixedCompilationDatabase>(Dir, C ? FallbackC : Fallback);
  return *DB;
}

} // namespace dpstub
