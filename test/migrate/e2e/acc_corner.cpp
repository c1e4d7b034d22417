// An OpenACC wavefront in the style of ParRes Kernels' p2p: a data region
// holds the grid on the device, each anti-diagonal is a parallel loop,
// and a `kernels` region of one statement sets the corner for the next
// sweep, and another on queue 1 under an if() that holds, the edge.
// Migrated, each becomes a kernel of one point (the second on the
// queue, .when() its condition), so the grid stays on the device across
// sweeps: CTest migrate.region_costs.acc_corner asserts that none of the
// three moves it: only the region does, once each way.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 64, iterations = 5;
  double *grid = (double *)malloc(n * n * sizeof(double));
  for (int k = 0; k < n * n; k++)
    grid[k] = 0;
  for (int j = 0; j < n; j++)
    grid[0 * n + j] = j;
  for (int i = 0; i < n; i++)
    grid[i * n + 0] = i;
#pragma acc data copy(grid[0:n*n])
  {
    for (int iter = 0; iter < iterations; iter++) {
      for (int i = 2; i <= 2 * n - 2; i++) {
#pragma acc parallel loop
        for (int j = std::max(2, i - n + 2); j <= std::min(i, n); j++) {
          const int x = i - j + 1;
          const int y = j - 1;
          grid[x * n + y] = (grid[(x - 1) * n + y] + grid[x * n + (y - 1)] - grid[(x - 1) * n + (y - 1)]) * 0.5;
        }
      }
#pragma acc kernels
      {
        grid[0 * n + 0] = -grid[(n - 1) * n + (n - 1)];
      }
#pragma acc kernels async(1) if(n > 1)
      {
        grid[(n - 1) * n + 0] = grid[0 * n + 0] * 0.5;
      }
#pragma acc wait(1)
    }
  }
  double sum = 0;
  for (int k = 0; k < n * n; k++)
    sum += grid[k];
  printf("corner %.17g sum %.17g\n", grid[0], sum);
  free(grid);
  return 0;
}
