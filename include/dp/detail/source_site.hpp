/// \file
/// Where the user wrote an untranslated call-site, for its dp::errors.
///
/// A translated call-site names itself (the tool writes its file:line into
/// the stub). An untranslated one learns its line from a default argument:
/// `__builtin_FILE()` / `__builtin_LINE()` in a default argument take the
/// values of the call that uses it (GCC, Clang and nvcc alike). C++17 allows
/// no default argument after a deduced pack, so the site rides on the first
/// argument instead: a parameter `at_site<T>` is initialised from the
/// caller's `T` by a converting constructor whose default argument is the
/// site. Its T must be known without deduction, so the call-sites that
/// carry their site are those with execution options first (any domain) and
/// those over a `dp::grid<N>` of rank up to `max_sited_rank` (one overload
/// per rank); the others (tiled, dp::where and triangle domains without
/// options) are named by their kind only.
#pragma once

#include <type_traits>

namespace dp {

template <int N> class grid;

namespace detail {

/// A source file and line; empty (`file == nullptr`) when unknown.
struct source_site {
  const char *file = nullptr;
  unsigned line = 0;

  /// The site of the call whose default argument this is.
  static constexpr source_site here(const char *file = __builtin_FILE(),
                                    unsigned line = __builtin_LINE()) noexcept {
    return {file, line};
  }
};

/// A call-site's first argument and where that call-site is.
template <class T> struct at_site {
  const T &value;
  source_site site;

  // Implicit: `dp::forall(g, ...)` converts g here, at the caller's line.
  at_site(const T &v, source_site s = source_site::here()) noexcept : value(v), site(s) {}
};

/// The highest grid rank whose call-sites carry their site.
inline constexpr int max_sited_rank = 8;

/// Applies X to every rank that has sited overloads (X(1) ... X(8)).
#define DP_DETAIL_SITED_RANKS(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8)

/// Whether a plain call-site over a `Domain` goes through a sited
/// overload (so the generic one must step aside). The tool sees only the
/// generic overloads: it locates call-sites itself.
template <class Domain> struct sited_domain : std::false_type {};
#if !defined(DPSTUB_TOOL)
template <int N> struct sited_domain<grid<N>> : std::bool_constant<(N <= max_sited_rank)> {};
#endif
template <class Domain>
inline constexpr bool sited_domain_v = sited_domain<std::remove_cv_t<Domain>>::value;

template <class T> const T &value_of(const T &v) { return v; }
template <class T> const T &value_of(const at_site<T> &v) { return v.value; }
template <class T> source_site site_of(const T &) { return {}; }
template <class T> source_site site_of(const at_site<T> &v) { return v.site; }

} // namespace detail
} // namespace dp
