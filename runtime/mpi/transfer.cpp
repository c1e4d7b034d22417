// The typeless half of dp::mpi: checked MPI calls, strided blocks, one
// round of halo messages (dp/mpi/transfer.hpp).
#include "dp/mpi/transfer.hpp"

#include <cstring>

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

std::size_t block::bytes() const {
  std::size_t n = elem;
  for (int d = 0; d < rank; ++d)
    n *= static_cast<std::size_t>(count[d]);
  return n;
}

namespace {
/// Walks a block's rows (its last dimension), calling row(address, bytes)
/// for each; a row of adjacent elements is one call.
template <class Row> void for_each_row(const block &b, Row &&row) {
  if (b.bytes() == 0)
    return;
  const int last = b.rank - 1;
  const bool dense = b.step[last] == static_cast<std::int64_t>(b.elem);
  std::int64_t at[max_rank] = {};
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
} // namespace

void pack(const block &b, char *out) {
  for_each_row(b, [&](const char *p, std::size_t n) {
    std::memcpy(out, p, n);
    out += n;
  });
}

void unpack(const char *in, const block &b) {
  for_each_row(b, [&](char *p, std::size_t n) {
    std::memcpy(p, in, n);
    in += n;
  });
}

round::round(MPI_Comm comm, int tag, std::vector<peer_blocks> peers, const char *what)
    : comm_(comm), what_(what), peers_(std::move(peers)) {
  const std::size_t n = peers_.size();
  in_.resize(n);
  out_.resize(n);
  requests_.assign(2 * n, MPI_REQUEST_NULL);
  auto total = [](const std::vector<block> &blocks) {
    std::size_t s = 0;
    for (const block &b : blocks)
      s += b.bytes();
    return s;
  };
  auto count = [&](std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT32_MAX))
      throw dp::error(where(comm_, what) + ": a halo message of " + std::to_string(bytes) +
                      " bytes is larger than one MPI message may be (2^31 - 1)");
    return static_cast<int>(bytes);
  };
  for (std::size_t k = 0; k < n; ++k) {
    in_[k].resize(total(peers_[k].recv));
    check(MPI_Irecv(in_[k].data(), count(in_[k].size()), MPI_BYTE, peers_[k].rank, tag, comm_,
                    &requests_[k]),
          comm_, what);
  }
  for (std::size_t k = 0; k < n; ++k) {
    out_[k].resize(total(peers_[k].send));
    char *p = out_[k].data();
    for (const block &b : peers_[k].send) {
      pack(b, p);
      p += b.bytes();
    }
    sent_ += out_[k].size();
    check(MPI_Isend(out_[k].data(), count(out_[k].size()), MPI_BYTE, peers_[k].rank, tag, comm_,
                    &requests_[n + k]),
          comm_, what);
  }
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
    if (static_cast<std::size_t>(got) != in_[k].size())
      throw dp::error(where(comm_, what_.c_str()) + ": rank " + std::to_string(peers_[k].rank) +
                      " sent " + std::to_string(got) + " bytes where " +
                      std::to_string(in_[k].size()) +
                      " were expected: the ranks exchanged different fields");
    const char *p = in_[k].data();
    for (const block &b : peers_[k].recv) {
      unpack(p, b);
      p += b.bytes();
    }
  }
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
