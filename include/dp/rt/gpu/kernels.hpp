/// \file
/// The GPU kernels of the runtime's own algorithms (gpu/primitives.hpp):
/// one index a thread for a sort's gathers and scatters, and packing
/// strided blocks. Grid-stride loops. Only device builds include this.
#pragma once

#include "../../config.hpp"

#if defined(DP_COMPILER_HIP) || defined(DP_COMPILER_CUDA)

#include <algorithm>
#include <cstdint>

#include "../../reference/projection.hpp"
#include "../strided.hpp"
#include "../stub/dispatch.hpp"
#include "api.hpp"

namespace dp::rt::gpu {

/// f(i) for every i < n: a grid-stride loop (a sort's gathers and
/// scatters: kernels/pencil_moves.hpp).
template <class F> __global__ void each_index(const F f, const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    f(i);
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
