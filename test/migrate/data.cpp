// Arrays into dp::fields: every allocation dpstub reads, every use in
// view rewritten (host code too, so dp keeps both copies coherent), the
// uses it cannot follow handed the host copy by .data().
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#define NX 16
#define NY 8
double grid[NX][NY];
// A C array is a field of its rank, its extents as written.
// REWRITE: dp::field<2, double> grid{dp::grid<2>(NX, NY)};

void smooth(double in[NX][NY], double (*out)[NY]) {
// C array parameters, rank 2 both ways of writing them.
// REWRITE: void smooth(dp::field<2, double> in, dp::field<2, double> out) {
#pragma acc parallel loop collapse(2)
  for (int i = 1; i < NX - 1; ++i)
    for (int j = 1; j < NY - 1; ++j)
      out[i][j] = 0.25 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
// DIAG: data.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<2> [dp-migrate]
// REWRITE: out(i, j) = 0.25 * (in(i - 1, j) + in(i + 1, j) + in(i, j - 1) + in(i, j + 1));
}

// Allocation helpers as Rodinia's cfd writes them: a call to one whose
// body only returns an allocation (or only releases its parameter) is
// read as that allocation (or release); the helpers stay as written.
template <typename T> T *alloc(int N) { return new T[N]; }
template <typename T> void dealloc(T *array) { delete[] array; }
// REWRITE: template <typename T> T *alloc(int N) { return new T[N]; }
// REWRITE-NEXT: template <typename T> void dealloc(T *array) { delete[] array; }

// A function template's array parameter becomes a field in its text,
// which every instance follows (Rodinia's cfd: copy<float>), its element
// type still the template's.
template <typename T> void fill(T *p, int n, T v) {
  for (int i = 0; i < n; ++i)
    p[i] = v;
}
// REWRITE: template <typename T> void fill(dp::field<1, T> p, int n, T v) {
// REWRITE-NEXT:   for (int i = 0; i < n; ++i)
// REWRITE-NEXT:     p(i) = v;

template <typename T> void copy(T *dst, const T *src, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    dst[i] = src[i];
}
// DIAG: data.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: template <typename T> void copy(dp::field<1, T> dst, const dp::field<1, T> src, int n) {
// REWRITE: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, T> &dst, const dp::field<1, const T> &src) {

void helpers(int n) {
  float *f = alloc<float>(n * 2);
  // Bytes of another type (Rodinia's srad sizes ints by pointers): the
  // whole elements those bytes hold.
  int *k = (int *)malloc(sizeof(unsigned int *) * n);
// REWRITE: dp::field<1, float> f{dp::grid<1>(n * 2)};
// REWRITE: dp::field<1, int> k{dp::grid<1>((sizeof(unsigned int *) * n) / sizeof(int))};
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    f[2 * i] = f[2 * i + 1] = i;
    k[i] = -i;
  }
// DIAG: data.cpp:[[@LINE-4]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  fill<float>(f, n, 0.5f);
// REWRITE: fill<float>(f, n, 0.5f);
  float *g = alloc<float>(n * 2);
  copy(g, f, n * 2);
// REWRITE: copy(g, f, n * 2);
  printf("%f %d %f\n", f[2 * n - 1], k[n - 1], g[n]);
  dealloc<float>(g);
  dealloc<float>(f);
  free(k);
// REWRITE: f = dp::field<1, float>();
// REWRITE-NEXT: k = dp::field<1, int>();
}

// Whichever of two arrays a condition chooses, handed to a function of
// the file (Rodinia's hotspot writes out the buffer its last step filled):
// both arrays and the parameter are one group.
static double last(const double *v, int n) { return v[n - 1]; }
// REWRITE: static double last(dp::field<1, const double> v, int n) { return v(n - 1); }

// An element named by pointer arithmetic, as Rodinia's cfd reads its
// momentum (`*(ff_variable + VAR_MOMENTUM + 0)`), is that element.
#define MOMENTUM 1
void arithmetic(int n) {
  float *ff = (float *)malloc(sizeof(float) * n);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    ff[i] = 2.0f * i;
// DIAG: data.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  float x = *(ff + MOMENTUM + 0), y = *(1 + ff), z = *(ff + n - 1);
// REWRITE: float x = ff(MOMENTUM + 0), y = ff(1), z = ff(n - 1);
  printf("%f %f %f %f\n", x, y, z, *ff);
// REWRITE: printf("%f %f %f %f\n", x, y, z, *ff.data());
  free(ff);
}

// A function template of several instances (each of plain elements)
// cannot make its parameter a field in one text, but its call-site
// borrows the pointer, in the template's type.
template <typename T> void scale(T *p, int n, T by) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    p[i] *= by;
}
// DIAG: data.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::field<1, T> dp_p = dp::borrow(p, n > 0 ? n : 0);
// REWRITE-NEXT: dp::forall(dp::grid<1>(dp::arithmetic_sequence(0, n)), [=](dp::index<1> idx, dp::field<1, T> &p) {

