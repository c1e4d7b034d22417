//===- host_threads.cpp - The host's parallel loops, on oneTBB ------------===//
//
// The one place the runtime's headers reach oneTBB (detail/host_threads.hpp
// says why). A piece's body is called through range_body's function
// pointer; the splits are oneTBB's, as they were when the headers called it.
//
//===----------------------------------------------------------------------===//

#include "dp/detail/host_threads.hpp"

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace dp::detail {

int host_concurrency() { return std::max(1, tbb::this_task_arena::max_concurrency()); }

void host_parallel(std::int64_t n, std::int64_t grain, host_split_kind how, range_body body) {
  if (n <= 0)
    return;
  const tbb::blocked_range<std::int64_t> all(0, n, std::max<std::int64_t>(1, grain));
  const auto piece = [&](const tbb::blocked_range<std::int64_t> &r) { body(r.begin(), r.end()); };
  if (how == host_split_kind::simple)
    tbb::parallel_for(all, piece, tbb::simple_partitioner());
  else
    tbb::parallel_for(all, piece, tbb::auto_partitioner());
}

} // namespace dp::detail
