// dp::reduce without <Dim> reduces into a scalar.
#include <dp/dp.hpp>
#include <functional>
int main() {
  dp::field<2, int> a(dp::grid<2>(3, 4));
  dp::field<1, int> out(dp::grid<1>(3));
  dp::reduce(a.get_grid(), std::plus<>(), out, [](int x) { return x; }, a);
}
// EXPECT-ERROR: dp::reduce without <Dim> reduces into a dp::scalar<T>
