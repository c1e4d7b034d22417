// Every bad input the run time can see is a dp::error whose message says what is
// wrong: which argument, which extents, which bound.
#include <dp/dp.hpp>
#include <dp/rt/backend.hpp>
#include <dp/rt/stub/dispatch.hpp>
#include <gtest/gtest.h>

#include <functional>

namespace {

/// Runs f, expecting a dp::error whose message contains every fragment.
template <class F> void expect_error(F &&f, std::initializer_list<const char *> fragments) {
  try {
    f();
    ADD_FAILURE() << "no dp::error was raised";
  } catch (const dp::error &e) {
    const std::string what = e.what();
    for (const char *frag : fragments)
      EXPECT_NE(what.find(frag), std::string::npos) << "message: " << what << "\nlacks: " << frag;
  }
}

TEST(Errors, CaughtAsStdRuntimeErrorWithItsMessage) {
  // Code that knows nothing of dp catches it as a std::runtime_error (and
  // a std::exception), with the whole message.
  dp::field<1, int> small(dp::grid<1>(2));
  try {
    dp::forall(dp::grid<1>(3), [](int &) {}, small);
    ADD_FAILURE() << "no error was raised";
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find("dp::forall"), std::string::npos) << e.what();
    EXPECT_NE(dynamic_cast<const dp::error *>(&e), nullptr);
  }
}

/// "<kind> at errors_test.cpp:<line>": how an untranslated call-site names itself.
std::string at_line(const char *kind, int line) {
  return std::string(kind) + " at errors_test.cpp:" + std::to_string(line);
}

TEST(Errors, UntranslatedCallSitesNameTheirFileAndLine) {
  // The untranslated program (the host reference) names the line the user
  // wrote each call-site on, as the translated one does.
  dp::field<2, int> a(dp::grid<2>(3, 4));
  dp::field<1, int> short1(dp::grid<1>(2));
  dp::scalar<int> total(0);
  dp::field<2, int> scan_out(dp::grid<2>(3, 4));
  const dp::grid<2> big(3, 5);
  static volatile std::int64_t group = 2048; // a value dpstub cannot see
  const int forall_line = __LINE__ + 1;
  expect_error([&] { dp::forall(big, [](int) {}, a); }, {at_line("dp::forall", forall_line).c_str()});
  const int full_line = __LINE__ + 1;
  expect_error([&] { dp::reduce(big, std::plus<>(), total, [](int x) { return x; }, a); },
               {at_line("dp::reduce", full_line).c_str()});
  const int pencil_line = __LINE__ + 1;
  expect_error([&] { dp::reduce<1>(a.get_grid(), std::plus<>(), short1, [](int x) { return x; }, a); },
               {at_line("dp::reduce<1>", pencil_line).c_str(), "the result field"});
  const int scan_line = __LINE__ + 1;
  expect_error([&] { dp::scan<0>(big, std::plus<>(), scan_out, [](int x) { return x; }, a); },
               {at_line("dp::scan<0>", scan_line).c_str(), "the result field"});
  const int sort_line = __LINE__ + 1;
  expect_error([&] { dp::sort<0>(big, std::less<>(), a); }, {at_line("dp::sort<0>", sort_line).c_str()});
  // With execution options first, over any domain: the options' line.
  const int options_line = __LINE__ + 1;
  expect_error([&] { dp::forall(dp::group_size(group), dp::where(big, [](dp::index<2>) { return true; }), [](int) {}, a); },
               {at_line("dp::forall", options_line).c_str(), "1024"});
  dp::queue q;
  const int bad_projection_line = __LINE__ + 1;
  expect_error([&] { dp::forall(dp::on(q), big, [](int) {}, a); },
               {at_line("dp::forall", bad_projection_line).c_str(), "argument 1"});
  // A rank-5 grid, and the kind alone where the site cannot be carried (a
  // tiled domain without options).
  dp::field<5, int> f5(dp::grid<5>(1, 1, 1, 1, 2));
  const int rank5_line = __LINE__ + 1;
  expect_error([&] { dp::forall(dp::grid<5>(1, 1, 1, 1, 3), [](int) {}, f5); },
               {at_line("dp::forall", rank5_line).c_str()});
  expect_error([&] { dp::forall(dp::tile<2, 2>(big), [](int) {}, a); }, {"dp::forall: "});
}

TEST(Errors, NegativeExtents) {
  expect_error([] { dp::grid<2> g(3, -1); }, {"extent -1", "negative"});
  expect_error([] { dp::extent<1> e(-4); }, {"size -4", "dimension 0", "negative"});
  expect_error([] { dp::arithmetic_sequence s(0, 10, 0); }, {"stride is 0"});
}

TEST(Errors, ZeroStrideNamesTheLineThatBuildsTheDomain) {
  // A migrated loop's run-time step (`i += step`) becomes its domain's
  // stride, built on its call-site's line: that line is named.
  dp::field<1, int> a(dp::grid<1>(10));
  static volatile std::int64_t step = 0; // a value dpstub cannot see
  const int line = __LINE__ + 1;
  expect_error([&] { dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, 10, step)), [](int &x) { x = 1; }, a); },
               {at_line("dp::arithmetic_sequence", line).c_str(), "stride is 0", "from 0 to 10"});
  EXPECT_EQ(a(0), 0); // nothing ran
}

