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

/// A pencil call-site's kind as the tool spells it: "dp::reduce<1>",
/// "dp::scan<0>", "dp::sort<2>" (an untranslated call-site names itself
/// as the translated one does).
template <int Dim> struct pencil_kind {
  static constexpr char digit = Dim >= 0 && Dim < 10 ? char('0' + Dim) : '?';
  static constexpr char reduce[] = {'d', 'p', ':', ':', 'r', 'e', 'd', 'u', 'c', 'e', '<', digit, '>', 0};
  static constexpr char scan[] = {'d', 'p', ':', ':', 's', 'c', 'a', 'n', '<', digit, '>', 0};
  static constexpr char sort[] = {'d', 'p', ':', ':', 's', 'o', 'r', 't', '<', digit, '>', 0};
};

} // namespace dp::detail
