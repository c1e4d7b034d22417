// dp::mpi end to end: run under `mpirun -np 1, 2, 3, 4`, this program must
// print the same lines every time (rank 0 prints; every rank checks). CTest
// runs it untranslated and translated (native and emulated), and compares.
//
// - stencils of radius 1 and 2 over grids of rank 1-3 whose extents no rank
//   count divides, with lower bounds, exchanged plainly and overlapped with
//   the interior's work: the gathered field's bits must not depend on the
//   number of ranks;
// - exchanges fill exactly the halo cells (each with the value its owner
//   holds) and write nothing else, for several fields in one round and over
//   strided global grids;
// - all_reduce with MPI's operations, a user's operator over a struct, and
//   ordered; gather;
// - errors: a field not over with_halo(), exchange_end without a begin,
//   decompositions that differ across ranks.
#include <dp/dp.hpp>
#include <dp/mpi.hpp>
#include <dp/rt/counters.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

namespace {

int failures = 0;
void expect(bool ok, const char *what, int rank) {
  if (!ok) {
    std::printf("rank %d: FAILED %s\n", rank, what);
    ++failures;
  }
}
#define EXPECT(d, cond) expect((cond), #cond, (d).rank())

template <int N, class T> std::uint64_t bits(const dp::field<N, T> &f) {
  std::uint64_t h = 14695981039346656037ull;
  const auto *p = reinterpret_cast<const unsigned char *>(f.data());
  for (std::size_t i = 0; i < f.size() * sizeof(T); ++i)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

/// The value every cell starts with: irregular, so a cell taken from the
/// wrong place shows.
template <int N> double initial(const dp::index<N> &i) {
  double v = 0.5;
  for (int d = 0; d < N; ++d)
    v = v * 1.37 + std::sin(0.3 * double(i[d]) + d);
  return v;
}

/// The points of g at least r positions inside the global grid.
template <int N> dp::grid<N> shrink(const dp::grid<N> &g, std::int64_t r) {
  std::array<dp::arithmetic_sequence, N> s;
  for (int d = 0; d < N; ++d) {
    const auto &a = g.dimension(d);
    s[d] = dp::arithmetic_sequence::from_extent(a.lb + r * a.stride,
                                                std::max<std::int64_t>(0, a.extent - 2 * r),
                                                a.stride);
  }
  return dp::grid<N>(s);
}

/// A smoothing step of radius R: out = (2 t + the neighbours along each
/// dimension) / (2 + 2 N R).
template <int N, int R> struct smooth {
  void operator()(dp::index<N> i, double &out, const dp::field<N, double> &t) const {
    double s = 2 * t[i];
    for (int d = 0; d < N; ++d)
      for (int k = 1; k <= R; ++k) {
        dp::index<N> a = i, b = i;
        a[d] -= k;
        b[d] += k;
        s += t[a] + t[b];
      }
    out = s / (2 + 2 * N * R);
  }
};

template <int N> struct set_initial {
  void operator()(dp::index<N> i, double &v) const { v = initial<N>(i); }
};

// The call-sites, one function per compute rank: dpstub makes one stub per
// call-site, so a call-site inside a template must have the same compute
// rank in every instantiation (the kernel's type may vary).
template <class K> void apply(const dp::grid<1> &g, const K &k, dp::field<1, double> &out) {
  dp::forall(g, k, dp::_index, out);
}
template <class K> void apply(const dp::grid<2> &g, const K &k, dp::field<2, double> &out) {
  dp::forall(g, k, dp::_index, out);
}
template <class K> void apply(const dp::grid<3> &g, const K &k, dp::field<3, double> &out) {
  dp::forall(g, k, dp::_index, out);
}
template <class K>
void apply(const dp::grid<1> &g, const K &k, dp::field<1, double> &out,
           const dp::field<1, double> &in) {
  dp::forall(g, k, dp::_index, out, in);
}
template <class K>
void apply(const dp::grid<2> &g, const K &k, dp::field<2, double> &out,
           const dp::field<2, double> &in) {
  dp::forall(g, k, dp::_index, out, in);
}
template <class K>
void apply(const dp::grid<3> &g, const K &k, dp::field<3, double> &out,
           const dp::field<3, double> &in) {
  dp::forall(g, k, dp::_index, out, in);
}

/// `steps` smoothing steps over a decomposed grid, exchanged plainly or
/// overlapped; rank 0 prints the gathered field's bits.
template <int N, int R>
void stencil(const dp::mpi::context &ctx, const dp::grid<N> &global, int steps, bool overlap) {
  auto d = dp::mpi::decompose(ctx, global, R);
  dp::field<N, double> t(d.with_halo(), -1.0), next(d.with_halo(), -1.0);
  apply(d.owned(), set_initial<N>(), t);
  apply(d.owned(), set_initial<N>(), next);
  const dp::grid<N> inner = d.owned_in(shrink(global, R));
  // Points whose stencil reads owned values only, and the rest.
  const dp::grid<N> early = d.interior_of(shrink(global, R));
  const std::vector<dp::grid<N>> late = d.boundary_of(shrink(global, R));
  std::int64_t points = early.size();
  for (const dp::grid<N> &g : late)
    points += g.size();
  EXPECT(d, points == inner.size());
  for (int s = 0; s < steps; ++s) {
    if (overlap) {
      d.exchange_begin(t);
      apply(early, smooth<N, R>(), next, t);
      d.exchange_end(t);
      for (const dp::grid<N> &g : late)
        apply(g, smooth<N, R>(), next, t);
    } else {
      d.exchange(t);
      apply(inner, smooth<N, R>(), next, t);
    }
    std::swap(t, next);
  }
  const dp::field<N, double> whole = d.gather(t, 0);
  if (d.rank() == 0)
    std::printf("stencil rank %d radius %d over %s, %s: %016llx\n", N, R,
                global.to_string().c_str(), overlap ? "overlapped" : "plain",
                static_cast<unsigned long long>(bits(whole)));
}

/// A cell: its value and the rank that wrote it.
struct cell {
  double value;
  std::int32_t writer, pad = 0;
};

/// Exchanges fill exactly the halo, each cell from its owner, over a
/// strided global grid; two fields of different types in one round.
template <int N> void halo_only(const dp::mpi::context &ctx, const dp::grid<N> &global, int halo) {
  auto d = dp::mpi::decompose(ctx, global, halo);
  dp::field<N, cell> a(d.with_halo(), cell{-1.0, -1});
  dp::field<N, std::int64_t> b(d.with_halo(), -1);
  const dp::grid<N> own = d.owned(), all = d.with_halo();
  for (std::int64_t k = 0; k < own.size(); ++k) {
    const dp::index<N> i = own.map_index(k);
    a[i] = cell{initial<N>(i), d.rank()};
    b[i] = global.flatten(i);
  }
  d.exchange(a, b);
  bool ok = true;
  std::int64_t halo_cells = 0;
  for (std::int64_t k = 0; k < all.size(); ++k) {
    const dp::index<N> i = all.map_index(k);
    const bool mine = own.contains(i);
    halo_cells += !mine;
    ok = ok && a[i].value == initial<N>(i) && b[i] == global.flatten(i) &&
         (mine ? a[i].writer == d.rank() : a[i].writer != d.rank() && a[i].writer >= 0);
  }
  EXPECT(d, ok);
  // Every rank's halo is what the one-process arithmetic says it is.
  std::int64_t expected = all.size() - own.size();
  EXPECT(d, halo_cells == expected);
  const std::int64_t total = d.all_reduce(halo_cells, std::plus<>());
  const int all_ok = d.all_reduce(int(ok), [](int x, int y) { return x & y; });
  if (d.rank() == 0)
    std::printf("halo rank %d width %d over %s: %s\n", N, halo, global.to_string().c_str(),
                all_ok ? "exact" : "WRONG");
  (void)total;
}

/// A field the device holds (translated and emulated: DP_HOST_MODE=emulate)
/// is exchanged on the device: only the packed faces cross to the host and
/// back, never the whole field, and the field stays there; nothing crosses
/// where MPI takes device pointers (DP_MPI_GPU_AWARE=1: the emulated
/// device's memory is host memory, so MPI can read it).
void device_traffic(const dp::mpi::context &ctx) {
  auto d = dp::mpi::decompose(ctx, dp::grid<2>(40, 30), 1);
  dp::field<2, double> t(d.with_halo(), -1.0);
  const dp::rt::counts before_probe = dp::rt::counters();
  apply(d.owned(), set_initial<2>(), t); // on the device when there is one
  const bool on_device = (dp::rt::counters() - before_probe)[dp::rt::counter::to_device_bytes] > 0;
  const std::int64_t halo = d.with_halo().size() - d.owned().size();
  const dp::rt::counts start = dp::rt::counters();
  d.exchange(t);
  const dp::rt::counts spent = dp::rt::counters() - start;
  // What we send is at most what our neighbours' halos hold of ours: no
  // more than our owned cells; what we receive is exactly our halo.
  const std::int64_t faces = spent[dp::rt::counter::to_host_bytes];
  if (on_device && dp::mpi::gpu_aware()) { // MPI reads and writes device memory
    EXPECT(d, faces == 0 && spent[dp::rt::counter::to_device_bytes] == 0);
  } else if (on_device) {
    EXPECT(d, faces <= std::int64_t(sizeof(double)) * d.owned().size() / 2);
    EXPECT(d, spent[dp::rt::counter::to_device_bytes] ==
                  std::int64_t(sizeof(double)) * halo);
  } else {
    EXPECT(d, faces == 0 && spent[dp::rt::counter::to_device_bytes] == 0);
  }
  // The halo arrived whichever way it travelled.
  bool ok = true;
  const dp::grid<2> all = d.with_halo();
  for (std::int64_t k = 0; k < all.size(); ++k) {
    const dp::index<2> i = all.map_index(k);
    ok = ok && t[i] == initial<2>(i);
  }
  EXPECT(d, ok);
  if (d.rank() == 0)
    std::printf("device exchange: faces only\n");
}

struct located_min {
  double value;
  std::int64_t where;
};

void reductions(const dp::mpi::context &ctx) {
  auto d = dp::mpi::decompose(ctx, dp::grid<1>(1000), 0);
  const dp::grid<1> own = d.owned();
  dp::field<1, double> x(own);
  dp::forall(own, [](dp::index<1> i, double &v) { v = std::cos(0.01 * double(i[0])); },
             dp::_index, x);
  dp::scalar<double> partial(0.0);
  dp::reduce(own, std::plus<>(), partial, [](double v) { return v; }, x);
  const double local = partial.get();
  // Integers: exact whatever the order.
  const std::int64_t n = d.all_reduce(own.size(), std::plus<>());
  // A user's operator over a struct: the smallest value and where.
  located_min m{1e300, -1};
  for (std::int64_t k = 0; k < own.size(); ++k) {
    const std::int64_t i = own.dimension(0).value(k);
    if (x(i) < m.value)
      m = {x(i), i};
  }
  const located_min g = d.all_reduce(m, [](const located_min &a, const located_min &b) {
    return a.value < b.value || (a.value == b.value && a.where < b.where) ? a : b;
  });
  // Ordered: the same bits on every rank and in every run.
  const double o1 = d.all_reduce(local, std::plus<>(), dp::mpi::ordered);
  const double o2 = d.all_reduce(local, std::plus<>(), dp::mpi::ordered);
  const double sum = d.all_reduce(local, std::plus<>());
  std::uint64_t b1, b2;
  std::memcpy(&b1, &o1, 8);
  std::memcpy(&b2, &o2, 8);
  const std::uint64_t lo = d.all_reduce(b1, [](std::uint64_t a, std::uint64_t b) { return a < b ? a : b; });
  const std::uint64_t hi = d.all_reduce(b1, [](std::uint64_t a, std::uint64_t b) { return a > b ? a : b; });
  EXPECT(d, b1 == b2 && lo == hi);
  EXPECT(d, std::fabs(sum - o1) < 1e-9);
  if (d.rank() == 0)
    std::printf("all_reduce: %lld points, min %.6f at %lld, sum %.9f\n", (long long)n, g.value,
                (long long)g.where, o1);
}

template <class F> bool raises(F &&f, const std::string &needle) {
  try {
    f();
  } catch (const dp::error &e) {
    if (std::string(e.what()).find(needle) != std::string::npos &&
        std::string(e.what()).find("rank ") != std::string::npos)
      return true;
    std::printf("unexpected message: %s\n", e.what());
    return false;
  }
  return false;
}

void errors(const dp::mpi::context &ctx) {
  auto d = dp::mpi::decompose(ctx, dp::grid<2>(9, 7), 1);
  dp::field<2, double> wrong(dp::grid<2>(3, 3));
  EXPECT(d, raises([&] { d.exchange(wrong); }, "is not this rank's with_halo()"));
  dp::field<2, double> t(d.with_halo());
  EXPECT(d, raises([&] { d.exchange_end(t); }, "no exchange_begin"));
  d.exchange_begin(t);
  EXPECT(d, raises([&] { d.exchange_begin(t); }, "being exchanged already"));
  d.exchange_end(t);
  EXPECT(d, raises([&] { (void)d.gather(t, d.size()); }, "is not a rank"));
  // Rank 0 asks for another halo than the others: every rank is told.
  if (ctx.size() > 1)
    EXPECT(d, raises([&] { (void)dp::mpi::decompose(ctx, dp::grid<2>(9, 7), ctx.rank() ? 1 : 2); },
                     "the ranks asked for different decompositions"));
  if (ctx.rank() == 0)
    std::printf("errors: named\n");
}

} // namespace

int main(int argc, char **argv) {
  dp::mpi::context ctx(argc, argv);
  try {
    const dp::grid<1> g1(dp::arithmetic_sequence(-5, 32)); // 37 points
    const dp::grid<2> g2(dp::arithmetic_sequence(3, 16), 11);
    const dp::grid<3> g3(7, dp::arithmetic_sequence(-2, 4), 5);
    for (bool overlap : {false, true}) {
      stencil<1, 1>(ctx, g1, 3, overlap);
      stencil<1, 2>(ctx, g1, 3, overlap);
      stencil<2, 1>(ctx, g2, 3, overlap);
      stencil<2, 2>(ctx, g2, 3, overlap);
      stencil<3, 1>(ctx, g3, 2, overlap);
      stencil<3, 2>(ctx, g3, 2, overlap);
    }
    halo_only<1>(ctx, dp::grid<1>(dp::arithmetic_sequence(1, 60, 3)), 2);
    halo_only<1>(ctx, dp::grid<1>(5), 2); // a halo wider than a neighbour's part
    halo_only<1>(ctx, dp::grid<1>(3), 1); // more ranks than points: empty parts
    halo_only<2>(ctx, dp::grid<2>(dp::arithmetic_sequence(0, 26, 2), 5), 1);
    halo_only<2>(ctx, dp::grid<2>(13, 4), 2);
    halo_only<3>(ctx, dp::grid<3>(5, dp::arithmetic_sequence(4, 10, 2), 3), 1);
    device_traffic(ctx);
    reductions(ctx);
    errors(ctx);
  } catch (const dp::error &e) {
    std::printf("rank %d: dp::error: %s\n", ctx.rank(), e.what());
    return 1;
  }
  return failures ? 1 : 0;
}
