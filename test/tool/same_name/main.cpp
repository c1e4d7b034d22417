// Links a/k.cpp and b/k.cpp: each call-site must run its own kernel.
#include <cstdio>

int run_a();
int run_b();

int main() {
  const int a = run_a(), b = run_b();
  std::printf("a/k.cpp: %d (expected 100), b/k.cpp: %d (expected 200)\n", a, b);
  return a == 100 && b == 200 ? 0 : 1;
}
