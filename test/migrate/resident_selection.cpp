// A selection (the editor's action on one loop) converts the loops it
// covers; the file's other directive loops stay OpenACC's and rely on the
// data directives, so `enter data` over pointers stays as written. (The
// loop left out would stay on its own too, calling a function of another
// file: migrating the output again, without the selection, changes
// nothing.)
// SELECTION: 32:1-35:1
double seed(long i);

class Stream {
  long n;
  double *a, *c;

public:
  explicit Stream(long n) : n(n), a(new double[n]), c(new double[n]) {
#pragma acc enter data create(a[0:n], c[0:n])
  }
  ~Stream() {
#pragma acc exit data delete(a[0:n], c[0:n])
    delete[] a;
    delete[] c;
  }
// REWRITE: #pragma acc enter data create(a[0:n], c[0:n])
// REWRITE: #pragma acc exit data delete(a[0:n], c[0:n])
  void fill() {
#pragma acc parallel loop present(a[0:n])
    for (long i = 0; i < n; i++)
      a[i] = seed(i);
  }
// REWRITE: #pragma acc parallel loop present(a[0:n])
  void copy() {
#pragma acc parallel loop present(a[0:n], c[0:n])
    for (long i = 0; i < n; i++)
      c[i] = a[i];
  }
// DIAG: resident_selection.cpp:[[@LINE-3]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
};

int main() {
  Stream s(4);
  s.fill();
  s.copy();
  return 0;
}
// DIAG: resident_selection.cpp:16:1: warning: 'acc enter data' is not carried over: 'a' is a member, which stays a pointer, not a dp::field [dp-migrate]
// DIAG: resident_selection.cpp:19:1: warning: 'acc exit data' is not carried over: 'a' is a member, which stays a pointer, not a dp::field [dp-migrate]
// SUMMARY: migrated 1 of 1 loop (0 refused)
