// reduce<5> on a 2-d grid: Dim names no dimension.
#include <dp/dp.hpp>
#include <functional>
int main() {
  dp::field<2, int> a(dp::grid<2>(3, 4));
  dp::field<1, int> out(dp::grid<1>(3));
  dp::reduce<5>(a.get_grid(), std::plus<>(), out, [](int x) { return x; }, a);
}
// EXPECT-ERROR: dp::reduce<Dim>: Dim must name a dimension of the compute grid
// EXPECT-ERROR: dimension_in_range_v<5, 2>
