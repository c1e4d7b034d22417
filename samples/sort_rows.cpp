// Each row of a matrix sorted by a comparator of its own: by distance from
// a target value, ties broken by value. sort<1> sorts every pencil along
// dimension 1 in place (a merge sort with the comparator on a GPU).
#include <dp/dp.hpp>

#include <algorithm>
#include <vector>

#include "check.hpp"

/// Closer to `target` first; equal distances in increasing order.
struct closest_to {
  int target;
  bool operator()(int a, int b) const {
    const int da = a > target ? a - target : target - a;
    const int db = b > target ? b - target : target - b;
    return da < db || (da == db && a < b);
  }
};

int main() {
  const int rows = 64, cols = 1000;
  const dp::grid<2> g(rows, cols);
  dp::field<2, int> m(g);
  dp::forall(g, [](dp::index<2> i, int &x) { x = int((i[0] * 7919 + i[1] * 104729) % 2000) - 1000; }, m);
  const dp::field<2, int> before = m.clone();

  dp::sort<1>(g, closest_to{42}, m);

  int wrong = 0;
  for (int i = 0; i < rows; ++i) {
    std::vector<int> row;
    for (int j = 0; j < cols; ++j)
      row.push_back(before(i, j));
    std::sort(row.begin(), row.end(), closest_to{42});
    for (int j = 0; j < cols; ++j)
      wrong += m(i, j) != row[j];
  }
  std::printf("row 0 starts %d %d %d; row 63 starts %d %d %d\n", m(0, 0), m(0, 1), m(0, 2),
              m(63, 0), m(63, 1), m(63, 2));
  return report("sort_rows", wrong, 0);
}
