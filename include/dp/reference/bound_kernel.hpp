/// \file
/// A kernel with its call-site arguments bound: the binders of every
/// argument, checked once, and the code that calls the kernel for a row
/// segment. Shared by forall, reduce and scan on the host.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../grid.hpp"
#include "aliasing.hpp"
#include "binders.hpp"
#include "callable_traits.hpp"
#include "classify.hpp"
#include "tile_point.hpp"

namespace dp::detail {

/// True when K takes one more parameter than there are arguments and its
/// first parameter is dp::index<Rc>: the logical index is passed implicitly.
template <class K, int Rc, std::size_t NArgs>
inline constexpr bool implicit_index_v =
    arity<K>::value == static_cast<int>(NArgs) + 1 &&
    std::is_same<std::remove_cv_t<std::remove_reference_t<typename formal_at<K, 0>::type>>,
                 index<Rc>>::value;

template <int Rc, class K, class... Args> class bound_kernel {
  static constexpr std::size_t nargs = sizeof...(Args);
  static constexpr bool implicit = implicit_index_v<K, Rc, nargs>;
  static constexpr std::size_t first = implicit ? 1 : 0;
  template <std::size_t I> using formal = typename formal_at<K, I + first>::type;

  static_assert(arity<K>::value < 0 || arity<K>::value == static_cast<int>(nargs) ||
                    implicit,
                "dp: the kernel's parameter count does not match the call-site's "
                "argument count (a kernel may take one extra leading "
                "dp::index<Rc> parameter for the logical index)");

  template <std::size_t... I>
  static auto make_all(std::index_sequence<I...>, const grid<Rc> &g, const call_info &c,
                       [[maybe_unused]] std::tuple<Args &...> a) {
    return std::make_tuple(make_binder<formal<I>, Rc, static_cast<int>(I)>(std::get<I>(a), g, c)...);
  }
  template <std::size_t... I>
  static void check_all(std::index_sequence<I...>, const call_info &c,
                        [[maybe_unused]] std::tuple<Args &...> a) {
    const argument_use uses[] = {use_of<formal<I>, Rc>(std::get<I>(a))..., argument_use()};
    check_aliasing(c, uses, nargs);
  }
  template <std::size_t... I>
  static std::array<argument_use, nargs + 1> uses_at(std::index_sequence<I...>,
                                                     [[maybe_unused]] std::tuple<Args &...> a) {
    return {{use_of<formal<I>, Rc>(std::get<I>(a))..., argument_use()}};
  }
  using binders_t = decltype(make_all(std::index_sequence_for<Args...>(),
                                      std::declval<const grid<Rc> &>(),
                                      std::declval<const call_info &>(),
                                      std::declval<std::tuple<Args &...>>()));

public:
  /// The data block each argument reaches and whether the kernel writes
  /// it, then one spare entry (a result's, for whoever asks): what
  /// dp::record keeps of an untranslated call-site.
  static std::array<argument_use, nargs + 1> uses(Args &...args) {
    return uses_at(std::index_sequence_for<Args...>(), std::tie(args...));
  }

  bound_kernel(const call_info &call, const grid<Rc> &g, const K &kernel, Args &...args)
      : kernel_(kernel), index_(g, index_kind::global),
        binders_((check_all(std::index_sequence_for<Args...>(), call, std::tie(args...)),
                  make_all(std::index_sequence_for<Args...>(), g, call, std::tie(args...)))) {
    unit_ = std::apply([](const auto &...b) { return (true && ... && b.unit()); }, binders_);
  }

  /// The first dimension from which every argument can be walked as one
  /// row over extents e (merge_from in binders.hpp); Rc - 1 when the
  /// kernel takes the index.
  int merge_from(const dp::extent<Rc> &e) const {
    if (implicit)
      return Rc - 1;
    return std::apply(
        [&](const auto &...b) {
          int m = 0;
          ((m = std::max(m, dp::detail::merge_from(b, e))), ...);
          return m;
        },
        binders_);
  }

  /// Calls the kernel at last-dimension positions j0..j1-1 of the row whose
  /// leading positions are pos, handing each result (if any) to
  /// consume(j, value).
  template <class Consume>
  void segment(const std::int64_t (&pos)[Rc], std::int64_t j0, std::int64_t j1,
               Consume &&consume) const {
    binders_t local = binders_;
    std::apply([&](auto &...b) { (b.begin_row(pos), ...); }, local);
    index_binder<Rc> idx = index_;
    idx.begin_row(pos);
    if (unit_)
      run<true>(local, idx, j0, j1, consume, std::index_sequence_for<Args...>());
    else
      run<false>(local, idx, j0, j1, consume, std::index_sequence_for<Args...>());
  }

  /// acc r f(j0) r ... r f(j1 - 1) over the row at pos.
  template <class T, class R>
  DP_NOINLINE T fold(const std::int64_t (&pos)[Rc], std::int64_t j0, std::int64_t j1, const R &r,
                     T acc) const {
    binders_t local = binders_;
    std::apply([&](auto &...b) { (b.begin_row(pos), ...); }, local);
    index_binder<Rc> idx = index_;
    idx.begin_row(pos);
    if (unit_)
      return fold_row<true>(local, idx, j0, j1, r, std::move(acc), std::index_sequence_for<Args...>());
    return fold_row<false>(local, idx, j0, j1, r, std::move(acc), std::index_sequence_for<Args...>());
  }

  /// Calls the kernel for one thread of a tiled domain. A padding thread
  /// (outside the grid) gets what each binder's padding() gives; its
  /// projected writes go to temporaries and are dropped. Returns what the
  /// kernel returns (a reduce's map function), else nothing.
  decltype(auto) call_tiled(const tile_point<Rc> &p) const {
    const tile_group<Rc> t = p.group(index_.lb, index_.stride);
    if (p.in_domain) {
      binders_t local = binders_;
      std::int64_t pos[Rc];
      for (int d = 0; d < Rc; ++d)
        pos[d] = p.pos[d];
      std::apply([&](auto &...b) { (b.begin_row(pos), ...); }, local);
      return call_tiled_with(local, p, t, std::true_type(), std::index_sequence_for<Args...>());
    }
    return call_tiled_with(binders_, p, t, std::false_type(), std::index_sequence_for<Args...>());
  }

private:
  template <class B, bool In, std::size_t... I>
  decltype(auto) call_tiled_with(const B &b, const tile_point<Rc> &p, const tile_group<Rc> &t,
                                 std::integral_constant<bool, In>,
                                 std::index_sequence<I...>) const {
    auto &k = const_cast<std::decay_t<K> &>(kernel_);
    auto value = [&](const auto &binder) -> decltype(auto) {
      if constexpr (In)
        return tile_argument(binder, p, t);
      else
        return binder.padding(p, t);
    };
    if constexpr (implicit)
      return k(t.global(), as_lvalue(adapt<formal<I>>(value(std::get<I>(b))))...);
    else
      return k(as_lvalue(adapt<formal<I>>(value(std::get<I>(b))))...);
  }

  template <bool Unit, class T, class R, std::size_t... I>
  T fold_row(binders_t &b, const index_binder<Rc> &idx, std::int64_t j0, std::int64_t j1,
             const R &r, T acc, std::index_sequence<I...>) const {
    auto &k = const_cast<std::decay_t<K> &>(kernel_);
    for (std::int64_t j = j0; j < j1; ++j) {
      if constexpr (implicit)
        acc = static_cast<T>(r(acc, k(idx.template at<Unit>(j),
                                      as_lvalue(adapt<formal<I>>(std::get<I>(b).template at<Unit>(j)))...)));
      else
        acc = static_cast<T>(
            r(acc, k(as_lvalue(adapt<formal<I>>(std::get<I>(b).template at<Unit>(j)))...)));
    }
    return acc;
  }

  template <bool Unit, class Consume, std::size_t... I>
  void run(binders_t &b, const index_binder<Rc> &idx, std::int64_t j0, std::int64_t j1,
           Consume &consume, std::index_sequence<I...>) const {
    auto &k = const_cast<std::decay_t<K> &>(kernel_);
    for (std::int64_t j = j0; j < j1; ++j) {
      if constexpr (implicit) {
        call_and_consume(consume, j, k, idx.template at<Unit>(j),
                         as_lvalue(adapt<formal<I>>(std::get<I>(b).template at<Unit>(j)))...);
      } else {
        call_and_consume(consume, j, k,
                         as_lvalue(adapt<formal<I>>(std::get<I>(b).template at<Unit>(j)))...);
      }
    }
  }
  template <class Consume, class F, class... A>
  static void call_and_consume(Consume &consume, std::int64_t j, F &f, A &&...a) {
    if constexpr (std::is_void<decltype(f(std::forward<A>(a)...))>::value)
      f(std::forward<A>(a)...);
    else
      consume(j, f(std::forward<A>(a)...));
  }

  std::decay_t<K> kernel_;
  index_binder<Rc> index_;
  binders_t binders_;
  bool unit_ = true;
};

} // namespace dp::detail
