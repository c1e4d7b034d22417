// An argsort: the permutation that orders a field of keys, sorted by a
// comparator that receives the keys whole (sort's extra arguments are
// broadcast to it). The keys themselves are not moved.
#include <dp/dp.hpp>

#include <cstdint>

#include "check.hpp"

int main() {
  const std::int64_t n = 100000;
  const dp::grid<1> g(n);
  dp::field<1, float> keys(g);
  dp::field<1, int> order(g);
  dp::forall(g, [](dp::index<1> i, float &k, int &o) {
    k = float((i[0] * 2654435761u) % 100003) / 7.0f;
    o = int(i[0]);
  }, keys, order);

  dp::sort<0>(g, [](int a, int b, const dp::field<1, float> &key) {
    return key(a) < key(b) || (key(a) == key(b) && a < b);
  }, order, dp::read_only(keys));

  int wrong = 0;
  std::int64_t seen = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    seen += order(i);
    if (i > 0 && !(keys(order(i - 1)) < keys(order(i)) ||
                   (keys(order(i - 1)) == keys(order(i)) && order(i - 1) < order(i))))
      ++wrong;
  }
  wrong += seen != n * (n - 1) / 2; // a permutation: every index once
  std::printf("smallest key %g at %d, largest %g at %d\n", keys(order(0)), order(0),
              keys(order(n - 1)), order(n - 1));
  return report("argsort", wrong, 0);
}
