/* Kernels over memory the caller allocates, in a file of their own. */
#ifndef KERNELS_H
#define KERNELS_H
#ifdef __cplusplus
extern "C" {
#endif
void axpy(int n, float a, float *y, const float *x);
void matvec(int n, const double *a, const double *x, double *y);
double dot(int n, const double *x, const double *y);
void scale_rows(int rows, int cols, double *m, const double *s);
void smooth(int n, const double *in, double *out);
void relax(int n, int steps, double *u, double *tmp);
void lower_solve(int n, const double *l, double *x);
void matvec_cpu(int n, const double *a, const double *x, double *y);
void reverse_diff(int n, const double *in, double *out);
void lu(int n, double *a);
/* A C struct of plain members: its arrays borrow as any other. */
struct span {
  int start;
  int count;
};
void span_ends(int n, const struct span *spans, int *end);
/* A node with member arrays, b+tree's shape. */
struct tree_node {
  int keys[4];
  int indices[4];
};
void find_keys(const struct tree_node *nodes, long count, const long *at, int *found, int q, int key);
void bump_keys(struct tree_node *nodes, int n);
void clear(int n, double *v);
void fan1(float *m, const float *a, int size, int t);
void fan2(float *m, float *a, float *b, int size, int t);
void forward(float *m, float *a, float *b, int size);
void convolve(const float *img, float *out, int w, int h, const float *k, int kw, int kh);
#ifdef __cplusplus
}
#endif
#endif
