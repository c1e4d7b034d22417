//===- Databases.h - Where a file's compile command comes from --*- C++ -*-===//
//
// As clangd finds them: compile_commands.json in the file's folder or a
// parent, or in a build/ folder beside one. A file no database covers
// gets the fallback flags (C++17 and dpstub's headers; a `.c` file C's
// defaults), so that a lone source still gets hover, diagnostics and the
// loop conversions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dpstub {

class Databases {
public:
  /// Fallback flags for files outside every database: C++ ones, and C
  /// ones for `.c` files.
  Databases(std::vector<std::string> Fallback, std::vector<std::string> FallbackC)
      : Fallback(std::move(Fallback)), FallbackC(std::move(FallbackC)) {}

  /// The database to compile `File` (absolute) with: its own, or a fixed
  /// one with the fallback flags. Valid as long as this object.
  const clang::tooling::CompilationDatabase &forFile(const std::string &File);

private:
  const clang::tooling::CompilationDatabase *load(const std::string &Dir);

  std::vector<std::string> Fallback, FallbackC;
  std::mutex M;
  /// Loaded databases by folder (null: none there).
  std::map<std::string, std::unique_ptr<clang::tooling::CompilationDatabase>> ByDir;
  /// Fallback databases by folder and language (C: true).
  std::map<std::pair<std::string, bool>, std::unique_ptr<clang::tooling::CompilationDatabase>> FallbackByDir;
};

} // namespace dpstub
