// dp::borrow: fields over memory the caller owns (what --migrate writes
// for an external function's pointer parameters). A counting mirror
// stands in for the GPU (counting_mirror.hpp).
#include <dp/dp.hpp>
#include <gtest/gtest.h>

#include "counting_mirror.hpp"

#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

namespace {

/// Attaches a counting mirror to f's block; returns its device elements.
template <class T> T *on_device(const dp::field<1, T> &f, const std::shared_ptr<dp_test::transfer_counts> &counts) {
  dp::detail::storage *block = dp::detail::field_access::owner(f);
  auto *m = new dp_test::counting_mirror(block->bytes(), counts);
  block->attach_mirror(m);
  block->make_device_current();
  return static_cast<T *>(m->device_data());
}

TEST(Borrow, CallSitesWriteTheCallersMemory) {
  std::vector<float> y(100, 1.0f), x(100);
  std::iota(x.begin(), x.end(), 0.0f);
  {
    dp::field<1, float> fy = dp::borrow(y.data(), 100);
    dp::field<1, const float> fx = dp::borrow(static_cast<const float *>(x.data()), 100);
    dp::forall(
        dp::grid<1>(100),
        [](dp::index<1> i, dp::field<1, float> &fy, const dp::field<1, const float> &fx) {
          fy[i] += 2.0f * fx[i];
        },
        fy, fx);
    EXPECT_EQ(fy(7), 15.0f);
  }
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(y[i], 1.0f + 2.0f * i) << i;
}

TEST(Borrow, DeviceResultsReachTheCallerWhenTheLastHandleGoes) {
  std::vector<int> v(16, 3);
  auto counts = std::make_shared<dp_test::transfer_counts>();
  {
    dp::field<1, int> f = dp::borrow(v.data(), 16);
    int *d = on_device(f, counts);
    d[4] = 42; // a kernel writes
    dp::detail::field_access::owner(f)->device_wrote();
    dp::field<1, int> g = f; // a second handle keeps it
    f = dp::field<1, int>();
    EXPECT_EQ(counts->to_host, 0);
    EXPECT_EQ(v[4], 3); // still on the device
  }
  EXPECT_EQ(counts->to_host, 1);
  EXPECT_EQ(v[4], 42);
  EXPECT_EQ(v[5], 3);
}

TEST(Borrow, ReadOnlyDataIsNotCopiedBack) {
  const std::vector<double> v(8, 2.5);
  auto counts = std::make_shared<dp_test::transfer_counts>();
  {
    dp::field<1, const double> f = dp::borrow(v.data(), 8);
    EXPECT_EQ(on_device(f, counts)[3], 2.5);
  }
  EXPECT_EQ(counts->to_host, 0);
}

TEST(Borrow, TheSameMemoryIsOneBlockWhileBorrowed) {
  std::vector<int> v(16, 0);
  dp::field<1, int> a = dp::borrow(v.data(), 16);
  dp::field<1, const int> b = dp::borrow(static_cast<const int *>(v.data()), 8); // a prefix: shared
  EXPECT_EQ(dp::detail::field_access::owner(a), dp::detail::field_access::owner(b));
  a(3) = 9;
  EXPECT_EQ(b(3), 9);
  // A range inside the live one, from another element: the same block,
  // its elements where they lie in it (a window: the grid's indices are
  // the pointer's).
  dp::field<1, int> w = dp::borrow(v.data() + 4, dp::grid<1>(dp::arithmetic_sequence(4, 8)));
  EXPECT_EQ(dp::detail::field_access::owner(w), dp::detail::field_access::owner(a));
  w(5) = 7;
  EXPECT_EQ(a(5), 7);
  EXPECT_EQ(w.data(), v.data() + 4);
  // Overlapping otherwise would make two copies of one element.
  try {
    (void)dp::borrow(v.data() + 12, 8);
    FAIL() << "an overlapping borrow was accepted";
  } catch (const dp::error &e) {
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)dp::borrow(v.data(), 32), dp::error); // longer than the live one
  a = dp::field<1, int>();
  b = dp::field<1, const int>();
  w = dp::field<1, int>();
  dp::field<1, int> c = dp::borrow(v.data() + 12, 8 - 4); // nothing lives over it now
  EXPECT_EQ(c(0), 0);
  EXPECT_EQ(v[3], 9);
  EXPECT_EQ(v[5], 7);
}

TEST(Borrow, NoElements) {
  dp::field<1, float> f = dp::borrow(static_cast<float *>(nullptr), 0);
  dp::forall(dp::grid<1>(0), [](dp::index<1> i, dp::field<1, float> &f) { f[i] = 1.0f; }, f);
  EXPECT_EQ(f.get_grid().size(), 0);
}

TEST(Borrow, RankTwo) {
  std::vector<int> v(12, 0);
  {
    dp::field<2, int> f = dp::borrow(v.data(), dp::grid<2>(3, 4));
    dp::forall(dp::grid<2>(3, 4), [](dp::index<2> i, dp::field<2, int> &f) { f[i] = int(i[0] * 10 + i[1]); }, f);
  }
  EXPECT_EQ(v[1 * 4 + 2], 12);
  EXPECT_EQ(v[11], 23);
}

// dp::borrow_read: a caller may pass one array as two pointers.
void axpy(int n, float a, float *y, const float *x) {
  dp::field<1, float> fy = dp::borrow(y, n);
  dp::field<1, const float> fx = dp::borrow_read(x, n, fy);
  dp::forall(
      dp::grid<1>(n),
      [=](dp::index<1> i, dp::field<1, float> &fy, const dp::field<1, const float> &fx) { fy[i] += a * fx[i]; },
      fy, fx);
}

TEST(BorrowRead, ApartFromTheWrittenMemoryItIsTheMemory) {
  std::vector<float> y(10, 1.0f), x(10, 2.0f);
  dp::field<1, float> fy = dp::borrow(y.data(), 10);
  dp::field<1, const float> fx = dp::borrow_read(static_cast<const float *>(x.data()), 10, fy);
  EXPECT_EQ(fx.data(), x.data()); // no copy
  dp::field<1, const float> again = dp::borrow(static_cast<const float *>(x.data()), 10);
  EXPECT_TRUE(again.shares_data_with(dp::detail::field_access::owner(fx)));
}

TEST(BorrowRead, TheWrittenArrayPassedTwiceIsReadAsItWasBefore) {
  std::vector<float> y(64);
  std::iota(y.begin(), y.end(), 0.0f);
  axpy(64, 2.0f, y.data(), y.data()); // plain dp::borrow twice: a dp::error
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(y[i], 3.0f * i) << i;
}

TEST(BorrowRead, OverlappingTheWrittenArrayAtAnOffset) {
  std::vector<float> y(65);
  std::iota(y.begin(), y.end(), 0.0f);
  axpy(64, 1.0f, y.data(), y.data() + 1); // y[i] += y[i + 1], in order: the old y[i + 1]
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(y[i], 2.0f * i + 1) << i;
  EXPECT_EQ(y[64], 64.0f);
}

