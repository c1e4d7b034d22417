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

namespace dp::mpi::detail {

/// The highest rank a decomposed grid may have.
inline constexpr int max_rank = 8;

/// "dp::mpi::<what> (rank R of S)": how every message of dp::mpi begins.
std::string where(MPI_Comm comm, const char *what);
/// Throws a dp::error with MPI's message when `code` is not MPI_SUCCESS.
void check(int code, MPI_Comm comm, const char *what);

/// The elements of a field inside one box, as bytes: `count[d]` elements
/// along dimension d, `step[d]` bytes apart.
struct block {
  char *base = nullptr;
  std::size_t elem = 0;
  int rank = 0;
  std::int64_t count[max_rank] = {};
  std::int64_t step[max_rank] = {};
  std::size_t bytes() const;
};
/// Copies a block into `out`, row-major, and back (`in` into the block).
void pack(const block &b, char *out);
void unpack(const char *in, const block &b);

/// The blocks one peer sends us and we send it, in the order both sides
/// agree on (field by field).
struct peer_blocks {
  int rank = -1;
  std::vector<block> send, recv;
};

/// One round of messages: every receive posted and every send packed and
/// started when it is made; complete() waits, checks each message's size and
/// unpacks. Destroying an incomplete round waits for its messages (and
/// unpacks nothing).
class round {
public:
  round(MPI_Comm comm, int tag, std::vector<peer_blocks> peers, const char *what);
  ~round();
  round(const round &) = delete;
  round &operator=(const round &) = delete;
  void complete();
  std::size_t bytes_sent() const { return sent_; }

private:
  MPI_Comm comm_;
  std::string what_;
  std::vector<peer_blocks> peers_;
  std::vector<std::vector<char>> in_, out_;
  std::vector<MPI_Request> requests_; // receives first, then sends
  std::size_t sent_ = 0;
  bool done_ = false;
};

/// The same 64-bit value on every rank of comm? (two small reductions)
bool same_everywhere(MPI_Comm comm, std::uint64_t value);
/// FNV-1a over bytes, for same_everywhere.
std::uint64_t fingerprint(const void *bytes, std::size_t n, std::uint64_t h = 14695981039346656037ull);

} // namespace dp::mpi::detail
