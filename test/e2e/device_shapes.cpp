// The shape of each benchmark case's device work, asserted on a CPU: what
// one call-site asks of the device layer (dp::rt::request_log) on the
// emulated device, which makes the requests a GPU's layer makes. Each check
// is a cost the GPU pays that no CPU timing shows: the rank of the positions
// a kernel's threads compute (a rank-6 forall over whole fields merged into
// one row must run rank-1 threads, mode 1, not rank-6 ones), whether a
// vendor algorithm reads a pointer or an iterator and which (a division per
// element for linear positions, none for a row's), and how many passes a
// call-site makes over its data.
//
// Run translated with DP_HOST_MODE=emulate; exits non-zero naming every
// shape that differs, after printing every request.
#include <dp/dp.hpp>
#include <dp/rt/device/fold_plan.hpp>
#include <dp/rt/device/requests.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

using dp::rt::device_request;
using i64 = std::int64_t;

int failures = 0;

/// The requests one call-site made, printed.
template <class Body> std::vector<device_request> requests_of(const char *name, Body body) {
  std::vector<device_request> made;
  {
    dp::rt::request_log log;
    body();
    dp::wait_all();
    made = log.requests();
  }
  std::printf("%s:\n", name);
  for (const device_request &r : made) {
    if (r.what_kind == device_request::kind::kernel)
      std::printf("  kernel %-18s rank %d, mode %d, %lld launch(es), %lld threads, %lld points, "
                  "data %lld%s\n",
                  r.what.c_str(), r.rank, r.mode, (long long)r.launches, (long long)r.threads,
                  (long long)r.items, (long long)r.data_points,
                  ((r.load_bytes ? ", loads of " + std::to_string(r.load_bytes) + " bytes" : "") +
                   (r.tiles_per_group > 1
                        ? ", " + std::to_string(r.tiles_per_group) + " tiles a group"
                        : std::string()) +
                   (r.chained_tiles ? ", " + std::to_string(r.chained_tiles) +
                                          " tiles chained, look-back window " +
                                          std::to_string(r.look_back_window)
                                    : ""))
                      .c_str());
    else
      std::printf("  vendor %-18s over %s%s%s, %lld items of %zu bytes, data %lld\n",
                  r.what.c_str(), r.input.c_str(), r.output.empty() ? "" : " into ",
                  r.output.c_str(), (long long)r.items, r.item_bytes, (long long)r.data_points);
  }
  return made;
}

void expect(bool ok, const char *name, const std::string &what) {
  if (!ok) {
    std::printf("  WRONG: %s: %s\n", name, what.c_str());
    ++failures;
  }
}

/// Passes over the call-site's data: the points its requests read over
/// the domain's.
double passes(const std::vector<device_request> &made, i64 points) {
  i64 read = 0;
  for (const device_request &r : made)
    read += r.data_points;
  return double(read) / double(points);
}

/// A forall over whole fields of rank R merged into one row: one launch of
/// rank-R stub threads in the row mode (1), one thread per point, one pass.
void merged_forall(const char *name, const std::vector<device_request> &made, int rank,
                   i64 points) {
  expect(made.size() == 1, name, "one request");
  if (made.empty())
    return;
  const device_request &k = made[0];
  expect(k.what == "stub" && k.rank == rank && k.mode == 1, name, "the stub in the row mode (1)");
  expect(k.launches == 1, name, "one launch");
  expect(k.items == points, name, "a row of every point");
  expect(k.threads >= k.items && k.threads < k.items + 1024, name, "one thread per point");
  expect(passes(made, points) == 1.0, name, "one pass over the data");
}

