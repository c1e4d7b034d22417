// The host's parallel loops behind a function pointer (detail/host_threads.hpp):
// every index once, oneTBB's deterministic fold to the bit, a sort that
// agrees with std::sort, a piece's exception at the caller.
#include "dp/detail/host_threads.hpp"

#include <gtest/gtest.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using dp::detail::host_split_kind;

const std::int64_t sizes[] = {1, 2, 3, 7, 100, 1023, 1024, 1025, 65537};

TEST(HostThreads, EveryIndexOnceInPiecesOfTheGrain) {
  for (host_split_kind how : {host_split_kind::simple, host_split_kind::adaptive})
    for (std::int64_t n : sizes)
      for (std::int64_t grain : {std::int64_t(1), std::int64_t(16), std::int64_t(1000)}) {
        std::vector<std::atomic<int>> seen(static_cast<std::size_t>(n));
        std::atomic<std::int64_t> longest{0};
        dp::detail::host_parallel(n, grain, how, [&](std::int64_t begin, std::int64_t end) {
          for (std::int64_t i = begin; i < end; ++i)
            ++seen[static_cast<std::size_t>(i)];
          std::int64_t was = longest.load();
          while (end - begin > was && !longest.compare_exchange_weak(was, end - begin)) {
          }
        });
        std::int64_t wrong = 0;
        for (const auto &s : seen)
          wrong += s.load() != 1;
        EXPECT_EQ(wrong, 0) << "n = " << n << ", grain = " << grain;
        if (how == host_split_kind::simple)
          EXPECT_LE(longest.load(), grain) << "n = " << n;
      }
  bool called = false;
  dp::detail::host_parallel(0, 1, host_split_kind::simple, [&](std::int64_t, std::int64_t) { called = true; });
  EXPECT_FALSE(called);
}

// The order of the joins is the point: a fold that writes its tree as
// text differs for any other split or join order than oneTBB's.
TEST(HostThreads, DeterministicReduceIsOneTbbsTree) {
  const auto leaf = [](std::int64_t begin, std::int64_t end, std::string acc) {
    return acc + "[" + std::to_string(begin) + "," + std::to_string(end) + ")";
  };
  const auto join = [](std::string a, const std::string &b) { return "(" + a + "+" + b + ")"; };
  for (std::int64_t n : sizes)
    for (std::int64_t grain : {std::int64_t(1), std::int64_t(5), std::int64_t(64), std::int64_t(100000)}) {
      const std::string ours = dp::detail::deterministic_reduce<std::string>(n, grain, leaf, join);
      const std::string tbbs = tbb::parallel_deterministic_reduce(
          tbb::blocked_range<std::int64_t>(0, n, grain), std::string(),
          [&](const tbb::blocked_range<std::int64_t> &r, std::string acc) {
            return leaf(r.begin(), r.end(), std::move(acc));
          },
          join);
      EXPECT_EQ(ours, tbbs) << "n = " << n << ", grain = " << grain;
    }
  EXPECT_EQ(dp::detail::deterministic_reduce<std::string>(0, 4, leaf, join), "");
}

TEST(HostThreads, ParallelSortAgreesWithStdSort) {
  std::mt19937_64 random(7);
  // Sizes that sort in one piece, and in 2, 4 and 8 (an odd and an even
  // number of merge rounds, so the values end in the buffer or in place).
  for (std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(5000), std::int64_t(1) << 15,
                         std::int64_t(1) << 16, (std::int64_t(1) << 17) + 3, std::int64_t(1) << 19}) {
    std::vector<int> values(static_cast<std::size_t>(n));
    for (int &v : values)
      v = static_cast<int>(random() % 1000); // many equal keys
    std::vector<int> expected = values;
    std::sort(expected.begin(), expected.end(), std::greater<int>());
    dp::detail::parallel_sort(values.begin(), values.end(), std::greater<int>());
    EXPECT_EQ(values, expected) << "n = " << n;
  }
  // Values that can only be moved sort too.
  std::vector<std::unique_ptr<int>> owned;
  for (int k = 0; k < (1 << 16); ++k)
    owned.push_back(std::make_unique<int>(static_cast<int>(random() % 100000)));
  dp::detail::parallel_sort(owned.begin(), owned.end(),
                            [](const auto &a, const auto &b) { return *a < *b; });
  for (std::size_t k = 1; k < owned.size(); ++k)
    ASSERT_LE(*owned[k - 1], *owned[k]) << "at " << k;
  // Values with no default constructor merge in place.
  struct keyed {
    explicit keyed(int v) : value(v) {}
    int value;
  };
  std::vector<keyed> plain;
  std::vector<int> expected;
  for (int k = 0; k < (1 << 17) + 11; ++k) {
    plain.emplace_back(static_cast<int>(random() % 5000));
    expected.push_back(plain.back().value);
  }
  std::sort(expected.begin(), expected.end());
  dp::detail::parallel_sort(plain.begin(), plain.end(),
                            [](const keyed &a, const keyed &b) { return a.value < b.value; });
  std::vector<int> got;
  for (const keyed &k : plain)
    got.push_back(k.value);
  EXPECT_EQ(got, expected);
}

TEST(HostThreads, ExceptionOfAPieceReachesTheCaller) {
  EXPECT_THROW(dp::detail::host_for_each(1000,
                                         [](std::int64_t i) {
                                           if (i == 517)
                                             throw std::runtime_error("piece 517");
                                         }),
               std::runtime_error);
}

} // namespace
