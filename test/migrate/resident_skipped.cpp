// `enter data` over a pointer stays when a branch this build skips holds
// an `update` that moves data (the OpenACC guide's class-data keeps its
// `update self` in an `#ifdef _OPENACC` member, which main calls before
// reading on the host): the build migrated here would read the host's copy
// with no update. An update of no element (BabelStream's Cray-only
// `from(a[0:0])`) moves nothing and does not count.
class Data {
  int len;
  double *arr;

public:
  explicit Data(int n) : len(n), arr(new double[n]) {
#pragma acc enter data copyin(this) create(arr[0:len])
  }
  ~Data() {
#pragma acc exit data delete(arr[0:len], this)
    delete[] arr;
  }
  void populate() {
#pragma acc parallel loop present(arr[0:len])
    for (int i = 0; i < len; i++)
      arr[i] = 2 * i;
#ifdef CRAY_ONLY
#pragma acc update self(arr[0:0])
#endif
  }
#ifdef _OPENACC
  void update_host() {
#pragma acc update self(arr[0:len])
  }
#endif
  double at(int i) const { return arr[i]; }
};
// DIAG: resident_skipped.cpp:[[@LINE-13]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: #pragma acc enter data copyin(this) create(arr[0:len])
// REWRITE: #pragma acc exit data delete(arr[0:len], this)

int main() {
  Data d(8);
  d.populate();
#ifdef _OPENACC
  d.update_host();
#endif
  return d.at(3) == 6 ? 0 : 1;
}
// DIAG: resident_skipped.cpp:13:1: warning: 'acc enter data' is not carried over: 'this' may stay a pointer, and 'acc update self(arr[0:len])' (line 29), in a branch this build skips, may bring its data to the host for code that reads it; remove the condition around it, then migrate [dp-migrate]
// DIAG: resident_skipped.cpp:16:1: warning: 'acc exit data' is not carried over: 'arr' may stay a pointer, and 'acc update self(arr[0:len])' (line 29), in a branch this build skips, may bring its data to the host for code that reads it; remove the condition around it, then migrate [dp-migrate]
// SUMMARY: migrated 1 of 1 loop (0 refused)
