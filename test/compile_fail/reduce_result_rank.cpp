// A reduce<Dim> result must have the compute rank less one.
#include <dp/dp.hpp>
#include <functional>
int main() {
  dp::field<3, int> a(dp::grid<3>(3, 4, 5));
  dp::field<1, int> out(dp::grid<1>(3));
  dp::reduce<2>(a.get_grid(), std::plus<>(), out, [](int x) { return x; }, a);
}
// EXPECT-ERROR: dp::reduce<Dim>: the result must be a dp::field of rank N-1
// EXPECT-ERROR: result_rank_fits_v<dp::field<1, int>, 2>
