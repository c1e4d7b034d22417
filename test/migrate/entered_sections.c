// An unstructured data region gives a loop the length it borrows (the
// OpenACC training's image filter: `#pragma acc enter data
// copyin(img[:w*h*ch])`, then a loop reading `img` under `present(img)`
// whose guarded neighbours do not show how far it reaches): the program
// asserts the loop's accesses lie in the section it entered. Only an
// `enter data` the loop surely runs after counts: one standing in a
// block that holds the loop, with no `exit data` of the array between.
// (Since loops of this file stay, its data directives stay too, said
// after the loops' lines: DIAG-DAG; the call-sites borrow on their own.)

void blur(const unsigned char *img, unsigned char *out, long w, long h) {
#pragma acc enter data create(out[:w*h])
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:1: warning: 'acc enter data' is not carried over: 'out' stays a pointer, not a dp::field [dp-migrate]
#pragma acc enter data copyin(img[:w*h])
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:1: warning: 'acc enter data' is not carried over: 'img' stays a pointer, not a dp::field [dp-migrate]
  for (int pass = 0; pass < 2; pass++) {
#pragma acc parallel loop present(img, out)
    for (long y = 0; y < h; y++) {
      for (long x = 0; x < w; x++) {
        int s = 0;
        for (int d = -1; d <= 1; d++) {
          const long yy = y + d;
          if (yy < 0 || yy >= h)
            continue;
          s += img[yy * w + x];
        }
        out[y * w + x] = s / 3;
      }
    }
// DIAG-DAG: entered_sections.c:[[@LINE-12]]:5: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE:      dp::field<1, const unsigned char> dp_img = dp::borrow(img, w*h);
// REWRITE-NEXT: dp::field<1, unsigned char> dp_out = dp::borrow(out, w*h);
  }
#pragma acc exit data delete(img) copyout(out[:w*h])
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:1: warning: 'acc exit data' is not carried over: 'img' stays a pointer, not a dp::field [dp-migrate]
}

void blur_omp(const unsigned char *img, unsigned char *out, long w, long h) {
#pragma omp target enter data map(to: img[0:w*h]) map(alloc: out[0:w*h])
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:1: warning: 'omp target enter data' is not carried over: 'img' stays a pointer, not a dp::field [dp-migrate]
#pragma omp target teams distribute parallel for
  for (long y = 0; y < h; y++) {
    int s = 0;
    for (int d = -1; d <= 1; d++) {
      if (y + d < 0 || y + d >= h)
        continue;
      s += img[(y + d) * w];
    }
    out[y * w] = s;
  }
// DIAG-DAG: entered_sections.c:[[@LINE-9]]:3: remark: converted to dp::forall over dp::grid<1> [dp-migrate]
// REWRITE: dp::field<1, const unsigned char> dp_img = dp::borrow_read(img, w*h, dp_out);
#pragma omp target exit data map(release: img[0:w*h]) map(from: out[0:w*h])
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:1: warning: 'omp target exit data' is not carried over: 'img' stays a pointer, not a dp::field [dp-migrate]
}

// Entered under a condition: the loop may run without it.
void maybe(const unsigned char *img, unsigned char *out, long w, long h, int entered) {
  if (entered) {
#pragma acc enter data copyin(img[:w*h])
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:1: warning: 'acc enter data' is not carried over: 'img' stays a pointer, not a dp::field [dp-migrate]
  }
#pragma acc parallel loop present(img) copyout(out[:h])
  for (long y = 0; y < h; y++)
    out[y] = y > 0 ? img[(y - 1) * w] : 0;
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:22: warning: not converted: 'img' cannot become a dp::field: its allocation is not in this file (it comes from a caller or a call dpstub cannot see) [dp-migrate]
// DIAG-DAG: entered_sections.c:[[@LINE-2]]:22: note: the call-site could borrow 'img', but the loop's accesses do not show how far it reaches; a length in a data clause, such as copy(img[0:n]), would give it
}

// Entered, then left before the loop.
void left(const unsigned char *img, unsigned char *out, long w, long h) {
#pragma acc enter data copyin(img[:w*h])
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:1: warning: 'acc enter data' is not carried over: 'img' stays a pointer, not a dp::field [dp-migrate]
#pragma acc exit data delete(img)
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:1: warning: 'acc exit data' is not carried over: 'img' stays a pointer, not a dp::field [dp-migrate]
#pragma acc parallel loop copyout(out[:h])
  for (long y = 0; y < h; y++)
    out[y] = y > 0 ? img[(y - 1) * w] : 0;
// DIAG-DAG: entered_sections.c:[[@LINE-1]]:22: warning: not converted: 'img' cannot become a dp::field: its allocation is not in this file (it comes from a caller or a call dpstub cannot see) [dp-migrate]
// DIAG-DAG: entered_sections.c:[[@LINE-2]]:22: note: the call-site could borrow 'img', but the loop's accesses do not show how far it reaches; a length in a data clause, such as copy(img[0:n]), would give it
}
// SUMMARY: migrated 2 of 4 loops (2 refused)
