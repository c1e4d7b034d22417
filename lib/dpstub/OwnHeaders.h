//===- OwnHeaders.h - Where dpstub's own headers are ------------*- C++ -*-===//
//
// The directory holding <dp/dp.hpp> for a dpstub executable: PREFIX/include
// beside an installed PREFIX/bin, else the source tree it was built from.
// The driver and the language server add it, last, to every command, so a
// source compiled without flags still finds the dp:: headers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace dpstub {

/// Argv0 and the address of a function in the executable locate it.
std::string ownIncludeDir(const char *Argv0, void *MainAddr);

} // namespace dpstub
