/// \file
/// The typeless half of dp::mpi, compiled once into dpstub::dp_mpi
/// (runtime/mpi/): MPI calls checked into dp::errors, strided blocks of
/// bytes packed into and out of messages, and one round of halo messages.
/// dp/mpi.hpp turns fields and boxes into blocks; nothing here knows T.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../rt/strided.hpp"

namespace dp::mpi::detail {

/// The highest rank a decomposed grid may have.
inline constexpr int max_rank = dp::rt::strided_block::max_rank;

/// "dp::mpi::<what> (rank R of S)": how every message of dp::mpi begins.
std::string where(MPI_Comm comm, const char *what);
/// Throws a dp::error with MPI's message when `code` is not MPI_SUCCESS.
void check(int code, MPI_Comm comm, const char *what);

using block = dp::rt::strided_block;
using dp::rt::pack;
using dp::rt::unpack;

/// One peer's messages of a round: the bytes we send it and where the
/// bytes it sends us go (host memory, or device memory where MPI is
/// GPU-aware); the caller keeps both alive until the round is complete.
struct peer_message {
  int rank = -1;
  const void *out = nullptr;
  std::size_t out_bytes = 0;
  void *in = nullptr;
  std::size_t in_bytes = 0;
};

/// One round of messages: every receive posted and every send started when
/// it is made; complete() waits and checks each message's size.
/// Destroying an incomplete round waits for its messages.
class round {
public:
  round(MPI_Comm comm, int tag, std::vector<peer_message> peers, const char *what);
  ~round();
  round(const round &) = delete;
  round &operator=(const round &) = delete;
  void complete();

private:
  MPI_Comm comm_;
  std::string what_;
  std::vector<peer_message> peers_;
  std::vector<MPI_Request> requests_; // receives first, then sends
  bool done_ = false;
};

/// DP_MPI_GPU_AWARE: 1 or 0 when set (a dp::error for anything else),
/// -1 when not.
int gpu_aware_setting();
/// Whether MPI says it takes CUDA device pointers
/// (MPIX_Query_cuda_support, where Open MPI has it).
bool mpi_reports_cuda_aware();

/// The same 64-bit value on every rank of comm? (two small reductions)
bool same_everywhere(MPI_Comm comm, std::uint64_t value);
/// FNV-1a over bytes, for same_everywhere.
std::uint64_t fingerprint(const void *bytes, std::size_t n, std::uint64_t h = 14695981039346656037ull);

} // namespace dp::mpi::detail