/// The benchmark's foralls of rank 1 to 6 over whole fields.
void merged_foralls() {
  dp::field<1, float> f1{dp::grid<1>(1 << 16), 1.0f};
  dp::field<2, float> f2{dp::grid<2>(256, 256), 1.0f};
  dp::field<3, float> f3{dp::grid<3>(16, 64, 64), 1.0f};
  dp::field<4, float> f4{dp::grid<4>(8, 8, 32, 32), 1.0f};
  dp::field<6, float> f6{dp::grid<6>(4, 4, 4, 4, 16, 16), 1.0f};
  const i64 n = 1 << 16;
  merged_forall("forall rank 1", requests_of("forall rank 1", [&] {
    dp::forall(f1.get_grid(), [](float &x) { x += 1; }, f1);
  }), 1, n);
  merged_forall("forall rank 2", requests_of("forall rank 2", [&] {
    dp::forall(f2.get_grid(), [](float &x) { x += 1; }, f2);
  }), 2, n);
  merged_forall("forall rank 3", requests_of("forall rank 3", [&] {
    dp::forall(f3.get_grid(), [](float &x) { x += 1; }, f3);
  }), 3, n);
  merged_forall("forall rank 4", requests_of("forall rank 4", [&] {
    dp::forall(f4.get_grid(), [](float &x) { x += 1; }, f4);
  }), 4, n);
  merged_forall("forall rank 6", requests_of("forall rank 6", [&] {
    dp::forall(f6.get_grid(), [](float &x) { x += 1; }, f6);
  }), 6, n);
  expect(f1(7) == 2.0f && f2(3, 4) == 2.0f && f3(1, 2, 3) == 2.0f && f4(1, 2, 3, 4) == 2.0f &&
             f6(3, 3, 3, 3, 15, 15) == 2.0f,
         "forall", "every point once");
}

/// The benchmark's full reduce of a dense field, whose map returns the
/// element it takes: one plain vendor reduce of the elements' pointer
/// (vectorised loads, no transform), one pass. A map that computes from
/// the element, or converts it: a transform-reduce over the pointer. A dot
/// product reads two fields: one reduce over a row's positions (no
/// division per element).
void dense_full_reduce() {
  dp::field<2, float> m{dp::grid<2>(256, 512), 1.0f}, w{dp::grid<2>(256, 512), 2.0f};
  const char *name = "full reduce of a dense rank-2 field";
  dp::scalar<float> s(0.0f);
  const auto made = requests_of(
      name, [&] { dp::reduce(m.get_grid(), std::plus<>(), s, [](float x) { return x; }, m); });
  expect(made.size() == 1, name, "one request");
  if (!made.empty())
    expect(made[0].what == "reduce" && made[0].input == "pointer" &&
               made[0].item_bytes == sizeof(float),
           name, "one plain vendor reduce of the elements' pointer");
  expect(passes(made, m.get_grid().size()) == 1.0, name, "one pass over the data");
  expect(s.get() == 256.0f * 512.0f, name, "the sum");

  // Two reduces into one scalar, nobody reading between: the second folds
  // behind the first without a host wait, from std::plus<>'s identity, so
  // it is the same plain vendor reduce of the elements' pointer.
  const char *chained = "two full reduces into one scalar, unread between";
  dp::scalar<float> c(0.0f);
  const auto again = requests_of(chained, [&] {
    dp::reduce(m.get_grid(), std::plus<>(), c, [](float x) { return x; }, m);
    dp::reduce(m.get_grid(), std::plus<>(), c, [](float x) { return x; }, m);
  });
  expect(again.size() == 2, chained, "two requests");
  for (const device_request &r : again)
    expect(r.what == "reduce" && r.input == "pointer" && r.item_bytes == sizeof(float), chained,
           "each a plain vendor reduce of the elements' pointer");
  expect(c.get() == 2.0f * 256.0f * 512.0f, chained, "the sum of both");

  const char *twice = "full reduce of twice a dense field's elements";
  dp::scalar<float> s2(0.0f);
  const auto mapped = requests_of(
      twice, [&] { dp::reduce(m.get_grid(), std::plus<>(), s2, [](float x) { return 2 * x; }, m); });
  expect(mapped.size() == 1 && mapped[0].what == "transform reduce" &&
             mapped[0].input == "pointer",
         twice, "one vendor transform-reduce over the elements' pointer");
  expect(s2.get() == 2 * 256.0f * 512.0f, twice, "the sum");
  const char *wider = "full reduce of a dense float field into a double";
  dp::scalar<double> s3(0.0);
  const auto widened = requests_of(
      wider, [&] { dp::reduce(m.get_grid(), std::plus<>(), s3, [](float x) { return x; }, m); });
  expect(widened.size() == 1 && widened[0].what == "transform reduce" &&
             widened[0].input == "pointer",
         wider, "float elements into a double sum: a transform-reduce (the values convert)");
  expect(s3.get() == 256.0 * 512.0, wider, "the sum");

  const char *dot = "dot product of two dense rank-2 fields";
  dp::scalar<double> d(0.0);
  const auto both = requests_of(dot, [&] {
    dp::reduce(m.get_grid(), std::plus<>(), d, [](float x, float y) { return double(x) * y; }, m, w);
  });
  expect(both.size() == 1 && both[0].what == "reduce" &&
             both[0].input == "values at row positions<2>",
         dot, "one vendor reduce over a row's positions");
  expect(d.get() == 2.0 * 256 * 512, dot, "the sum");
}

