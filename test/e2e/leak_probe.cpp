// A program that leaks a field on purpose, with device memory behind it:
// the check that every sample and e2e program leaves no memory at exit
// (memory_at_exit.cmake) must fail on it, or it proves nothing.
#include <dp/dp.hpp>

#include <cstdio>

int main() {
  const dp::grid<1> g(1000);
  auto *leaked = new dp::field<1, float>(g); // never deleted: its mirror stays
  dp::forall(g, [](float &x) { x = 1.0f; }, *leaked);
  dp::wait_all();
  std::printf("a field leaked on purpose\n");
  return 0;
}
