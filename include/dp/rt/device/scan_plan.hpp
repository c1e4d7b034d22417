/// \file
/// Where a device's scan<Dim> along the contiguous dimension (one vendor
/// scan by key, the key being the pencil number) reads and writes, decided
/// here for both devices, so that the emulated device hands its layer
/// exactly what a GPU's does (and the request log shows it on a CPU):
///  - a map reading one read-only element alone, with that argument and
///    the result dense row-major over the domain (dense_scan_elements): the
///    elements through their pointer (the pointer itself when the map hands
///    each element on as it is: elements_are_values), written to the
///    result's raw pointer;
///  - otherwise the values at the pencils' positions, written back there.
#pragma once

#include <string>
#include <type_traits>

#include "../../extent.hpp"
#include "../../reference/projection.hpp"
#include "../stub/iterators.hpp"
#include "requests.hpp"

namespace dp::rt {

/// Calls `scan(in, out)` with the scan by key's input iterator and output
/// (a pointer or a position writer) for scan<Dim> of `map` over `e` (whose
/// pencils are at `positions`) into `out`, after noting the request.
template <int Dim, class T, int N, class Map, class Scan>
void with_scan_segments_io(const std::string &site, const dp::extent<N> &e,
                           const pencil_positions<N, Dim> &positions, const Map &map,
                           const dp::detail::affine_projection<T, N> &out, const Scan &scan) {
  const auto run = [&](const auto &in, const auto &writer) {
    note_vendor<decltype(in), decltype(writer)>(site, "scan by key", e.size(), e.size());
    scan(in, writer);
  };
  if constexpr (reads_one_element<Map>::value && Dim == N - 1) {
    if (const auto *base = dense_scan_elements(map, e, out)) {
      using E = std::remove_const_t<std::remove_pointer_t<decltype(base)>>;
      T *const result = out.base; // a plain pointer (the projection's is restrict-qualified)
      if constexpr (elements_are_values<Map, E, T>)
        return run(base, result);
      else
        return run(offset_iterator<mapped_values<T, Map, element_positions<N, E>>>({map, {base}}, 0),
                   result);
    }
  }
  run(offset_iterator<mapped_values<T, Map, pencil_positions<N, Dim>>>({map, positions}, 0),
      position_writer<T, pencil_positions<N, Dim>, N>({out, positions}));
}

} // namespace dp::rt