/// A full reduce over a strided part of a field cannot merge: linear
/// positions of rank 2.
void strided_full_reduce() {
  dp::field<2, float> m{dp::grid<2>(64, 64), 1.0f};
  const dp::grid<2> odd(dp::arithmetic_sequence(1, 64, 2), dp::arithmetic_sequence(0, 64));
  const char *name = "full reduce over every other row";
  dp::scalar<float> s(0.0f);
  const auto made =
      requests_of(name, [&] { dp::reduce(odd, std::plus<>(), s, [](float x) { return x; }, m); });
  expect(made.size() == 1 && made[0].input == "values at linear positions<2>", name,
         "one vendor reduce over linear positions");
  expect(s.get() == 32.0f * 64.0f, name, "the sum");
}

/// A tiled full reduce whose kernel cannot tell its tile is the plain
/// grid's: one vendor reduce over a row's positions, no tile memory and no
/// second pass. One that takes its local index folds its tiles in tile
/// memory (one pass over the data), each group walking a run of 8 tiles of
/// 256 (about 2048 points), then the vendor reduces the groups' folds
/// (partial results, not the data).
void tiled_full_reduce() {
  dp::field<1, int> v{dp::grid<1>(4096), 1};
  const char *name = "full reduce over dp::tile<256>, blind to its tile";
  dp::scalar<long> s(0);
  const auto made = requests_of(name, [&] {
    dp::reduce(dp::tile<256>(v.get_grid()), std::plus<>(), s, [](int x) { return long(x); }, v);
  });
  expect(made.size() == 1 && made[0].what == "reduce" &&
             made[0].input == "values at row positions<1>",
         name, "one vendor reduce over a row's positions");
  expect(passes(made, 4096) == 1.0, name, "one pass over the data");
  expect(s.get() == 4096, name, "the sum");

  const char *sees = "full reduce over dp::tile<256>, seeing its tile";
  dp::scalar<long> t(0);
  const auto folded = requests_of(sees, [&] {
    dp::reduce(dp::tile<256>(v.get_grid()), std::plus<>(), t,
               [](dp::index<1> local, int x) { return long(x) + (local[0] == 0); },
               dp::_local_index, v);
  });
  expect(folded.size() == 2, sees, "a tile fold and a vendor reduce");
  if (folded.size() == 2) {
    expect(folded[0].what == "warp tile fold" && folded[0].items == 2 &&
               folded[0].threads == 512,
           sees, "two groups of 256 threads, 8 tiles each, folded by warps (no padding)");
    expect(folded[1].what == "reduce" && folded[1].input == "pointer" &&
               folded[1].items == 2 && folded[1].data_points == 0,
           sees, "the vendor reduce over the groups' folds' pointer");
  }
  expect(passes(folded, 4096) == 1.0, sees, "one pass over the data");
  expect(t.get() == 4096 + 16, sees, "the sum");

  // Tiles of 32 whose kernel sees only its place in the tile (no barrier,
  // no tile memory): 8 tiles side by side in a group of 256, each slot
  // walking 8 of them; with a dp::_tile (it may wait at a barrier), a
  // group of 32 per tile.
  const char *packed = "full reduce over dp::tile<32>, seeing its place";
  dp::field<1, int> w{dp::grid<1>(4096 + 10), 1};
  dp::scalar<long> p(0);
  const auto side = requests_of(packed, [&] {
    dp::reduce(dp::tile<32>(w.get_grid()), std::plus<>(), p,
               [](dp::index<1> local, int x) { return long(x) + (local[0] == 0); },
               dp::_local_index, w);
  });
  expect(side.size() == 2 && side[0].tiles_per_group == 8 && side[0].threads == 3 * 256 &&
             side[0].what == "warp tile fold, flagged edges",
         packed, "8 tiles of 32 side by side in groups of 256, walking 64 tiles each");
  expect(p.get() == 4096 + 10 + 129, packed, "the sum");
  const char *waits = "full reduce over dp::tile<32>, at a barrier";
  dp::scalar<long> b(0);
  const auto alone = requests_of(waits, [&] {
    dp::reduce(dp::tile<32>(w.get_grid()), std::plus<>(), b,
               [](const dp::tile_group<1> &g, int x) {
                 g.barrier();
                 return long(x);
               },
               dp::_tile, w);
  });
  expect(alone.size() == 2 && alone[0].tiles_per_group == 1 && alone[0].threads % 32 == 0 &&
             alone[0].threads < 3 * 256,
         waits, "a group of 32 threads per tile");
  expect(b.get() == 4096 + 10, waits, "the sum");
}

