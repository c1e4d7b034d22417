/// \file
/// Fields captured inside a kernel object (a lambda's by-value captures, a
/// function object's members) take part in a launch: while a capture scope
/// is active, copying a field asks the scope for the data address the copy
/// must use (the device copy, made current) - the approach of RAJA's CHAI.
#pragma once

#include "../config.hpp"

namespace dp::detail {

class storage;

/// Receives every field copied while it is the current scope.
class capture_scope {
public:
  /// Returns the address the copy uses for `data`, an element of `block`.
  virtual void *translate(storage *block, void *data) = 0;

  /// The innermost active scope of this thread, or null.
  static capture_scope *&current() {
    static thread_local capture_scope *scope = nullptr;
    return scope;
  }

protected:
  ~capture_scope() = default;
};

/// Makes `scope` current for its lifetime.
class capture_guard {
public:
  explicit capture_guard(capture_scope *scope) : saved_(capture_scope::current()) {
    capture_scope::current() = scope;
  }
  ~capture_guard() { capture_scope::current() = saved_; }
  capture_guard(const capture_guard &) = delete;
  capture_guard &operator=(const capture_guard &) = delete;

private:
  capture_scope *saved_;
};

} // namespace dp::detail
