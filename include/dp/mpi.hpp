/// \file
/// Scale-out over MPI: a global grid split over ranks, each rank's fields
/// over its part plus a halo, indexed by *global* index values, so kernels
/// and call-sites are those of the one-process program. Link
/// `dpstub::dp_mpi`.
///
///     dp::mpi::context ctx(argc, argv);
///     auto d = dp::mpi::decompose(ctx, dp::grid<2>(n, n), 1);
///     dp::field<2, double> t(d.with_halo()), next(d.with_halo());
///     d.exchange(t);                          // t's halo from the neighbours
///     dp::forall(interior(d), step, next, t); // any call-site, global indices
///     double r = d.all_reduce(local, std::plus<>());
///
/// Halo messages go straight between the ranks that share cells (corners
/// included), one message per neighbour per round holding every field of
/// the round. A field the device holds is packed and unpacked on the
/// device; only the faces cross to the host (docs/scale-out.md).
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "error.hpp"
#include "field.hpp"
#include "grid.hpp"
#include "mpi/layout.hpp"
#include "mpi/halo_round.hpp"
#include "mpi/transfer.hpp"

namespace dp::mpi {

/// MPI for the program's lifetime: `context(argc, argv)` initialises MPI
/// (unless something already did) and finalises what it initialised;
/// `context(comm)` works within an existing communicator. Either way dp::mpi
/// talks on its own duplicate of the communicator, with MPI errors returned
/// (and raised as dp::errors) rather than aborting.
class context {
public:
  context(int &argc, char **&argv);
  explicit context(MPI_Comm comm);
  ~context();
  context(const context &) = delete;
  context &operator=(const context &) = delete;

  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

private:
  void adopt(MPI_Comm comm);
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  bool finalize_ = false;
};

/// True when exchanges hand device memory straight to MPI (a GPU-aware
/// MPI: MPIX_Query_cuda_support under nvcc, or DP_MPI_GPU_AWARE=1); else
/// the faces of device-resident fields are staged through host memory.
inline bool gpu_aware() { return detail::device_pointers_to_mpi(); }

/// `all_reduce(v, op, dp::mpi::ordered)`: combine in rank order, so that
/// every run on the same ranks gives the same bits.
struct ordered_t {
  explicit constexpr ordered_t() = default;
};
inline constexpr ordered_t ordered{};

template <int N> class decomposition;
template <int N>
decomposition<N> decompose(const context &ctx, const grid<N> &global, std::int64_t halo,
                           std::array<int, N> dims = {});

namespace detail {
using dp::detail::dim_layout;
using dp::detail::field_access;

/// MPI's own type for an arithmetic T (the fast path of all_reduce), or
/// MPI_DATATYPE_NULL.
template <class T> MPI_Datatype builtin_type() {
  if constexpr (std::is_same<T, float>::value)
    return MPI_FLOAT;
  else if constexpr (std::is_same<T, double>::value)
    return MPI_DOUBLE;
  else if constexpr (std::is_same<T, long double>::value)
    return MPI_LONG_DOUBLE;
  else if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
    if constexpr (std::is_signed<T>::value)
      return sizeof(T) == 1 ? MPI_INT8_T
             : sizeof(T) == 2 ? MPI_INT16_T
             : sizeof(T) == 4 ? MPI_INT32_T
                              : MPI_INT64_T;
    else
      return sizeof(T) == 1 ? MPI_UINT8_T
             : sizeof(T) == 2 ? MPI_UINT16_T
             : sizeof(T) == 4 ? MPI_UINT32_T
                              : MPI_UINT64_T;
  } else
    return MPI_DATATYPE_NULL;
}
/// MPI's own operation for Op over T (sums and products of arithmetic
/// types), or MPI_OP_NULL.
template <class T, class Op> MPI_Op builtin_op() {
  if (builtin_type<T>() == MPI_DATATYPE_NULL)
    return MPI_OP_NULL;
  if constexpr (std::is_same<Op, std::plus<T>>::value || std::is_same<Op, std::plus<>>::value)
    return MPI_SUM;
  else if constexpr (std::is_same<Op, std::multiplies<T>>::value ||
                     std::is_same<Op, std::multiplies<>>::value)
    return MPI_PROD;
  else
    return MPI_OP_NULL;
}
/// An MPI_Op calling a C++ operator: MPI's callback has no user pointer, so
/// the operator of the call under way is a thread-local (MPI calls it on the
/// calling thread, within the collective).
template <class T, class Op> struct user_op {
  static const Op *&current() {
    static thread_local const Op *op = nullptr;
    return op;
  }
  static void apply(void *in, void *inout, int *len, MPI_Datatype *) {
    const char *a = static_cast<const char *>(in);
    char *b = static_cast<char *>(inout);
    for (int i = 0; i < *len; ++i, a += sizeof(T), b += sizeof(T)) {
      T x, y;
      std::memcpy(&x, a, sizeof(T));
      std::memcpy(&y, b, sizeof(T));
      const T z = static_cast<T>((*current())(x, y));
      std::memcpy(b, &z, sizeof(T));
    }
  }
};

/// What every decomposition's handles share.
template <int N> struct decomposition_state {
  MPI_Comm comm = MPI_COMM_NULL; // Cartesian, errors returned
  grid<N> global;
  cart_layout<N> layout;
  int rank = 0;
  int next_tag = 0;
  struct in_flight {
    std::vector<const void *> storages; // the round's fields, to match exchange_end
    std::unique_ptr<halo_round> messages;
  };
  std::vector<in_flight> rounds;

  decomposition_state(MPI_Comm c, const grid<N> &g, cart_layout<N> l, int r)
      : comm(c), global(g), layout(std::move(l)), rank(r) {}
  ~decomposition_state() {
    rounds.clear(); // waits for messages still under way
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && comm != MPI_COMM_NULL)
      MPI_Comm_free(&comm);
  }