TEST(BorrowRead, ReadsOverlappingEachOtherNeedNoWriter) {
  std::vector<double> v(9);
  std::iota(v.begin(), v.end(), 1.0);
  dp::field<1, const double> a = dp::borrow(static_cast<const double *>(v.data()), 8);
  dp::field<1, const double> b = dp::borrow_read(static_cast<const double *>(v.data()) + 1, 8);
  EXPECT_NE(b.data(), v.data() + 1); // dp::borrow would refuse the overlap: a copy
  dp::scalar<double> dot(0.0);
  dp::reduce(
      dp::grid<1>(8), std::plus<>(), dot,
      [](dp::index<1> i, const dp::field<1, const double> &a, const dp::field<1, const double> &b) { return a[i] * b[i]; },
      a, b);
  EXPECT_EQ(dot.get(), 1 * 2 + 2 * 3 + 3 * 4 + 4 * 5 + 5 * 6 + 6 * 7 + 7 * 8 + 8 * 9);
}

/// v (16 threes) borrowed, with a device copy a kernel wrote 42 into at
/// element 4, not yet on the host; counts start after that.
dp::field<1, int> written_on_device(std::vector<int> &v, const std::shared_ptr<dp_test::transfer_counts> &counts) {
  v.assign(16, 3);
  dp::field<1, int> f = dp::borrow(v.data(), 16);
  int *d = on_device(f, counts);
  d[4] = 42;
  dp::detail::field_access::owner(f)->device_wrote();
  counts->to_host = counts->to_device = 0;
  return f;
}

TEST(BorrowRead, TheCopyHasWhatTheDeviceHolds) {
  std::vector<int> v;
  auto counts = std::make_shared<dp_test::transfer_counts>();
  dp::field<1, int> f = written_on_device(v, counts);
  dp::field<1, const int> r = dp::borrow_read(static_cast<const int *>(v.data()), 16, f);
  EXPECT_EQ(counts->to_host, 1);
  EXPECT_EQ(r(4), 42);
  EXPECT_EQ(r(5), 3);
}

TEST(BorrowRead, NoElements) {
  std::vector<int> v(4, 1);
  dp::field<1, int> f = dp::borrow(v.data(), 4);
  dp::field<1, const int> r = dp::borrow_read(static_cast<const int *>(v.data()), 0, f);
  EXPECT_EQ(r.get_grid().size(), 0);
}

// Of any rank: a C array of static storage read whole (NPB's header
// arrays), in place when apart from what the call-site writes, else a
// copy, indexed as the array is.
TEST(BorrowRead, RankFourInPlaceOrCopied) {
  static double table[3][2][4][5];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 4; ++k)
        for (int m = 0; m < 5; ++m)
          table[i][j][k][m] = 1000 * i + 100 * j + 10 * k + m;
  std::vector<double> out(8);
  dp::field<1, double> written = dp::borrow(out.data(), 8);
  const dp::grid<4> shape(3, 2, 4, 5);
  dp::field<4, const double> apart = dp::borrow_read(&table[0][0][0][0], shape, written);
  EXPECT_EQ(apart.data(), &table[0][0][0][0]);
  EXPECT_EQ(apart(2, 1, 3, 4), 2134);
  apart = dp::field<4, const double>();
  dp::field<1, double> inside = dp::borrow(&table[1][0][0][0], 8);
  dp::field<4, const double> copy = dp::borrow_read(&table[0][0][0][0], shape, inside);
  EXPECT_NE(copy.data(), &table[0][0][0][0]);
  EXPECT_EQ(copy(1, 0, 1, 2), 1012);
  EXPECT_EQ(copy.get_grid().size(), 120);
}

// dp::read_apart: a caller may pass one field as two parameters
// (miniWeather's semi_discrete_step(state, state_tmp, state, ...)).
void relax(dp::field<1, double> out, dp::field<1, const double> in) {
  const dp::field<1, const double> dp_in = dp::read_apart(in, out);
  dp::forall(
      dp::grid<1>(out.get_grid().size()),
      [=](dp::index<1> i, dp::field<1, double> &out, const dp::field<1, const double> &in) {
        out[i] = in[i] + 0.5 * in((i[0] + 1) % 8);
      },
      out, dp_in);
}

TEST(ReadApart, ApartFromTheWrittenFieldItIsTheField) {
  dp::field<1, double> a(dp::grid<1>(8), 1.0), b(dp::grid<1>(8), 0.0);
  dp::field<1, const double> r = dp::read_apart(dp::field<1, const double>(a), b);
  EXPECT_TRUE(r.shares_data_with(dp::detail::field_access::owner(a)));
  relax(b, a);
  EXPECT_EQ(b(3), 1.5);
}

TEST(ReadApart, OneFieldPassedTwiceIsReadAsItWasBefore) {
  dp::field<1, double> a(dp::grid<1>(8));
  for (int k = 0; k < 8; ++k)
    a(k) = k;
  dp::field<1, const double> r = dp::read_apart(dp::field<1, const double>(a), a);
  EXPECT_FALSE(r.shares_data_with(dp::detail::field_access::owner(a)));
  relax(a, a); // both a's: a dp::error without the copy
  for (int k = 0; k < 8; ++k)
    ASSERT_EQ(a(k), k + 0.5 * ((k + 1) % 8)) << k;
}

// What it costs a device: nothing when apart; when one, on a device
// layer that cannot copy on the device (this counting mirror), the copy
// is the host's: one transfer to the host, none back until a kernel reads
// it. (A device's own copy: executor_test.cpp, e2e/launch_costs.cpp.)
TEST(ReadApart, ApartItMovesNothing) {
  std::vector<int> v, w(16, 0);
  auto counts = std::make_shared<dp_test::transfer_counts>();
  dp::field<1, int> f = written_on_device(v, counts);
  dp::field<1, int> other = dp::borrow(w.data(), 16);
  dp::field<1, const int> r = dp::read_apart(f, other);
  EXPECT_EQ(counts->to_host, 0);
  EXPECT_EQ(counts->to_device, 0);
  EXPECT_TRUE(r.shares_data_with(dp::detail::field_access::owner(f)));
}

TEST(ReadApart, TheCopyHasWhatTheDeviceHolds) {
  std::vector<int> v;
  auto counts = std::make_shared<dp_test::transfer_counts>();
  dp::field<1, int> f = written_on_device(v, counts);
  dp::field<1, const int> r = dp::read_apart(f, f);
  EXPECT_EQ(counts->to_host, 1);
  EXPECT_EQ(counts->to_device, 0);
  EXPECT_EQ(r(4), 42);
  EXPECT_EQ(r(5), 3);
}