/// A tile-blind kernel over tiles that do not divide the grid keeps the
/// tile fold: its padding threads must run the kernel (SPEC), which the
/// plain reduce would not do. The group of whole tiles still folds by
/// warps; only the group holding the padded tile at the edge uses flags.
void padded_tiled_reduce() {
  const char *name = "full reduce over dp::tile<256> with padding, blind to its tile";
  dp::field<1, int> w{dp::grid<1>(4000), 1};
  dp::scalar<long> u(0);
  const auto made = requests_of(name, [&] {
    dp::reduce(dp::tile<256>(w.get_grid()), std::plus<>(), u, [](int x) { return long(x); }, w);
  });
  expect(made.size() == 2 && made[0].what == "warp tile fold, flagged edges" &&
             made[0].items == 2 && made[0].threads == 512,
         name, "two groups of 8 tiles of 256 threads, the first (whole tiles) by warps");
  expect(made.size() == 2 && made[1].what == "reduce" && made[1].input == "pointer" &&
             made[1].data_points == 0,
         name, "the vendor reduce over the groups' folds' pointer");
  expect(u.get() == 4000, name, "the sum");

  const char *small = "full reduce over dp::tile<256> of a grid of 200";
  dp::field<1, int> x{dp::grid<1>(200), 2};
  dp::scalar<long> z(0);
  const auto flagged = requests_of(small, [&] {
    dp::reduce(dp::tile<256>(x.get_grid()), std::plus<>(), z, [](int v) { return long(v); }, x);
  });
  expect(flagged.size() == 2 && flagged[0].what == "tile fold" && flagged[0].items == 1,
         small, "no whole tile: the one tile folds with flags");
  expect(z.get() == 400, small, "the sum");
}