  /// The grid of global index values over a box of positions.
  grid<N> grid_of(const box<N> &b) const {
    std::array<arithmetic_sequence, N> s;
    for (int d = 0; d < N; ++d) {
      const arithmetic_sequence &g = global.dimension(d);
      s[d] = arithmetic_sequence::from_extent(g.value(b.dim[d].lo), b.dim[d].size(), g.stride);
    }
    return grid<N>(s);
  }

  /// The elements of f at the positions of b (f holds every one of them).
  template <class T> block block_of(const field<N, T> &f, T *data, const box<N> &b) const {
    block k{};
    k.elem = sizeof(T);
    k.rank = N;
    k.base = reinterpret_cast<char *>(data);
    for (int d = 0; d < N; ++d) {
      const dim_layout &L = field_access::dim(f, d);
      const std::int64_t first = L.position(global.dimension(d).value(b.dim[d].lo));
      k.base += first * L.mem_stride * static_cast<std::int64_t>(sizeof(T));
      k.count[d] = b.dim[d].size();
      k.step[d] = L.mem_stride * static_cast<std::int64_t>(sizeof(T)) *
                  (global.dimension(d).stride / L.stride);
    }
    return k;
  }
};
} // namespace detail

/// This rank's part of a global grid split over the ranks of a context (a
/// Cartesian process grid), and the operations that need the other parts.
/// A handle: copies share the state.
template <int N> class decomposition {
  static_assert(N >= 1 && N <= detail::max_rank, "dp::mpi: grids of rank 1 to 8");

public:
  /// The whole grid.
  const grid<N> &global() const { return s_->global; }
  /// This rank's index values of global() (lower bounds are its offsets).
  grid<N> owned() const { return s_->grid_of(s_->layout.owned(s_->rank)); }
  /// This rank's index values that are also values of g (a grid over the
  /// same values as global(), such as its interior): where this rank
  /// computes a call-site over g.
  grid<N> owned_in(const grid<N> &g) const { return s_->grid_of(owned_box(g)); }
  /// The points of owned_in(g) whose stencil, up to halo() positions away
  /// along each dimension, reads owned values only: what can be computed
  /// between exchange_begin and exchange_end.
  grid<N> interior_of(const grid<N> &g) const { return s_->grid_of(interior_box(g)); }
  /// The rest of owned_in(g), as at most 2N disjoint grids: what needs the
  /// halo, after exchange_end.
  std::vector<grid<N>> boundary_of(const grid<N> &g) const {
    std::vector<grid<N>> out;
    for (const detail::box<N> &b : detail::peel(owned_box(g), interior_box(g)))
      out.push_back(s_->grid_of(b));
    return out;
  }
  /// owned() widened by the halo, clipped to global().
  grid<N> with_halo() const { return s_->grid_of(s_->layout.with_halo(s_->rank)); }
  /// The halo width, in positions of global().
  std::int64_t halo() const { return s_->layout.halo(); }
  int rank() const { return s_->rank; }
  int size() const { return s_->layout.ranks(); }
  /// Ranks per dimension of the process grid, and this rank's place in it.
  const std::array<int, N> &dims() const { return s_->layout.dims(); }
  std::array<int, N> coords() const { return s_->layout.coords(s_->rank); }
  /// The ranks that own cells of this rank's halo (and so exchange with it).
  std::vector<int> neighbors() const { return s_->layout.neighbors(s_->rank); }
  /// The Cartesian communicator (for the program's own MPI calls).
  MPI_Comm comm() const { return s_->comm; }

  /// Fills the halos of the fields (each over with_halo()) from the
  /// neighbours' owned values, in one message per neighbour.
  template <class... F> void exchange(F &...fields) {
    exchange_begin(fields...);
    exchange_end(fields...);
  }
  /// Starts an exchange: the owned values are read now; the halos must not
  /// be read or written until exchange_end of the same fields.
  template <class... F> void exchange_begin(F &...fields) {
    static_assert(sizeof...(F) > 0, "dp::mpi::exchange_begin: name the fields to exchange");
    typename detail::decomposition_state<N>::in_flight p;
    (p.storages.push_back(storage_of(fields, "exchange_begin")), ...);
    for (const auto &q : s_->rounds)
      if (q.storages == p.storages)
        dp::detail::fail(detail::where(s_->comm, "exchange_begin") +
                         ": these fields are being exchanged already (exchange_end first)");
    const std::vector<int> peers = s_->layout.neighbors(s_->rank);
    std::vector<detail::halo_field> halo;
    (halo.push_back(halo_of(peers, fields)), ...);
    const int tag = s_->next_tag;
    s_->next_tag = (s_->next_tag + 1) % 32768;
    p.messages = std::make_unique<detail::halo_round>(s_->comm, tag, peers, std::move(halo));
    s_->rounds.push_back(std::move(p));
  }
  /// Waits for the exchange exchange_begin started on the same fields and
  /// writes the halos.
  template <class... F> void exchange_end(F &...fields) {
    std::vector<const void *> storages;
    (storages.push_back(storage_of(fields, "exchange_end")), ...);
    for (auto it = s_->rounds.begin(); it != s_->rounds.end(); ++it)
      if (it->storages == storages) {
        auto p = std::move(*it);
        s_->rounds.erase(it);
        p.messages->finish();
        return;
      }
    dp::detail::fail(detail::where(s_->comm, "exchange_end") +
                     ": no exchange_begin of these fields is under way");
  }

  /// Combines one value per rank with op; every rank gets the result. The
  /// order of combination is MPI's (results may differ in the last bits
  /// from run to run for floating point); see the ordered overload.
  template <class T, class Op> T all_reduce(const T &value, Op op) const {
    static_assert(std::is_trivially_copyable<T>::value,
                  "dp::mpi::all_reduce: the value must be trivially copyable");
    T out = value;
    MPI_Op builtin = detail::builtin_op<T, Op>();
    if (builtin != MPI_OP_NULL) {
      detail::check(MPI_Allreduce(&value, &out, 1, detail::builtin_type<T>(), builtin, s_->comm),
                    s_->comm, "all_reduce");
      return out;
    }
    MPI_Datatype type;
    MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    MPI_Op mop;
    MPI_Op_create(&detail::user_op<T, Op>::apply, 1, &mop);
    detail::user_op<T, Op>::current() = &op;
    const int code = MPI_Allreduce(&value, &out, 1, type, mop, s_->comm);
    detail::user_op<T, Op>::current() = nullptr;
    MPI_Op_free(&mop);
    MPI_Type_free(&type);
    detail::check(code, s_->comm, "all_reduce");
    return out;
  }
  /// The same, combined in rank order ((v0 op v1) op v2 ...): every run on
  /// the same number of ranks gives the same bits, on every rank.
  template <class T, class Op> T all_reduce(const T &value, Op op, ordered_t) const {
    static_assert(std::is_trivially_copyable<T>::value,
                  "dp::mpi::all_reduce: the value must be trivially copyable");
    std::vector<char> all(sizeof(T) * static_cast<std::size_t>(size()));
    detail::check(MPI_Allgather(&value, static_cast<int>(sizeof(T)), MPI_BYTE, all.data(),
                                static_cast<int>(sizeof(T)), MPI_BYTE, s_->comm),
                  s_->comm, "all_reduce");
    T out;
    std::memcpy(&out, all.data(), sizeof(T));
    for (int k = 1; k < size(); ++k) {
      T next;
      std::memcpy(&next, all.data() + sizeof(T) * k, sizeof(T));
      out = static_cast<T>(op(out, next));
    }
    return out;
  }

  /// Every rank's owned values of f in one field over global() on rank
  /// root; an empty field on the other ranks.
  template <class T> field<N, std::remove_const_t<T>> gather(const field<N, T> &f, int root) const {
    using V = std::remove_const_t<T>;
    static_assert(std::is_trivially_copyable<V>::value,
                  "dp::mpi::gather: the element type must be trivially copyable");
    if (root < 0 || root >= size())
      dp::detail::fail(detail::where(s_->comm, "gather") + ": root " + std::to_string(root) +
                       " is not a rank");
    const detail::box<N> mine = s_->layout.owned(s_->rank);
    require_covers(f, s_->grid_of(mine), "gather", "owned()");
    const V *data = f.data();
    std::vector<char> out(static_cast<std::size_t>(mine.size()) * sizeof(V));
    if (!mine.empty())
      detail::pack(s_->block_of(f, const_cast<V *>(data), mine), out.data());
    std::vector<int> counts, offsets;
    std::vector<char> all;
    if (s_->rank == root) {
      std::int64_t at = 0;
      for (int q = 0; q < size(); ++q) {
        const std::int64_t bytes = s_->layout.owned(q).size() * std::int64_t(sizeof(V));
        if (at + bytes > INT32_MAX)
          dp::detail::fail(detail::where(s_->comm, "gather") +
                           ": the global field is larger than one MPI message may be (2^31 - 1 "
                           "bytes)");
        counts.push_back(static_cast<int>(bytes));
        offsets.push_back(static_cast<int>(at));
        at += bytes;
      }
      all.resize(static_cast<std::size_t>(at));
    }
    detail::check(MPI_Gatherv(out.data(), static_cast<int>(out.size()), MPI_BYTE, all.data(),
                              counts.data(), offsets.data(), MPI_BYTE, root, s_->comm),
                  s_->comm, "gather");
    if (s_->rank != root)
      return field<N, V>();
    field<N, V> whole(s_->global);
    V *w = whole.data();
    for (int q = 0; q < size(); ++q) {
      const detail::box<N> b = s_->layout.owned(q);
      if (!b.empty())
        detail::unpack(all.data() + offsets[q], s_->block_of(whole, w, b));
    }
    return whole;
  }

private:
  template <int M>
  friend decomposition<M> decompose(const context &, const grid<M> &, std::int64_t,
                                    std::array<int, M>);
  explicit decomposition(std::shared_ptr<detail::decomposition_state<N>> s) : s_(std::move(s)) {}

  detail::box<N> owned_box(const grid<N> &g) const {
    detail::box<N> b = s_->layout.owned(s_->rank);
    for (int d = 0; d < N; ++d) {
      const arithmetic_sequence &a = global().dimension(d), &w = g.dimension(d);
      if (w.stride != a.stride || (w.lb - a.lb) % a.stride != 0)
        dp::detail::fail(detail::where(s_->comm, "owned_in") + ": the grid " + g.to_string() +
                         " does not step through the values of the global grid " +
                         global().to_string());
      const std::int64_t first = (w.lb - a.lb) / a.stride;
      b.dim[d] = {std::max(b.dim[d].lo, first), std::min(b.dim[d].hi, first + w.extent)};
      if (b.dim[d].hi < b.dim[d].lo)
        b.dim[d].hi = b.dim[d].lo;
    }
    return b;
  }
  detail::box<N> interior_box(const grid<N> &g) const {
    const detail::box<N> own = s_->layout.owned(s_->rank);
    detail::box<N> b = owned_box(g);
    for (int d = 0; d < N; ++d) {
      b.dim[d] = {std::max(b.dim[d].lo, own.dim[d].lo + halo()),
                  std::min(b.dim[d].hi, own.dim[d].hi - halo())};
      if (b.dim[d].hi < b.dim[d].lo)
        b.dim[d].hi = b.dim[d].lo;
    }
    return b.empty() ? detail::box<N>() : b;
  }
  template <int M, class T> const void *storage_of(const field<M, T> &f, const char *what) const {
    static_assert(M == N, "dp::mpi::exchange: a field of another rank than the decomposition");
    static_assert(!std::is_const<T>::value, "dp::mpi::exchange: the field must be writable");
    static_assert(std::is_trivially_copyable<T>::value,
                  "dp::mpi::exchange: the element type must be trivially copyable");
    if (f.get_grid() != with_halo())
      dp::detail::fail(detail::where(s_->comm, what) + ": the field's grid " +
                       f.get_grid().to_string() + " is not this rank's with_halo() " +
                       with_halo().to_string());
    return detail::field_access::owner(f);
  }
  template <class T>
  void require_covers(const field<N, T> &f, const grid<N> &g, const char *what,
                      const char *name) const {
    const grid<N> fg = f.get_grid();
    for (int d = 0; d < N && g.size() > 0; ++d) {
      const arithmetic_sequence &a = fg.dimension(d), &b = g.dimension(d);
      if (!a.contains(b.lb) || !a.contains(b.value(b.extent - 1)) || b.stride % a.stride != 0)
        dp::detail::fail(detail::where(s_->comm, what) + ": the field's grid " + fg.to_string() +
                         " does not cover this rank's " + name + " " + g.to_string());
    }
  }
  /// One field's part of a round: per peer, the boxes it sends (owned) and
  /// receives (halo), in the field's host layout.
  template <class T>
  detail::halo_field halo_of(const std::vector<int> &peers, field<N, T> &f) const {
    T *data = detail::field_access::data(f); // host layout (the device copy mirrors it)
    detail::halo_field h;
    h.storage = detail::field_access::owner(f);
    auto keep = std::make_shared<field<N, T>>(f);
    h.host_read = [keep] { (void)static_cast<const field<N, T> &>(*keep).data(); };
    h.host_write = [keep] { (void)keep->data(); };
    h.keep = keep;
    h.send.resize(peers.size());
    h.recv.resize(peers.size());
    for (std::size_t k = 0; k < peers.size(); ++k) {
      const detail::box<N> out = s_->layout.message(s_->rank, peers[k]);
      const detail::box<N> in = s_->layout.message(peers[k], s_->rank);
      if (!out.empty())
        h.send[k].push_back(s_->block_of(f, data, out));
      if (!in.empty())
        h.recv[k].push_back(s_->block_of(f, data, in));
    }
    return h;
  }

  std::shared_ptr<detail::decomposition_state<N>> s_;
};