// A class template's arrays copied into locals, as BabelStream's OpenMP
// and OpenACC versions write each kernel (`T *a = this->a;`): the locals
// borrow in the template's type for each instance (float and double
// here), and a sum of T reduces into a dp::scalar<T>.
template <class T> class Stream {
  long size;
  T *a, *b;

public:
  explicit Stream(long n) : size(n), a(new T[n]), b(new T[n]) {}
  ~Stream() {
    delete[] a;
    delete[] b;
  }
  void triad(T k);
  T dot();
};

template <class T> void Stream<T>::triad(T k) {
  long size = this->size;
  T *a = this->a;
  const T *b = this->b;
#pragma omp target teams distribute parallel for simd
  for (long i = 0; i < size; i++)
    a[i] = k * b[i] + T(i);
}
// DIAG: data.cpp:[[@LINE-3]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, T> dp_a = dp::borrow(a, size > 0 ? size : 0);
// REWRITE-NEXT: dp::field<1, const T> dp_b = dp::borrow_read(b, size > 0 ? size : 0, dp_a);

template <class T> T Stream<T>::dot() {
  T sum{};
  long size = this->size;
  T *a = this->a;
  T *b = this->b;
#pragma omp target teams distribute parallel for simd map(tofrom: sum) reduction(+:sum)
  for (long i = 0; i < size; i++)
    sum += a[i] * b[i];
  return sum;
}
// DIAG: data.cpp:[[@LINE-4]]:3: remark: converted to dp::reduce over dp::grid<1> [dp-migrate]
// REWRITE: dp::scalar<T> dp_sum(sum);
// REWRITE-NEXT: dp::reduce(dp::grid<1>(dp::arithmetic_sequence(0, size)), std::plus<>(), dp_sum, [=](dp::index<1> idx, const dp::field<1, const T> &a, const dp::field<1, const T> &b) {

template class Stream<float>;
template class Stream<double>;

int main() {
  const int n = 64;
  double *a = new double[n];
  double *b = static_cast<double *>(malloc(sizeof(double) * n));
  std::vector<float> v(n, 1.5f);
  float w[32];
  double out[NX][NY];
// REWRITE: dp::field<1, double> a{dp::grid<1>(n)};
// REWRITE-NEXT: dp::field<1, double> b{dp::grid<1>(n)};
// REWRITE-NEXT: dp::field<1, float> v(dp::grid<1>(n), 1.5f);
// REWRITE-NEXT: dp::field<1, float> w{dp::grid<1>(32)};
// REWRITE-NEXT: dp::field<2, double> out{dp::grid<2>(NX, NY)};
  if (!a || b == NULL)
    return 1;
// A null test asks the host copy.
// REWRITE: if (!a.data() || b.data() == NULL)
  memset(b, 0, n * sizeof(double));
  for (int k = 0; k < 32; ++k)
    w[k] = k;
// REWRITE: memset(b.data(), 0, n * sizeof(double));
  memset(out, 0, sizeof(out));
// A 2-D array handed to a void * parameter: its elements, row after row.
// REWRITE: memset(out.data(), 0, (out.size() * sizeof(double)));
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = b[i] + v[i] + w[i % 32];
// DIAG: data.cpp:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::forall(dp::grid<1>(n), [=](dp::index<1> idx, dp::field<1, double> &a, const dp::field<1, double> &b, const dp::field<1, float> &v, const dp::field<1, float> &w) {
// REWRITE: a(i) = b(i) + v(i) + w(i % 32);
  // Handles take the place of pointers: swaps and rotations stay as written.
  double *tmp = a;
  a = b;
  b = tmp;
  std::swap(a, b);
// REWRITE: dp::field<1, double> tmp = a;
// REWRITE-NEXT: a = b;
// REWRITE-NEXT: b = tmp;
// REWRITE-NEXT: std::swap(a, b);
  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NY; ++j)
      grid[i][j] = i * NY + j;
  smooth(grid, out);
  double check = 0;
  fwrite(a, sizeof(double), 1, stdout == nullptr ? stderr : nullptr);
  for (int i = 0; i < NX; ++i)
    check += out[i][3];
  printf("%f %f %zu\n", check, a[5], sizeof(w));
// The size of a C array: its elements' bytes.
// REWRITE: fwrite(a.data(), sizeof(double), 1, stdout == nullptr ? stderr : nullptr);
// REWRITE: printf("%f %f %zu\n", check, a(5), (w.size() * sizeof(float)));
  printf("%f\n", last((n & 1) ? a : b, n));
// REWRITE: printf("%f\n", last((n & 1) ? a : b, n));
  delete[] a;
  free(b);
// REWRITE: a = dp::field<1, double>();
// REWRITE-NEXT: b = dp::field<1, double>();
  helpers(n);
  arithmetic(n);
  float s[4] = {1, 2, 3, 4};
  int m[4] = {1, 2, 3, 4};
  scale<float>(s, 4, 2.0f);
  scale<int>(m, 4, 3);
  return 0;
}
// SUMMARY: migrated 8 of 8 loops (0 refused)
