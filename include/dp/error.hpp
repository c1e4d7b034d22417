/// \file
/// dp::error, the one exception type of the library and runtime.
#pragma once

#include <stdexcept>
#include <string>

namespace dp {

/// Raised for every bad input and every backend failure. The message names
/// the call-site (when known) and what is wrong.
class error : public std::runtime_error {
public:
  explicit error(const std::string &what) : std::runtime_error(what) {}
};

namespace detail {
/// Throws dp::error with `what`; kept out of line of hot templates.
[[noreturn]] inline void fail(const std::string &what) { throw error(what); }
/// `what` as the error of the call-site `site`: prefixed by its name unless
/// it names it already (a dp::error raised inside does).
inline std::string named_by(const std::string &site, const std::string &what) {
  return what.rfind(site, 0) == 0 ? what : site + ": " + what;
}
} // namespace detail

} // namespace dp
