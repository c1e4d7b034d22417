// A stream benchmark's kernels as a class template over its arrays, for
// dpstub --migrate's end-to-end test, in BabelStream's two styles: its
// offloading version copies the members a kernel needs into locals (`T
// *a = this->a;`) and offloads one loop; its host version reads them by
// their names in an `omp parallel for` (add, triad, and a member scalar).
// The dot product reduces into a T. Two instances (float and double)
// share the text, so the migrated kernels borrow the arrays in the
// template's type. As in BabelStream, the constructor maps the arrays
// (`target enter data`), the destructor unmaps them, and the host reads
// them after a `target update from`: migrated, dp::enter_data keeps each
// array's block alive between the two, the kernels' borrows share it,
// and dp::update_host brings the results (the emulated run prints stale
// values if it does not). Values stay small integers, so every order of
// summation gives the same bits.
#include <cstdio>

template <class T> class Stream {
  long size;
  T *a, *b, *c;
  T k = 2;

public:
  explicit Stream(long n) : size(n), a(new T[n]), b(new T[n]), c(new T[n]) {
    T *a = this->a;
    T *b = this->b;
    T *c = this->c;
#pragma omp target enter data map(alloc: a[0:size], b[0:size], c[0:size])
  }
  ~Stream() {
    T *a = this->a;
    T *b = this->b;
    T *c = this->c;
#pragma omp target exit data map(release: a[0:size], b[0:size], c[0:size])
    delete[] a;
    delete[] b;
    delete[] c;
  }
  void read() {
    T *a = this->a;
    T *b = this->b;
    T *c = this->c;
#pragma omp target update from(a[0:size], b[0:size], c[0:size])
  }
  void init(T x, T y, T z);
  void copy();
  void mul(T k);
  void add();
  void triad();
  T dot();
  T at(long i) const { return a[i] + b[i] + c[i]; }
};

template <class T> void Stream<T>::init(T x, T y, T z) {
  long size = this->size;
  T *a = this->a;
  T *b = this->b;
  T *c = this->c;
#pragma omp target teams distribute parallel for simd
  for (long i = 0; i < size; i++) {
    a[i] = x;
    b[i] = y + T(i % 3);
    c[i] = z;
  }
}

template <class T> void Stream<T>::copy() {
  long size = this->size;
  T *a = this->a;
  T *c = this->c;
#pragma omp target teams distribute parallel for simd
  for (long i = 0; i < size; i++)
    c[i] = a[i];
}

template <class T> void Stream<T>::mul(T k) {
  long size = this->size;
  T *b = this->b;
  T *c = this->c;
#pragma omp target teams distribute parallel for simd
  for (long i = 0; i < size; i++)
    b[i] = k * c[i];
}

template <class T> void Stream<T>::add() {
#pragma omp parallel for
  for (long i = 0; i < size; i++)
    c[i] = a[i] + b[i];
}

template <class T> void Stream<T>::triad() {
#pragma omp parallel for
  for (long i = 0; i < size; i++)
    a[i] = b[i] + k * c[i];
}

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

template <class T> void run(const char *name, long n) {
  Stream<T> s(n);
  s.init(1, 2, 0);
  for (int k = 0; k < 3; ++k) {
    s.copy();
    s.mul(2);
    s.add();
    s.triad();
  }
  const T sum = s.dot();
  s.read();
  std::printf("%s: %.1f %.1f %.1f %.1f\n", name, double(sum), double(s.at(0)), double(s.at(n / 2)),
              double(s.at(n - 1)));
}

int main() {
  run<float>("float", 1001);
  run<double>("double", 4097);
  run<double>("one", 1);
  return 0;
}