// dp::enter_data / dp::exit_data (OpenACC's enter and exit data over a
// caller's memory, a class's arrays): the call-sites between them share
// one block, which stays on the device.
/// An array of rows as C programs build it: one block, each row a
/// pointer into it (Rodinia's pathfinder); or each row allocated alone
/// (its backprop), which here lie scattered (never evenly spaced, so a
/// handle gathers them) or, as a C heap often gives them, evenly spaced
/// with a small gap between them (`gap` ints). Past each row's m
/// columns the memory holds -1.
struct row_array {
  std::vector<int> block;
  std::vector<int *> rows;
  row_array(int n, int m, bool one_block) : row_array(n, m, one_block ? 0 : -1) {}
  /// gap < 0: scattered. descending: each row `gap` ints before the one
  /// before it (as a heap lays out rows it maps one by one).
  row_array(int n, int m, int gap, bool descending = false) {
    const std::size_t reach = static_cast<std::size_t>(m) + (gap < 0 ? 24 : gap);
    block.assign(reach * (n + 2), -1);
    for (int i = 0; i < n; ++i) {
      // Scattered: rows 1 and 2 swap places, and row i sits i % 2 ints
      // further on, so no two rows are as far apart as two others.
      const std::size_t place = gap < 0      ? (i == 1 ? 2 : i == 2 ? 1 : i) * reach + i % 2
                                : descending ? (n - 1 - i) * reach
                                             : i * reach;
      rows.push_back(block.data() + place);
      for (int j = 0; j < m; ++j)
        rows.back()[j] = 100 * i + j;
    }
  }
};

/// a[i][j] += b[i][j] + 1 over the first n rows and m columns.
void add_rows(int **a, int *const *b, int n, int m) {
  dp::borrowed_rows<int> fa(a, n, m);
  dp::borrowed_rows<const int> fb(b, n, m);
  dp::forall(
      dp::grid<2>(n, m),
      [](dp::index<2> ij, dp::field<2, int> &fa, const dp::field<2, int> &fb) { fa[ij] += fb[ij] + 1; },
      fa.get(), fb.get());
}

TEST(BorrowedRows, RowsOfOneBlockAreBorrowedInPlace) {
  row_array a(5, 7, true), b(5, 7, true);
  {
    dp::borrowed_rows<int> f(a.rows.data(), 5, 7);
    EXPECT_FALSE(f.gathered());
    const dp::field<2, int> &view = f.get();
    EXPECT_EQ(view.data(), a.block.data());
  }
  add_rows(a.rows.data(), b.rows.data(), 5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j)
      ASSERT_EQ(a.rows[i][j], 2 * (100 * i + j) + 1) << i << "," << j;
}

TEST(BorrowedRows, RowsAllocatedAloneAreGatheredAndWrittenBack) {
  row_array a(5, 7, false), b(5, 7, true);
  {
    dp::borrowed_rows<int> f(a.rows.data(), 5, 7);
    EXPECT_TRUE(f.gathered());
  }
  add_rows(a.rows.data(), b.rows.data(), 5, 7);
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 7; ++j)
      ASSERT_EQ(a.rows[i][j], 2 * (100 * i + j) + 1) << i << "," << j;
    EXPECT_EQ(a.rows[i][7], -1) << "past the columns borrowed: " << i; // untouched
  }
}

TEST(BorrowedRows, RowsOfAMegabyteAndMoreAreCopiedOnTheHostsThreads) {
  // Past 1 MiB the gather and the write-back split the rows among the
  // host's threads: every row still lands at its place, and a window of
  // rows and columns touches no other.
  constexpr int n = 400, m = 1000; // 1.6 MB of ints
  row_array a(n, m, false), b(n, m, false);
  add_rows(a.rows.data(), b.rows.data(), n, m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      ASSERT_EQ(a.rows[i][j], 2 * (100 * i + j) + 1) << i << "," << j;
  row_array c(n, m, false);
  {
    dp::borrowed_rows<int> f(c.rows.data(), 100, n, 2, m); // rows 100.., columns 2..
    EXPECT_TRUE(f.gathered());
    dp::forall(f.get().get_grid(), [](int &v) { v = -v; }, f.get());
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= m; ++j)
      ASSERT_EQ(c.rows[i][j], j == m ? -1 : i >= 100 && j >= 2 ? -(100 * i + j) : 100 * i + j) << i << "," << j;
}

TEST(BorrowedRows, PartOfTheRowsAndColumns) {
  // One block whose rows are longer than the columns borrowed (by 8
  // bytes: used in place, its rows 6 ints apart), and the rest stays as
  // it was.
  row_array a(4, 6, true), b(4, 6, true);
  std::vector<int *> first(a.rows.begin(), a.rows.end());
  add_rows(first.data(), b.rows.data(), 3, 4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j)
      ASSERT_EQ(a.rows[i][j], i < 3 && j < 4 ? 2 * (100 * i + j) + 1 : 100 * i + j) << i << "," << j;
}

TEST(BorrowedRows, AWindowOfRowsKeepsTheirIndices) {
  for (bool one_block : {true, false}) {
    row_array a(6, 4, one_block);
    {
      dp::borrowed_rows<int> f(a.rows.data(), 2, 5, 4); // rows 2, 3 and 4
      EXPECT_EQ(f.gathered(), !one_block);
      EXPECT_EQ(f.get().get_grid().size(), 12);
      dp::forall(
          dp::grid<2>(dp::arithmetic_sequence(2, 5), 4), [](dp::index<2> ij, dp::field<2, int> &f) { f[ij] *= -1; },
          f.get());
      EXPECT_EQ(f.get()(4, 3), -403);
    }
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 4; ++j)
        ASSERT_EQ(a.rows[i][j], (i >= 2 && i < 5 ? -1 : 1) * (100 * i + j)) << one_block << " " << i << "," << j;
  }
}

/// add_rows through dp::rows views, as --migrate writes it: the kernel
/// indexes the caller's rows on the host.
void add_rows_view(int **a, int *const *b, int n, int m) {
  dp::borrowed_rows<int> fa(a, n, m);
  dp::borrowed_rows<const int> fb(b, n, m);
  dp::forall(
      dp::grid<2>(n, m),
      [](dp::index<2> ij, const dp::rows<int> &a, const dp::rows<const int> &b) { a[ij] += b(ij[0], ij[1]) + 1; },
      fa.rows(), fb.rows());
}

TEST(BorrowedRows, ARowsViewIndexesTheCallersRowsWhereverTheyLie) {
  for (int gap : {0, -1, 2})
    for (bool b_block : {true, false}) {
      row_array a(5, 7, gap), b(5, 7, b_block);
      add_rows_view(a.rows.data(), b.rows.data(), 5, 7);
      for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 7; ++j)
          ASSERT_EQ(a.rows[i][j], 2 * (100 * i + j) + 1) << gap << " " << i << "," << j;
        if (gap != 0) { // one block's rows: column 7 is the next row's first
          EXPECT_EQ(a.rows[i][7], -1) << "past the columns borrowed: " << gap << " " << i;
        }
      }
    }
  // No copy on the host: the view's elements are the caller's, even
  // where a device's copy would gather them.
  row_array apart(4, 3, false);
  dp::borrowed_rows<int> f(apart.rows.data(), 1, 4, 1, 3); // rows 1 to 3, columns 1 and 2
  ASSERT_TRUE(f.gathered());
  const dp::rows<int> v = f.rows();
  EXPECT_EQ(&v(2, 1), &apart.rows[2][1]);
  EXPECT_EQ(&v(3, 2), &apart.rows[3][2]);
  const dp::rows<const int> r = v; // read-only from writable
  EXPECT_EQ(r(1, 1), 101);
}

