// A copy of a const field would write through it: it does not compile.
#include <dp/dp.hpp>
void overwrite(const dp::field<1, float> &a) {
  dp::field<1, float> b = a;
  b(0) = 42.0f;
}
int main() {}
// EXPECT-ERROR: a copy of a const dp::field would give write access to its data