/// sort<Dim>: along the rows of a dense block in their natural order, the
/// vendor's segmented radix sort straight over the data's pointer (no
/// gather, no scatter); across the rows, a gather, the radix sort and a
/// scatter; with a comparator of its own, (row, value) pairs gathered,
/// merge-sorted and scattered. One pass over the data each.
void sorts() {
  const i64 R = 64, C = 96;
  dp::field<2, int> f{dp::grid<2>(R, C)};
  auto fill = [&] {
    dp::forall(f.get_grid(),
               [](dp::index<2> i, int &x) { x = int((i[0] * 7919 + i[1] * 104729) % 1000003); }, f);
    dp::wait_all();
  };
  fill();
  const auto rows = requests_of("sort<1>, natural order", [&] {
    dp::sort<1>(f.get_grid(), [](int a, int b) { return a < b; }, f);
  });
  expect(rows.size() == 1 && rows[0].what == "segmented sort" && rows[0].input == "pointer" &&
             rows[0].items == R * C,
         "sort<1>, natural order", "one segmented radix sort over the data's pointer");
  expect(passes(rows, R * C) == 1.0, "sort<1>, natural order", "one pass over the data");
  expect(std::as_const(f)(0, 0) <= std::as_const(f)(0, 1), "sort<1>, natural order", "a sorted row");
  fill();
  const auto across = requests_of("sort<0>, natural order", [&] {
    dp::sort<0>(f.get_grid(), [](int a, int b) { return a < b; }, f);
  });
  expect(across.size() == 3 && across[0].what == "gather" && across[1].what == "segmented sort" &&
             across[2].what == "scatter",
         "sort<0>, natural order", "a gather, a segmented radix sort, a scatter");
  expect(passes(across, R * C) == 1.0, "sort<0>, natural order", "one pass over the data");
  fill();
  const auto custom = requests_of("sort<1>, a comparator", [&] {
    dp::sort<1>(f.get_grid(),
                [](int a, int b) { return (a & 0xff) < (b & 0xff) || ((a & 0xff) == (b & 0xff) && a < b); },
                f);
  });
  expect(custom.size() == 3 && custom[0].what == "gather pairs" && custom[1].what == "merge sort" &&
             custom[2].what == "scatter pairs",
         "sort<1>, a comparator", "(row, value) pairs gathered, merge-sorted, scattered");
  expect(passes(custom, R * C) == 1.0, "sort<1>, a comparator", "one pass over the data");
}

