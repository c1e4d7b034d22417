// A view of a const field is read-only, like read_only.
#include <dp/dp.hpp>
void overwrite(const dp::field<2, float> &a) { dp::transpose(a)(1, 0) = 42.0f; }
int main() {}
// EXPECT-ERROR: read-only
