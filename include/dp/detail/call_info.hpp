/// \file
/// Names a call-site in messages: its kind and its source location (the
/// tool's for a translated call-site, the caller's line for an untranslated
/// one when it is known).
#pragma once

#include <cstring>
#include <string>

#include "source_site.hpp"

namespace dp::detail {

/// What a dp::error says about where it came from.
struct call_info {
  const char *kind = "dp::forall";  ///< "dp::forall", "dp::reduce", ...
  const char *location = nullptr;   ///< "file.cpp:12:3", written by the tool
  source_site site{};               ///< where an untranslated call-site is

  std::string name() const {
    if (location)
      return std::string(kind) + " at " + location;
    if (site.file) {
      const char *slash = std::strrchr(site.file, '/');
      return std::string(kind) + " at " + (slash ? slash + 1 : site.file) + ":" +
             std::to_string(site.line);
    }
    return std::string(kind);
  }
};

} // namespace dp::detail
