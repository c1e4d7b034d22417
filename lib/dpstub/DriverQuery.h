//===- DriverQuery.h - The database compiler's own include directory -*- C++ -*-===//
//
// A database made with GCC names headers that live in GCC's own include
// directory (omp.h, for one), which clang's resource directory does not
// hold: `g++ -fopenmp` sources then fail to parse with "'omp.h' file not
// found". As clangd's --query-driver does, dpstub asks the command's
// compiler where its headers are (`-print-file-name=include`) and searches
// that directory after every other (-idirafter), so clang's own headers
// still win. Only compilers whose resolved path matches one of the allowed
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

/// The compiler's own include directory, when `Compiler` (argv[0] of a
/// compile command, a path or a name found on PATH) resolves to a path
/// matching one of `Globs` and answers with an existing directory. Each
/// compiler is asked once per process.
std::optional<std::string> compilerIncludeDir(const std::string &Compiler,
                                              const std::vector<std::string> &Globs);

/// An adjuster appending `-idirafter <dir>` for the command's compiler.
clang::tooling::ArgumentsAdjuster queryDriverAdjuster(std::vector<std::string> Globs);

} // namespace dpstub
