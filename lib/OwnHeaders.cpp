//===- OwnHeaders.cpp - Where dpstub's own headers are --------------------===//

#include "dpstub/OwnHeaders.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace dpstub {

std::string ownIncludeDir(const char *Argv0, void *MainAddr) {
  namespace path = llvm::sys::path;
  const std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  llvm::SmallString<256> Installed(path::parent_path(path::parent_path(Exe)));
  path::append(Installed, "include", "dp", "dp.hpp");
  if (llvm::sys::fs::exists(Installed))
    return path::parent_path(path::parent_path(Installed)).str();
  return DPSTUB_SOURCE_INCLUDE_DIR;
}

} // namespace dpstub
