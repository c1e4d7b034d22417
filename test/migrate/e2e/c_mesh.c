/* A C program in the style of OpenACC codes that keep their arrays in
 * structs (a grid of cells with its fields, a solver holding the grid):
 * the loops reach the arrays through members (`g->u[k]`, `s->g->v[k]`,
 * `out.v[k]` of a struct passed by value) and read the sizes and
 * coefficients there too (`g->nx`, `s->nu`). The arrays enter the device
 * once (`enter data` in the grid's constructor, `exit data` in its
 * destructor), the host swaps the two time levels' pointers between
 * steps, and an `update self` brings the values back before the host
 * prints them. A second grid lives in a structured `data` region over
 * its members for a few sweeps, and the host prints what the region's
 * end brought back. Values stay dyadic, so every order of summation gives
 * the same bits. The original is built as C; its migration, as C++. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int nx, ny;
  double *u, *v;
  int *fixed;
} grid_t;

typedef struct {
  grid_t *g;
  double nu;
} solver_t;

static void grid_init(grid_t *g, int nx, int ny) {
  const int n = nx * ny;
  g->nx = nx;
  g->ny = ny;
  g->u = (double *)malloc(n * sizeof(double));
  g->v = (double *)malloc(n * sizeof(double));
  g->fixed = (int *)malloc(n * sizeof(int));
#pragma acc enter data create(g->u[0:n], g->v[0:n], g->fixed[0:n])
}

static void grid_free(grid_t *g) {
#pragma acc exit data delete(g->u, g->v, g->fixed)
  free(g->u);
  free(g->v);
  free(g->fixed);
}

static void fill(grid_t *g) {
#pragma acc parallel loop collapse(2) present(g->u[0:g->nx * g->ny], g->fixed[0:g->nx * g->ny])
  for (int j = 0; j < g->ny; j++)
    for (int i = 0; i < g->nx; i++) {
      g->u[j * g->nx + i] = (i % 7) * 0.25 + j * 0.5;
      g->fixed[j * g->nx + i] = i == 0 || j == 0 || i == g->nx - 1 || j == g->ny - 1;
    }
}

/* One smoothing step from u into v, through the solver's grid. */
static void smooth(solver_t *s) {
#pragma acc parallel loop collapse(2) present(s->g->u[0:s->g->nx * s->g->ny], s->g->v[0:s->g->nx * s->g->ny])
  for (int j = 0; j < s->g->ny; j++)
    for (int i = 0; i < s->g->nx; i++) {
      const int k = j * s->g->nx + i;
      if (s->g->fixed[k])
        s->g->v[k] = s->g->u[k];
      else
        s->g->v[k] = s->g->u[k] + s->nu * (s->g->u[k - 1] + s->g->u[k + 1] + s->g->u[k - s->g->nx] +
                                           s->g->u[k + s->g->nx] - 4 * s->g->u[k]);
    }
}

/* The total and the largest value, over a copy of the grid's handle. */
static double total(grid_t out, double *largest) {
  double sum = 0.0, top = 0.0; /* the values are positive */
#pragma acc parallel loop reduction(+:sum) reduction(max:top)
  for (int k = 0; k < out.nx * out.ny; k++) {
    sum += out.v[k];
    if (out.v[k] > top)
      top = out.v[k];
  }
  *largest = top;
  return sum;
}

/* Sweeps over a grid no directive entered: the region holds its arrays
 * on the device for its loops, then copies u back for the host. */
static double relax(grid_t *h, int sweeps) {
  double sum = 0.0;
#pragma acc data copy(h->u[0:h->nx * h->ny]) create(h->v[0:h->nx * h->ny])
  {
    for (int t = 0; t < sweeps; t++) {
#pragma acc parallel loop
      for (int k = h->nx; k < h->nx * (h->ny - 1); k++)
        h->v[k] = 0.5 * h->u[k] + 0.25 * (h->u[k - h->nx] + h->u[k + h->nx]);
#pragma acc parallel loop
      for (int k = h->nx; k < h->nx * (h->ny - 1); k++)
        h->u[k] = h->v[k];
    }
#pragma acc parallel loop reduction(+:sum)
    for (int k = 0; k < h->nx * h->ny; k++)
      sum += h->u[k];
  }
  return sum;
}

int main(void) {
  grid_t g;
  solver_t s;
  grid_init(&g, 40, 24);
  s.g = &g;
  s.nu = 0.125;
  fill(&g);
  for (int step = 0; step < 6; step++) {
    smooth(&s);
    double *t = g.u; /* the new values become the current ones */
    g.u = g.v;
    g.v = t;
  }
  smooth(&s);
  double top = 0.0;
  const double sum = total(g, &top);
#pragma acc update self(g.v[0:g.nx * g.ny])
  printf("sum %.17g largest %.17g\n", sum, top);
  for (int j = 0; j < g.ny; j += 5)
    printf("row %d: %.17g %.17g %.17g\n", j, g.v[j * g.nx + 1], g.v[j * g.nx + g.nx / 2], g.v[j * g.nx + g.nx - 2]);
  grid_free(&g);

  grid_t h;
  h.nx = 16;
  h.ny = 12;
  h.u = (double *)malloc(h.nx * h.ny * sizeof(double));
  h.v = (double *)malloc(h.nx * h.ny * sizeof(double));
  for (int k = 0; k < h.nx * h.ny; k++)
    h.u[k] = (k % 5) * 0.5 + (k / h.nx == 3 ? 8.0 : 0.0);
  const double relaxed = relax(&h, 5);
  printf("relaxed %.17g\n", relaxed);
  for (int j = 0; j < h.ny; j += 3)
    printf("h row %d: %.17g %.17g\n", j, h.u[j * h.nx + 2], h.u[j * h.nx + 9]);
  free(h.u);
  free(h.v);
  return 0;
}
