// EXIT: 1
// LIST: "verdict": "converted",
// C that no edit makes C++: each is an error where it stands, and the
// file, whose loop would convert, is not written. (The report's line per
// loop comes before the errors the edits meet: DIAG-DAG.)
#include <stdlib.h>

// A K&R-style definition whose parameters a preprocessor line declares:
// dpstub writes no prototype it cannot see whole.
static int twice(x)
#ifdef WIDE
  long x;
#else
  int x;
#endif
{
  return 2 * x;
}
// DIAG-DAG: c_not_cxx.c:[[@LINE-9]]:12: error: the migrated file is C++, which rejects this C: 'twice' is defined in the K&R style, and a macro, a preprocessor line or another edit in its parameters keeps dpstub from writing its prototype; give it one [dp-migrate]

// A name C++ keeps for itself, of a variable other files may link to
// (a local is renamed: c_source.c).
int new = 3;
// DIAG-DAG: c_not_cxx.c:[[@LINE-1]]:5: error: the migrated file is C++, which rejects this C: 'new' is a keyword of C++; rename it [dp-migrate]

// A function other files call, which a header of the user's declares
// both with its prototype (so the header is included inside extern "C")
// and, elsewhere, without its parameters: C++ reads that as another
// function, and both cannot have C linkage.
#include "c_not_cxx_api.h"
// DIAG-DAG: c_not_cxx_api.h:7:24: error: the migrated file is C++, which rejects this C: 'class' is a keyword of C++, and the migrated file includes this header as it is; rename it here [dp-migrate]
int count(int n, const double *a) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    k += a[i] > 0;
  return k;
}
// DIAG-DAG: c_not_cxx.c:[[@LINE-6]]:5: error: the migrated file is C++, which rejects this C: 'count', which other files may call, needs C linkage in C++, and 'c_not_cxx_api.h' declares it without its parameters, which C++ reads as none; give that declaration its prototype [dp-migrate]
void fill(int n, double *a) {
  for (int i = 0; i < n; ++i)
    a[i] = i;
}

int dump();

int main(void) {
  int n = 64;
  double *a = malloc(n * sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = twice(i) + new;
// DIAG-DAG: c_not_cxx.c:[[@LINE-2]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
  // A function no header in view declares (C allows the call; C++ needs
  // its declaration, which only the user knows).
  report(a, n);
// DIAG-DAG: c_not_cxx.c:[[@LINE-1]]:3: error: the migrated file is C++, which rejects this C: 'report' is called with no declaration in view; include the header that declares it [dp-migrate]
  // Declared without its parameters, here and nowhere else in view.
  int written = dump(a, n);
// DIAG-DAG: c_not_cxx.c:[[@LINE-1]]:17: error: the migrated file is C++, which rejects this C: 'dump' is declared without its parameters, which C++ reads as none, and no declaration in view gives them; give it its prototype [dp-migrate]
  // Declared so in a header, whose text dpstub does not edit.
  written += save(a, n);
// DIAG-DAG: c_not_cxx.c:[[@LINE-1]]:14: error: the migrated file is C++, which rejects this C: 'save' is called with its arguments where 'c_not_cxx_api.h' declares it without its parameters, which C++ reads as none; give that declaration its prototype [dp-migrate]
  // Called through a pointer whose type does not give the parameters.
  int (*pick)() = dump;
  written += pick(a, n);
// DIAG-DAG: c_not_cxx.c:[[@LINE-1]]:14: error: the migrated file is C++, which rejects this C: 'pick' points to a function whose type does not give its parameters, which C++ reads as none; write them in its declaration [dp-migrate]
  free(a);
  return written;
}

int save(const double *a, int n) {
  return n > 0 && a[0] > 0;
}
// DIAG-DAG: c_not_cxx.c:[[@LINE-3]]:5: error: the migrated file is C++, which rejects this C: 'save', which other files may call, needs C linkage in C++, and 'c_not_cxx_api.h' declares it without its parameters, which C++ reads as none; give that declaration its prototype [dp-migrate]
// SUMMARY: migrated 1 of 1 loop (0 refused)
// DIAG: dpstub: error: {{.*}}c_not_cxx.c is not written: the errors above stop it
