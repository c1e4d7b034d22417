// An OpenACC and OpenMP program over two files, in the OpenACC guide's
// mandelbrot style: its loops call functions shade.cpp defines, which
// shade.h declares for the device (`acc routine`, `omp declare target`).
#include "shade.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  const int width = argc > 1 ? atoi(argv[1]) : 120;
  const int height = argc > 2 ? atoi(argv[2]) : 80;
  unsigned char *image = (unsigned char *)malloc(width * height);

#pragma acc parallel loop collapse(2) copyout(image[0:width*height])
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      image[y * width + x] = shade(x, y, width, height);

  long total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < width * height; ++i)
    total += weight(image[i]);

  printf("total weight %ld\n", total);
  for (int y = 0; y < height; y += 8) {
    for (int x = 0; x < width; x += 2)
      putchar(" .:-=+*#%@"[image[y * width + x] / 26]);
    putchar('\n');
  }
  free(image);
  return 0;
}