/// reduce<1> and scan<1> along the contiguous dimension, reduce<0> and
/// scan<0> across it: what each asks, and its passes over the data.
void pencils() {
  const i64 R = 512, C = 384;
  dp::field<2, float> m{dp::grid<2>(R, C), 1.0f};
  dp::field<1, float> rows{dp::grid<1>(R), 0.0f}, cols{dp::grid<1>(C), 0.0f};
  dp::field<2, float> out{dp::grid<2>(R, C), 0.0f};
  const auto r1 = requests_of("reduce<1>", [&] {
    dp::reduce<1>(m.get_grid(), std::plus<>(), rows, [](float x) { return x; }, m);
  });
  expect(passes(r1, R * C) == 1.0, "reduce<1>", "one pass over the data");
  expect(r1.size() == 1 && r1[0].what == "pencil tiles fold", "reduce<1>",
         "rows shorter than a vendor group's share: the tiled kernel");
  expect(r1.size() == 1 && r1[0].load_bytes == 16, "reduce<1>",
         "dense rows: each walker loads 4 consecutive floats of its row as one 16-byte vector");
  const auto r0 = requests_of("reduce<0>", [&] {
    dp::reduce<0>(m.get_grid(), std::plus<>(), cols, [](float x) { return x; }, m);
  });
  expect(passes(r0, R * C) == 1.0, "reduce<0>", "one pass over the data");
  expect(!r0.empty() && r0[0].what == "pencil tiles fold" && r0[0].load_bytes == 16, "reduce<0>",
         "dense rows: each lane loads 4 neighbouring pencils' floats as one 16-byte vector");
  const dp::grid<2> shifted(dp::arithmetic_sequence(0, R), dp::arithmetic_sequence(1, C - 3));
  dp::field<1, float> some_cols{dp::grid<1>(C), 1.0f}; // indexed by the columns' index values
  const auto r0s = requests_of("reduce<0>, columns 1 on", [&] {
    dp::reduce<0>(shifted, std::plus<>(), some_cols, [](float x) { return x; }, m);
  });
  expect(!r0s.empty() && r0s[0].what == "pencil tiles fold" && r0s[0].load_bytes == 0,
         "reduce<0>, columns 1 on", "rows not aligned to a vector: the map's own loads");
  expect(some_cols(0) == 1.0f && some_cols(1) == 1.0f + R && some_cols(C - 4) == 1.0f + R &&
             some_cols(C - 3) == 1.0f,
         "reduce<0>, columns 1 on", "the columns' sums, the others untouched");
  const auto s1 = requests_of("scan<1>", [&] {
    dp::scan<1>(m.get_grid(), std::plus<>(), out, [](float x) { return x; }, m);
  });
  expect(s1.size() == 1 && s1[0].what == "scan by key" && s1[0].input == "pointer",
         "scan<1>", "one vendor scan by key of the elements' pointer (no map, no division)");
  expect(s1.size() == 1 && s1[0].output == "pointer", "scan<1>",
         "written through the result's pointer (no position per element)");
  const auto s1m = requests_of("scan<1> of twice the elements", [&] {
    dp::scan<1>(m.get_grid(), std::plus<>(), out, [](float x) { return 2 * x; }, m);
  });
  expect(s1m.size() == 1 && s1m[0].input == "values at elements", "scan<1> of twice the elements",
         "a scan by key of the map over the elements' pointer (no division)");
  expect(out(3, C - 1) == 2.0f * C, "scan<1> of twice the elements", "the last prefix");
  // Over a sub-grid the rows are not dense: the pencils' positions.
  const dp::grid<2> inner(dp::arithmetic_sequence(1, R - 2), dp::arithmetic_sequence(1, C - 2));
  const auto s1i = requests_of("scan<1>, interior", [&] {
    dp::scan<1>(inner, std::plus<>(), out, [](float x) { return x; }, m);
  });
  expect(s1i.size() == 1 && s1i[0].input == "values at pencil positions<2, 1>" &&
             s1i[0].output == "position writer",
         "scan<1>, interior", "a scan by key over the pencils' positions, written back there");
  const auto s0 = requests_of("scan<0>", [&] {
    dp::scan<0>(m.get_grid(), std::plus<>(), out, [](float x) { return x; }, m);
  });
  // 512 steps a pencil, in tiles of 128 rows (32 walkers of 4 steps), 4
  // chained down each column: one pass (a tile's steps read once, its
  // carry looked back for a window of 32 tiles at once, written once).
  expect(s0.size() == 2 && s0[0].what == "chain reset" && s0[0].data_points == 0 &&
             s0[1].what == "pencil chain scan" && s0[1].rank == 2,
         "scan<0>", "a reset of the chain's statuses, then one chained scan");
  expect(s0.size() == 2 && s0[1].chained_tiles == R / 128, "scan<0>",
         "tiles of 128 rows chained along the scanned dimension (not one per 16)");
  expect(s0.size() == 2 && s0[1].look_back_window == 32, "scan<0>",
         "a look-back reading a warp's worth of predecessors at once");
  expect(s0.size() == 2 && s0[1].load_bytes == 16, "scan<0>",
         "dense rows: each lane loads (and stores) 4 neighbouring pencils' floats as one "
         "16-byte vector");
  expect(passes(s0, R * C) == 1.0, "scan<0>", "one pass over the data");
  // 16 steps a pencil: too short to split, each lane walks its pencils.
  const dp::grid<2> top(dp::arithmetic_sequence(0, 16), dp::arithmetic_sequence(0, C));
  const auto s0s = requests_of("scan<0>, 16 rows", [&] {
    dp::scan<0>(top, std::plus<>(), out, [](float x) { return x; }, m);
  });
  expect(s0s.size() == 1 && s0s[0].what == "pencil tiles scan" && s0s[0].load_bytes == 16,
         "scan<0>, 16 rows",
         "each lane walks 4 neighbouring pencils, loading and storing their floats as one "
         "16-byte vector a step");
  expect(passes(s0s, 16 * C) == 1.0 && out(15, 7) == 16.0f, "scan<0>, 16 rows",
         "one pass over the data; the last prefix");
  expect(rows.get_grid().size() == R && rows(0) == float(C) && cols(0) == float(R) &&
             out(R - 1, 0) == float(R),
         "pencils", "the results");
}

