// Escape-time shading of a point of the plane, and a weight per level;
// main.cpp's loops call both from their kernels.
#include "shade.h"

const int max_steps = 40;

static int square(int v) { return v * v; }

unsigned char shade(int x, int y, int width, int height) {
  const double x0 = -2.0 + 2.6 * x / width;
  const double y0 = -1.2 + 2.4 * y / height;
  double re = 0.0, im = 0.0;
  int steps = 0;
  while (re * re + im * im < 4.0 && steps < max_steps) {
    const double t = re * re - im * im + x0;
    im = 2.0 * re * im + y0;
    re = t;
    ++steps;
  }
  return (unsigned char)(255 * steps / max_steps);
}

int weight(unsigned char level) { return square(level / 16) + 1; }
