/* A small network's layers, declared as old C headers do: prototypes with
 * no word for C++ (no extern "C" guards). */
#ifndef NET_H
#define NET_H
float **alloc_rows(int m, int n);
void free_rows(float **rows, int m);
void layer(const float *in, float *out, float **w, int n_in, int n_out);
void adjust(const float *delta, int n_out, const float *in, int n_in, float **w, float **prev);
float squash(float x);
#endif
