/// \file
/// The argument conversions (docs/conversions.md) at compile time: how each
/// call-site argument reaches the kernel.
#pragma once

#include <type_traits>
#include <utility>

#include "../index.hpp"
#include "../indexable.hpp"
#include "../tokens.hpp"
#include "callable_traits.hpp"

namespace dp::detail {

/// The conversions of docs/conversions.md.
enum class conversion {
  special_index,
  elemental_projection,
  partial_projection,
  broadcast_field,
  broadcast_scalar,
  invalid
};

/// Instantiated (and left undefined) to make the numbers of a rank mismatch
/// appear in the compiler's message.
template <int ArgumentPosition, int ActualRank, int FormalRank, int ComputeRank>
struct argument_rank_mismatch;

template <class T> inline constexpr bool dependent_false = false;

/// Classification of one argument `Actual` bound to formal `Formal` at
/// compute rank Rc.
template <class Actual, class Formal, int Rc> struct classify {
  using actual = std::decay_t<Actual>;
  static constexpr bool formal_known = !std::is_same<Formal, unknown_formal>::value;
  using formal = std::remove_cv_t<std::remove_reference_t<Formal>>;

  static constexpr bool is_token = is_index_token<actual>::value;
  static constexpr int Ra = rank_of_v<actual>;
  /// A generic formal takes what the actual's rank suggests.
  static constexpr int Rf = formal_known ? rank_of_v<formal> : (Ra == Rc ? 0 : Ra);

  /// Writable: a non-const lvalue reference formal (or a generic one).
  static constexpr bool formal_writable =
      !formal_known || (std::is_lvalue_reference<Formal>::value &&
                        !std::is_const<std::remove_reference_t<Formal>>::value);

  static constexpr conversion value =
      is_token                      ? conversion::special_index
      : (Ra == Rc && Rf == 0)       ? conversion::elemental_projection
      : (Rf > 0 && Ra == Rc + Rf)   ? conversion::partial_projection
      : (Rf > 0 && Ra == Rf)        ? conversion::broadcast_field
      : (Ra == 0 && Rf == 0)        ? conversion::broadcast_scalar
                                    : conversion::invalid;

  /// The actual gives only const access: a const object, a read-only view
  /// (const elements), or an indexable type whose operator[] does not return
  /// a non-const lvalue reference.
  static constexpr bool actual_read_only = [] {
    using A = std::remove_reference_t<Actual>;
    if constexpr (std::is_const<A>::value)
      return true;
    else if constexpr (Ra > 0 && (value == conversion::elemental_projection ||
                                  value == conversion::partial_projection ||
                                  value == conversion::broadcast_field)) {
      using element = decltype(std::declval<A &>()[std::declval<const index<Ra> &>()]);
      return !std::is_lvalue_reference<element>::value ||
             std::is_const<std::remove_reference_t<element>>::value;
    } else
      return false;
  }();

  /// Read-write when the data can flow back: writable formal on a
  /// projection or field broadcast (scalars are always read-only).
  static constexpr bool read_write =
      formal_writable && value != conversion::broadcast_scalar &&
      value != conversion::special_index;
  /// Writable as far as aliasing rules go: only a formal we can see.
  static constexpr bool provably_writable = formal_known && read_write;
};

} // namespace dp::detail