TEST(BorrowedRows, RowsApartServeRowsOrGetNotBoth) {
  // The one indexes the caller's rows, the other a copy of them: a handle
  // over rows apart serves one. Rows in place are one memory: both.
  row_array apart(3, 3, false), other(3, 3, false), block(3, 3, true);
  dp::borrowed_rows<int> viewed(apart.rows.data(), 3, 3);
  ASSERT_TRUE(viewed.gathered());
  viewed.rows();
  EXPECT_THROW(viewed.get(), dp::error);
  dp::borrowed_rows<const int> copied(other.rows.data(), 3, 3);
  ASSERT_TRUE(copied.gathered());
  copied.get();
  try {
    copied.rows();
    FAIL() << "no error";
  } catch (const dp::error &e) {
    EXPECT_NE(std::string(e.what()).find("rows() after get()"), std::string::npos) << e.what();
  }
  dp::borrowed_rows<int> both(block.rows.data(), 3, 3);
  EXPECT_EQ(&both.rows()(1, 2), &both.get()(1, 2));
}

TEST(BorrowedRows, AWindowOfColumnsTouchesNoOthers) {
  // Columns 1 to 3 of rows 1 and 2 (1-based matrices' rows may not even
  // have a column 0 in their allocation).
  for (bool one_block : {true, false}) {
    row_array a(4, 5, one_block);
    {
      dp::borrowed_rows<int> f(a.rows.data(), 1, 3, 1, 4);
      // One block's rows, 2 columns left between the window's: in place.
      EXPECT_EQ(f.gathered(), !one_block);
      EXPECT_EQ(f.get().get_grid().size(), 6);
      EXPECT_EQ(f.get()(2, 3), 203);
      dp::forall(
          dp::grid<2>(dp::arithmetic_sequence(1, 3), dp::arithmetic_sequence(1, 4)),
          [](dp::index<2> ij, dp::field<2, int> &f) { f[ij] = -f[ij]; }, f.get());
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j)
        ASSERT_EQ(a.rows[i][j], (i >= 1 && i < 3 && j >= 1 && j < 4 ? -1 : 1) * (100 * i + j))
            << one_block << " " << i << "," << j;
  }
}

TEST(BorrowedRows, ReadOnlyRowsEvenlySpacedAreReadInPlace) {
  // Rows a heap gave one after another: a header's few bytes between
  // them. Read-only, they are read where they are, spacing and all.
  row_array b(5, 7, 2);
  {
    dp::borrowed_rows<const int> f(b.rows.data(), 5, 7);
    EXPECT_FALSE(f.gathered());
    const dp::field<2, int> &view = f.get();
    EXPECT_EQ(view.data(), b.rows[0]);
    EXPECT_EQ(view(3, 6), 306);
    EXPECT_EQ(view(4, 0), 400);
  }
  {
    dp::borrowed_rows<const int> window(b.rows.data(), 1, 4, 2, 6); // rows 1..3, columns 2..5
    EXPECT_FALSE(window.gathered());
    EXPECT_EQ(window.get()(3, 5), 305);
  }
  row_array a(5, 7, true);
  add_rows(a.rows.data(), b.rows.data(), 5, 7); // b read in place by a launch
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j)
      ASSERT_EQ(a.rows[i][j], 2 * (100 * i + j) + 1) << i << "," << j;
}

TEST(BorrowedRows, WrittenRowsEvenlySpacedAreWrittenInPlace) {
  // Written in place: the bytes between the rows are not the handle's,
  // and nothing else may borrow them or the rows while it lives.
  row_array a(4, 3, 2);
  {
    dp::borrowed_rows<int> written(a.rows.data(), 4, 3);
    EXPECT_FALSE(written.gathered());
    EXPECT_EQ(dp::detail::field_access::data(written.get()), a.rows[0]);
    dp::forall(dp::grid<2>(4, 3), [](int &v) { v = -v - 1; }, written.get());
    EXPECT_THROW(dp::borrow(a.rows[2], 3), dp::error);        // a row it writes
    EXPECT_THROW(dp::borrow(a.rows[1] + 3, 2), dp::error);    // the bytes after row 1
    dp::borrowed_rows<const int> reads(a.rows.data(), 4, 3); // a snapshot
    EXPECT_TRUE(reads.gathered());
    EXPECT_EQ(reads.get()(2, 1), -202);
  }
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j)
      ASSERT_EQ(a.rows[i][j], -(100 * i + j) - 1) << i << "," << j;
    EXPECT_EQ(a.rows[i][3], -1) << i; // between the rows: untouched
  }
}

TEST(BorrowedRows, RowsFurtherApartOrOutOfOrderAreGathered) {
  // 64 bytes apart and more (more than a sixteenth of a row), or out of
  // order: others' data lies between them.
  row_array wide(4, 3, 16), scattered(4, 3, -1);
  EXPECT_TRUE(dp::borrowed_rows<const int>(wide.rows.data(), 4, 3).gathered());
  EXPECT_TRUE(dp::borrowed_rows<int>(wide.rows.data(), 4, 3).gathered());
  dp::borrowed_rows<const int> shuffled(scattered.rows.data(), 4, 3);
  EXPECT_TRUE(shuffled.gathered());
  EXPECT_EQ(shuffled.get()(2, 2), 202);
  // Evenly spaced but for one row.
  row_array apart(4, 3, 2);
  std::swap(apart.rows[2], apart.rows[3]);
  EXPECT_TRUE(dp::borrowed_rows<const int>(apart.rows.data(), 4, 3).gathered());
}

