// The typeless half of dp::mpi: checked MPI calls, strided blocks, one
// round of halo messages (dp/mpi/transfer.hpp).
#include "dp/mpi/transfer.hpp"

#include <cstdlib>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include "dp/error.hpp"

namespace dp::mpi::detail {

std::string where(MPI_Comm comm, const char *what) {
  int rank = 0, size = 1, finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm != MPI_COMM_NULL) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
  return std::string("dp::mpi::") + what + " (rank " + std::to_string(rank) + " of " +
         std::to_string(size) + ")";
}

void check(int code, MPI_Comm comm, const char *what) {
  if (code == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    length = 0;
  throw dp::error(where(comm, what) + ": MPI failed: " +
                  (length ? std::string(text, length) : "error " + std::to_string(code)));
}

round::round(MPI_Comm comm, int tag, std::vector<peer_message> peers, const char *what)
    : comm_(comm), what_(what), peers_(std::move(peers)) {
  const std::size_t n = peers_.size();
  requests_.assign(2 * n, MPI_REQUEST_NULL);
  auto count = [&](std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT32_MAX))
      throw dp::error(where(comm_, what) + ": a halo message of " + std::to_string(bytes) +
                      " bytes is larger than one MPI message may be (2^31 - 1)");
    return static_cast<int>(bytes);
  };
  for (std::size_t k = 0; k < n; ++k)
    check(MPI_Irecv(peers_[k].in, count(peers_[k].in_bytes), MPI_BYTE, peers_[k].rank, tag, comm_,
                    &requests_[k]),
          comm_, what);
  for (std::size_t k = 0; k < n; ++k)
    check(MPI_Isend(peers_[k].out, count(peers_[k].out_bytes), MPI_BYTE, peers_[k].rank, tag,
                    comm_, &requests_[n + k]),
          comm_, what);
}

round::~round() {
  if (done_)
    return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

void round::complete() {
  if (done_)
    return;
  done_ = true;
  const std::size_t n = peers_.size();
  std::vector<MPI_Status> status(requests_.size());
  const int code =
      MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), status.data());
  if (code == MPI_ERR_IN_STATUS)
    for (const MPI_Status &s : status)
      check(s.MPI_ERROR, comm_, what_.c_str());
  check(code, comm_, what_.c_str());
  for (std::size_t k = 0; k < n; ++k) {
    int got = 0;
    MPI_Get_count(&status[k], MPI_BYTE, &got);
    if (static_cast<std::size_t>(got) != peers_[k].in_bytes)
      throw dp::error(where(comm_, what_.c_str()) + ": rank " + std::to_string(peers_[k].rank) +
                      " sent " + std::to_string(got) + " bytes where " +
                      std::to_string(peers_[k].in_bytes) +
                      " were expected: the ranks exchanged different fields");
  }
}

int gpu_aware_setting() {
  const char *env = std::getenv("DP_MPI_GPU_AWARE");
  if (!env || !*env)
    return -1;
  const std::string v(env);
  if (v == "1")
    return 1;
  if (v == "0")
    return 0;
  throw dp::error("DP_MPI_GPU_AWARE=" + v + ": use 1 (MPI takes device pointers) or 0");
}

bool mpi_reports_cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

std::uint64_t fingerprint(const void *bytes, std::size_t n, std::uint64_t h) {
  const auto *p = static_cast<const unsigned char *>(bytes);
  for (std::size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

bool same_everywhere(MPI_Comm comm, std::uint64_t value) {
  std::uint64_t both[2] = {value, ~value}, folded[2] = {0, 0};
  check(MPI_Allreduce(both, folded, 2, MPI_UINT64_T, MPI_MAX, comm), comm, "decompose");
  return folded[0] == value && folded[1] == ~value; // max == value and min == value
}

} // namespace dp::mpi::detail