/// reduce<1> over long dense rows: the vendor's segmented reduce of the
/// elements' pointer from the operator's identity, the baseline's own call,
/// each row's fold combined into the result; not for an operator without
/// an identity, rows that are not dense, or short rows (the tiled kernels
/// pack several in a group).
void row_folds() {
  const i64 R = 6, C = dp::rt::vendor_fold_min_length + 3;
  dp::field<2, float> m{dp::grid<2>(R, C), 1.0f};
  dp::field<1, float> rows{dp::grid<1>(R), 2.0f};
  const auto plain = requests_of("reduce<1>, long rows", [&] {
    dp::reduce<1>(m.get_grid(), std::plus<>(), rows, [](float x) { return x; }, m);
  });
  expect(plain.size() == 1 && plain[0].what == "segmented reduce" && plain[0].input == "pointer" &&
             plain[0].output == "combining writer",
         "reduce<1>, long rows",
         "one vendor segmented reduce of the elements' pointer, combined into the result");
  expect(rows(0) == 2.0f + C && rows(R - 1) == 2.0f + C, "reduce<1>, long rows",
         "each row's sum added to the result's value");
  const auto twice = requests_of("reduce<1> of twice the elements, long rows", [&] {
    dp::reduce<1>(m.get_grid(), std::multiplies<>(), rows, [](float x) { return 2 * x - 1; }, m);
  });
  expect(twice.size() == 1 && twice[0].what == "segmented reduce" &&
             twice[0].input == "values at elements",
         "reduce<1> of a map, long rows", "the map over the elements' pointer (no division)");
  expect(rows(1) == 2.0f + C, "reduce<1> of a map, long rows", "each row's product folded in");
  const auto user_op = requests_of("reduce<1> with a lambda operator, long rows", [&] {
    dp::reduce<1>(m.get_grid(), [](float a, float b) { return a < b ? b : a; }, rows,
                  [](float x) { return x; }, m);
  });
  expect(user_op.size() == 1 && user_op[0].what == "pencil tiles fold",
         "reduce<1> with a lambda operator", "no identity: the tiled kernel");
  const dp::grid<2> inner(dp::arithmetic_sequence(0, R), dp::arithmetic_sequence(1, C - 1));
  const auto interior = requests_of("reduce<1>, long rows, interior", [&] {
    dp::reduce<1>(inner, std::plus<>(), rows, [](float x) { return x; }, m);
  });
  expect(interior.size() == 1 && interior[0].what == "pencil tiles fold",
         "reduce<1>, interior", "rows not dense: the tiled kernel");
  expect(rows(2) == 2.0f * C, "reduce<1>, interior", "the interior's sums");
}

} // namespace

int main() {
  merged_foralls();
  dense_full_reduce();
  strided_full_reduce();
  tiled_full_reduce();
  padded_tiled_reduce();
  pencils();
  row_folds();
  sorts();
  if (failures)
    std::printf("%d shape(s) wrong\n", failures);
  return failures ? 1 : 0;
}
