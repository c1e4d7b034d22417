// A comparator must not take its operands by non-const reference.
#include <dp/dp.hpp>
int main() {
  dp::field<1, int> a(dp::grid<1>(3));
  dp::sort<0>(a.get_grid(), [](int &x, int &y) { return x < y; }, a);
}
// EXPECT-ERROR: dp::sort<Dim>: the comparator must be callable as cmp(const R &, const R &, extra...)
