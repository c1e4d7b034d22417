// An OpenMP program in the style of stencil codes, for dpstub --migrate's
// end-to-end test: a Jacobi solver over C arrays at namespace scope,
// collapse(2), a max reduction, a parallel region of two loops, a target
// offload over std::vector, private and firstprivate clauses, `continue`,
// a function template's loop over its pointer parameters (Rodinia's cfd:
// copy<float>), triangular collapse(2)s (with and without the diagonal),
// a serial prefix sum that stays a loop, and atomic and critical updates
// that are reductions (arg max and arg min too, a tie with the value
// before the loop), a histogram's atomic and critical additions, and
// atomic maxima, minima and bits of bins, tiles of a run-time size,
// std::vector members of a struct.
// Values stay dyadic, so every order of summation gives the same bits.
#include <cmath>
#include <cstdio>
#include <vector>

#define N 40
#define M 24
double u[N][M], unew[N][M];

static double sweep() {
  double err = 0;
#pragma omp parallel for collapse(2) reduction(max:err)
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < M - 1; ++j) {
      unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
      err = fmax(err, fabs(unew[i][j] - u[i][j]));
    }
#pragma omp parallel
  {
#pragma omp for
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < M - 1; ++j)
        u[i][j] = unew[i][j];
#pragma omp for nowait
    for (int j = 0; j < M; ++j) {
      u[0][j] = u[1][j];
      u[N - 1][j] = u[N - 2][j];
    }
  }
  return err;
}

static void weights(std::vector<double> &w, const std::vector<double> &x, double scale) {
  const int n = (int)w.size();
  double t;
#pragma omp target teams distribute parallel for map(to: x) map(tofrom: w) private(t) firstprivate(scale)
  for (int k = 0; k < n; ++k) {
    if (x[k] < 0)
      continue;
    t = x[k] * scale;
    w[k] = t * t;
  }
}

// A model's data in std::vector members of a struct handed by reference
// (miniBUDE's `p.protein[i]`): each call-site borrows the vectors it
// indexes through data() and size(), those of the const object read-only;
// the caller passes one object as both.
struct Deck {
  std::vector<double> pos, energy;
};
static double score(Deck &out, const Deck &in, double shift) {
  double best = -1;
#pragma omp parallel for
  for (int k = 0; k < (int)in.pos.size(); ++k)
    out.energy[k] = in.pos[k] * in.pos[k] + shift;
#pragma omp parallel for reduction(max : best)
  for (size_t k = 0; k < out.energy.size(); ++k)
    best = fmax(best, out.energy[k] - in.pos[k]);
  return best;
}

template <typename T> static void copy(T *dst, const T *src, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    dst[i] = src[i];
}

int main() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      u[i][j] = (i == N / 2 && j == M / 2) ? 1024.0 : 0.0;
  double err = 0;
  for (int it = 0; it < 8; ++it)
    err = sweep();
  printf("err %.17g centre %.17g\n", err, u[N / 2][M / 2]);

  std::vector<double> x(M), w(M, -1.0);
  for (int j = 0; j < M; ++j)
    x[j] = (j % 5 == 0) ? -1.0 : u[N / 2][j];
  weights(w, x, 0.5);
  // A prefix sum carries a value from one iteration to the next: no
  // directive, no candidate; it stays as it is.
  double run = 0;
  for (int j = 0; j < M; ++j) {
    run += w[j];
    printf("%d %.17g %.17g\n", j, w[j], run);
  }
  double *row = new double[M];
  double *kept = new double[M];
  for (int j = 0; j < M; ++j)
    row[j] = 2 * u[N / 2][j];
  copy(kept, row, M);
  printf("kept %.17g %.17g\n", kept[0], kept[M / 2]);
  // A triangular collapse(2) from 1 (PolyBench's reg_detect): its points
  // are dp::upper_triangle's, shifted; the others keep -1.
  double *tri = new double[M * M];
  for (int k = 0; k < M * M; ++k)
    tri[k] = -1;
#pragma omp parallel for collapse(2)
  for (int j = 1; j < M; ++j)
    for (int i = j; i < M; ++i)
      tri[j * M + i] = u[N / 2][i] - u[N / 2][j] + j;
  double weighted = 0;
  for (int k = 0; k < M * M; ++k)
    weighted += tri[k] * (k % 3);
  printf("triangle %.17g\n", weighted);
  // Pairs without the diagonal, both ways: strict triangles, shifted.
#pragma omp parallel for collapse(2)
  for (int j = 0; j < M; ++j)
    for (int i = j + 1; i < M; ++i)
      tri[j * M + i] = 2 * j - i;
#pragma omp parallel for collapse(2)
  for (int j = 2; j < M; ++j)
    for (int i = 2; i < j; ++i)
      tri[j * M + i] = i + 0.5;
  weighted = 0;
  for (int k = 0; k < M * M; ++k)
    weighted += tri[k] * (k % 7);
  printf("pairs %.17g\n", weighted);
  // Updates guarded by atomic and critical: the reductions they make.
  double total = 0, peak = 0;
  long positive = 0;