TEST(Errors, ElementalProjectionOutsideTheField) {
  dp::field<1, int> small(dp::grid<1>(10));
  expect_error([&] { dp::forall(dp::grid<1>(11), [](int &) {}, small); },
               {"dp::forall", "argument 1", "index value 10", "compute dimension 0", "[0, 1 .. 9]"});
  dp::field<2, int> a(dp::grid<2>(4, 4)), b(dp::grid<2>(4, 5));
  expect_error([&] { dp::forall(dp::grid<2>(4, 5), [](int &, int) {}, b, a); },
               {"argument 2", "index value 4", "compute dimension 1"});
  // A strided grid whose values fall between the field's values.
  dp::field<1, int> evens(dp::grid<1>(dp::arithmetic_sequence(0, 10, 2)));
  expect_error([&] { dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, 8, 3)), [](int) {}, evens); },
               {"argument 1", "index value 3"});
}

TEST(Errors, PartialProjectionTrailingCoordinatesOutsideTheField) {
  dp::field<2, double> A(dp::grid<2>(5, 8));
  dp::field<1, double> C(dp::grid<1>(9));
  expect_error([&] {
    dp::forall(C.get_grid(), [](double &, const dp::field<1, double> &) {}, C, A);
  }, {"argument 2 (rank 2)", "index value 8", "dimension 1"});
  // The row-major mistake: n points of d coordinates projected on the n
  // points. The message says how partial projection reads the field and
  // what to pass instead.
  dp::field<2, float> P(dp::grid<2>(6, 3));
  dp::field<1, float> norms(dp::grid<1>(6));
  expect_error([&] {
    dp::forall(norms.get_grid(), [](float &, const dp::field<1, float> &) {}, norms, P);
  }, {"argument 2 (rank 2)", "index value 5", "trailing dimension", "dp::transpose"});
  // The suggestion works: the transpose's trailing dimension is P's first.
  dp::forall(norms.get_grid(), [](float &n, const dp::field<1, float> &p) { n = float(p.get_grid().extent(0)); },
             norms, dp::transpose(P));
  EXPECT_EQ(norms(5), 3.0f);
}

TEST(Errors, WritableFieldAlsoInAnotherArgument) {
  dp::field<1, int> a(dp::grid<1>(8));
  dp::field<1, int> same = a; // another handle on a's data: only the run-time check sees it
  expect_error([&] { dp::forall(a.get_grid(), [](int &x, int y) { x = y; }, a, same); },
               {"argument 1", "writable", "argument 2"});
  // Through a view of the same data, too.
  dp::field<2, int> m(dp::grid<2>(3, 3));
  expect_error([&] {
    dp::forall(m.get_grid(), [](int &x, const dp::field<2, int> &) { x = 0; }, m, dp::transpose(m));
  }, {"argument 1", "argument 2"});
  // Reading the same field twice is fine.
  EXPECT_NO_THROW(dp::forall(a.get_grid(), [](int, int) {}, a, a));
}

TEST(Errors, ResultsThatDoNotCoverTheDomainsIndexValues) {
  // Results are indexed by index values, like every projection: they may be
  // larger than the domain, but must hold each of its index values.
  dp::field<2, int> a(dp::grid<2>(3, 4));
  dp::field<1, int> short_result(dp::grid<1>(2));
  expect_error([&] { dp::reduce<1>(a.get_grid(), std::plus<>(), short_result, [](int x) { return x; }, a); },
               {"dp::reduce", "the result field", "index value 2 of compute dimension 0"});
  dp::field<2, int> scan_out(dp::grid<2>(4, 3));
  expect_error([&] { dp::scan<0>(a.get_grid(), std::plus<>(), scan_out, [](int x) { return x; }, a); },
               {"dp::scan", "the result field", "index value 3 of compute dimension 1"});
  expect_error([&] { dp::sort<0>(dp::grid<2>(3, 5), std::less<>(), a); },
               {"dp::sort", "the sort field", "index value 4"});
}

TEST(Errors, ResultFieldAlsoAnArgument) {
  const dp::grid<1> g(10);
  dp::field<1, int> a(g);
  // A second handle on the same data: only the run time can see the alias
  // (dpstub rejects the same variable named twice at compile time).
  dp::field<1, int> same = a;
  expect_error([&] { dp::scan<0>(g, std::plus<>(), a, [](int x) { return x; }, same); },
               {"result field", "argument 1"});
}

TEST(Errors, ImpossiblePlans) {
  const dp::rt::device_limits tiny{{4, 4, 4}, 64};
  expect_error([&] { dp::rt::plan_dispatch(dp::extent<1>(10), tiny, dp::rt::dispatch_policy::automatic, {128, 1, 1}); },
               {"group shape (128, 1, 1)", "128 threads", "allows 64"});
  const dp::rt::device_limits zero{{0, 4, 4}, 64};
  expect_error([&] { dp::rt::plan_dispatch(dp::extent<1>(10), zero); }, {"max_groups"});
  expect_error([&] {
    dp::rt::plan_dispatch(dp::extent<4>(1 << 12, 1 << 12, 2, 2), dp::rt::device_limits{{1, 1, 1}, 1},
                          dp::rt::dispatch_policy::split, {1, 1, 1});
  }, {"launches"});
}

TEST(Errors, BackendSelection) {
  expect_error([] { dp::rt::parse_backend("opencl"); }, {"DP_BACKEND=opencl", "unknown backend"});
}

} // namespace
