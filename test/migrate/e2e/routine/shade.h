// The functions main.cpp's loops call, defined in shade.cpp and declared
// for the device here, as OpenACC and OpenMP codes declare them.
#pragma once

#pragma acc routine seq
unsigned char shade(int x, int y, int width, int height);

#pragma omp declare target
int weight(unsigned char level);
#pragma omp end declare target
