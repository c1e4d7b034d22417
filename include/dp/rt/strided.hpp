/// \file
/// Strided blocks of bytes: the elements of a field inside a box, packed
/// into one contiguous buffer and back. The host does it here; a device
/// layer does it on its own memory (gpu/device.hpp's kernels, the emulated
/// device's queue running these same loops). dp::mpi's halo messages are
/// made of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace dp::rt {

/// The elements of a field inside one box: `count[d]` elements along
/// dimension d, `step[d]` bytes apart, each `elem` bytes, from `base`.
struct strided_block {
  static constexpr int max_rank = 8;
  char *base = nullptr;
  std::size_t elem = 0;
  int rank = 0;
  std::int64_t count[max_rank] = {};
  std::int64_t step[max_rank] = {};

  std::int64_t elements() const {
    std::int64_t n = rank > 0 ? 1 : 0;
    for (int d = 0; d < rank; ++d)
      n *= count[d];
    return n;
  }
  std::size_t bytes() const { return static_cast<std::size_t>(elements()) * elem; }
  /// The same block at another address (the device copy of its field).
  strided_block rebased(char *from, char *to) const {
    strided_block b = *this;
    b.base = to + (base - from);
    return b;
  }
};

namespace detail {
/// Calls row(address, bytes) for each row (the last dimension) of b; a row
/// of adjacent elements is one call.
template <class Row> void for_each_row(const strided_block &b, Row &&row) {
  if (b.elements() == 0)
    return;
  const int last = b.rank - 1;
  const bool dense = b.step[last] == static_cast<std::int64_t>(b.elem);
  std::int64_t at[strided_block::max_rank] = {};
  for (;;) {
    char *p = b.base;
    for (int d = 0; d < last; ++d)
      p += at[d] * b.step[d];
    if (dense)
      row(p, b.elem * static_cast<std::size_t>(b.count[last]));
    else
      for (std::int64_t i = 0; i < b.count[last]; ++i)
        row(p + i * b.step[last], b.elem);
    int d = last - 1;
    while (d >= 0 && ++at[d] == b.count[d])
      at[d--] = 0;
    if (d < 0)
      return;
  }
}
} // namespace detail

/// Copies a block into `out`, row-major.
inline void pack(const strided_block &b, void *out) {
  char *o = static_cast<char *>(out);
  detail::for_each_row(b, [&](const char *p, std::size_t n) {
    std::memcpy(o, p, n);
    o += n;
  });
}
/// Copies `in`, row-major, into a block.
inline void unpack(const void *in, const strided_block &b) {
  const char *i = static_cast<const char *>(in);
  detail::for_each_row(b, [&](char *p, std::size_t n) {
    std::memcpy(p, i, n);
    i += n;
  });
}

} // namespace dp::rt