TEST(BorrowedRows, RowsEachBeforeTheOneBeforeAreUsedInPlace) {
  // A heap maps rows too large for its arena one by one, each below the
  // one before: evenly spaced downwards, read and written in place, the
  // field's rows running backwards through the block.
  row_array a(5, 7, 2, true), b(5, 7, 2, true);
  {
    dp::borrowed_rows<int> f(a.rows.data(), 5, 7);
    EXPECT_FALSE(f.gathered());
    EXPECT_EQ(dp::detail::field_access::data(f.get()), a.rows[0]); // the first row, highest
    EXPECT_EQ(dp::detail::field_access::owner(f.get())->host_data(), a.rows[4]);
    EXPECT_EQ(f.get()(3, 6), 306);
  }
  add_rows(a.rows.data(), b.rows.data(), 5, 7);
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 7; ++j)
      ASSERT_EQ(a.rows[i][j], 2 * (100 * i + j) + 1) << i << "," << j;
    EXPECT_EQ(a.rows[i][7], -1) << i; // between the rows: untouched
  }
  // A window of rows and columns, and rows one after another downwards.
  row_array c(6, 4, 0, true);
  {
    dp::borrowed_rows<int> window(c.rows.data(), 1, 4, 1, 3); // rows 1..3, columns 1..2
    EXPECT_FALSE(window.gathered());
    dp::forall(window.get().get_grid(), [](int &v) { v = -v; }, window.get());
  }
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j)
      ASSERT_EQ(c.rows[i][j], (i >= 1 && i < 4 && j >= 1 && j < 3 ? -1 : 1) * (100 * i + j)) << i << "," << j;
}

TEST(BorrowedRows, LongRowsAPagesRoundingApartAreUsedInPlace) {
  // Rows of 64 KiB with 4 KiB between them (a sixteenth of a row: a
  // heap's mapped rows, rounded up to pages) are used in place, but not
  // where a gap holds a whole page, which may not be mapped: a copy of
  // the span would read it.
  constexpr int m = 16384, gap = 1024, n = 3; // ints
  constexpr std::size_t page = 4096, reach = m + gap;
  std::vector<int> memory(reach * n + 2 * page / sizeof(int), -1);
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(memory.data());
  int *aligned = reinterpret_cast<int *>((start + page - 1) / page * page);
  for (int shift : {4, 0}) { // ints past a page's start: 0, each gap a page
    std::vector<int *> rows;
    for (int i = 0; i < n; ++i) {
      rows.push_back(aligned + shift + (n - 1 - i) * reach);
      for (int j = 0; j < m; ++j)
        rows.back()[j] = 100 * i + j;
    }
    {
      dp::borrowed_rows<int> f(rows.data(), n, m);
      EXPECT_EQ(f.gathered(), shift == 0) << shift;
      dp::forall(f.get().get_grid(), [](int &v) { v += 1; }, f.get());
    }
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(rows[i][m - 1], 100 * i + m) << shift << " " << i;
  }
  // Which gaps a span takes, as numbers: a sixteenth of a row, or under
  // 64 bytes.
  EXPECT_TRUE(dp::detail::rows_in_place(65536, 4096));
  EXPECT_FALSE(dp::detail::rows_in_place(65536, 4097));
  EXPECT_TRUE(dp::detail::rows_in_place(16, 63));
  EXPECT_FALSE(dp::detail::rows_in_place(16, 64));
  EXPECT_FALSE(dp::detail::gaps_hold_a_page(4096 + 16, 65536 + 4096, 65536, 3));
  EXPECT_TRUE(dp::detail::gaps_hold_a_page(4096, 65536 + 4096, 65536, 3));
  EXPECT_FALSE(dp::detail::gaps_hold_a_page(4096, 65536 + 4096, 65536, 1)); // one row, no gap
}

TEST(BorrowedRows, RowsEvenlySpacedOverALiveBlockAreGathered) {
  // A live block over one row: the span would overlap it, so the rows
  // are copied; a live block over them all holds them, in place.
  row_array b(4, 3, 2);
  {
    dp::field<1, int> row = dp::borrow(b.rows[2], 3);
    dp::borrowed_rows<const int> f(b.rows.data(), 4, 3);
    EXPECT_TRUE(f.gathered());
    EXPECT_EQ(f.get()(2, 2), 202);
  }
  dp::field<1, int> all = dp::borrow(b.block.data(), static_cast<std::int64_t>(b.block.size()));
  dp::borrowed_rows<const int> f(b.rows.data(), 4, 3);
  EXPECT_FALSE(f.gathered());
  EXPECT_EQ(dp::detail::field_access::owner(f.get()), dp::detail::field_access::owner(all));
}

TEST(BorrowedRows, ReadOnlyRowsAreNotWrittenBack) {
  row_array b(3, 3, false);
  {
    dp::borrowed_rows<const int> f(b.rows.data(), 3, 3);
    EXPECT_TRUE(f.gathered());
    f.get()(1, 1) = 77; // the copy, not the caller's row
  }
  EXPECT_EQ(b.rows[1][1], 101);
}

