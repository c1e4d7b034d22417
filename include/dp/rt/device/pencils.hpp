/// \file
/// reduce<Dim> and scan<Dim> on a device. Along the contiguous dimension:
/// the vendor's segmented reduction or scan by key. Across it: the pencil
/// kernels (pencil_kernels.hpp), one thread per pencil, laid out by the
/// planner over the pencils' domain.
#pragma once

#include <cstdint>

#include "../../detail/projection.hpp"
#include "../../extent.hpp"
#include "../pencil_kernels.hpp"
#include "executor.hpp"
#include "forall.hpp"

namespace dp::rt::device {

/// The pencils of e (e less dimension Dim): the domain of a pencil kernel.
template <int Dim, int N> dp::extent<N - 1> pencil_extent(const dp::extent<N> &e) {
  dp::extent<N - 1> p;
  for (int d = 0, k = 0; d < N; ++d)
    if (d != Dim)
      p[k++] = e[d];
  return p;
}

/// out(q) = r(out(q), fold of map over the pencil at q).
template <int Dim, class Device, int N, class T, class Op, class Map>
void fold_pencils(device_launch<Device> &L, const dp::extent<N> &e, const Op &op, const Map &map,
                  const dp::detail::affine_projection<T, N - 1> &out) {
  if constexpr (Dim == N - 1) {
    L.device().template fold_segments<Dim>(L, e, op, map, out);
  } else {
    using job_t = pencil_job<N, Dim, T, Op, Map, N - 1>;
    device::forall(L, pencil_extent<Dim>(e), pencil_stubs<job_t, false>(), job_t{map, op, out, e[Dim]});
  }
}

/// out(p) = the r-fold of map over p's pencil up to p.
template <int Dim, class Device, int N, class T, class Op, class Map>
void scan_pencils(device_launch<Device> &L, const dp::extent<N> &e, const Op &op, const Map &map,
                  const dp::detail::affine_projection<T, N> &out) {
  if constexpr (Dim == N - 1) {
    L.device().template scan_segments<Dim>(L, e, op, map, out);
  } else {
    using job_t = pencil_job<N, Dim, T, Op, Map, N>;
    device::forall(L, pencil_extent<Dim>(e), pencil_stubs<job_t, true>(), job_t{map, op, out, e[Dim]});
  }
}

/// Every pencil of the sort field along Dim sorted with `less`: by radix
/// for a natural order of arithmetic keys, else merged with the comparator.
template <int Dim, class Device, int N, class T, class Less>
void sort_pencils(device_launch<Device> &L, const dp::extent<N> &e, const Less &less,
                  bool natural_order, bool descending,
                  const dp::detail::affine_projection<T, N> &data) {
  L.device().template sort<Dim>(L, e, less, natural_order, descending, data);
}

} // namespace dp::rt::device
