/* An old C header: prototypes, and no word for C++. */
void axpy(int n, float a, float *y, const float *x);
double norm(int n, const float *x);
