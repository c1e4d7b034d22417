/* A C program in the style of Rodinia's and PolyBench's OpenMP codes, for
 * dpstub --migrate's end-to-end test of a C source: arrays from malloc
 * with the implicit `void *` conversions C allows, linearized 2-D indices
 * through a macro, `restrict` pointers, a collapse(2) stencil, a sum and a
 * maximum in one loop, an element read by pointer arithmetic, a scratch
 * buffer that stays a pointer, an enum set from an int, a float into sqrt
 * (C computes it in double), and a seed array handed whole to functions
 * inside a loop, which read a global (Rodinia's particlefilter), a local
 * table of weights the kernel reads through its copy, a constant table of
 * the file (the stencil's weights) the kernel declares, and a histogram
 * whose bins start as `= {0}` (a dp::field starts with zeros), and a
 * relaxation its caller runs in place too (one array passed as two
 * parameters, as miniWeather's semi_discrete_step), and a small array
 * parameter handed a row of a 2-D array (NPB FT's `int d[3]`). Values
 * stay dyadic, so every order of summation gives the same bits. The
 * original is built as C; its migration, as C++. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 48
#define COLS 40
#define AT(r, c) ((r) * COLS + (c))

enum boundary { FIXED, COPIED };

/* The stencil's weights: a constant table of the file, of which each
 * kernel declares its own copy. */
static const float STENCIL[4] = {0.25f, 0.25f, 0.25f, 0.25f};

static void step(float *restrict next, const float *restrict cur, int rows, int cols) {
  int r, c;
#pragma omp parallel for collapse(2) private(r, c)
  for (r = 1; r < rows - 1; r++)
    for (c = 1; c < cols - 1; c++)
      next[AT(r, c)] = STENCIL[0] * cur[AT(r - 1, c)] + STENCIL[1] * cur[AT(r + 1, c)] +
                       STENCIL[2] * cur[AT(r, c - 1)] + STENCIL[3] * cur[AT(r, c + 1)];
}

static void edges(float *restrict t, enum boundary b) {
  int c;
  if (b != COPIED)
    return;
#pragma omp parallel for
  for (c = 0; c < COLS; c++) {
    t[AT(0, c)] = t[AT(1, c)];
    t[AT(ROWS - 1, c)] = t[AT(ROWS - 2, c)];
  }
}

/* Each element read before the same element is written; a caller passes
 * `out` as `in` too. */
static void relax(float *out, const float *in, const float *toward, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = in[i] + 0.5f * (toward[i] - in[i]);
}

/* A small array parameter declared with its extent, handed a row of a
 * 2-D array (NPB FT's evolve(..., int d[3]) with dims[0]): the loop reads
 * it at constant places only, so its call-site copies it into the
 * kernel. */
static void shift(float *t, int ext[2]) {
#pragma omp parallel for
  for (int i = 0; i < ext[0]; i++)
    t[i] += (float)ext[1];
}

int MULT = 75;
static int advance(int *seed, int k) {
  seed[k] = (MULT * seed[k] + 74) % 65537;
  return seed[k];
}
static int draw(int *seed, int k) { return advance(seed, k) % 7 + advance(seed, k) % 5; }

int main(void) {
  float *a = malloc(sizeof(float) * ROWS * COLS);
  float *b = malloc(sizeof(float) * ROWS * COLS);
  char *label = malloc(32);
  enum boundary mode = 1;
  int i, it;
  double total = 0, peak = 0;
  float spread;

#pragma omp parallel for
  for (i = 0; i < ROWS * COLS; i++)
    a[i] = b[i] = (float)((i * 7) % 16);
  for (it = 0; it < 6; it++) {
    float *t;
    step(b, a, ROWS, COLS);
    edges(b, mode);
    t = a;
    a = b;
    b = t;
  }
  relax(b, b, a, ROWS * COLS);
  relax(a, a, b, ROWS * COLS);
#pragma omp parallel for reduction(+ : total) reduction(max : peak)
  for (i = 0; i < ROWS * COLS; i++) {
    total += a[i];
    peak = fmax(peak, a[i]);
  }
  /* In C, sqrt of a float computes in double; C++ would pick its float
   * overload, which prints otherwise at this precision. */
  spread = (float)(peak - total / (ROWS * COLS));
  printf("spread %.12f\n", sqrt(spread));
  sprintf(label, "after %d steps", it);
  printf("%s: total %.6f peak %.6f corner %.6f\n", label, total, peak, *(a + AT(1, 1)));
  for (i = 0; i < ROWS; i += 8)
    printf("%8.5f %8.5f\n", a[AT(i, 3)], a[AT(i, COLS / 2)]);
  {
    int extents[2][2] = {{COLS, 4}, {ROWS * COLS, 2}};
    shift(a, extents[1]);
    shift(a, extents[0]);
    printf("shifted %.6f %.6f\n", a[AT(0, 3)], a[AT(ROWS - 1, COLS - 1)]);
  }
  {
    const float w[3] = {0.25f, 0.5f, 0.25f};
    int bins[4] = {0};
    float *smooth = malloc(sizeof(float) * COLS);
#pragma omp parallel for
    for (i = 1; i < COLS - 1; i++)
      smooth[i] = w[0] * a[AT(2, i - 1)] + w[1] * a[AT(2, i)] + w[2] * a[AT(2, i + 1)];
#pragma omp parallel for
    for (i = 1; i < COLS - 1; i++) {
      int k = (int)smooth[i] % 4;
#pragma omp atomic
      bins[k]++;
    }
    printf("bins %d %d %d %d smooth %.6f\n", bins[0], bins[1], bins[2], bins[3], smooth[COLS / 2]);
    free(smooth);
  }
  {
    int *seed = malloc(sizeof(int) * COLS);
    int noise = 0;
    for (i = 0; i < COLS; i++)
      seed[i] = i;
#pragma omp parallel for reduction(+ : noise)
    for (i = 0; i < COLS; i++)
      noise += draw(seed, i);
    printf("noise %d seed %d\n", noise, seed[COLS - 1]);
    free(seed);
  }
  free(label);
  free(a);
  free(b);
  return 0;
}
