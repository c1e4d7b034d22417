/// \file
/// Names a call-site in messages: its kind and, when the tool rewrote it,
/// its source location.
#pragma once

#include <string>

namespace dp::detail {

/// What a dp::error says about where it came from.
struct call_info {
  const char *kind = "dp::forall";  ///< "dp::forall", "dp::reduce", ...
  const char *location = nullptr;   ///< "file.cpp:12:3" when known

  std::string name() const {
    return location ? std::string(kind) + " at " + location : std::string(kind);
  }
};

} // namespace dp::detail
