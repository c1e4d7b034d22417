/// \file
/// The GPU kernels of the runtime's own algorithms (gpu/algorithms.hpp):
/// gathering a sort's pencils into a contiguous buffer and scattering them
/// back, with a pencil key for a comparator sort, and packing strided
/// blocks. Grid-stride loops. Only device builds include this.
#pragma once

#include "../../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <algorithm>
#include <cstdint>

#include "../../reference/projection.hpp"
#include "../strided.hpp"
#include "../stub/dispatch.hpp"
#include "../stub/positions.hpp"
#include "api.hpp"

namespace dp::rt::gpu {

template <class T, class Less> struct keyed_less {
  Less less;
  DP_HOST_DEVICE bool operator()(const keyed<T> &a, const keyed<T> &b) const {
    return a.pencil < b.pencil || (a.pencil == b.pencil && less(a.value, b.value));
  }
};

template <class T, class Positions, int N>
__global__ void gather(T *out, const dp::detail::affine_projection<T, N> data,
                       const Positions positions, const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = data[positions(i)];
}
template <class T, class Positions, int N>
__global__ void gather_keyed(keyed<T> *out, const dp::detail::affine_projection<T, N> data,
                             const Positions positions, const std::int64_t length,
                             const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = make_keyed(i / length, data[positions(i)]);
}
template <class T, class Positions, int N>
__global__ void scatter(const T *in, const dp::detail::affine_projection<T, N> data,
                        const Positions positions, const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    data[positions(i)] = in[i];
}
template <class T, class Positions, int N>
__global__ void scatter_keyed(const keyed<T> *in, const dp::detail::affine_projection<T, N> data,
                              const Positions positions, const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    data[positions(i)] = in[i].value;
}

/// Element e of a strided block to or from packed[e]: one thread per Word
/// of each element (the widest the element's size allows).
template <class Word>
__global__ void strided_copy(const strided_block b, char *packed, const std::int64_t n,
                             const bool to_packed) {
  const std::int64_t words = static_cast<std::int64_t>(b.elem / sizeof(Word));
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n * words;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t e = i / words, w = i % words;
    std::int64_t rest = e, off = 0;
    for (int d = b.rank - 1; d >= 0; --d) {
      off += (rest % b.count[d]) * b.step[d];
      rest /= b.count[d];
    }
    Word *element = reinterpret_cast<Word *>(b.base + off) + w;
    Word *slot = reinterpret_cast<Word *>(packed + e * static_cast<std::int64_t>(b.elem)) + w;
    if (to_packed)
      *slot = *element;
    else
      *element = *slot;
  }
}

/// Groups for a grid-stride loop over n elements.
inline triple stride_groups(std::int64_t n) {
  return {std::max<std::int64_t>(1, std::min<std::int64_t>((n + 255) / 256, 65535)), 1, 1};
}
inline constexpr triple stride_shape{256, 1, 1};

} // namespace dp::rt::gpu

#endif
