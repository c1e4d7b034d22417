// reduce<Dim> folds whole pencils of a grid: a where domain has none.
#include <dp/dp.hpp>
#include <functional>
int main() {
  dp::field<2, float> a(dp::grid<2>(4, 4)), r(dp::grid<2>(4, 1));
  dp::reduce<1>(dp::where(a.get_grid(), [](dp::index<2> i) { return i[0] < i[1]; }), std::plus<>(),
                r, [](float x) { return x; }, a);
}
// EXPECT-ERROR: dp::reduce<Dim>: the compute domain must be a dp::grid<N>
