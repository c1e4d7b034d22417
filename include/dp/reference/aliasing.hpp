/// \file
/// The aliasing rule: a field bound to a writable parameter may
/// not appear in any other argument of the same call.
#pragma once

#include <cstddef>
#include <string>

#include "../field.hpp"
#include "../detail/call_info.hpp"
#include "classify.hpp"
#include "projection.hpp"

namespace dp::detail {

/// Which data block an argument touches and whether it writes it.
struct argument_use {
  const void *block = nullptr; ///< the storage, or null for non-fields
  bool writable = false;
};

template <class Formal, int Rc, class Actual> argument_use use_of(const Actual &a) {
  argument_use u;
  if constexpr (is_field_v<Actual>) {
    u.block = field_access::owner(a);
    u.writable = classify<Actual, Formal, Rc>::provably_writable;
  }
  return u;
}

/// A dp::error when a written block is also reached through another argument.
inline void check_aliasing(const call_info &call, const argument_use *uses, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!uses[i].writable || !uses[i].block)
      continue;
    for (std::size_t j = 0; j < n; ++j)
      if (j != i && uses[j].block == uses[i].block)
        fail(call.name() + ": " + describe_argument(static_cast<int>(i)) +
             " is bound to a writable parameter, but its data is also " +
             describe_argument(static_cast<int>(j)) +
             "; pass a clone() or make the parameters read-only");
  }
}

/// A dp::error when a field the call writes (a result, the sort field) also
/// feeds one of its arguments.
template <int M, class T, class... Args>
void check_result_not_aliased(const call_info &call, const field<M, T> &result,
                              const Args &...args) {
  int position = 0;
  [[maybe_unused]] auto check = [&](const auto &a) {
    if constexpr (is_field_v<decltype(a)>)
      if (field_access::owner(a) && field_access::owner(a) == field_access::owner(result))
        fail(call.name() + ": the result field's data is also " + describe_argument(position) +
             "; pass a clone()");
    ++position;
  };
  (check(args), ...);
}

} // namespace dp::detail