/// Splits `global` over the context's ranks: `dims[d]` ranks along
/// dimension d (0: MPI_Dims_create chooses), parts differing by at most
/// one position, each rank's fields widened by `halo` positions. Every rank
/// must pass the same arguments (checked: a dp::error on every rank).
template <int N>
decomposition<N> decompose(const context &ctx, const grid<N> &global, std::int64_t halo,
                           std::array<int, N> dims) {
  MPI_Comm comm = ctx.comm();
  std::array<std::int64_t, N> extent{};
  std::uint64_t print = detail::fingerprint(&halo, sizeof halo);
  print = detail::fingerprint(dims.data(), sizeof dims, print);
  for (int d = 0; d < N; ++d) {
    const arithmetic_sequence &s = global.dimension(d);
    if (s.stride <= 0)
      dp::detail::fail(detail::where(comm, "decompose") + ": dimension " + std::to_string(d) +
                       " of the global grid " + global.to_string() +
                       " has a negative stride; split grids with increasing values");
    extent[d] = s.extent;
    const std::int64_t parts[3] = {s.lb, s.extent, s.stride};
    print = detail::fingerprint(parts, sizeof parts, print);
  }
  std::string asked = "global grid " + global.to_string() + ", halo " + std::to_string(halo) +
                      ", ranks per dimension [";
  int fixed = 1;
  for (int d = 0; d < N; ++d) {
    asked += (d ? ", " : "") + std::to_string(dims[d]);
    if (dims[d] < 0)
      dp::detail::fail(detail::where(comm, "decompose") + ": " + std::to_string(dims[d]) +
                       " ranks along dimension " + std::to_string(d));
    if (dims[d] > 0)
      fixed *= dims[d];
  }
  asked += "]";
  if (!detail::same_everywhere(comm, print))
    dp::detail::fail(detail::where(comm, "decompose") +
                     ": the ranks asked for different decompositions; this rank asked for " +
                     asked);
  if (halo < 0)
    dp::detail::fail(detail::where(comm, "decompose") + ": halo width " + std::to_string(halo) +
                     " is negative");
  if (ctx.size() % fixed != 0)
    dp::detail::fail(detail::where(comm, "decompose") + ": " + asked + " does not fit " +
                     std::to_string(ctx.size()) + " ranks");
  detail::check(MPI_Dims_create(ctx.size(), N, dims.data()), comm, "decompose");
  int periods[N] = {};
  MPI_Comm cart = MPI_COMM_NULL;
  detail::check(MPI_Cart_create(comm, N, dims.data(), periods, 0, &cart), comm, "decompose");
  MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
  int rank = 0;
  MPI_Comm_rank(cart, &rank);
  detail::cart_layout<N> layout(extent, dims, halo);
  return decomposition<N>(
      std::make_shared<detail::decomposition_state<N>>(cart, global, std::move(layout), rank));
}

} // namespace dp::mpi
