//===- DriverQuery.h - The database compiler's own include directory -*- C++ -*-===//
//
// A database made with GCC names headers that live in GCC's own include
// directory (omp.h, for one), which clang's resource directory does not
// hold: `g++ -fopenmp` sources then fail to parse with "'omp.h' file not
// found". As clangd's --query-driver does, dpstub asks the command's
// compiler where its headers are (`-print-file-name=include`) and searches
// that directory after every other (-idirafter), so clang's own headers
// still win; for GCC's headers a one-macro shim covers the one attribute
// form of theirs clang rejects. Only compilers whose resolved path matches one of the allowed
// globs are run: a database from an untrusted checkout cannot make dpstub
// run an arbitrary program.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Tooling/ArgumentsAdjusters.h"

#include <optional>
#include <string>
#include <vector>

namespace dpstub {

/// The system compilers dpstub asks by default.
std::vector<std::string> defaultQueryDrivers();

/// A compiler's own include directory, and whether it is GCC's.
struct CompilerHeaders {
  std::string Dir;
  bool Gcc = false;
};

/// The compiler's own include directory, when `Compiler` (argv[0] of a
/// compile command, a path or a name found on PATH) resolves to a path
/// matching one of `Globs` and answers with an existing directory. Each
/// compiler is asked once per process.
std::optional<CompilerHeaders> compilerHeaders(const std::string &Compiler,
                                               const std::vector<std::string> &Globs);

/// The arguments that let clang read a compiler's own headers: the
/// directory, searched last; for GCC's also a shim for the one GCC-only
/// form its headers use (omp.h's `__malloc__(omp_free)` deallocator
/// attribute, which clang rejects; the shim drops its argument).
std::vector<std::string> compilerHeaderArguments(const CompilerHeaders &H);

/// An adjuster appending those arguments for the command's compiler.
clang::tooling::ArgumentsAdjuster queryDriverAdjuster(std::vector<std::string> Globs);

} // namespace dpstub
