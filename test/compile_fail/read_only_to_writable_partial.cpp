// A read-only view may not reach a writable partial projection.
#include <dp/dp.hpp>
void fill(dp::field<1, int> &column) { column(0) = 1; }
int main() {
  dp::field<2, int> m(dp::grid<2>(3, 4));
  dp::forall(dp::grid<1>(4), fill, dp::read_only(m));
}
// EXPECT-ERROR: a read-only argument (a read_only view, a const field or const elements) is bound to a writable
