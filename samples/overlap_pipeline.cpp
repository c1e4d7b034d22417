// The classic copy/compute overlap: a stream of chunks, each pushed to the
// device, transformed and brought back, with consecutive chunks on two
// queues so that one chunk's transfers overlap another's computation.
// dpstub orders each chunk's steps (the launch waits for its input's push;
// the read-back waits for the launch) and keeps create'd outputs from
// being copied in. Checked against the plain, serial version.
//
//   overlap_pipeline [elements per chunk]   (default 2^20: 4 MiB chunks,
//                                            large enough to see in a trace)
#include <dp/dp.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <vector>

#include "check.hpp"

/// A few dozen flops per element: computation comparable to its transfers.
float transform(float x) {
  float y = x;
  for (int k = 0; k < 16; ++k)
    y = y * 0.999f + 0.5f * std::sin(y);
  return y;
}

void step(float &out, float in) { out = transform(in); }

int main(int argc, char **argv) {
  const int chunks = 8;
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : std::int64_t(1) << 20; // per chunk
  if (n < 1) {
    std::fprintf(stderr, "overlap_pipeline: elements per chunk must be positive, not '%s'\n",
                 argv[1]);
    return 2;
  }
  const dp::grid<1> g(n);
  std::vector<dp::field<1, float>> in, out;
  for (int c = 0; c < chunks; ++c) {
    in.emplace_back(g);
    out.emplace_back(g);
    for (std::int64_t i = 0; i < n; ++i)
      in[c](i) = float((c * n + i) % 1000) * 0.01f;
  }

  // The pipeline: chunk c on queue c % 2. The outputs live on the device
  // for the pipeline's length without being copied in first.
  {
    dp::queue queues[2];
    std::vector<std::unique_ptr<dp::data_region>> resident;
    for (int c = 0; c < chunks; ++c) {
      dp::queue &q = queues[c % 2];
      resident.push_back(std::make_unique<dp::data_region>(dp::create(out[c])));
      dp::update_device(q, in[c]);
      dp::forall(dp::on(q), g, step, out[c], in[c]);
      dp::update_host(q, out[c]);
    }
    dp::wait_all();
  }

  // The plain version, and the reference.
  dp::field<1, float> serial(g);
  double err = 0;
  for (int c = 0; c < chunks; ++c) {
    dp::forall(g, step, serial, in[c]);
    for (std::int64_t i = 0; i < n; ++i) {
      const float want = transform(in[c](i));
      err = std::max(err, double(std::fabs(out[c](i) - want)));
      err = std::max(err, double(std::fabs(serial(i) - want)));
    }
  }
  std::printf("pipeline: %d chunks of %lld\n", chunks, static_cast<long long>(n));
  return report("overlap_pipeline", err, 1e-4);
}
