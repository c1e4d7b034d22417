/* A header whose C++ guards hold some of its declarations only (as
   NeoRodinia's do): C++ reads the others with C++ linkage. */
void fill(int n, float *x, float v);

#ifdef __cplusplus
extern "C" {
#endif
float total(int n, const float *x);
#ifdef __cplusplus
}
#endif