TEST(BorrowedRows, WrittenRowsBorrowedTwiceAreAnError) {
  // One array of rows passed as two (a caller's adjust(w, w)): the first
  // handle's copy would be written back over the second's.
  row_array a(4, 3, false);
  dp::borrowed_rows<int> first(a.rows.data(), 4, 3);
  ASSERT_TRUE(first.gathered());
  try {
    dp::borrowed_rows<int> second(a.rows.data(), 1, 3, 3);
    FAIL() << "no error";
  } catch (const dp::error &e) {
    EXPECT_NE(std::string(e.what()).find("dp::borrowed_rows: row 1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(dp::borrow(a.rows[2] + 1, 2), dp::error); // a row it writes back, through dp::borrow
  dp::borrowed_rows<const int> reads(a.rows.data(), 4, 3); // a snapshot: fine
  EXPECT_EQ(reads.get()(3, 2), 302);
}

TEST(BorrowedRows, WrittenRowsListedTwiceAreAnError) {
  // One row listed twice (`a[2] = a[0]`): its copy would be written back
  // twice, the second over the first.
  row_array a(4, 3, false);
  a.rows[2] = a.rows[0];
  try {
    dp::borrowed_rows<int> w(a.rows.data(), 4, 3);
    FAIL() << "no error";
  } catch (const dp::error &e) {
    EXPECT_NE(std::string(e.what()).find("row 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("this one, at another row"), std::string::npos) << e.what();
  }
  dp::borrowed_rows<const int> r(a.rows.data(), 4, 3); // read only: fine
  EXPECT_EQ(r.get()(2, 1), 1);
}

TEST(BorrowedRows, WrittenRowsBesideALiveBlockAreHeld) {
  // A live block between two rows (their span holds it, no row overlaps
  // it): the rows are held; a second written handle over one of them is
  // an error, the block's own memory is not.
  row_array a(3, 4, -1);
  int *between = a.rows[0] + 5; // past row 0's columns, before the next row
  ASSERT_LT(a.rows[0] + 4, between + 1);
  dp::field<1, int> block = dp::borrow(between, 1);
  dp::borrowed_rows<int> w(a.rows.data(), 3, 4);
  EXPECT_TRUE(w.gathered());
  EXPECT_THROW(dp::borrowed_rows<int>(a.rows.data(), 1, 2, 4), dp::error);
  EXPECT_EQ(dp::borrow(between, 1).size(), 1);
}

TEST(BorrowedRows, RowsAreFreeAgainOnceTheHandleGoes) {
  row_array a(2, 2, false);
  { dp::borrowed_rows<int> once(a.rows.data(), 2, 2); }
  dp::borrowed_rows<int> again(a.rows.data(), 2, 2);
  EXPECT_TRUE(again.gathered());
  std::vector<int> other(4);
  dp::field<1, int> through = dp::borrow(other.data(), 4); // other memory
  EXPECT_EQ(through.size(), 4);
}

TEST(BorrowedRows, RowsUnderALiveBorrowAreAnErrorToWrite) {
  row_array a(3, 2, false);
  dp::field<1, int> row = dp::borrow(a.rows[1], 2);
  EXPECT_THROW(dp::borrowed_rows<int>(a.rows.data(), 3, 2), dp::error);
  dp::borrowed_rows<int> after(a.rows.data(), 2, 3, 2); // the row after it
  EXPECT_EQ(after.get()(2, 1), 201);
}

/// What the rows cost on a device (a counting mirror stands in): rows of
/// one block cross as that block, once each way when written; rows a few
/// bytes apart cross as their span and, written, come back as rows (the
/// bytes between them left to the host); gathered rows cross as the
/// runtime's field, and come back once to be written back; read-only
/// rows never come back.
TEST(BorrowedRows, WhatCrossesToADevice) {
  for (int gap : {0, -1, 2, 3})
    for (bool written : {true, false}) {
      const bool descending = gap == 3; // each row below the one before
      row_array a(4, 5, gap, descending);
      const bool one_block = gap == 0, in_place = gap >= 0;
      auto counts = std::make_shared<dp_test::transfer_counts>();
      {
        std::optional<dp::borrowed_rows<int>> w;
        std::optional<dp::borrowed_rows<const int>> r;
        dp::field<2, int> *f;
        if (written)
          f = &w.emplace(a.rows.data(), 4, 5).get();
        else
          f = &r.emplace(a.rows.data(), 4, 5).get();
        dp::detail::storage *block = dp::detail::field_access::owner(*f);
        auto *m = new dp_test::counting_mirror(block->bytes(), counts);
        block->attach_mirror(m);
        block->make_device_current();
        // The rows borrowed, no more (in place: the gaps between them too).
        EXPECT_EQ(block->bytes(), (in_place ? 3u * (5u + gap) + 5u : 4u * 5u) * sizeof(int)) << gap;
        EXPECT_EQ(dp::detail::field_access::data(*f) == a.rows[0], in_place) << gap;
        if (written) {
          int *device = static_cast<int *>(m->device_data());
          // A kernel writes (1, 2); row 1 is the third from the block's
          // start when the rows run downwards.
          device[(in_place ? (descending ? 2 : 1) * (5 + gap) : 5) + 2] = -7;
          if (gap > 0)
            device[5] = device[6] = 55; // between the lowest two rows: not the block's
          block->device_wrote();
        }
      }
      EXPECT_EQ(counts->to_device, 1) << one_block << written;
      EXPECT_EQ(counts->to_host, written ? 1 : 0) << one_block << written;
      EXPECT_EQ(a.rows[1][2], written ? -7 : 102) << one_block << written;
      if (gap > 0) { // the bytes between the rows stay the host's
        EXPECT_EQ(a.rows[descending ? 3 : 0][5], -1) << written;
      }
    }
}

TEST(BorrowedRows, NoRowsOrNoColumns) {
  dp::borrowed_rows<int> none(static_cast<int **>(nullptr), 0, 5);
  EXPECT_EQ(none.get().size(), 0);
  row_array a(2, 2, false);
  dp::borrowed_rows<int> empty(a.rows.data(), 2, -1);
  EXPECT_EQ(empty.get().size(), 0);
  EXPECT_FALSE(empty.gathered());
}

/// An array of arrays of rows as NPB MG builds it (`double ***u`): each
/// plane a table of row pointers; the rows one block, or each alone
/// (row_array's). Row (i, j) holds 100 * (i * m + j) + k in column k.
struct plane_array {
  row_array rows;
  std::vector<int **> planes;
  plane_array(int n, int m, int k, int gap) : rows(n * m, k, gap) {
    for (int i = 0; i < n; ++i)
      planes.push_back(rows.rows.data() + i * m);
  }
  static int value(int m, int i, int j, int k) { return 100 * (i * m + j) + k; }
};

TEST(BorrowedPlanes, AViewIndexesTheCallersRowsWithTheirIndices) {
  // Planes 1 and 2, rows 1 to 3, columns 2 to 4 of 4 x 5 x 6: negated
  // through the view by a rank-3 kernel; nothing else touched.
  for (int gap : {0, -1, 2}) {
    plane_array p(4, 5, 6, gap);
    {
      // Every row of every plane: evenly spaced where the rows are (used
      // in place on a device), else gathered.
      dp::borrowed_rows<int, 3> all(p.planes.data(), 4, 5, 6);
      EXPECT_EQ(all.gathered(), gap < 0) << gap;
    }
    {
      // Rows 1 to 3 of planes 1 and 2: a plane's rows 4 and 0 lie between
      // two of them, so a device's copy gathers them, wherever they lie.
      dp::borrowed_rows<int, 3> f(p.planes.data(), 1, 3, 1, 4, 2, 5);
      EXPECT_TRUE(f.gathered()) << gap;
      const dp::rows<int, 3> v = f.rows();
      EXPECT_EQ(&v(2, 3, 4), &p.planes[2][3][4]); // the caller's own, no copy
      const dp::rows<const int, 3> r = v;          // read-only from writable
      EXPECT_EQ(r(1, 1, 2), plane_array::value(5, 1, 1, 2));
      dp::forall(
          dp::grid<3>(dp::arithmetic_sequence(1, 3), dp::arithmetic_sequence(1, 4), dp::arithmetic_sequence(2, 5)),
          [](dp::index<3> ijk, const dp::rows<int, 3> &u) { u[ijk] = -u(ijk[0], ijk[1], ijk[2]); }, f.rows());
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j)
        for (int k = 0; k < 6; ++k) {
          const bool in = i >= 1 && i < 3 && j >= 1 && j < 4 && k >= 2 && k < 5;
          ASSERT_EQ(p.planes[i][j][k], (in ? -1 : 1) * plane_array::value(5, i, j, k))
              << gap << " " << i << "," << j << "," << k;
        }
  }
}

TEST(BorrowedPlanes, WhatADevicesCopyTakes) {
  // The block a device's copy comes from (what launch.hpp moves, with a
  // table of one pointer a row): a grid whose rows lie one after another
  // is that memory itself, its n * m rows of k; rows alone are gathered
  // into a block of as many elements; a window takes its rows alone.
  for (int gap : {0, -1}) {
    plane_array p(3, 4, 5, gap);
    dp::borrowed_rows<int, 3> f(p.planes.data(), 3, 4, 5);
    const dp::rows<int, 3> view = f.rows();
    dp::detail::rows_state<int> *s = dp::detail::rows_access::source(dp::detail::rows_access::listed(view));
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->end - s->first, 3 * 4) << gap; // the table: one pointer a row
    const dp::field<2, int> &block = s->gather();
    EXPECT_EQ(block.get_grid().size(), 3 * 4 * 5) << gap;
    EXPECT_EQ(block.data() == &p.planes[0][0][0], gap == 0) << gap; // in place: no copy on the host
    EXPECT_EQ(block(7, 2), plane_array::value(4, 1, 3, 2)) << gap;  // row 7 is plane 1, row 3
  }
  plane_array p(3, 4, 5, 0);
  dp::borrowed_rows<const int, 3> window(p.planes.data(), 1, 3, 2, 4, 1, 4);
  dp::detail::rows_state<int> *s = dp::detail::rows_access::source(dp::detail::rows_access::listed(window.rows()));
  EXPECT_EQ(s->end - s->first, 2 * 2);
  EXPECT_EQ(s->gather().get_grid().size(), 2 * 2 * 3);
}

// A call-site's list of a grid's rows (dp::borrowed_rows<T, 3>, 8 bytes
// a row) and the row starts a written handle holds are kept for the next
// call-site: allocated afresh, each was fresh pages at every call-site
// (page faults took NPB MG's migration more time than its smoother did).
struct listed_row {
  void *p;
};
TEST(ReusedVector, ALaterListTakesTheMemoryOfAnEarlierOne) {
  const listed_row *first = nullptr;
  {
    dp::detail::reused_vector<listed_row> list(1000);
    list->resize(1000);
    first = list->data();
  }
  dp::detail::reused_vector<listed_row> next(600);
  EXPECT_TRUE(next->empty());
  EXPECT_EQ(next->data(), first); // no allocation: its memory is the first's
  // Alive at once, each has its own.
  dp::detail::reused_vector<listed_row> other(10);
  other->push_back({nullptr});
  EXPECT_NE(other->data(), next->data());
}
struct large_row {
  char bytes[1 << 20];
};
TEST(ReusedVector, NoneIsKeptPastItsLimit) {
  // 64 MiB in all: a list once larger is given back to the system.
  const large_row *first = nullptr;
  {
    dp::detail::reused_vector<large_row> huge(65);
    first = huge->data();
  }
  dp::detail::reused_vector<large_row> next(0);
  EXPECT_EQ(next->capacity(), 0u);
  EXPECT_NE(first, nullptr);
}

TEST(BorrowedPlanes, ACallSitesListOfRowsIsTheLastOnesMemory) {
  // What a rank-3 handle lists (a pointer a row) comes from the lists
  // earlier call-sites left, not a fresh allocation: NPB MG's finest grid
  // listed half a MiB at each call-site, and page faults bringing those
  // lists in took longer than its smoother. The largest kept list is
  // taken first, so a grid of more rows than any other test lists gets
  // back its own.
  plane_array p(32, 64, 2, -1);
  auto listed = [](dp::borrowed_rows<int, 3> &h) {
    return static_cast<const void *>(
        dp::detail::rows_access::source(dp::detail::rows_access::listed(h.rows()))->rows);
  };
  const void *first = nullptr;
  {
    dp::borrowed_rows<int, 3> h(p.planes.data(), 32, 64, 2);
    first = listed(h);
  }
  dp::borrowed_rows<int, 3> again(p.planes.data(), 32, 64, 2);
  EXPECT_EQ(listed(again), first);
}

TEST(BorrowedPlanes, OneArrayReadAndWrittenAtTheSamePoint) {
  // NPB MG's resid(u, r, r): one array passed as the read v and the
  // written r; each point reads its own value before writing it.
  for (int gap : {0, -1}) {
    plane_array p(3, 4, 5, gap);
    {
      dp::borrowed_rows<int, 3> r(p.planes.data(), 3, 4, 5);
      dp::borrowed_rows<const int, 3> v(p.planes.data(), 3, 4, 5);
      dp::forall(
          dp::grid<3>(3, 4, 5),
          [](dp::index<3> ijk, const dp::rows<int, 3> &r, const dp::rows<const int, 3> &v) {
            r[ijk] = 2 * v[ijk] + 1;
          },
          r.rows(), v.rows());
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 5; ++k)
          ASSERT_EQ(p.planes[i][j][k], 2 * plane_array::value(4, i, j, k) + 1) << gap << " " << i << j << k;
  }
}

TEST(BorrowedPlanes, WrittenPlanesBorrowedTwiceAreAnError) {
  plane_array p(2, 3, 4, -1);
  dp::borrowed_rows<int, 3> first(p.planes.data(), 2, 3, 4);
  try {
    dp::borrowed_rows<int, 3> second(p.planes.data(), 1, 2, 0, 3, 0, 4);
    FAIL() << "no error";
  } catch (const dp::error &e) {
    EXPECT_NE(std::string(e.what()).find("dp::borrowed_rows"), std::string::npos) << e.what();
  }
}

TEST(BorrowedPlanes, NoPlanesRowsOrColumns) {
  dp::borrowed_rows<int, 3> none(static_cast<int ***>(nullptr), 0, 5, 5);
  EXPECT_FALSE(none.gathered());
  plane_array p(2, 2, 2, -1);
  dp::borrowed_rows<int, 3> no_rows(p.planes.data(), 0, 2, 1, 1, 0, 2);
  dp::borrowed_rows<int, 3> no_columns(p.planes.data(), 2, 2, 0);
  dp::forall(
      dp::grid<3>(2, 0, 2), [](dp::index<3> ijk, const dp::rows<int, 3> &u) { u[ijk] = 0; }, no_rows.rows());
  EXPECT_EQ(p.planes[1][1][1], plane_array::value(2, 1, 1, 1));
  // The handle's type from `double ***`: the rank-3 one.
  dp::borrowed_rows deduced(p.planes.data(), 2, 2, 2);
  static_assert(std::is_same<decltype(deduced), dp::borrowed_rows<int, 3>>::value, "rank 3 from int ***");
  EXPECT_EQ(deduced.rows()(1, 0, 1), plane_array::value(2, 1, 0, 1));
}

TEST(EnterData, CallSitesBetweenShareOneBlockThatStaysOnTheDevice) {
  std::vector<int> v(16, 3);
  auto counts = std::make_shared<dp_test::transfer_counts>();
  dp::enter_data(v.data(), 16);
  dp::detail::storage *kept = nullptr;
  {
    dp::field<1, int> f = dp::borrow(v.data(), 16); // a call-site's borrow
    kept = dp::detail::field_access::owner(f);
    int *d = on_device(f, counts);
    d[4] = 42; // a kernel writes
    kept->device_wrote();
  }
  EXPECT_EQ(counts->to_host, 0); // the call-site's end moves nothing
  EXPECT_EQ(v[4], 3);            // the host sees the device's results only when asked
  {
    dp::field<1, const int> g = dp::borrow(static_cast<const int *>(v.data()), 8); // a shorter range shares it
    EXPECT_EQ(dp::detail::field_access::owner(g), kept);
    EXPECT_EQ(counts->to_device, 1); // still there: nothing crossed again
  }
  dp::exit_data(v.data());
  EXPECT_EQ(counts->to_host, 1);
  EXPECT_EQ(v[4], 42);
  EXPECT_EQ(v[5], 3);
}

TEST(EnterData, UpdateHostBringsTheResultsAndTheBlockStays) {
  std::vector<int> v(16, 3);
  auto counts = std::make_shared<dp_test::transfer_counts>();
  dp::enter_data(v.data(), 16);
  dp::field<1, int> f = dp::borrow(v.data(), 16);
  int *d = on_device(f, counts);
  d[2] = 7;
  dp::detail::field_access::owner(f)->device_wrote();
  f = dp::field<1, int>();
  dp::update_host(v.data(), 16);
  EXPECT_EQ(counts->to_host, 1);
  EXPECT_EQ(v[2], 7);
  dp::update_host(v.data(), 0); // no element: nothing
  dp::exit_data(v.data());
  EXPECT_EQ(counts->to_host, 1); // nothing newer on the device
}

TEST(EnterData, UpdateDeviceKeepsTheHostsWritesAndTheDevicesResultsElsewhere) {
  std::vector<int> v(8, 1);
  auto counts = std::make_shared<dp_test::transfer_counts>();
  dp::enter_data(v.data(), 8);
  {
    dp::field<1, int> f = dp::borrow(v.data(), 8);
    int *d = on_device(f, counts);
    d[0] = 10; // the device's results, not on the host
    d[5] = 50;
    dp::detail::field_access::owner(f)->device_wrote();
  }
  v[5] = 5; // the host writes elements 4 and 5 through its pointer
  v[4] = 4;
  dp::update_device(v.data() + 4, 2);
  dp::exit_data(v.data());
  EXPECT_EQ(v[0], 10); // the device's result
  EXPECT_EQ(v[4], 4);  // the host's writes sent, not overwritten
  EXPECT_EQ(v[5], 5);
  EXPECT_EQ(v[1], 1);
}

TEST(EnterData, TwiceEnteredStaysUntilTheSecondExit) {
  std::vector<int> v(4, 1);
  auto counts = std::make_shared<dp_test::transfer_counts>();
  dp::enter_data(v.data(), 4);
  dp::enter_data(v.data(), 4);
  {
    dp::field<1, int> f = dp::borrow(v.data(), 4);
    on_device(f, counts)[1] = 9;
    dp::detail::field_access::owner(f)->device_wrote();
  }
  dp::exit_data(v.data());
  EXPECT_EQ(v[1], 1);
  dp::exit_data(v.data());
  EXPECT_EQ(v[1], 9);
  dp::exit_data(v.data()); // not entered any more: nothing to do, as OpenACC says
  dp::enter_data(v.data(), 0); // no element: nothing held
  dp::exit_data(v.data());
}

TEST(EnterData, AWindowInsideItIsServedThere) {
  std::vector<float> v(32, 1.0f);
  dp::enter_data(v.data(), 32);
  dp::detail::storage *kept = dp::detail::field_access::owner(dp::borrow(v.data(), 32));
  for (int t = 0; t < 3; ++t) { // Gaussian elimination's windows, one per step
    const dp::grid<1> rows(dp::arithmetic_sequence(8 + t, 24));
    dp::field<1, float> m = dp::borrow(v.data() + 8 + t, rows);
    EXPECT_EQ(dp::detail::field_access::owner(m), kept);
    dp::forall(rows, [](dp::index<1> i, dp::field<1, float> &m) { m(i[0]) += 1.0f; }, m);
  }
  dp::exit_data(v.data());
  EXPECT_EQ(v[7], 1.0f);
  EXPECT_EQ(v[8], 2.0f);
  EXPECT_EQ(v[10], 4.0f);
  EXPECT_EQ(v[23], 4.0f);
  EXPECT_EQ(v[24], 1.0f);
}

TEST(EnterData, ARangeOverlappingItOtherwiseIsAnError) {
  std::vector<int> v(8, 1);
  dp::enter_data(v.data() + 2, 4);
  EXPECT_THROW(dp::borrow(v.data(), 4), dp::error);     // starts before it
  EXPECT_THROW(dp::borrow(v.data() + 4, 4), dp::error); // ends after it
  try {
    dp::enter_data(v.data() + 1, 2);
    FAIL() << "an overlapping enter_data was accepted";
  } catch (const dp::error &e) { // the call the user wrote, and what to do
    EXPECT_NE(std::string(e.what()).find("dp::enter_data: the 8 bytes at 0x"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("enter the whole range once"), std::string::npos) << e.what();
  }
  dp::exit_data(v.data() + 2);
  dp::field<1, int> f = dp::borrow(v.data(), 8); // free again
  EXPECT_EQ(f(0), 1);
}

/// A device copy whose copy back fails, as after a device fault.
class failing_mirror final : public dp::detail::device_mirror {
public:
  explicit failing_mirror(std::size_t bytes) : bytes_(bytes) {}
  void *device_data() const override { return const_cast<char *>(bytes_.data()); }
  void copy_to_host(void *, std::size_t) override { throw dp::error("the device is gone"); }
  void copy_rows_to_host(void *, std::size_t, std::size_t, std::size_t) override {
    throw dp::error("the device is gone");
  }
  dp::detail::device_fill copy_to_device(const void *host, std::size_t n, void *) override {
    std::memcpy(bytes_.data(), host, n);
    return {};
  }

private:
  std::vector<char> bytes_;
};

/// A borrowed field whose results live only on a device that fails.
void lose_results(std::vector<int> &v) {
  dp::field<1, int> f = dp::borrow(v.data(), static_cast<std::int64_t>(v.size()));
  dp::detail::storage *block = dp::detail::field_access::owner(f);
  block->attach_mirror(new failing_mirror(block->bytes()));
  block->make_device_current();
  block->device_wrote();
}

TEST(BorrowDeathTest, ResultsThatCannotReachTheCallerStopTheProgram) {
  std::vector<int> v(4, 1);
  EXPECT_DEATH(lose_results(v), "dp: error: the results for the 16 bytes at 0x[0-9a-f]+ \\(dp::borrow\\) could not be "
                                "written back: the device is gone");
}

TEST(Borrow, ResultsLostWhileAnErrorIsOnItsWayAreLeftToIt) {
  std::vector<int> v(4, 1);
  try {
    dp::field<1, int> f = dp::borrow(v.data(), 4);
    dp::detail::storage *block = dp::detail::field_access::owner(f);
    block->attach_mirror(new failing_mirror(block->bytes()));
    block->make_device_current();
    block->device_wrote();
    throw dp::error("the call-site failed");
  } catch (const dp::error &e) {
    EXPECT_STREQ(e.what(), "the call-site failed");
  }
}

} // namespace
