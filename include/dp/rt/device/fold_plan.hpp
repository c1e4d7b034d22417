/// \file
/// How a device's reduce<Dim> reads its values, decided here for both
/// devices, so that the emulated device hands its layer exactly what a
/// GPU's does (and the request log shows it on a CPU).
///
/// Across the contiguous dimension, over dense rows of an arithmetic
/// element read alone (pencil_vector_of, loads_vectors), a lane of the
/// tiled kernel folds V neighbouring pencils, their elements loaded as one
/// 16-byte vector a step (V = 4 floats, 2 doubles).
///
/// Along it, the vendor's segmented reduce takes the rows:
///  - rows long enough for a vendor group each (vendor_folds_rows), of an
///    arithmetic type under an operator with an identity (identity.hpp),
///    read by a map reading one element alone, row-major and dense over
///    the domain (dense_fold_elements): the elements through their pointer
///    (the pointer itself when the map hands each element on as it is),
///    folded from the identity with the operator itself, each row's fold
///    combined into the result. That is the vendor baseline's own call,
///    vectorised loads and all;
///  - otherwise the values at the pencils' positions as maybe<T>s, folded
///    from "no value" (any operator), combined where a row had values. Only
///    values too large for the tiled kernels (pencil_tiles.hpp) go there.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "../../extent.hpp"
#include "../../reference/projection.hpp"
#include "../stub/iterators.hpp"
#include "identity.hpp"
#include "requests.hpp"

namespace dp::rt {

/// Rows at least this long go to the vendor's segmented reduce (a group of
/// 256 threads a row: 8 values a thread at least); shorter ones to the
/// tiled kernels, which pack several rows in a group.
inline constexpr std::int64_t vendor_fold_min_length = 2048;

/// Whether rows of `length` steps are long enough for the vendor's
/// segmented reduce.
constexpr bool vendor_folds_rows(std::int64_t length) { return length >= vendor_fold_min_length; }

/// Whether reduce<Dim> of T under Op over Map's values can be the vendor's
/// plain segmented reduce of the elements, given dense rows (the types'
/// part of the decision).
template <int Dim, int N, class T, class Op, class Map>
inline constexpr bool vendor_row_fold_types = Dim == N - 1 && std::is_arithmetic<T>::value &&
                                              has_identity<Op, T>::value &&
                                              reads_one_element<Map>::value;

/// The elements a reduce<Dim> along the last dimension reads from their
/// pointer: when the types allow it (vendor_row_fold_types), the rows are
/// long enough (vendor_folds_rows) and the map's argument lies row-major
/// and dense over e. Null otherwise (the pencils' positions, then).
template <int Dim, class T, class Op, class Map, int N>
auto dense_fold_elements(const Map &map, const dp::extent<N> &e) {
  if constexpr (vendor_row_fold_types<Dim, N, T, Op, Map>) {
    const auto &elements = map.elements();
    using E = std::remove_reference_t<decltype(*elements.base)>;
    const bool dense = vendor_folds_rows(e[Dim]) && row_major_dense(elements, e);
    return dense ? static_cast<const E *>(elements.base) : nullptr;
  } else {
    (void)map, (void)e;
    return static_cast<const void *>(nullptr);
  }
}

/// Elements a lane of a tiled reduce<Dim> loads at once as 16 bytes (at
/// most 4), when its map reads one element of an arithmetic type alone and
/// T is arithmetic; else 1. Across the contiguous dimension they are V
/// neighbouring pencils' elements at one step, along it V consecutive
/// steps of one pencil.
template <int Dim, int N, class T, class Map> constexpr int pencil_vector_of() {
  if constexpr (reads_one_element<Map>::value && std::is_arithmetic<T>::value) {
    using E = std::remove_const_t<
        std::remove_reference_t<decltype(*std::declval<const Map &>().elements().base)>>;
    if constexpr (std::is_arithmetic<E>::value && sizeof(E) <= 8)
      return 16 / sizeof(E) < 4 ? int(16 / sizeof(E)) : 4;
  }
  return 1;
}

/// Whether the elements of `p` over e move as vectors of V: they step by
/// one along the last dimension, every other step and the last extent are
/// multiples of V, and the first is aligned to V elements.
template <int V, class U, int N>
bool moves_vectors(const dp::detail::affine_projection<U, N> &p, const dp::extent<N> &e) {
  if (e[N - 1] % V != 0 || (e[N - 1] > 1 && p.step[N - 1] != 1) ||
      reinterpret_cast<std::uintptr_t>(p.base) % (V * sizeof(U)) != 0)
    return false;
  for (int d = 0; d + 1 < N; ++d)
    if (e[d] > 1 && p.step[d] % V != 0)
      return false;
  return true;
}
/// Whether the elements map reads over e load as vectors of V.
template <int V, class Map, int N> bool loads_vectors(const Map &map, const dp::extent<N> &e) {
  return moves_vectors<V>(map.elements(), e);
}
/// Whether `out` takes the results over e as vectors of V.
template <int V, class T, int N>
bool stores_vectors(const dp::detail::affine_projection<T, N> &out, const dp::extent<N> &e) {
  return moves_vectors<V>(out, e);
}

/// Calls `fold(in, out, op, init)` with the segmented reduce's input
/// iterator, output (a writer combining each row's fold into the result),
/// operator and initial value for reduce<Dim> of `map` over `e` (whose
/// pencils are at `positions`) into `out`, after noting the request.
template <int Dim, class T, int N, class Op, class Map, class Fold>
void with_fold_segments_io(const std::string &site, const dp::extent<N> &e,
                           const pencil_positions<N, Dim> &positions, const Op &op, const Map &map,
                           const dp::detail::affine_projection<T, N - 1> &out, const Fold &fold) {
  const auto run = [&](const auto &in, const auto &writer, const auto &combine, const auto &init) {
    note_vendor<decltype(in), decltype(writer)>(site, "segmented reduce", e.size(), e.size());
    fold(in, writer, combine, init);
  };
  if constexpr (vendor_row_fold_types<Dim, N, T, Op, Map>) {
    if (const auto *base = dense_fold_elements<Dim, T, Op>(map, e)) {
      using E = std::remove_const_t<std::remove_pointer_t<decltype(base)>>;
      const pencil_result_writer<N, Dim, T, Op, T> writer({out, positions, op});
      const T init = has_identity<Op, T>::value_of();
      if constexpr (elements_are_values<Map, E, T>)
        return run(base, writer, op, init);
      else
        return run(offset_iterator<mapped_values<T, Map, element_positions<N, E>>>({map, {base}}, 0),
                   writer, op, init);
    }
  }
  run(offset_iterator<present_values<T, Map, pencil_positions<N, Dim>>>({map, positions}, 0),
      pencil_result_writer<N, Dim, T, Op>({out, positions, op}), maybe_op<T, Op>{op}, none<T>());
}

} // namespace dp::rt