#pragma omp parallel for
  for (int j = 0; j < M; ++j) {
#pragma omp atomic
    total += kept[j];
#pragma omp critical
    {
      if (kept[j] > peak)
        peak = kept[j];
    }
    if (kept[j] > 0) {
#pragma omp atomic update
      positive++;
    }
  }
  printf("guarded %.17g %.17g %ld\n", total, peak, positive);
  // Arg max and arg min under critical sections, over values with ties:
  // of equal values the first wins (`>`), or the last (`>=`, and `<=`
  // counting down a collapse(2) nest), as in the loops.
  int top = -1, top_at = -1, low = 1 << 30, low_i = -1, low_j = -1;
  double heaviest = -1;
  int heaviest_at = -1;
#pragma omp parallel for
  for (int j = 0; j < M; ++j) {
#pragma omp critical
    if ((j * 5) % 7 > top) {
      top = (j * 5) % 7;
      top_at = j;
    }
#pragma omp critical
    if (kept[j] >= heaviest) {
      heaviest_at = j;
      heaviest = kept[j];
    }
  }
#pragma omp parallel for collapse(2)
  for (int i = N - 1; i >= 0; --i)
    for (int j = M - 1; j >= 0; --j) {
      const int v = (i * 7 + j * 3) % 11;
#pragma omp critical
      {
        if (v <= low) {
          low = v;
          low_i = i;
          low_j = j;
        }
      }
    }
  printf("located %d %d %d %d %d %.17g %d\n", top, top_at, low, low_i, low_j, heaviest, heaviest_at);
  // The value before the loop keeps a tie where the loop would keep it:
  // from the largest value, `>` never moves (the index stays -1) and
  // `>=` takes the last iteration holding it.
  int still = 6, still_at = -1, last = 6, last_at = -1;
#pragma omp parallel for
  for (int j = 0; j < M; ++j) {
#pragma omp critical
    if ((j * 5) % 7 > still) {
      still = (j * 5) % 7;
      still_at = j;
    }
#pragma omp critical
    if ((j * 5) % 7 >= last) {
      last = (j * 5) % 7;
      last_at = j;
    }
  }
  printf("kept %d %d %d %d\n", still, still_at, last, last_at);
  // A histogram: atomic additions to bins the iterations pick, and a
  // subtraction (dp::atomic_add).
  std::vector<int> bins(8, 0);
  std::vector<double> spread(4, 0.0);
  std::vector<long> weighed(3, 0);
#pragma omp parallel for
  for (int j = 0; j < M * 50; ++j) {
#pragma omp atomic
    bins[(j * 5) % 8]++;
#pragma omp atomic update
    spread[j % 4] -= kept[j % M] * 0.5;
#pragma omp critical
    weighed[(j * 7) % 3] += j;
  }
  printf("histogram %d %d %d %.17g %.17g %ld %ld\n", bins[0], bins[3], bins[7], spread[0], spread[3], weighed[0],
         weighed[2]);
  // Maxima, minima and bits of bins the iterations pick: a critical
  // section's maximum, OpenMP 5.1's `atomic compare` minimum, an atomic
  // `|=` and `^=` (dp::atomic_max, dp::atomic_min, dp::atomic_or,
  // dp::atomic_xor).
  std::vector<double> highest(4, -1.0);
  std::vector<int> lowest(4, 1 << 20);
  std::vector<unsigned> flags(8, 0u);
  std::vector<long> parity(3, 0);
#pragma omp parallel for
  for (int j = 0; j < M * 50; ++j) {
    const double v = kept[j % M] * 0.25 - (j % 9);
#pragma omp critical
    if (v > highest[(j * 3) % 4])
      highest[(j * 3) % 4] = v;
#pragma omp atomic compare
    lowest[j % 4] = (j * 7) % 1000 < lowest[j % 4] ? (j * 7) % 1000 : lowest[j % 4];
#pragma omp atomic update
    flags[(j * 5) % 8] |= 1u << (j % 31);
#pragma omp atomic
    parity[j % 3] ^= (long)j * 40503;
  }
  printf("extremes %.17g %.17g %d %d %u %u %ld %ld\n", highest[0], highest[3], lowest[1], lowest[2], flags[0], flags[5],
         parity[0], parity[2]);
  // Tiles of a size the run computes (ParRes Kernels' transpose reads it
  // from the command line): steps the grid takes as written, up and down.
  const int tile = static_cast<int>(std::sqrt(static_cast<double>(flags[0] % 7 + 20)));
  std::vector<double> tiled(M * M, 0.0);
#pragma omp parallel for collapse(2)
  for (int it = 0; it < M; it += tile)
    for (int jt = 0; jt < M; jt += tile)
      for (int i = it; i < (M < it + tile ? M : it + tile); i++)
        for (int j = jt; j < (M < jt + tile ? M : jt + tile); j++)
          tiled[i * M + j] = kept[j] * (i + 1);
#pragma omp parallel for
  for (int k = M * M - 1; k >= 0; k -= 2 * tile - 1)
    tiled[k] += 0.5;
  double tiled_sum = 0;
  for (int k = 0; k < M * M; ++k)
    tiled_sum += tiled[k] * (k % 7);
  printf("tiles %d %.17g\n", tile, tiled_sum);
  Deck deck{std::vector<double>(M), std::vector<double>(M, -2.0)};
  for (int j = 0; j < M; ++j)
    deck.pos[j] = kept[j] * 0.5 - j;
  const double best = score(deck, deck, 0.25);
  printf("deck %.17g %.17g %.17g\n", best, deck.energy[1], deck.energy[M - 1]);
  delete[] tri;
  delete[] row;
  delete[] kept;
  return 0;
}
