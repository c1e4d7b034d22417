/// \file
/// How a device sorts the pencils of sort<Dim>, decided here for both
/// devices, so that the emulated device asks its layer for exactly what a
/// GPU's asks (and the request log shows it on a CPU):
///  - arithmetic values in their natural order (or its reverse): a
///    segmented radix sort of the values themselves; when the pencils are
///    the rows of a dense row-major block, sorted straight from it and
///    copied back (one launch), else gathered first and scattered after
///    (three);
///  - any other order: the values gathered as (pencil, value) pairs,
///    merge-sorted by pencil then by the comparator, scattered back (three).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "../stub/iterators.hpp"
#include "requests.hpp"

namespace dp::rt {

/// The most elements (and segments) one vendor radix sort call takes.
inline constexpr std::int64_t radix_sort_limit = 2147483647;

struct sort_choice {
  bool radix = false; ///< a segmented radix sort (else a merge sort of pairs)
  bool dense = false; ///< sorted in place of a gather, copied back in place of a scatter
  /// Kernel and vendor launches.
  int launches() const { return dense ? 1 : 3; }
  const char *algorithm() const { return radix ? "segmented sort" : "merge sort"; }
};

template <class T, int Dim, int N>
sort_choice choose_sort(bool natural_order, const dp::detail::affine_projection<T, N> &data,
                        const dp::extent<N> &e) {
  sort_choice c;
  c.radix = std::is_arithmetic<T>::value && natural_order && e.size() <= radix_sort_limit;
  c.dense = c.radix && Dim == N - 1 && row_major_dense(data, e);
  return c;
}

/// The requests a sort of `n` values of T makes, as `c` chose it: a gather
/// (the pass over the data) unless dense, the vendor sort, a scatter.
template <class T> void note_sort(const std::string &site, const sort_choice &c, std::int64_t n) {
  if (!logging_requests())
    return;
  if (!c.dense)
    note_stride_kernel(site, c.radix ? "gather" : "gather pairs", n, n);
  if (c.radix)
    note_vendor<const T *>(site, c.algorithm(), n, c.dense ? n : 0);
  else
    note_vendor<const keyed<T> *>(site, c.algorithm(), n, 0);
  if (!c.dense)
    note_stride_kernel(site, c.radix ? "scatter" : "scatter pairs", n, 0);
}

} // namespace dp::rt
